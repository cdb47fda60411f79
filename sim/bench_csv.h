// sim/bench_csv.h — reading the native benchmarks' CSVs (link_bench,
// notify_bench, PROACT micro_gN; docs/native.md) into hw_model's calibration
// rows, through the one CSV reader (common/csv.h). Errors are one line naming
// file, line and column ("lb.csv:3: column 'time_ns_median': 'abc' is not a
// number"); sizes, counts and times must be >= 0.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "common/result.h"
#include "hw_model/calibrate.h"

namespace xferlab::sim {

// parse_*: CSV `text` of a file called `file_name`, with a header row.
Result<std::vector<hw_model::LinkBenchRow>> parse_link_bench(std::string_view text,
                                                             std::string_view file_name);
Result<std::vector<hw_model::NotifyBenchRow>> parse_notify_bench(std::string_view text,
                                                                 std::string_view file_name);
Result<std::vector<hw_model::ProactMicroRow>> parse_proact_micro(std::string_view text,
                                                                 std::string_view file_name);

// read_*: the parse_* of a file's contents; error if it cannot be read.
Result<std::vector<hw_model::LinkBenchRow>> read_link_bench(const std::string& path);
Result<std::vector<hw_model::NotifyBenchRow>> read_notify_bench(const std::string& path);
Result<std::vector<hw_model::ProactMicroRow>> read_proact_micro(const std::string& path);

}  // namespace xferlab::sim
