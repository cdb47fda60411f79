// traces/writer.h — TraceWriter: writes a trace file (FORMAT.md) in one pass.
//
// Built for a CUDA program's host thread draining device-side event buffers:
// append(const Event*, n) takes a buffer copied straight out of GPU memory
// (the record layout is the file layout; no per-event conversion) and writes
// it in fixed-size blocks, so memory stays constant however long the run.
// Metadata can be completed while writing (e.g. clock sync measured at the
// end) and is written again at close(); the footer points at the final copy.
//
// Not thread-safe: one writer per thread (or guard it).
//
//   TraceWriter w;
//   XF_RETURN_IF_ERROR(w.open("run.xftrace", metadata));
//   XF_RETURN_IF_ERROR(w.append(h_events.data(), h_events.size()));
//   XF_RETURN_IF_ERROR(w.close());
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "common/result.h"
#include "traces/block_info.h"
#include "traces/event.h"
#include "traces/metadata.h"

namespace xferlab::traces {

// WriterOptions: tuning; the defaults suit both tiny and very long traces.
struct WriterOptions {
  /// Block codec. kZstdDeltaShuffle stores the smallest blocks (FORMAT.md,
  /// "EVTS"), readable by xferlab from format 2.1 on; older readers fail on it.
  Compression compression = Compression::kNone;
  int zstd_level = 1;  ///< 1 is fast (~GB/s); higher compresses better, slower.
  /// Events per block: unit of compression, random access and read memory.
  uint32_t events_per_block = 16384;
};

// TraceWriter: see the file comment. Move-only; destroying an open writer
// closes it (errors are then lost: call close() to see them).
class TraceWriter {
 public:
  TraceWriter() = default;
  ~TraceWriter();
  TraceWriter(TraceWriter&& other) noexcept;
  TraceWriter& operator=(TraceWriter&& other) noexcept;
  TraceWriter(const TraceWriter&) = delete;
  TraceWriter& operator=(const TraceWriter&) = delete;

  // open: create/truncate `path` and write the header and initial metadata.
  Status open(const std::string& path, const Metadata& metadata, const WriterOptions& options = {});

  // append: events in any order (readers do not assume time order across
  // streams). Bulk appends of whole blocks are written without copying.
  Status append(const Event* events, size_t n);
  Status append(const Event& event) { return append(&event, 1); }

  // end_block: write the events appended since the last block as a block now
  // (shorter than events_per_block), so a rewrite keeps its input's blocks.
  Status end_block();

  // metadata: the metadata written at close(); edit it while writing.
  Metadata& metadata() { return metadata_; }
  void set_metadata(const Metadata& metadata) { metadata_ = metadata; }
  void merge_metadata(const Metadata& other) { metadata_.merge(other); }

  // close: flush the last block, write final metadata, block index and
  // footer. Idempotent; the file is complete only after close() succeeds.
  Status close();

  bool is_open() const { return file_ != nullptr; }
  uint64_t num_events() const { return num_events_; }
  const std::string& path() const { return path_; }

 private:
  Status flush_pending();
  Status write_block(const Event* events, size_t n);
  Status finish();
  Status write_metadata();
  Status pad8();
  Status write_bytes(const void* data, size_t size);
  Error io_error(const char* what) const;

  std::FILE* file_ = nullptr;
  std::string path_;
  WriterOptions options_;
  Metadata metadata_;
  std::vector<Event> pending_;           ///< partial block.
  std::vector<char> compressed_;         ///< zstd output buffer.
  std::vector<unsigned char> shuffled_;  ///< codec 2's transformed records.
  std::vector<BlockInfo> index_;         ///< one entry per block (40 B per 16 Ki events).
  std::vector<uint64_t> kind_counts_;    ///< per Event::kind value, grown on demand.
  uint64_t num_events_ = 0;
  uint64_t offset_ = 0;  ///< bytes written so far.
  uint64_t min_time_ns_ = UINT64_MAX;
  uint64_t max_time_ns_ = 0;
};

}  // namespace xferlab::traces
