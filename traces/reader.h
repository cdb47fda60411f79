// traces/reader.h — TraceReader: reads and validates a trace file (FORMAT.md).
//
// Streaming in constant memory (one decoded block at a time), with random
// access by event index or time window through the block index at the end of
// the file. Every problem in the file (truncation, wrong magic or version,
// corrupt sizes, out-of-range ids, impossible timestamps) comes back as a
// one-line Error naming the file, the byte offset or event index and the
// problem; the reader never allocates from a size field it has not checked
// against the file size and fixed limits.
//
//   auto r = TraceReader::open("run.xftrace");
//   if (!r.ok()) { err << r.error().message << "\n"; return r.error().exit_code(); }
//   Status s = r->for_each([&](const Event& e) { ... });
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "common/result.h"
#include "traces/block_info.h"
#include "traces/event.h"
#include "traces/metadata.h"

namespace xferlab::traces {

namespace format {
struct BlockHeader;
struct Footer;
}  // namespace format

struct ZstdContext;  // reader.cc: a reusable zstd decompression context.

// ReaderOptions: how forgiving to be.
struct ReaderOptions {
  /// Unknown event kinds (from a newer minor version) are errors instead of
  /// being skipped.
  bool strict = false;
  /// Events whose gpu is neither in the metadata's "gpus" table nor kHostGpu
  /// are errors (only when the table is non-empty).
  bool validate_gpus = true;
  /// Accept a file without a valid footer (a producer that crashed): read its
  /// first metadata and the complete blocks before the damage. Random access
  /// and totals are then unavailable (num_blocks() == 0).
  bool allow_truncated = false;
};

// lost_events_note: "the trace lost N events; re-record with
// --trace-capacity >= M" when the producer's recorder dropped events
// (parameters lost_events, needed_capacity_events or device_capacity_events,
// capacity_flag), else nullopt. M is what the fullest buffer needed (older
// traces: capacity + lost, which is enough for any one buffer).
std::optional<std::string> lost_events_note(const Metadata& metadata);

// TraceReader: see the file comment. Move-only.
class TraceReader {
 public:
  // open: read and check header, footer, metadata and block index.
  static Result<TraceReader> open(const std::string& path, const ReaderOptions& options = {});

  TraceReader(TraceReader&&) noexcept;
  TraceReader& operator=(TraceReader&&) noexcept;
  ~TraceReader();

  const std::string& path() const { return path_; }
  // metadata: the final (authoritative) metadata; a file read with
  // allow_truncated that has no footer: the initial one.
  const Metadata& metadata() const { return *metadata_; }
  // initial_metadata: the metadata section after the file header (what the
  // producer knew at open), read anew.
  Result<Metadata> initial_metadata();
  // whole_file_zstd: the file is a zstd frame of the trace (`zstd run.xft`).
  bool whole_file_zstd() const { return inflated_ != nullptr; }
  uint16_t format_major() const { return format_major_; }
  uint16_t format_minor() const { return format_minor_; }

  // Totals from the footer (0 / empty for a truncated file read with
  // allow_truncated).
  uint64_t num_events() const { return num_events_; }  ///< records, unknown kinds included.
  uint64_t num_blocks() const { return blocks_.size(); }
  const std::vector<BlockInfo>& blocks() const { return blocks_; }
  uint64_t min_time_ns() const { return min_time_ns_; }  ///< UINT64_MAX when empty.
  uint64_t max_time_ns() const { return max_time_ns_; }
  // kind_counts: records per Event::kind value (index = kind).
  const std::vector<uint64_t>& kind_counts() const { return kind_counts_; }
  uint64_t count(EventKind kind) const;
  // warnings: one line each about what was read but is not whole or not
  // verifiable: a format 1.0 file has no block checksums; a recorder lost
  // events (lost_events_note). Every tool prints them to stderr.
  const std::vector<std::string>& warnings() const { return warnings_; }
  // skipped_unknown: records of unknown kinds skipped so far by iteration.
  uint64_t skipped_unknown() const { return skipped_unknown_; }

  // next_batch: the next events in file order (unknown kinds removed), valid
  // until the next call; an empty span at the end of the file.
  Result<std::span<const Event>> next_batch();

  // for_each: fn(const Event&) for every remaining event, in file order.
  template <typename F>
  Status for_each(F&& fn) {
    for (;;) {
      Result<std::span<const Event>> batch = next_batch();
      if (!batch.ok()) return batch.error();
      if (batch->empty()) return Status::Ok();
      for (const Event& e : *batch) fn(e);
    }
  }

  // rewind: iterate again from the first event.
  Status rewind() { return seek_event(0); }
  // seek_event: the next batch starts at record `index` (<= num_events()).
  Status seek_event(uint64_t index);
  // position: file index of the record the next batch starts at.
  uint64_t position() const { return next_record_; }

  // read_block: the records of block `b` (< num_blocks()) as stored, unknown
  // kinds included, valid until the next read; streaming resumes after it.
  Result<std::span<const Event>> read_block(size_t b);

  // event_at: the record at file index `index`, as stored (even of an
  // unknown kind). Reads one block.
  Result<Event> event_at(uint64_t index);

  // for_each_in_window: fn(e) for events with from_ns <= time_ns < to_ns, in
  // file order, decoding only blocks whose time range overlaps. Leaves the
  // streaming position unspecified (seek before streaming again).
  template <typename F>
  Status for_each_in_window(uint64_t from_ns, uint64_t to_ns, F&& fn) {
    for (size_t b = 0; b < blocks_.size(); ++b) {
      if (blocks_[b].max_time_ns < from_ns || blocks_[b].min_time_ns >= to_ns) continue;
      XF_RETURN_IF_ERROR(seek_event(blocks_[b].first_event));
      Result<std::span<const Event>> batch = next_batch();
      if (!batch.ok()) return batch.error();
      for (const Event& e : *batch) {
        if (e.time_ns >= from_ns && e.time_ns < to_ns) fn(e);
      }
    }
    return Status::Ok();
  }

 private:
  TraceReader() = default;
  Status read_header();
  Status read_footer_and_index();
  Status read_kind_counts(const format::Footer& f, uint64_t num_kinds, uint64_t at);
  Status read_block_index(const format::Footer& f, uint64_t num_blocks, uint64_t at);
  Result<std::shared_ptr<const Metadata>> read_metadata_section(uint64_t offset);
  void set_metadata(std::shared_ptr<const Metadata> m);
  // load_block: read, decompress and validate the block at `offset`; `limit`
  // is where the block area ends; `expected` (from the index) must agree.
  Status load_block(uint64_t offset, uint64_t first_event, uint64_t limit,
                    const BlockInfo* expected);
  Status decode_block(uint64_t offset, uint64_t first_event, uint64_t limit,
                      const BlockInfo* expected);
  Status read_block_events(const format::BlockHeader& h, uint64_t offset,
                           std::optional<uint64_t> checksum);
  Status check_block_events(const format::BlockHeader& h, uint64_t offset);
  Result<std::span<const Event>> next_batch_truncated();
  Status read_exact(uint64_t offset, void* data, size_t size, const char* what);
  Error error_at(uint64_t offset, const std::string& problem) const;

  // FileDescriptor: owns one open file, so that moves need no hand-written code.
  class FileDescriptor {
   public:
    FileDescriptor() = default;
    FileDescriptor(FileDescriptor&& other) noexcept;
    FileDescriptor& operator=(FileDescriptor&& other) noexcept;
    ~FileDescriptor();
    int get() const { return fd_; }
    void reset(int fd = -1);  ///< closes the file held, takes `fd`.

   private:
    int fd_ = -1;
  };

  std::string path_;
  std::vector<std::string> warnings_;
  ReaderOptions options_;
  FileDescriptor fd_;
  std::shared_ptr<const std::string> inflated_;  ///< a whole-file zstd trace, decompressed.
  uint64_t file_bytes_ = 0;
  // Shared with the thread's cache of the last parsed section (and the
  // footer's repeat of the initial one): a proact trace's chunk table is
  // 16k+ entries, a copy of it ~0.2 ms of page faults per open.
  std::shared_ptr<const Metadata> metadata_;
  uint16_t format_major_ = 0;  ///< the file header's; the metadata must agree.
  uint16_t format_minor_ = 0;
  std::vector<BlockInfo> blocks_;
  std::vector<uint64_t> kind_counts_;
  std::vector<bool> known_gpus_;  ///< indexed by gpu id, from metadata.
  uint64_t num_events_ = 0;
  uint64_t min_time_ns_ = UINT64_MAX;
  uint64_t max_time_ns_ = 0;
  uint64_t initial_metadata_offset_ = 0;
  uint64_t data_begin_ = 0;  ///< offset of the first event block.
  uint64_t data_end_ = 0;    ///< offset just past the last event block.
  bool truncated_mode_ = false;

  // Streaming state: the decoded block and where the next batch starts.
  std::vector<Event> block_;             ///< records of the loaded block.
  std::vector<Event> filtered_;          ///< block_ without unknown kinds (when it has any).
  std::vector<char> stored_;             ///< compressed payload.
  std::vector<unsigned char> shuffled_;  ///< codec 2's records before restoring them.
  bool block_has_unknown_ = false;
  uint64_t block_offset_ = UINT64_MAX;  ///< section offset of the loaded block.
  uint64_t block_first_event_ = 0;
  uint64_t block_end_offset_ = 0;  ///< offset just past the loaded block (padded).
  size_t block_cursor_ = 0;        ///< next record within block_.
  uint64_t next_record_ = 0;
  size_t next_block_index_ = 0;  ///< next index entry to load when streaming.
  uint64_t skipped_unknown_ = 0;
  std::unique_ptr<ZstdContext> zstd_;
};

}  // namespace xferlab::traces
