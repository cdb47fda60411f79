// hw_model/link_model.cc — interconnect packetization (docs/hw_model.md §1).
#include "hw_model/link_model.h"

#include <algorithm>
#include <cmath>

namespace xferlab::hw_model {
namespace {

constexpr EnumName<LinkFamily> kFamilyNames[] = {{LinkFamily::kPcie, "pcie"},
                                                 {LinkFamily::kNvlink, "nvlink"},
                                                 {LinkFamily::kInfiniband, "infiniband"}};
constexpr EnumName<Pattern> kPatternNames[] = {{Pattern::kContiguous, "contiguous"},
                                               {Pattern::kScattered, "scattered"}};
constexpr EnumName<LinkOp> kOpNames[] = {{LinkOp::kWrite, "write"}, {LinkOp::kRead, "read"}};

using F = LinkFormat;
const Param<F> kLinkParams[] = {
    {"family", Unit::kNone, "protocol family",
     enum_field<F, LinkFamily, &F::family, kFamilyNames>()},
    {"lanes", Unit::kNone, "lanes per direction of one link", &F::lanes, {1, 64}},
    {"lane_rate",
     Unit::kBandwidthBytesPerS,
     "raw signalling rate of one lane (before line encoding)",
     &F::lane_rate_bytes_per_s,
     {1e6, 1e12}},
    {"encoding_payload_bits", Unit::kNone, "line code: payload bits per block",
     &F::encoding_payload_bits},
    {"encoding_total_bits", Unit::kNone, "line code: total bits per block",
     &F::encoding_total_bits},
    {"latency", Unit::kTimeNs, "one-way latency of the link", &F::latency_ns, {1, 1e7}},
    {"switch_hops", Unit::kNone, "switches crossed between endpoints", &F::switch_hops, {0, 16}},
    {"switch_latency",
     Unit::kTimeNs,
     "latency added per switch hop",
     &F::switch_latency_ns,
     {0, 1e6}},
    {"max_payload",
     Unit::kSizeBytes,
     "largest payload per packet",
     &F::max_payload_bytes,
     {1, 1e6}},
    {"header", Unit::kSizeBytes, "per-packet overhead (framing, sequence, header, CRC)",
     &F::header_bytes},
    {"data_granule", Unit::kSizeBytes, "payload padded to a multiple of this",
     &F::data_granule_bytes},
    {"full_write_granule", Unit::kSizeBytes,
     "writes whose size is not a multiple of this are partial", &F::full_write_granule_bytes},
    {"partial_write_extra", Unit::kSizeBytes, "extra bytes of a partial write (byte enables)",
     &F::partial_write_bytes},
    {"address_extension", Unit::kSizeBytes, "extra bytes per packet (address extension)",
     &F::address_extension_bytes},
    {"message_extra", Unit::kSizeBytes, "extra bytes on the first packet of a message",
     &F::message_extra_bytes},
    {"flit", Unit::kSizeBytes, "flit size (0 = no flits)", &F::flit_bytes},
    {"flit_payload", Unit::kSizeBytes, "bytes of a flit that carry packet bytes",
     &F::flit_payload_bytes},
    {"packets_share_flits", Unit::kNone, "packets pack back to back into flits",
     &F::packets_share_flits},
    {"max_read_request", Unit::kSizeBytes, "largest read per request", &F::max_read_request_bytes},
    {"read_request", Unit::kSizeBytes, "wire bytes of one read request", &F::read_request_bytes},
    {"read_completion", Unit::kSizeBytes, "completions are split at this size",
     &F::read_completion_bytes},
    {"completion_header", Unit::kSizeBytes, "per-completion overhead", &F::completion_header_bytes},
    {"ack", Unit::kSizeBytes, "bytes of one ACK (reverse direction)", &F::ack_bytes},
    {"packets_per_ack", Unit::kNone, "data packets acknowledged per ACK", &F::packets_per_ack},
    {"flow_control", Unit::kSizeBytes, "bytes of one flow-control update (reverse direction)",
     &F::flow_control_bytes},
    {"packets_per_flow_control", Unit::kNone, "data packets per flow-control update",
     &F::packets_per_flow_control},
    {"max_packet_rate", Unit::kRatePerS, "packets/s one link accepts (0 = unlimited)",
     &F::max_packets_per_s},
    {"link_efficiency", Unit::kNone,
     "share of the encoded rate left for packets (link-layer overhead not charged per packet)",
     &F::link_efficiency},
    {"partial_line", Unit::kSizeBytes,
     "target memory line: scattered writes not covering whole lines are partial (0 = off)",
     &F::partial_line_bytes},
    {"partial_line_write_rate", Unit::kRatePerS,
     "partial-line writes/s one link's target absorbs (0 = unlimited)",
     &F::partial_line_writes_per_s},
};

double ceil_div(double a, double b) {
  return std::ceil(a / b);
}

// PCIe Gen1-5: 4-DW header TLP (framing/sequence 4 + header 16 + LCRC 4), byte
// enables in the header, Ack/UpdateFC DLLPs of 8 B on the reverse direction.
LinkFormat pcie(const char* name, double lane_rate_bytes_per_s, int64_t payload_bits,
                int64_t total_bits) {
  LinkFormat f;  // Defaults are the PCIe TLP format.
  f.name = name;
  f.lane_rate_bytes_per_s = lane_rate_bytes_per_s;
  f.encoding_payload_bits = payload_bits;
  f.encoding_total_bits = total_bits;
  return f;
}

// PCIe Gen6 flit mode: 256-B flits (236 B TLP, 6 B DLP, 8 B CRC, 6 B FEC);
// no per-TLP framing or LCRC; ACK and credits ride in the DLP bytes.
LinkFormat pcie6() {
  LinkFormat f = pcie("pcie6", 8e9, 1, 1);
  f.header_bytes = 16;
  f.flit_bytes = 256;
  f.flit_payload_bytes = 236;
  f.packets_share_flits = true;
  f.read_request_bytes = 16;
  f.completion_header_bytes = 12;
  f.ack_bytes = 0;
  f.flow_control_bytes = 0;
  return f;
}

// NVLink: 16-B flits; one header flit per packet, a byte-enable flit for
// partial writes, payload in whole flits, up to 256 B per packet. The quoted
// per-link rate is taken as the raw rate (no separate line code) [U].
LinkFormat nvlink(const char* name, int64_t lanes, double lane_rate_bytes_per_s) {
  LinkFormat f;
  f.name = name;
  f.family = LinkFamily::kNvlink;
  f.lanes = lanes;
  f.lane_rate_bytes_per_s = lane_rate_bytes_per_s;
  f.encoding_payload_bits = 1;
  f.encoding_total_bits = 1;
  f.latency_ns = 700;
  f.max_payload_bytes = 256;
  f.header_bytes = 16;
  f.data_granule_bytes = 16;
  f.full_write_granule_bytes = 32;
  f.partial_write_bytes = 16;
  f.flit_bytes = 16;
  f.flit_payload_bytes = 16;
  f.max_read_request_bytes = 256;
  f.read_request_bytes = 16;
  f.read_completion_bytes = 256;
  f.completion_header_bytes = 16;
  f.ack_bytes = 0;  // ACKs and credits ride in header flits [U].
  f.flow_control_bytes = 0;
  return f;
}

LinkFormat nvswitch(const char* name, LinkFormat base) {
  base.name = name;
  base.switch_hops = 1;
  base.switch_latency_ns = 250;  // [U] to be fitted.
  return base;
}

// InfiniBand RDMA write: LRH 8 + BTH 12 + ICRC 4 + VCRC 2 per packet, RETH 16
// on a message's first packet, 4-byte padding, 64b/66b line code.
LinkFormat infiniband(const char* name, double lane_rate_bytes_per_s, double packets_per_s) {
  LinkFormat f;
  f.name = name;
  f.family = LinkFamily::kInfiniband;
  f.lanes = 4;
  f.lane_rate_bytes_per_s = lane_rate_bytes_per_s;
  f.encoding_payload_bits = 64;
  f.encoding_total_bits = 66;
  f.latency_ns = 1000;
  f.max_payload_bytes = 4096;
  f.header_bytes = 26;
  f.data_granule_bytes = 4;
  f.full_write_granule_bytes = 1;
  f.message_extra_bytes = 16;
  f.max_read_request_bytes = 1073741824.0;
  f.read_request_bytes = 42;
  f.read_completion_bytes = 4096;
  f.completion_header_bytes = 30;
  f.ack_bytes = 30;
  f.packets_per_ack = 16;
  f.flow_control_bytes = 8;
  f.packets_per_flow_control = 16;
  f.max_packets_per_s = packets_per_s;
  return f;
}

const std::vector<LinkFormat>& builtins() {
  static const std::vector<LinkFormat> kAll = [] {
    LinkFormat nv2 = nvlink("nvlink2", 8, 3.125e9);
    LinkFormat nv4 = nvlink("nvlink4", 2, 12.5e9);
    return std::vector<LinkFormat>{
        pcie("pcie1", 0.3125e9, 8, 10),
        pcie("pcie2", 0.625e9, 8, 10),
        pcie("pcie3", 1e9, 128, 130),
        pcie("pcie4", 2e9, 128, 130),
        pcie("pcie5", 4e9, 128, 130),
        pcie6(),
        nvlink("nvlink1", 8, 2.5e9),
        nv2,
        nvlink("nvlink3", 4, 6.25e9),
        nv4,
        nvlink("nvlink5", 2, 25e9),
        nvswitch("nvswitch2", nv2),
        nvswitch("nvswitch4", nv4),
        infiniband("ib_edr", 25.78125e9 / 8, 200e6),
        infiniband("ib_hdr", 53.125e9 / 8, 215e6),
        infiniband("ib_ndr", 106.25e9 / 8, 330e6),
    };
  }();
  return kAll;
}

Status positive(const char* key, double value) {
  if (value > 0 && std::isfinite(value)) return Status::Ok();
  return make_error(std::string("key '") + key + "': must be > 0");
}
Status non_negative(const char* key, double value) {
  if (value >= 0 && std::isfinite(value)) return Status::Ok();
  return make_error(std::string("key '") + key + "': must be >= 0");
}

}  // namespace

std::span<const Param<LinkFormat>> LinkFormat::params() {
  return kLinkParams;
}

Status LinkFormat::validate() const {
  XF_RETURN_IF_ERROR(positive("lanes", static_cast<double>(lanes)));
  XF_RETURN_IF_ERROR(positive("lane_rate", lane_rate_bytes_per_s));
  XF_RETURN_IF_ERROR(positive("encoding_payload_bits", static_cast<double>(encoding_payload_bits)));
  XF_RETURN_IF_ERROR(positive("encoding_total_bits", static_cast<double>(encoding_total_bits)));
  if (encoding_total_bits < encoding_payload_bits)
    return make_error("key 'encoding_total_bits': smaller than encoding_payload_bits");
  XF_RETURN_IF_ERROR(non_negative("latency", latency_ns));
  XF_RETURN_IF_ERROR(non_negative("switch_hops", static_cast<double>(switch_hops)));
  XF_RETURN_IF_ERROR(non_negative("switch_latency", switch_latency_ns));
  XF_RETURN_IF_ERROR(positive("max_payload", max_payload_bytes));
  XF_RETURN_IF_ERROR(non_negative("header", header_bytes));
  XF_RETURN_IF_ERROR(positive("data_granule", data_granule_bytes));
  XF_RETURN_IF_ERROR(positive("full_write_granule", full_write_granule_bytes));
  XF_RETURN_IF_ERROR(non_negative("partial_write_extra", partial_write_bytes));
  XF_RETURN_IF_ERROR(non_negative("address_extension", address_extension_bytes));
  XF_RETURN_IF_ERROR(non_negative("message_extra", message_extra_bytes));
  XF_RETURN_IF_ERROR(non_negative("flit", flit_bytes));
  XF_RETURN_IF_ERROR(non_negative("flit_payload", flit_payload_bytes));
  XF_RETURN_IF_ERROR(positive("max_read_request", max_read_request_bytes));
  XF_RETURN_IF_ERROR(positive("read_request", read_request_bytes));
  XF_RETURN_IF_ERROR(positive("read_completion", read_completion_bytes));
  XF_RETURN_IF_ERROR(non_negative("completion_header", completion_header_bytes));
  XF_RETURN_IF_ERROR(non_negative("ack", ack_bytes));
  XF_RETURN_IF_ERROR(positive("packets_per_ack", packets_per_ack));
  XF_RETURN_IF_ERROR(non_negative("flow_control", flow_control_bytes));
  XF_RETURN_IF_ERROR(positive("packets_per_flow_control", packets_per_flow_control));
  XF_RETURN_IF_ERROR(non_negative("max_packet_rate", max_packets_per_s));
  if (!(link_efficiency > 0 && link_efficiency <= 1))
    return make_error("key 'link_efficiency': must be > 0 and <= 1");
  XF_RETURN_IF_ERROR(non_negative("partial_line", partial_line_bytes));
  XF_RETURN_IF_ERROR(non_negative("partial_line_write_rate", partial_line_writes_per_s));
  if (max_payload_bytes < data_granule_bytes)
    return make_error("key 'max_payload': smaller than data_granule");
  if (std::fmod(max_payload_bytes, data_granule_bytes) != 0)
    return make_error("key 'max_payload': not a multiple of data_granule");
  if (flit_bytes > 0) {
    if (flit_payload_bytes <= 0 || flit_payload_bytes > flit_bytes)
      return make_error("key 'flit_payload': must be > 0 and <= flit");
  } else if (flit_payload_bytes > 0 || packets_share_flits) {
    return make_error("key 'flit': flit_payload/packets_share_flits set but flit is 0");
  }
  return Status::Ok();
}

Result<LinkFormat> builtin_link_format(std::string_view name) {
  for (const LinkFormat& f : builtins())
    if (f.name == name) return f;
  return make_error("unknown interconnect '" + std::string(name) + "'" +
                    did_you_mean(name, builtin_link_format_names()));
}

const std::vector<std::string>& builtin_link_format_names() {
  static const std::vector<std::string> kNames = [] {
    std::vector<std::string> names;
    for (const LinkFormat& f : builtins()) names.push_back(f.name);
    return names;
  }();
  return kNames;
}

Result<Pattern> parse_pattern(std::string_view text) {
  return parse_enum(kPatternNames, text, "--pattern");
}
Result<LinkOp> parse_link_op(std::string_view text) {
  return parse_enum(kOpNames, text, "--op");
}
const char* pattern_name(Pattern pattern) {
  return enum_name(kPatternNames, pattern);
}
const char* link_op_name(LinkOp op) {
  return enum_name(kOpNames, op);
}

const char* link_bound_name(LinkBound bound) {
  switch (bound) {
    case LinkBound::kLatency: return "latency";
    case LinkBound::kBytes: return "bytes";
    case LinkBound::kPacketRate: return "rate";
    case LinkBound::kReverseBytes: return "reverse";
    case LinkBound::kPartialLine: return "partial_line";
  }
  return "?";
}

WireBytes& WireBytes::operator+=(const WireBytes& other) {
  payload_bytes += other.payload_bytes;
  packets += other.packets;
  data_bytes += other.data_bytes;
  reverse_bytes += other.reverse_bytes;
  reverse_packets += other.reverse_packets;
  partial_line_packets += other.partial_line_packets;
  return *this;
}

Result<LinkModel> LinkModel::create(const LinkFormat& format) {
  Status status = format.validate();
  if (!status.ok()) return status.error();
  return LinkModel(format);
}

LinkModel::LinkModel(const LinkFormat& format) : format_(format) {
  encoding_factor_ = static_cast<double>(format.encoding_total_bits) /
                     static_cast<double>(format.encoding_payload_bits) / format.link_efficiency;
  raw_bw_bytes_per_s_ = static_cast<double>(format.lanes) * format.lane_rate_bytes_per_s;
  latency_ns_ =
      switched_path_latency_ns(format.latency_ns, format.switch_hops, format.switch_latency_ns);
  flit_factor_ = format.packets_share_flits ? format.flit_bytes / format.flit_payload_bytes : 1;
  full_packet_wire_bytes_ =
      packet_wire_bytes(format.max_payload_bytes,
                        std::fmod(format.max_payload_bytes, format.full_write_granule_bytes) != 0);
}

double LinkModel::payload_bandwidth_bytes_per_s() const {
  return raw_bw_bytes_per_s_ * format_.max_payload_bytes / full_packet_wire_bytes_;
}

// Bytes of one packet whose header + payload (+ extras) is `packet_bytes`:
// whole flits (unshared) or the flit overhead share (shared), then line code.
double LinkModel::packet_wire_bytes(double payload_bytes, bool partial) const {
  double bytes = format_.header_bytes + format_.address_extension_bytes +
                 ceil_div(payload_bytes, format_.data_granule_bytes) * format_.data_granule_bytes +
                 (partial ? format_.partial_write_bytes : 0);
  if (format_.flit_bytes > 0 && !format_.packets_share_flits)
    bytes = ceil_div(bytes, format_.flit_payload_bytes) * format_.flit_bytes;
  return bytes * flit_factor_ * encoding_factor_;
}

double LinkModel::reverse_bytes_for(double packets) const {
  return (packets / format_.packets_per_ack * format_.ack_bytes +
          packets / format_.packets_per_flow_control * format_.flow_control_bytes) *
         encoding_factor_;
}

double switched_path_latency_ns(double link_latency_ns, int64_t switch_hops,
                                double switch_latency_ns) {
  const double hops = static_cast<double>(switch_hops);
  return (hops + 1) * link_latency_ns + hops * switch_latency_ns;
}

double packet_payload_bytes(double packet_bytes, double max_payload_bytes) {
  return packet_bytes > 0 ? std::min(packet_bytes, max_payload_bytes) : max_payload_bytes;
}

WireBytes LinkModel::write(double size_bytes) const {
  WireBytes w;
  if (size_bytes <= 0) return w;
  const double max = format_.max_payload_bytes;
  double full = std::floor(size_bytes / max);
  double rest = size_bytes - full * max;
  w.payload_bytes = size_bytes;
  w.packets = full + (rest > 0 ? 1 : 0);
  w.data_bytes = full * full_packet_wire_bytes_;
  if (rest > 0)
    w.data_bytes += packet_wire_bytes(rest, std::fmod(rest, format_.full_write_granule_bytes) != 0);
  w.data_bytes += format_.message_extra_bytes * flit_factor_ * encoding_factor_;
  w.reverse_bytes = reverse_bytes_for(w.packets);
  const double line = format_.partial_line_bytes;
  if (line > 0 && std::fmod(size_bytes, line) != 0) w.partial_line_packets = 1;
  return w;
}

namespace {
WireBytes scale(WireBytes w, double count) {
  w.payload_bytes *= count;
  w.packets *= count;
  w.data_bytes *= count;
  w.reverse_bytes *= count;
  w.reverse_packets *= count;
  w.partial_line_packets *= count;
  return w;
}
}  // namespace

WireBytes LinkModel::writes(double count, double size_bytes, Pattern pattern) const {
  if (count <= 0 || size_bytes <= 0) return WireBytes{};
  if (pattern == Pattern::kContiguous) return write(count * size_bytes);
  return scale(write(size_bytes), count);
}

WireBytes LinkModel::stores(double count, double size_bytes, bool partial) const {
  WireBytes w;
  if (count <= 0 || size_bytes <= 0) return w;
  w.payload_bytes = count * size_bytes;
  w.packets = count;
  w.data_bytes = count * packet_wire_bytes(size_bytes, partial);
  w.reverse_bytes = reverse_bytes_for(count);
  return w;
}

WireBytes LinkModel::packets(double count, double size_bytes, double packet_bytes) const {
  const double packet = packet_payload_bytes(packet_bytes);
  if (packet >= format_.max_payload_bytes) return writes(count, size_bytes, Pattern::kScattered);
  const double full = std::floor(size_bytes / packet);
  const double rest = size_bytes - full * packet;
  const double granule = format_.full_write_granule_bytes;
  WireBytes w = stores(full * count, packet, std::fmod(packet, granule) != 0);
  w += stores(rest > 0 ? count : 0, rest, std::fmod(rest, granule) != 0);
  return w;
}

WireBytes LinkModel::read(double size_bytes) const {
  WireBytes w;
  if (size_bytes <= 0) return w;
  const double completion = format_.read_completion_bytes;
  double requests = ceil_div(size_bytes, format_.max_read_request_bytes);
  double full = std::floor(size_bytes / completion);
  double rest = size_bytes - full * completion;
  auto completion_bytes = [&](double payload) {
    double bytes = format_.completion_header_bytes +
                   ceil_div(payload, format_.data_granule_bytes) * format_.data_granule_bytes;
    if (format_.flit_bytes > 0 && !format_.packets_share_flits)
      bytes = ceil_div(bytes, format_.flit_payload_bytes) * format_.flit_bytes;
    return bytes * flit_factor_ * encoding_factor_;
  };
  w.payload_bytes = size_bytes;
  w.packets = full + (rest > 0 ? 1 : 0);
  w.data_bytes = full * completion_bytes(completion) + (rest > 0 ? completion_bytes(rest) : 0);
  double request_bytes = format_.read_request_bytes + format_.address_extension_bytes;
  if (format_.flit_bytes > 0 && !format_.packets_share_flits)
    request_bytes = ceil_div(request_bytes, format_.flit_payload_bytes) * format_.flit_bytes;
  w.reverse_packets = requests;
  // Requests travel against the data; the completions' ACKs travel with them.
  w.reverse_bytes =
      requests * request_bytes * flit_factor_ * encoding_factor_ + reverse_bytes_for(w.packets);
  return w;
}

WireBytes LinkModel::reads(double count, double size_bytes, Pattern pattern) const {
  if (count <= 0 || size_bytes <= 0) return WireBytes{};
  if (pattern == Pattern::kContiguous) return read(count * size_bytes);
  return scale(read(size_bytes), count);
}

WireBytes LinkModel::transfer(LinkOp op, double count, double size_bytes, Pattern pattern) const {
  return op == LinkOp::kWrite ? writes(count, size_bytes, pattern)
                              : reads(count, size_bytes, pattern);
}

double LinkModel::efficiency(double size_bytes, LinkOp op) const {
  return (op == LinkOp::kWrite ? write(size_bytes) : read(size_bytes)).efficiency();
}

LinkTime LinkModel::time(const WireBytes& wire, int64_t links) const {
  LinkTime t;
  if (wire.packets <= 0) {
    t.time_ns = wire.payload_bytes > 0 ? latency_ns_ : 0;
    return t;
  }
  double n = static_cast<double>(std::max<int64_t>(1, links));
  double bw = raw_bw_bytes_per_s_ * n;
  double bytes_ns = wire.data_bytes / bw * 1e9;
  double reverse_ns = wire.reverse_bytes / bw * 1e9;
  double rate_ns = format_.max_packets_per_s > 0 ? std::max(wire.packets, wire.reverse_packets) /
                                                       (format_.max_packets_per_s * n) * 1e9
                                                 : 0;
  t.transfer_ns = bytes_ns;
  t.bound = LinkBound::kBytes;
  if (rate_ns > t.transfer_ns) {
    t.transfer_ns = rate_ns;
    t.bound = LinkBound::kPacketRate;
  }
  if (reverse_ns > t.transfer_ns) {
    t.transfer_ns = reverse_ns;
    t.bound = LinkBound::kReverseBytes;
  }
  if (format_.partial_line_writes_per_s > 0) {
    double partial_ns = wire.partial_line_packets / (format_.partial_line_writes_per_s * n) * 1e9;
    if (partial_ns > t.transfer_ns) {
      t.transfer_ns = partial_ns;
      t.bound = LinkBound::kPartialLine;
    }
  }
  t.time_ns = latency_ns_ + t.transfer_ns;
  return t;
}

}  // namespace xferlab::hw_model
