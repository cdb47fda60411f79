// traces/writer.cc — TraceWriter: header, metadata, event blocks, index, footer.
#include "traces/writer.h"

#include <zstd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <utility>

#include "traces/block_codec.h"
#include "traces/checksum.h"
#include "traces/file_format.h"

namespace xferlab::traces {

TraceWriter::~TraceWriter() {
  if (file_ != nullptr) (void)close();
}

TraceWriter::TraceWriter(TraceWriter&& other) noexcept {
  *this = std::move(other);
}

TraceWriter& TraceWriter::operator=(TraceWriter&& other) noexcept {
  if (this != &other) {
    if (file_ != nullptr) (void)close();
    file_ = std::exchange(other.file_, nullptr);
    path_ = std::move(other.path_);
    options_ = other.options_;
    metadata_ = std::move(other.metadata_);
    pending_ = std::move(other.pending_);
    compressed_ = std::move(other.compressed_);
    shuffled_ = std::move(other.shuffled_);
    index_ = std::move(other.index_);
    kind_counts_ = std::move(other.kind_counts_);
    num_events_ = other.num_events_;
    offset_ = other.offset_;
    min_time_ns_ = other.min_time_ns_;
    max_time_ns_ = other.max_time_ns_;
  }
  return *this;
}

Error TraceWriter::io_error(const char* what) const {
  return make_runtime_error(path_ + ": " + what + " failed at byte offset " +
                            std::to_string(offset_) + ": " + std::strerror(errno));
}

Status TraceWriter::write_bytes(const void* data, size_t size) {
  if (size > 0 && std::fwrite(data, 1, size, file_) != size) return io_error("write");
  offset_ += size;
  return Status::Ok();
}

Status TraceWriter::open(const std::string& path, const Metadata& metadata,
                         const WriterOptions& options) {
  if (file_ != nullptr) return make_error(path + ": writer already open on " + path_);
  if (options.events_per_block == 0 || options.events_per_block > format::kMaxBlockEvents) {
    return make_error(path + ": events_per_block must be 1.." +
                      std::to_string(format::kMaxBlockEvents));
  }
  if (uint16_t(options.compression) > kMaxCompression) {
    return make_error(path + ": unknown block codec " +
                      std::to_string(uint16_t(options.compression)));
  }
  path_ = path;
  options_ = options;
  metadata_ = metadata;
  pending_.clear();
  pending_.reserve(options.events_per_block);
  index_.clear();
  kind_counts_.assign(size_t(EventKind::kNumEventKinds), 0);
  num_events_ = 0;
  offset_ = 0;
  min_time_ns_ = UINT64_MAX;
  max_time_ns_ = 0;
  file_ = std::fopen(path.c_str(), "wb");
  if (file_ == nullptr) {
    return make_runtime_error(path + ": cannot create: " + std::strerror(errno));
  }
  // Large stdio buffer: blocks go out in few write() calls.
  std::setvbuf(file_, nullptr, _IOFBF, 1 << 20);
  format::FileHeader header{};
  std::memcpy(header.magic, format::kMagic, sizeof(header.magic));
  header.major = kFormatMajor;
  header.minor = kFormatMinor;
  header.header_bytes = sizeof(header);
  header.event_bytes = sizeof(Event);
  XF_RETURN_IF_ERROR(write_bytes(&header, sizeof(header)));
  return write_metadata();
}

Status TraceWriter::write_metadata() {
  // The version written, whatever metadata() was given (e.g. a reader's).
  metadata_.format_major = kFormatMajor;
  metadata_.format_minor = kFormatMinor;
  const std::string json = metadata_.to_json();
  format::SectionHeader section{format::kTagMetadata, sizeof(format::SectionHeader), json.size()};
  XF_RETURN_IF_ERROR(write_bytes(&section, sizeof(section)));
  XF_RETURN_IF_ERROR(write_bytes(json.data(), json.size()));
  return pad8();
}

Status TraceWriter::pad8() {
  static const char kZeros[8] = {};
  return write_bytes(kZeros, format::align8(offset_) - offset_);
}

Status TraceWriter::append(const Event* events, size_t n) {
  if (file_ == nullptr) return make_error(path_ + ": append on a closed trace writer");
  const size_t per_block = options_.events_per_block;
  // Top up a partial block first, then write whole blocks straight from the
  // caller's buffer, then keep the remainder.
  if (!pending_.empty()) {
    const size_t take = std::min(n, per_block - pending_.size());
    pending_.insert(pending_.end(), events, events + take);
    events += take;
    n -= take;
    if (pending_.size() == per_block) XF_RETURN_IF_ERROR(flush_pending());
  }
  while (n >= per_block) {
    XF_RETURN_IF_ERROR(write_block(events, per_block));
    events += per_block;
    n -= per_block;
  }
  pending_.insert(pending_.end(), events, events + n);
  return Status::Ok();
}

Status TraceWriter::end_block() {
  if (file_ == nullptr) return make_error(path_ + ": end_block on a closed trace writer");
  return flush_pending();
}

Status TraceWriter::flush_pending() {
  if (pending_.empty()) return Status::Ok();
  Status s = write_block(pending_.data(), pending_.size());
  pending_.clear();
  return s;
}

Status TraceWriter::write_block(const Event* events, size_t n) {
  uint64_t min_t = UINT64_MAX, max_t = 0;
  uint16_t max_kind = 0;
  for (size_t i = 0; i < n; ++i) {
    min_t = std::min(min_t, events[i].time_ns);
    max_t = std::max(max_t, events[i].time_ns);
    max_kind = std::max(max_kind, events[i].kind);
  }
  if (max_kind >= kind_counts_.size()) kind_counts_.resize(size_t(max_kind) + 1, 0);
  uint64_t* counts = kind_counts_.data();
  for (size_t i = 0; i < n; ++i) ++counts[events[i].kind];

  const void* payload = events;
  size_t payload_bytes = n * sizeof(Event);
  uint16_t codec = uint16_t(Compression::kNone);
  if (options_.compression != Compression::kNone) {
    const void* input = events;
    if (options_.compression == Compression::kZstdDeltaShuffle) {
      shuffled_.resize(payload_bytes);
      delta_shuffle(events, n, shuffled_.data());
      input = shuffled_.data();
    }
    compressed_.resize(ZSTD_compressBound(payload_bytes));
    size_t z = ZSTD_compress(compressed_.data(), compressed_.size(), input, payload_bytes,
                             options_.zstd_level);
    if (ZSTD_isError(z)) {
      return make_runtime_error(path_ + ": zstd compression of block " +
                                std::to_string(index_.size()) + " failed: " + ZSTD_getErrorName(z));
    }
    // Incompressible blocks are stored raw: never larger than the events.
    if (z < payload_bytes) {
      payload = compressed_.data();
      payload_bytes = z;
      codec = uint16_t(options_.compression);
    }
  }
  format::BlockHeader header{};
  header.section = {format::kTagEvents, format::kChecksummedBlockHeaderBytes, payload_bytes};
  header.codec = codec;
  header.events = uint32_t(n);
  header.first_event = num_events_;
  header.min_time_ns = min_t;
  header.max_time_ns = max_t;
  index_.push_back(
      BlockInfo{offset_, num_events_, min_t, max_t, uint32_t(n), uint32_t(payload_bytes)});
  const format::BlockChecksum checksum{xxh64(payload, payload_bytes, num_events_)};
  XF_RETURN_IF_ERROR(write_bytes(&header, sizeof(header)));
  XF_RETURN_IF_ERROR(write_bytes(&checksum, sizeof(checksum)));
  XF_RETURN_IF_ERROR(write_bytes(payload, payload_bytes));
  XF_RETURN_IF_ERROR(pad8());
  num_events_ += n;
  min_time_ns_ = std::min(min_time_ns_, min_t);
  max_time_ns_ = std::max(max_time_ns_, max_t);
  return Status::Ok();
}

Status TraceWriter::close() {
  if (file_ == nullptr) return Status::Ok();
  Status s = finish();
  if (std::fclose(file_) != 0 && s.ok()) s = io_error("close");
  file_ = nullptr;
  pending_ = {};
  compressed_ = {};
  shuffled_ = {};
  index_ = {};
  return s;
}

Status TraceWriter::finish() {
  XF_RETURN_IF_ERROR(flush_pending());
  const uint64_t metadata_offset = offset_;
  XF_RETURN_IF_ERROR(write_metadata());

  const uint64_t index_offset = offset_;
  while (kind_counts_.size() > 1 && kind_counts_.back() == 0 &&
         kind_counts_.size() > size_t(EventKind::kNumEventKinds)) {
    kind_counts_.pop_back();
  }
  format::IndexHeader ih{};
  const uint64_t index_payload =
      kind_counts_.size() * sizeof(uint64_t) + index_.size() * sizeof(format::IndexEntry);
  ih.section = {format::kTagIndex, sizeof(ih), index_payload};
  ih.num_kinds = uint32_t(kind_counts_.size());
  ih.num_blocks = index_.size();
  XF_RETURN_IF_ERROR(write_bytes(&ih, sizeof(ih)));
  XF_RETURN_IF_ERROR(write_bytes(kind_counts_.data(), kind_counts_.size() * sizeof(uint64_t)));
  for (const BlockInfo& b : index_) {
    format::IndexEntry e{b.offset,      b.first_event, b.min_time_ns,
                         b.max_time_ns, b.events,      b.stored_bytes};
    XF_RETURN_IF_ERROR(write_bytes(&e, sizeof(e)));
  }
  XF_RETURN_IF_ERROR(pad8());

  format::Footer footer{};
  footer.index_offset = index_offset;
  footer.metadata_offset = metadata_offset;
  footer.num_events = num_events_;
  footer.num_blocks = index_.size();
  footer.min_time_ns = min_time_ns_;
  footer.max_time_ns = max_time_ns_;
  footer.file_bytes = offset_ + sizeof(footer);
  std::memcpy(footer.magic, format::kFooterMagic, sizeof(footer.magic));
  XF_RETURN_IF_ERROR(write_bytes(&footer, sizeof(footer)));
  if (std::fflush(file_) != 0) return io_error("flush");
  return Status::Ok();
}

}  // namespace xferlab::traces
