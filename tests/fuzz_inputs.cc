// tests/fuzz_inputs.cc — see fuzz_inputs.h. Built with -DXFERLAB_FUZZ_PRESET or
// -DXFERLAB_FUZZ_CSV, it is a libFuzzer target (tools/fuzz_inputs.sh).
#include "tests/fuzz_inputs.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "common/csv.h"
#include "hw_model/platform.h"
#include "native/proact/results.h"
#include "sim/bench_csv.h"

namespace xferlab::fuzz {
namespace {

[[noreturn]] void invariant_broken(const std::string& what, std::string_view input) {
  std::fprintf(stderr, "fuzz_inputs: %s\n--- input (%zu bytes) ---\n%.*s\n", what.c_str(),
               input.size(), static_cast<int>(input.size()), input.data());
  std::abort();
}

}  // namespace

int fuzz_preset_input(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  Result<hw_model::Platform> p = hw_model::parse_platform(text, "fuzz.toml");
  if (!p.ok()) return 0;
  (void)hw_model::check_strict(*p);
  const std::vector<std::string> keys = hw_model::parameter_keys(*p);
  for (const std::string& k : hw_model::defaulted_keys(*p)) {
    if (std::find(keys.begin(), keys.end(), k) == keys.end())
      invariant_broken("defaulted key '" + k + "' is not a parameter", text);
  }
  // What loads must dump to TOML that loads again to the same platform.
  const std::string dump = hw_model::dump_platform(*p, /*mark_defaults=*/true);
  Result<hw_model::Platform> again = hw_model::parse_platform(dump, "dump.toml");
  if (!again.ok()) invariant_broken("the dump does not load: " + again.error().message, text);
  if (hw_model::dump_platform(*again) != hw_model::dump_platform(*p))
    invariant_broken("the dump loads to a different platform", text);
  return 1;
}

int fuzz_csv_input(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  Result<CsvTable> t = parse_csv(text, "fuzz.csv");
  if (t.ok()) {
    if (t->rows.size() != t->lines.size()) invariant_broken("rows and line numbers differ", text);
    for (size_t r = 0; r < t->rows.size(); ++r) {
      const CsvRow row(*t, r);
      for (const std::string& column : t->header) {
        (void)row.text(column);
        (void)row.number(column);
        (void)row.integer(column);
        (void)row.count(column);
      }
      (void)row.text("no such column");
    }
  }
  int accepted = 0;
  accepted += sim::parse_link_bench(text, "link_bench.csv").ok();
  accepted += sim::parse_notify_bench(text, "notify_bench.csv").ok();
  accepted += sim::parse_proact_micro(text, "micro_g2.csv").ok();
  accepted += proact::parse_choices(text, "proact_choices.csv").ok();
  return accepted;
}

}  // namespace xferlab::fuzz

#if defined(XFERLAB_FUZZ_PRESET) || defined(XFERLAB_FUZZ_CSV)
extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
#ifdef XFERLAB_FUZZ_PRESET
  xferlab::fuzz::fuzz_preset_input(data, size);
#else
  xferlab::fuzz::fuzz_csv_input(data, size);
#endif
  return 0;
}
#endif
