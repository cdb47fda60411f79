// traces/compact.h — compact_trace: rewrites a trace with every event block in
// codec 2 (time deltas + byte-plane shuffle + zstd; FORMAT.md, "EVTS"), the
// smallest encoding, for traces that are stored (traces/real). `xferlab trace
// compact` runs it.
//
// The rewrite keeps the blocks (same events per block), both metadata
// sections, the records byte for byte (unknown kinds included) and a
// whole-file zstd wrapper when the input had one; the output is format
// kFormatMajor.kFormatMinor. It is read back and compared with the input
// before it replaces anything.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/result.h"

namespace xferlab::traces {

// CompactOptions: how hard to compress.
struct CompactOptions {
  /// zstd level of the blocks and of the whole-file wrapper (1..22; 19 is how
  /// traces/real is stored).
  int zstd_level = 19;
};

// CompactResult: what compact_trace did.
struct CompactResult {
  uint64_t bytes_before = 0;  ///< the input file's size.
  uint64_t bytes_after = 0;   ///< the output file's size.
  uint64_t events = 0;
  bool whole_file_zstd = false;       ///< the output is wrapped in whole-file zstd.
  std::vector<std::string> warnings;  ///< the input reader's (TraceReader::warnings).
};

// compact_trace: writes `in` to `out` (which may be `in`) as described above.
// The output goes to a temporary file beside `out` that replaces it (rename)
// only after every event, block and metadata field read back from it equals
// the input's; on any error `out` is untouched and the error is one line
// naming the file.
Result<CompactResult> compact_trace(const std::string& in, const std::string& out,
                                    const CompactOptions& options = {});

}  // namespace xferlab::traces
