// sim/bench_csv.cc — the native benchmarks' CSVs as calibration rows.
#include "sim/bench_csv.h"

#include <span>

#include "common/csv.h"

namespace xferlab::sim {
namespace {

using hw_model::LinkBenchRow;
using hw_model::NotifyBenchRow;
using hw_model::ProactMicroRow;

// measured: a non-negative number of `row` (bench CSVs hold sizes, counts, times).
Result<double> measured(const CsvRow& row, std::string_view column) {
  Result<double> v = row.number(column);
  if (v.ok() && *v < 0) return row.error(column, "'" + std::to_string(*v) + "' is negative");
  return v;
}

Status fill(const CsvRow& r, LinkBenchRow& row) {
  XF_ASSIGN(row.test, r.text("test"));
  XF_ASSIGN(row.target, r.text("target"));
  XF_ASSIGN(row.pattern, r.text("pattern"));
  XF_ASSIGN(row.write_bytes, measured(r, "write_bytes"));
  XF_ASSIGN(row.stride_bytes, measured(r, "stride_bytes"));
  XF_ASSIGN(row.accesses, measured(r, "accesses"));
  XF_ASSIGN(row.payload_bytes, measured(r, "payload_bytes"));
  XF_ASSIGN(row.time_ns, measured(r, "time_ns_median"));
  XF_ASSIGN(row.payload_bw_bytes_per_s, measured(r, "payload_bw_bytes_per_s"));
  if (row.payload_bw_bytes_per_s <= 0 || row.payload_bytes <= 0 || row.write_bytes <= 0)
    return r.error("payload_bw_bytes_per_s", "sizes and bandwidth must be > 0");
  return Status::Ok();
}

Status fill(const CsvRow& r, NotifyBenchRow& row) {
  XF_ASSIGN(row.test, r.text("test"));
  XF_ASSIGN(row.variant, r.text("variant"));
  XF_ASSIGN(row.median_ns, measured(r, "median_ns"));
  return Status::Ok();
}

Status fill(const CsvRow& r, ProactMicroRow& row) {
  double threads = 0;
  XF_ASSIGN(row.mechanism, r.text("mechanism"));
  XF_ASSIGN(row.chunk_bytes, measured(r, "chunk_bytes"));
  XF_ASSIGN(threads, measured(r, "threads"));
  XF_ASSIGN(row.time_ms, measured(r, "time_ms"));
  row.threads = static_cast<int64_t>(threads);
  return Status::Ok();
}

// rows_of: every row of `csv` (which must have `columns`) filled as a Row.
template <typename Row>
Result<std::vector<Row>> rows_of(Result<CsvTable> csv, std::span<const std::string_view> columns) {
  if (!csv.ok()) return csv.error();
  XF_RETURN_IF_ERROR(csv->require(columns));
  std::vector<Row> out;
  for (size_t i = 0; i < csv->rows.size(); ++i) {
    const CsvRow r(*csv, i);
    Row row;
    row.line = r.line();
    XF_RETURN_IF_ERROR(fill(r, row));
    out.push_back(std::move(row));
  }
  return out;
}

constexpr std::string_view kLinkBenchColumns[] = {
    "test",     "target",        "pattern",        "write_bytes",           "stride_bytes",
    "accesses", "payload_bytes", "time_ns_median", "payload_bw_bytes_per_s"};
constexpr std::string_view kNotifyBenchColumns[] = {"test", "variant", "median_ns"};
constexpr std::string_view kProactMicroColumns[] = {"mechanism", "chunk_bytes", "threads",
                                                    "time_ms"};

}  // namespace

Result<std::vector<LinkBenchRow>> parse_link_bench(std::string_view text,
                                                   std::string_view file_name) {
  return rows_of<LinkBenchRow>(parse_csv(text, file_name), kLinkBenchColumns);
}
Result<std::vector<NotifyBenchRow>> parse_notify_bench(std::string_view text,
                                                       std::string_view file_name) {
  return rows_of<NotifyBenchRow>(parse_csv(text, file_name), kNotifyBenchColumns);
}
Result<std::vector<ProactMicroRow>> parse_proact_micro(std::string_view text,
                                                       std::string_view file_name) {
  return rows_of<ProactMicroRow>(parse_csv(text, file_name), kProactMicroColumns);
}

Result<std::vector<LinkBenchRow>> read_link_bench(const std::string& path) {
  return rows_of<LinkBenchRow>(read_csv_file(path), kLinkBenchColumns);
}
Result<std::vector<NotifyBenchRow>> read_notify_bench(const std::string& path) {
  return rows_of<NotifyBenchRow>(read_csv_file(path), kNotifyBenchColumns);
}
Result<std::vector<ProactMicroRow>> read_proact_micro(const std::string& path) {
  return rows_of<ProactMicroRow>(read_csv_file(path), kProactMicroColumns);
}

}  // namespace xferlab::sim
