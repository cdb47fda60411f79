// traces/reader.cc — TraceReader: checks every size against the file and
// fixed limits before using it, so corrupt input yields one-line errors.
#include "traces/reader.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "traces/block_codec.h"
#include "traces/checksum.h"
#include "traces/event_names.h"
#include "traces/file_format.h"

namespace xferlab::traces {

struct ZstdContext {
  ZSTD_DCtx* ctx = ZSTD_createDCtx();
  ~ZstdContext() { ZSTD_freeDCtx(ctx); }
};

namespace {

std::string str(uint64_t v) {
  return std::to_string(v);
}

std::string hex(uint64_t v) {
  static const char kHex[] = "0123456789abcdef";
  std::string out = "0x";
  for (int shift = 60; shift >= 0; shift -= 4) out += kHex[(v >> shift) & 15];
  return out;
}

std::string magic_text(const char* m) {
  std::string out;
  for (int i = 0; i < 8; ++i) {
    unsigned char c = static_cast<unsigned char>(m[i]);
    if (c >= 32 && c < 127) {
      out += char(c);
    } else {
      static const char kHex[] = "0123456789abcdef";
      out += "\\x";
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  return out;
}

// Whole-file zstd (e.g. `zstd run.xft` -> run.xft.zst) starts with this frame
// magic; such files are decompressed once into memory so that every reader
// feature (random access included) works on them.
constexpr unsigned char kZstdFrameMagic[4] = {0x28, 0xb5, 0x2f, 0xfd};
// Refuse to inflate beyond this: a corrupt or hostile frame cannot fill memory.
constexpr uint64_t kMaxInflatedBytes = uint64_t{64} << 30;
// Memory reserved up front from the frame's declared size, at most this
// (the declaration is the file's word, not checked yet).
constexpr uint64_t kMaxReserveBytes = uint64_t{256} << 20;

// read_file: every byte of the file open as `fd`.
Result<std::string> read_file(int fd, const struct stat& st, const std::string& path) {
  std::string bytes(size_t(st.st_size), '\0');
  uint64_t got = 0;
  for (;;) {
    if (got == bytes.size()) bytes.resize(bytes.size() + ZSTD_DStreamInSize());  // grew
    const ssize_t n = ::pread(fd, bytes.data() + got, bytes.size() - got, off_t(got));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return make_error(path + ": read error: " + std::strerror(errno));
    if (n == 0) break;
    got += uint64_t(n);
  }
  bytes.resize(size_t(got));
  return bytes;
}

// inflate_zstd: the zstd stream `packed` decompressed, fed to zstd in the
// same steps as it was read from the file before (error positions alike).
Result<std::string> inflate_zstd(std::string_view packed, const std::string& path) {
  auto fail = [&](std::string message) {
    return Result<std::string>(make_error(path + ": " + message));
  };
  std::unique_ptr<ZSTD_DStream, size_t (*)(ZSTD_DStream*)> ds(ZSTD_createDStream(),
                                                              ZSTD_freeDStream);
  if (!ds) return fail("cannot create zstd stream");
  std::string out;
  const unsigned long long declared = ZSTD_getFrameContentSize(packed.data(), packed.size());
  if (declared <= kMaxReserveBytes) out.reserve(size_t(declared));
  const size_t step = ZSTD_DStreamInSize();
  size_t last = 1;
  for (uint64_t in_total = 0; in_total < packed.size(); in_total += step) {
    ZSTD_inBuffer ib{packed.data() + in_total, std::min<size_t>(step, packed.size() - in_total), 0};
    while (ib.pos < ib.size) {
      // Room for one output block (the string's capacity grows geometrically).
      const size_t used = out.size();
      out.resize(used + ZSTD_DStreamOutSize());
      ZSTD_outBuffer ob{out.data() + used, out.size() - used, 0};
      last = ZSTD_decompressStream(ds.get(), &ob, &ib);
      out.resize(used + ob.pos);
      if (ZSTD_isError(last)) {
        return fail(std::string("zstd: ") + ZSTD_getErrorName(last) + " near compressed byte " +
                    std::to_string(in_total + ib.pos));
      }
      if (out.size() > kMaxInflatedBytes) return fail("zstd: decompresses to more than 64 GiB");
    }
  }
  if (last != 0)
    return fail("truncated zstd stream at compressed byte " + std::to_string(packed.size()));
  return out;
}

// inflated_file: the decompressed bytes of the zstd file open as `fd`. A
// process may open a trace more than once (a halo replay: the halo check,
// then its own reader; --timeline; a sweep's points): the last file this
// thread inflated is kept with its compressed bytes and reused when a file
// holds the same bytes, which decompress to the same bytes (no decision on
// names or times).
Result<std::shared_ptr<const std::string>> inflated_file(int fd, const struct stat& st,
                                                         const std::string& path) {
  struct Inflated {
    std::string packed;
    std::shared_ptr<const std::string> bytes;
  };
  thread_local Inflated last;
  Result<std::string> packed = read_file(fd, st, path);
  if (!packed.ok()) return packed.error();
  if (last.bytes && last.packed == *packed) return last.bytes;
  last = Inflated{};  // one inflated file held at a time
  Result<std::string> bytes = inflate_zstd(*packed, path);
  if (!bytes.ok()) return bytes.error();
  last = Inflated{std::move(*packed), std::make_shared<const std::string>(std::move(*bytes))};
  return last.bytes;
}

}  // namespace

std::optional<std::string> lost_events_note(const Metadata& m) {
  auto number = [&](const char* key) -> uint64_t {
    std::optional<std::string> v = m.parameter(key);
    return v ? std::strtoull(v->c_str(), nullptr, 10) : 0;
  };
  const uint64_t lost = number("lost_events");
  if (lost == 0) return std::nullopt;
  uint64_t needed = number("needed_capacity_events");
  if (needed == 0) needed = number("device_capacity_events") + lost;
  const std::string flag = m.parameter("capacity_flag").value_or("--trace-capacity");
  return "the trace lost " + str(lost) + " events; re-record with " + flag + " >= " + str(needed);
}

TraceReader::FileDescriptor::FileDescriptor(FileDescriptor&& other) noexcept
    : fd_(std::exchange(other.fd_, -1)) {}

TraceReader::FileDescriptor& TraceReader::FileDescriptor::operator=(
    FileDescriptor&& other) noexcept {
  if (this != &other) reset(std::exchange(other.fd_, -1));
  return *this;
}

TraceReader::FileDescriptor::~FileDescriptor() {
  reset();
}

void TraceReader::FileDescriptor::reset(int fd) {
  if (fd_ >= 0) ::close(fd_);
  fd_ = fd;
}

// Defined here, where ZstdContext is complete.
TraceReader::TraceReader(TraceReader&&) noexcept = default;
TraceReader& TraceReader::operator=(TraceReader&&) noexcept = default;
TraceReader::~TraceReader() = default;

Error TraceReader::error_at(uint64_t offset, const std::string& problem) const {
  return make_error(path_ + ": byte offset " + str(offset) + ": " + problem);
}

Status TraceReader::read_exact(uint64_t offset, void* data, size_t size, const char* what) {
  if (offset > file_bytes_ || size > file_bytes_ - offset) {
    return error_at(offset, std::string("truncated: ") + what + " needs " + str(size) +
                                " bytes but the file ends at " + str(file_bytes_));
  }
  if (inflated_) {
    std::memcpy(data, inflated_->data() + offset, size);
    return Status::Ok();
  }
  char* p = static_cast<char*>(data);
  while (size > 0) {
    ssize_t got = ::pread(fd_.get(), p, size, off_t(offset));
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) {
      return make_runtime_error(path_ + ": byte offset " + str(offset) + ": reading " + what +
                                " failed: " + (got < 0 ? std::strerror(errno) : "end of file"));
    }
    p += got;
    offset += uint64_t(got);
    size -= size_t(got);
  }
  return Status::Ok();
}

Result<TraceReader> TraceReader::open(const std::string& path, const ReaderOptions& options) {
  TraceReader r;
  r.path_ = path;
  r.options_ = options;
  r.fd_.reset(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (r.fd_.get() < 0) return make_error(path + ": cannot open: " + std::strerror(errno));
  struct stat st {};
  if (::fstat(r.fd_.get(), &st) != 0)
    return make_error(path + ": cannot stat: " + std::strerror(errno));
  if (!S_ISREG(st.st_mode)) return make_error(path + ": not a regular file");
  r.file_bytes_ = uint64_t(st.st_size);
  unsigned char magic[4] = {};
  if (r.file_bytes_ >= sizeof magic &&
      ::pread(r.fd_.get(), magic, sizeof magic, 0) == ssize_t(sizeof magic) &&
      std::memcmp(magic, kZstdFrameMagic, sizeof magic) == 0) {
    Result<std::shared_ptr<const std::string>> inflated = inflated_file(r.fd_.get(), st, path);
    if (!inflated.ok()) return inflated.error();
    r.inflated_ = std::move(*inflated);
    r.fd_.reset();
    r.file_bytes_ = r.inflated_->size();
  }
  r.zstd_ = std::make_unique<ZstdContext>();
  if (r.zstd_->ctx == nullptr) return make_runtime_error(path + ": cannot create zstd context");
  XF_RETURN_IF_ERROR(r.read_header());
  XF_RETURN_IF_ERROR(r.read_footer_and_index());
  if (std::optional<std::string> lost = lost_events_note(*r.metadata_))
    r.warnings_.push_back(path + ": " + *lost);
  XF_RETURN_IF_ERROR(r.seek_event(0));
  return r;
}

Status TraceReader::read_header() {
  format::FileHeader h{};
  if (file_bytes_ < sizeof(h)) {
    return error_at(0, "truncated: " + str(file_bytes_) + " bytes is shorter than the " +
                           str(sizeof(h)) + "-byte file header");
  }
  XF_RETURN_IF_ERROR(read_exact(0, &h, sizeof(h), "file header"));
  if (std::memcmp(h.magic, format::kMagic, sizeof(h.magic)) != 0) {
    return error_at(
        0, "not an xferlab trace: magic \"" + magic_text(h.magic) + "\", expected \"XFLTRACE\"");
  }
  if (h.major > kFormatMajor) {
    return error_at(8, "format version " + str(h.major) + "." + str(h.minor) +
                           " is newer than this reader (" + str(kFormatMajor) + "." +
                           str(kFormatMinor) + "); upgrade xferlab to read it");
  }
  if (h.major == 0) return error_at(8, "format major version 0 is invalid");
  if (h.major < format::kFirstChecksummedMajor) {
    warnings_.push_back(
        path_ + ": format " + str(h.major) + "." + str(h.minor) +
        " has no block checksums; its events cannot be verified against corruption");
  }
  if (h.event_bytes != sizeof(Event)) {
    return error_at(
        16, "event record size " + str(h.event_bytes) + " bytes, expected " + str(sizeof(Event)));
  }
  if (h.header_bytes < sizeof(h) || h.header_bytes > format::kMaxSectionHeaderBytes) {
    return error_at(12, "file header size " + str(h.header_bytes) + " is impossible");
  }
  format_major_ = h.major;
  format_minor_ = h.minor;
  // The initial metadata section follows the header; blocks follow it.
  const uint64_t meta_offset = format::align8(h.header_bytes);
  Result<std::shared_ptr<const Metadata>> initial = read_metadata_section(meta_offset);
  if (!initial.ok()) return initial.error();
  set_metadata(std::move(*initial));
  initial_metadata_offset_ = meta_offset;
  format::SectionHeader s{};
  XF_RETURN_IF_ERROR(read_exact(meta_offset, &s, sizeof(s), "metadata section header"));
  data_begin_ = format::align8(meta_offset + s.header_bytes + s.payload_bytes);
  return Status::Ok();
}

// set_metadata: `m` becomes the metadata events are checked against.
void TraceReader::set_metadata(std::shared_ptr<const Metadata> m) {
  metadata_ = std::move(m);
  known_gpus_.clear();
  for (const GpuInfo& g : metadata_->gpus) {
    if (g.id >= known_gpus_.size()) known_gpus_.resize(size_t(g.id) + 1, false);
    known_gpus_[g.id] = true;
  }
}

Result<Metadata> TraceReader::initial_metadata() {
  Result<std::shared_ptr<const Metadata>> m = read_metadata_section(initial_metadata_offset_);
  if (!m.ok()) return m.error();
  return **m;
}

Result<std::shared_ptr<const Metadata>> TraceReader::read_metadata_section(uint64_t offset) {
  format::SectionHeader s{};
  XF_RETURN_IF_ERROR(read_exact(offset, &s, sizeof(s), "metadata section header"));
  if (s.tag != format::kTagMetadata) return error_at(offset, "expected a metadata section (META)");
  if (s.header_bytes < sizeof(s) || s.header_bytes > format::kMaxSectionHeaderBytes) {
    return error_at(offset + 4, "metadata header size " + str(s.header_bytes) + " is impossible");
  }
  if (s.payload_bytes > format::kMaxMetadataBytes) {
    return error_at(offset + 8, "metadata size " + str(s.payload_bytes) + " bytes exceeds the " +
                                    str(format::kMaxMetadataBytes) + "-byte limit");
  }
  if (offset + s.header_bytes + s.payload_bytes > file_bytes_) {
    return error_at(offset + 8, "truncated: metadata of " + str(s.payload_bytes) +
                                    " bytes runs past the end of the file (" + str(file_bytes_) +
                                    " bytes)");
  }
  std::string json(size_t(s.payload_bytes), '\0');
  XF_RETURN_IF_ERROR(read_exact(offset + s.header_bytes, json.data(), json.size(), "metadata"));
  // Writers repeat the initial metadata in the footer's section (proact: the
  // same 2.4 MB JSON with its chunk table), and a process may open a trace
  // more than once (inflated_file): the same bytes parse to the same
  // metadata, so the last parsed section of this thread is reused when the
  // bytes are equal.
  thread_local std::string last_json;
  thread_local std::shared_ptr<const Metadata> last_metadata;
  const bool parsed_before = !json.empty() && json == last_json;
  std::shared_ptr<const Metadata> m = last_metadata;
  if (!parsed_before) {
    Result<Metadata> parsed =
        Metadata::from_json(json, path_ + ": byte offset " + str(offset + s.header_bytes));
    if (!parsed.ok()) return parsed.error();
    m = std::make_shared<const Metadata>(std::move(*parsed));
  }
  if (m->format_major != format_major_ || m->format_minor != format_minor_) {
    return error_at(offset, "metadata says format " + str(m->format_major) + "." +
                                str(m->format_minor) + " but the file header says " +
                                str(format_major_) + "." + str(format_minor_));
  }
  // gpu ids index a table sized by the u16 Event::gpu field, never more.
  for (const GpuInfo& g : m->gpus) {
    if (g.id >= kHostGpu) {
      return error_at(offset, "metadata gpus: id " + str(g.id) + " out of range (max " +
                                  str(kHostGpu - 1) + ")");
    }
  }
  if (!parsed_before) {
    last_metadata = m;
    last_json = std::move(json);
  }
  return m;
}

Status TraceReader::read_footer_and_index() {
  format::Footer f{};
  const bool has_room = file_bytes_ >= data_begin_ + sizeof(f);
  if (has_room) XF_RETURN_IF_ERROR(read_exact(file_bytes_ - sizeof(f), &f, sizeof(f), "footer"));
  const uint64_t footer_offset = file_bytes_ - sizeof(f);
  if (!has_room || std::memcmp(f.magic, format::kFooterMagic, sizeof(f.magic)) != 0) {
    if (options_.allow_truncated) {
      truncated_mode_ = true;
      data_end_ = file_bytes_;
      return Status::Ok();
    }
    return error_at(file_bytes_, "truncated or damaged: no footer at the end of the " +
                                     str(file_bytes_) +
                                     "-byte file (was the producer stopped before close()?)");
  }
  if (f.file_bytes != file_bytes_) {
    return error_at(footer_offset, "footer records a " + str(f.file_bytes) +
                                       "-byte file but it has " + str(file_bytes_) +
                                       " bytes (truncated or concatenated)");
  }
  if (f.metadata_offset < data_begin_ || f.metadata_offset >= footer_offset ||
      f.metadata_offset % 8 != 0) {
    return error_at(footer_offset + 8, "footer metadata offset " + str(f.metadata_offset) +
                                           " is outside the file body");
  }
  if (f.index_offset <= f.metadata_offset || f.index_offset >= footer_offset ||
      f.index_offset % 8 != 0) {
    return error_at(footer_offset,
                    "footer index offset " + str(f.index_offset) + " is outside the file body");
  }
  Result<std::shared_ptr<const Metadata>> final_metadata = read_metadata_section(f.metadata_offset);
  if (!final_metadata.ok()) return final_metadata.error();
  set_metadata(std::move(*final_metadata));
  data_end_ = f.metadata_offset;

  format::IndexHeader ih{};
  XF_RETURN_IF_ERROR(read_exact(f.index_offset, &ih, sizeof(ih), "block index header"));
  if (ih.section.tag != format::kTagIndex) {
    return error_at(f.index_offset, "expected the block index (INDX)");
  }
  if (ih.section.header_bytes < sizeof(ih) ||
      ih.section.header_bytes > format::kMaxSectionHeaderBytes) {
    return error_at(f.index_offset + 4,
                    "index header size " + str(ih.section.header_bytes) + " is impossible");
  }
  if (ih.num_kinds > format::kMaxKinds) {
    return error_at(f.index_offset + 16, "index lists " + str(ih.num_kinds) + " kinds (max " +
                                             str(format::kMaxKinds) + ")");
  }
  // Each block occupies at least a block header in the file.
  if (ih.num_blocks != f.num_blocks ||
      ih.num_blocks > (data_end_ - data_begin_) / sizeof(format::BlockHeader)) {
    return error_at(f.index_offset + 24, "index lists " + str(ih.num_blocks) +
                                             " blocks; impossible for this file (footer says " +
                                             str(f.num_blocks) + ")");
  }
  const uint64_t payload = uint64_t(ih.num_kinds) * 8 + ih.num_blocks * sizeof(format::IndexEntry);
  if (ih.section.payload_bytes != payload ||
      f.index_offset + ih.section.header_bytes + payload > footer_offset) {
    return error_at(f.index_offset + 8, "index size " + str(ih.section.payload_bytes) +
                                            " bytes does not match its " + str(ih.num_kinds) +
                                            " kinds and " + str(ih.num_blocks) + " blocks");
  }
  uint64_t at = f.index_offset + ih.section.header_bytes;
  XF_RETURN_IF_ERROR(read_kind_counts(f, ih.num_kinds, at));
  return read_block_index(f, ih.num_blocks, at + uint64_t(ih.num_kinds) * 8);
}

// read_kind_counts: the index's event count per kind, at `at`; they sum to
// the footer's events and none is of kind 0.
Status TraceReader::read_kind_counts(const format::Footer& f, uint64_t num_kinds, uint64_t at) {
  kind_counts_.assign(num_kinds, 0);
  XF_RETURN_IF_ERROR(read_exact(at, kind_counts_.data(), kind_counts_.size() * 8, "kind counts"));
  uint64_t counted = 0;
  for (uint64_t c : kind_counts_) {
    if (c > f.num_events - counted) {
      return error_at(f.index_offset,
                      "kind counts exceed the footer's " + str(f.num_events) + " events");
    }
    counted += c;
  }
  if (counted != f.num_events) {
    return error_at(f.index_offset, "kind counts sum to " + str(counted) + ", footer says " +
                                        str(f.num_events) + " events");
  }
  if (kind_counts_.empty()) kind_counts_.push_back(0);
  if (kind_counts_[0] != 0) {
    return error_at(f.index_offset, str(kind_counts_[0]) + " events of invalid kind 0");
  }
  return Status::Ok();
}

// read_block_index: the index's `num_blocks` entries, at `at`: in order,
// inside the block area, and agreeing with the footer's events and time span.
Status TraceReader::read_block_index(const format::Footer& f, uint64_t num_blocks, uint64_t at) {
  const uint64_t footer_offset = file_bytes_ - sizeof(f);
  blocks_.clear();
  blocks_.reserve(size_t(num_blocks));
  uint64_t next_first = 0, prev_end = data_begin_;
  uint64_t min_t = UINT64_MAX, max_t = 0;
  for (uint64_t b = 0; b < num_blocks; ++b, at += sizeof(format::IndexEntry)) {
    format::IndexEntry e{};
    XF_RETURN_IF_ERROR(read_exact(at, &e, sizeof(e), "index entry"));
    const std::string which = "index entry " + str(b) + ": ";
    if (e.offset < prev_end || e.offset % 8 != 0 ||
        e.offset + sizeof(format::BlockHeader) + e.stored_bytes > data_end_) {
      return error_at(at, which + "block offset " + str(e.offset) + " is out of order or range");
    }
    if (e.events == 0 || e.events > format::kMaxBlockEvents) {
      return error_at(at + 32, which + "block of " + str(e.events) + " events (allowed 1.." +
                                   str(format::kMaxBlockEvents) + ")");
    }
    if (e.first_event != next_first) {
      return error_at(
          at + 8, which + "first event " + str(e.first_event) + ", expected " + str(next_first));
    }
    if (e.min_time_ns > e.max_time_ns || e.max_time_ns > format::kMaxTimeNs) {
      return error_at(at + 16, which + "impossible time range [" + str(e.min_time_ns) + ", " +
                                   str(e.max_time_ns) + "] ns");
    }
    blocks_.push_back(
        BlockInfo{e.offset, e.first_event, e.min_time_ns, e.max_time_ns, e.events, e.stored_bytes});
    next_first += e.events;
    prev_end = e.offset + sizeof(format::BlockHeader) + e.stored_bytes;
    min_t = std::min(min_t, e.min_time_ns);
    max_t = std::max(max_t, e.max_time_ns);
  }
  if (next_first != f.num_events) {
    return error_at(f.index_offset,
                    "blocks hold " + str(next_first) + " events, footer says " + str(f.num_events));
  }
  if (min_t != f.min_time_ns || max_t != f.max_time_ns) {
    return error_at(footer_offset + 32, "footer time span [" + str(f.min_time_ns) + ", " +
                                            str(f.max_time_ns) + "] disagrees with the blocks");
  }
  num_events_ = f.num_events;
  min_time_ns_ = min_t;
  max_time_ns_ = max_t;
  return Status::Ok();
}

uint64_t TraceReader::count(EventKind kind) const {
  const size_t k = size_t(kind);
  return k < kind_counts_.size() ? kind_counts_[k] : 0;
}

Status TraceReader::load_block(uint64_t offset, uint64_t first_event, uint64_t limit,
                               const BlockInfo* expected) {
  Status s = decode_block(offset, first_event, limit, expected);
  if (!s.ok()) {
    // Never leave a half-validated block for next_batch() to hand out.
    block_.clear();
    block_cursor_ = 0;
    block_offset_ = UINT64_MAX;
  }
  return s;
}

Status TraceReader::decode_block(uint64_t offset, uint64_t first_event, uint64_t limit,
                                 const BlockInfo* expected) {
  format::BlockHeader h{};
  XF_RETURN_IF_ERROR(read_exact(offset, &h, sizeof(h), "block header"));
  if (h.section.tag != format::kTagEvents)
    return error_at(offset, "expected an event block (EVTS)");
  if (h.section.header_bytes < sizeof(h) ||
      h.section.header_bytes > format::kMaxSectionHeaderBytes) {
    return error_at(offset + 4,
                    "block header size " + str(h.section.header_bytes) + " is impossible");
  }
  if (h.events == 0 || h.events > format::kMaxBlockEvents) {
    return error_at(offset + 20, "block of " + str(h.events) + " events (allowed 1.." +
                                     str(format::kMaxBlockEvents) + ")");
  }
  const uint64_t raw_bytes = uint64_t(h.events) * sizeof(Event);
  if (h.codec == uint16_t(Compression::kNone)) {
    if (h.section.payload_bytes != raw_bytes) {
      return error_at(offset + 8, "uncompressed block of " + str(h.events) + " events has " +
                                      str(h.section.payload_bytes) + " payload bytes");
    }
  } else if (h.codec <= kMaxCompression) {
    if (h.section.payload_bytes == 0 || h.section.payload_bytes > ZSTD_compressBound(raw_bytes)) {
      return error_at(offset + 8, "compressed block size " + str(h.section.payload_bytes) +
                                      " is impossible for " + str(h.events) + " events");
    }
  } else {
    return error_at(offset + 16, "unknown block compression codec " + str(h.codec) +
                                     " (this reader knows 0.." + str(kMaxCompression) +
                                     "; upgrade xferlab to read it)");
  }
  // Format 2.0 blocks carry a checksum after the header; a 2.x block without
  // one was damaged (an old file has none: see warning()).
  std::optional<uint64_t> checksum;
  if (h.section.header_bytes >= format::kChecksummedBlockHeaderBytes) {
    format::BlockChecksum c{};
    XF_RETURN_IF_ERROR(read_exact(offset + sizeof(h), &c, sizeof(c), "block checksum"));
    checksum = c.xxh64;
  } else if (format_major_ >= format::kFirstChecksummedMajor) {
    return error_at(offset + 4, "block header of " + str(h.section.header_bytes) +
                                    " bytes has no checksum (format " + str(format_major_) + "." +
                                    str(format_minor_) + " needs one)");
  }
  const uint64_t payload_offset = offset + h.section.header_bytes;
  if (payload_offset + h.section.payload_bytes > limit) {
    return error_at(offset + 8, "truncated: block payload of " + str(h.section.payload_bytes) +
                                    " bytes runs past byte offset " + str(limit));
  }
  if (h.first_event != first_event) {
    return error_at(offset + 24, "block starts at event " + str(h.first_event) + ", expected " +
                                     str(first_event));
  }
  if (h.min_time_ns > h.max_time_ns || h.max_time_ns > format::kMaxTimeNs) {
    return error_at(offset + 32, "impossible block time range [" + str(h.min_time_ns) + ", " +
                                     str(h.max_time_ns) + "] ns");
  }
  if (expected != nullptr &&
      (expected->events != h.events || expected->min_time_ns != h.min_time_ns ||
       expected->max_time_ns != h.max_time_ns ||
       expected->stored_bytes != h.section.payload_bytes)) {
    return error_at(offset, "block header disagrees with the block index");
  }

  block_offset_ = UINT64_MAX;  // invalid until fully validated.
  XF_RETURN_IF_ERROR(read_block_events(h, offset, checksum));
  XF_RETURN_IF_ERROR(check_block_events(h, offset));
  block_offset_ = offset;
  block_first_event_ = first_event;
  block_end_offset_ = format::align8(payload_offset + h.section.payload_bytes);
  return Status::Ok();
}

// read_block_events: block_ = the events of block `h` at `offset`, read or
// decompressed, their stored bytes checked against `checksum` when given.
Status TraceReader::read_block_events(const format::BlockHeader& h, uint64_t offset,
                                      std::optional<uint64_t> checksum) {
  const uint64_t payload_offset = offset + h.section.header_bytes;
  const uint64_t raw_bytes = uint64_t(h.events) * sizeof(Event);
  const uint64_t first_event = h.first_event;
  block_.resize(h.events);
  auto verify = [&](const void* stored, uint64_t bytes) -> Status {
    if (!checksum) return Status::Ok();
    const uint64_t got = xxh64(stored, bytes, h.first_event);
    if (got == *checksum) return Status::Ok();
    return error_at(offset + sizeof(h), "block checksum mismatch (stored " + hex(*checksum) +
                                            ", computed " + hex(got) + "): events " +
                                            str(first_event) + ".." +
                                            str(first_event + h.events - 1) + " are corrupt");
  };
  if (h.codec == uint16_t(Compression::kNone)) {
    XF_RETURN_IF_ERROR(read_exact(payload_offset, block_.data(), raw_bytes, "events"));
    XF_RETURN_IF_ERROR(verify(block_.data(), raw_bytes));
  } else {
    stored_.resize(size_t(h.section.payload_bytes));
    XF_RETURN_IF_ERROR(read_exact(payload_offset, stored_.data(), stored_.size(), "block"));
    XF_RETURN_IF_ERROR(verify(stored_.data(), stored_.size()));
    // Codec 2 decompresses to the shuffled records, then restores them.
    const bool shuffled = h.codec == uint16_t(Compression::kZstdDeltaShuffle);
    if (shuffled) shuffled_.resize(size_t(raw_bytes));
    void* target = shuffled ? static_cast<void*>(shuffled_.data()) : block_.data();
    const size_t got =
        ZSTD_decompressDCtx(zstd_->ctx, target, raw_bytes, stored_.data(), stored_.size());
    if (ZSTD_isError(got)) {
      return error_at(payload_offset,
                      std::string("corrupt compressed block: ") + ZSTD_getErrorName(got));
    }
    if (got != raw_bytes) {
      return error_at(payload_offset,
                      "compressed block holds " + str(got) + " bytes, expected " + str(raw_bytes));
    }
    if (shuffled) undelta_unshuffle(shuffled_.data(), h.events, block_.data());
  }
  return Status::Ok();
}

// check_block_events: every event of block_ (block `h` at `offset`) lies in
// the block's time range, has a valid kind (unknown ones rejected when
// strict) and a GPU of the metadata's table.
Status TraceReader::check_block_events(const format::BlockHeader& h, uint64_t offset) {
  const uint64_t payload_offset = offset + h.section.header_bytes;
  const uint64_t first_event = h.first_event;
  // One pass, a few compares per event.
  const bool raw = h.codec == uint16_t(Compression::kNone);
  const size_t num_gpus = known_gpus_.size();
  const bool check_gpus = options_.validate_gpus && num_gpus > 0;
  bool has_unknown = false;
  for (size_t i = 0; i < block_.size(); ++i) {
    const Event& e = block_[i];
    const char* problem = nullptr;
    std::string detail;
    if (e.time_ns < h.min_time_ns || e.time_ns > h.max_time_ns) {
      detail = "timestamp " + str(e.time_ns) + " ns outside its block's range [" +
               str(h.min_time_ns) + ", " + str(h.max_time_ns) + "]";
    } else if (e.kind == 0) {
      problem = "invalid event kind 0";
    } else if (!is_known_kind(e.kind)) {
      if (options_.strict) {
        detail = "unknown event kind " + str(e.kind) + " (this reader knows 1.." +
                 str(uint16_t(EventKind::kNumEventKinds) - 1) + ")";
      }
      has_unknown = true;
    } else if (check_gpus && e.gpu != kHostGpu && (e.gpu >= num_gpus || !known_gpus_[e.gpu])) {
      detail = "gpu " + str(e.gpu) + " is not in the metadata's gpus table";
    }
    if (problem != nullptr || !detail.empty()) {
      const std::string where =
          raw ? "byte offset " + str(payload_offset + i * sizeof(Event))
              : "compressed block at byte offset " + str(offset) + ", record " + str(i);
      return make_error(path_ + ": event #" + str(first_event + i) + " (" + where +
                        "): " + (problem != nullptr ? problem : detail));
    }
  }
  block_has_unknown_ = has_unknown;
  return Status::Ok();
}

Status TraceReader::seek_event(uint64_t index) {
  block_.clear();
  block_cursor_ = 0;
  block_offset_ = UINT64_MAX;
  if (truncated_mode_) {
    if (index != 0) return make_error(path_ + ": seeking needs the block index (file truncated)");
    next_record_ = 0;
    block_end_offset_ = data_begin_;
    return Status::Ok();
  }
  if (index > num_events_) {
    return make_error(path_ + ": event #" + str(index) + " is past the end (" + str(num_events_) +
                      " events)");
  }
  next_record_ = index;
  // The block containing `index`: the last with first_event <= index.
  auto it = std::upper_bound(blocks_.begin(), blocks_.end(), index,
                             [](uint64_t i, const BlockInfo& b) { return i < b.first_event; });
  next_block_index_ = size_t(it - blocks_.begin());
  if (index == num_events_ || it == blocks_.begin()) return Status::Ok();
  const size_t b = next_block_index_ - 1;
  XF_RETURN_IF_ERROR(load_block(blocks_[b].offset, blocks_[b].first_event, data_end_, &blocks_[b]));
  block_cursor_ = size_t(index - blocks_[b].first_event);
  return Status::Ok();
}

Result<std::span<const Event>> TraceReader::next_batch() {
  if (block_cursor_ >= block_.size()) {
    if (truncated_mode_) return next_batch_truncated();
    if (next_block_index_ >= blocks_.size()) return std::span<const Event>();
    const BlockInfo& b = blocks_[next_block_index_];
    XF_RETURN_IF_ERROR(load_block(b.offset, b.first_event, data_end_, &b));
    ++next_block_index_;
    block_cursor_ = 0;
  }
  std::span<const Event> batch(block_.data() + block_cursor_, block_.size() - block_cursor_);
  next_record_ += batch.size();
  block_cursor_ = block_.size();
  if (!block_has_unknown_) return batch;
  filtered_.clear();
  for (const Event& e : batch) {
    if (is_known_kind(e.kind)) filtered_.push_back(e);
  }
  skipped_unknown_ += batch.size() - filtered_.size();
  return std::span<const Event>(filtered_);
}

// next_batch_truncated: walk sections from the previous block's end; stop
// quietly at the end of the complete data (the damaged tail is what
// allow_truncated accepts), but report corrupt complete blocks.
Result<std::span<const Event>> TraceReader::next_batch_truncated() {
  uint64_t offset = block_end_offset_;
  for (;;) {
    format::SectionHeader s{};
    if (offset + sizeof(format::BlockHeader) > file_bytes_) return std::span<const Event>();
    XF_RETURN_IF_ERROR(read_exact(offset, &s, sizeof(s), "section header"));
    if (s.header_bytes < sizeof(s) || s.header_bytes > format::kMaxSectionHeaderBytes ||
        s.payload_bytes > file_bytes_ - offset - s.header_bytes) {
      return std::span<const Event>();  // the damaged tail.
    }
    if (s.tag == format::kTagEvents) break;
    if (s.tag == format::kTagMetadata || s.tag == format::kTagIndex) {
      return std::span<const Event>();  // final metadata: the blocks are over.
    }
    offset = format::align8(offset + s.header_bytes + s.payload_bytes);  // newer section kind.
  }
  XF_RETURN_IF_ERROR(load_block(offset, next_record_, file_bytes_, nullptr));
  block_cursor_ = 0;
  return next_batch();
}

Result<std::span<const Event>> TraceReader::read_block(size_t b) {
  if (b >= blocks_.size()) {
    return make_error(path_ + ": block " + str(b) + " is past the end (" + str(blocks_.size()) +
                      " blocks)");
  }
  const BlockInfo& info = blocks_[b];
  XF_RETURN_IF_ERROR(load_block(info.offset, info.first_event, data_end_, &info));
  // Streaming resumes after this block.
  block_cursor_ = block_.size();
  next_block_index_ = b + 1;
  next_record_ = info.first_event + info.events;
  return std::span<const Event>(block_);
}

Result<Event> TraceReader::event_at(uint64_t index) {
  if (truncated_mode_) return make_error(path_ + ": random access needs the block index");
  if (index >= num_events_) {
    return make_error(path_ + ": event #" + str(index) + " is past the end (" + str(num_events_) +
                      " events)");
  }
  auto it = std::upper_bound(blocks_.begin(), blocks_.end(), index,
                             [](uint64_t i, const BlockInfo& b) { return i < b.first_event; });
  const size_t b = size_t(it - blocks_.begin()) - 1;
  if (block_offset_ != blocks_[b].offset) {
    Result<std::span<const Event>> block = read_block(b);
    if (!block.ok()) return block.error();
  }
  return block_[size_t(index - blocks_[b].first_event)];
}

}  // namespace xferlab::traces
