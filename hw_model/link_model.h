// hw_model/link_model.h — LinkFormat (packetization constants of one
// interconnect) and LinkModel (bytes on the wire, efficiency and time for a
// pattern of writes or reads over that interconnect).
//
// Covers PCIe Gen1-6 (Gen6 in flit mode), NVLink 1-5, NVLink through NVSwitch
// hops, and InfiniBand. Every format constant is a parameter so that unpublished
// formats (NVLink 3-5) can be fitted to GPU measurements. Equations and sources:
// docs/hw_model.md §1.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "common/result.h"
#include "hw_model/param_table.h"

namespace xferlab::hw_model {

enum class LinkFamily { kPcie, kNvlink, kInfiniband };

// LinkFormat: one link (PHY + packet format), per direction. Defaults are a
// PCIe Gen3 x16 link; builtin_link_format() gives the other interconnects.
struct LinkFormat {
  std::string name = "pcie3";             ///< identifier shown in tables ("nvlink2", "pcie5").
  LinkFamily family = LinkFamily::kPcie;  ///< protocol family (affects docs/validation only).
  // PHY.
  int64_t lanes = 16;                   ///< lanes per direction of one link.
  double lane_rate_bytes_per_s = 1e9;   ///< raw signalling rate of one lane (8 GT/s = 1 GB/s).
  int64_t encoding_payload_bits = 128;  ///< line code: payload bits per block (128b/130b).
  int64_t encoding_total_bits = 130;    ///< line code: total bits per block.
  double latency_ns = 500;              ///< one-way latency of one link (PHY + flight + DLL).
  int64_t switch_hops = 0;              ///< switches crossed between endpoints (NVSwitch):
                                        ///< the path is switch_hops + 1 links.
  double switch_latency_ns = 0;         ///< added latency per switch hop.
  // Packet (TLP / NVLink packet / IB packet), data direction.
  double max_payload_bytes = 256;       ///< largest payload per packet (PCIe MPS).
  double header_bytes = 24;             ///< per-packet overhead: framing+seq+header+CRC.
  double data_granule_bytes = 4;        ///< payload is padded to a multiple of this (DW, flit).
  double full_write_granule_bytes = 4;  ///< writes not a multiple of this are partial.
  double partial_write_bytes = 0;       ///< extra bytes for a partial write (byte-enable flit).
  double address_extension_bytes = 0;   ///< extra bytes per packet (NVLink AE flit), 0 = off.
  double message_extra_bytes = 0;       ///< extra bytes on the first packet of a message (IB RETH).
  // Flit framing (0 = none).
  double flit_bytes = 0;          ///< flit size; packets occupy whole flits unless shared.
  double flit_payload_bytes = 0;  ///< bytes of a flit that carry packet bytes (Gen6: 236 of 256).
  bool packets_share_flits = false;  ///< true: packets pack back to back into flits (PCIe Gen6).
  // Reads.
  double max_read_request_bytes = 512;  ///< largest read per request (PCIe MRRS).
  double read_request_bytes = 24;       ///< wire bytes of one read request packet.
  double read_completion_bytes = 128;   ///< completions are split at this boundary (RCB/MPS).
  double completion_header_bytes = 20;  ///< per-completion overhead (framing+3DW header+LCRC).
  // Reverse-direction link-layer traffic.
  double ack_bytes = 8;                 ///< bytes of one ACK (PCIe Ack DLLP + framing).
  double packets_per_ack = 4;           ///< data packets acknowledged per ACK (coalescing).
  double flow_control_bytes = 8;        ///< bytes of one flow-control credit update.
  double packets_per_flow_control = 8;  ///< data packets per credit update.
  // Issue rate.
  double max_packets_per_s = 0;  ///< packets/s one link accepts from a source; 0 = unlimited.
  // Added by calibration (docs/calibration.md); defaults leave the model unchanged.
  double link_efficiency = 1;     ///< share of the encoded rate left for packets (link-layer
                                  ///< CRC/replay/credit overhead not charged per packet).
  double partial_line_bytes = 0;  ///< target memory line; a scattered write not covering whole
                                  ///< lines is a partial-line write (host RMW); 0 = off.
  double partial_line_writes_per_s = 0;  ///< partial-line writes/s one link's target absorbs;
                                         ///< 0 = unlimited.

  Status validate() const;  ///< positive rates, payload ≥ granules, flit payload ≤ flit, ...
  static std::span<const Param<LinkFormat>> params();
};

// builtin_link_format: "pcie1".."pcie6", "nvlink1".."nvlink5", "nvswitch2"
// (NVLink2 through one NVSwitch, DGX-2), "nvswitch4" (NVLink4, HGX H100),
// "ib_edr", "ib_hdr", "ib_ndr". Unknown names get a did-you-mean error.
Result<LinkFormat> builtin_link_format(std::string_view name);

// builtin_link_format_names: every name builtin_link_format accepts.
const std::vector<std::string>& builtin_link_format_names();

enum class Pattern { kContiguous, kScattered };
enum class LinkOp { kWrite, kRead };

Result<Pattern> parse_pattern(std::string_view text);  ///< "contiguous" | "scattered".
Result<LinkOp> parse_link_op(std::string_view text);   ///< "write" | "read".
const char* pattern_name(Pattern pattern);
const char* link_op_name(LinkOp op);

// WireBytes: what a transfer puts on one link pair, line encoding included.
//   data_bytes:    direction the data flows (requester->target for writes,
//                  completer->requester for reads).
//   reverse_bytes: the other direction (ACKs, flow control, read requests).
struct WireBytes {
  double payload_bytes = 0;
  double packets = 0;  ///< packets in the data direction.
  double data_bytes = 0;
  double reverse_bytes = 0;
  double reverse_packets = 0;       ///< read requests (ACK/flow-control DLLPs not counted).
  double partial_line_packets = 0;  ///< writes that cover only part of a target line.

  WireBytes& operator+=(const WireBytes& other);
  double efficiency() const { return data_bytes > 0 ? payload_bytes / data_bytes : 0; }
};

// LinkBound: what limits the throughput of a pattern (kLatency: nothing sent).
enum class LinkBound { kLatency, kBytes, kPacketRate, kReverseBytes, kPartialLine };
// link_bound_name: "latency" | "bytes" | "rate" | "reverse" | "partial_line".
const char* link_bound_name(LinkBound bound);

// LinkTime: time to move a pattern, and what limited it.
struct LinkTime {
  double time_ns = 0;      ///< first byte sent -> last byte delivered (latency included).
  double transfer_ns = 0;  ///< time_ns without the one-way latency.
  LinkBound bound = LinkBound::kLatency;
};

// switched_path_latency_ns: one way, endpoint to endpoint, over a path that
// crosses `switch_hops` switches: a link into and out of each (switch_hops + 1
// links) plus each switch. The one definition of a GPU path's latency: the
// link model, the hardware sizing and the simulator's routes use it.
double switched_path_latency_ns(double link_latency_ns, int64_t switch_hops,
                                double switch_latency_ns);

// packet_payload_bytes: the payload per packet of a sender that cuts its data
// into packets of `packet_bytes` (an SM copy agent's line, a DMA agent's
// packet size) on a link of `max_payload_bytes`: capped at the max; 0 = the max.
double packet_payload_bytes(double packet_bytes, double max_payload_bytes);

// LinkModel: the equations of docs/hw_model.md §1 over one validated
// LinkFormat. All functions are const, deterministic and allocation-free.
// Sizes are assumed aligned to their own size (a 128-B write starts a line).
class LinkModel {
 public:
  // create: validates `format` first.
  static Result<LinkModel> create(const LinkFormat& format);

  const LinkFormat& format() const { return format_; }

  // raw_bandwidth_bytes_per_s: signalling rate of one link per direction
  // (before line encoding); wire bytes below already include encoding.
  double raw_bandwidth_bytes_per_s() const { return raw_bw_bytes_per_s_; }
  // payload_bandwidth_bytes_per_s: best-case goodput of one link (full-size writes).
  double payload_bandwidth_bytes_per_s() const;

  // packet_wire_bytes: one data-direction packet carrying `payload_bytes`
  // (≤ max payload), partial or not; flit padding and encoding included.
  double packet_wire_bytes(double payload_bytes, bool partial) const;

  // write: one write of `size_bytes` (split at max payload). size 0 -> zeros.
  WireBytes write(double size_bytes) const;
  // writes: `count` writes of `size_bytes`; contiguous ones are merged by the
  // source into max-payload packets, scattered ones travel separately.
  WireBytes writes(double count, double size_bytes, Pattern pattern) const;
  // stores: `count` packets of `size_bytes` each as produced by the SM's write
  // coalescer (never merged or split further), with the given partial flag.
  WireBytes stores(double count, double size_bytes, bool partial) const;
  // packets: `count` messages of `size_bytes`, each cut by its sender into
  // packets of packet_payload_bytes(packet_bytes) (SM copy agents: one line
  // per warp store; DMA agents: their packet size): the full packets plus the
  // remainder, partial when not a whole number of write granules. A packet
  // size of the max payload (or 0) is writes(count, size, kScattered).
  WireBytes packets(double count, double size_bytes, double packet_bytes) const;
  // packet_payload_bytes: a sender's packet payload: `packet_bytes` capped
  // at the max payload; 0 = the max payload.
  double packet_payload_bytes(double packet_bytes) const {
    return xferlab::hw_model::packet_payload_bytes(packet_bytes, format_.max_payload_bytes);
  }
  // read / reads: request packets forward, completions back.
  WireBytes read(double size_bytes) const;
  WireBytes reads(double count, double size_bytes, Pattern pattern) const;
  // transfer: writes() or reads().
  WireBytes transfer(LinkOp op, double count, double size_bytes, Pattern pattern) const;

  // efficiency: payload / data-direction wire bytes of one write (or read) of
  // `size_bytes` (0 for size 0).
  double efficiency(double size_bytes, LinkOp op = LinkOp::kWrite) const;

  // time: moving `wire` over `links` parallel links (bytes and packets spread
  // evenly): latency + max(bytes / bandwidth, packets / packet rate, reverse,
  // partial-line writes / partial-line rate).
  LinkTime time(const WireBytes& wire, int64_t links = 1) const;

  // one_way_latency_ns: endpoint to endpoint, switched_path_latency_ns.
  double one_way_latency_ns() const { return latency_ns_; }

 private:
  explicit LinkModel(const LinkFormat& format);
  double reverse_bytes_for(double packets) const;

  LinkFormat format_;
  double encoding_factor_ = 1;  // total bits / payload bits / link efficiency
  double raw_bw_bytes_per_s_ = 0;
  double latency_ns_ = 0;
  double flit_factor_ = 1;             // flit bytes / flit payload bytes when packets share flits
  double full_packet_wire_bytes_ = 0;  // one max-payload packet
};

}  // namespace xferlab::hw_model
