// tests/fuzz_inputs.h — fuzz harnesses for the text inputs other than traces
// (traces/fuzz_reader.h): platform presets (TOML, hw_model/platform.h) and
// CSV files (common/csv.h; the calibrate inputs, sim/bench_csv.h; proact's
// choice file, native/proact/results.h). Each takes arbitrary bytes and must
// return: a crash, hang or sanitizer report is a finding, and so is a broken
// invariant (checked here, reported by abort with a message on stderr).
// tools/fuzz_inputs.sh runs them under libFuzzer; //tests:fuzz_corpus_test
// replays the committed corpus and seeded mutations in CI.
#pragma once

#include <cstddef>
#include <cstdint>

namespace xferlab::fuzz {

// fuzz_preset_input: parse_platform of the bytes; when it loads, its dump must
// load again to the same dump, and --strict / defaulted_keys must answer.
// Returns 1 when the text loaded.
int fuzz_preset_input(const uint8_t* data, size_t size);

// fuzz_csv_input: parse_csv and every field of every row read as text,
// number, integer and count; then the link_bench, notify_bench, PROACT micro
// and proact choice-file parsers. Returns how many of the four accepted it.
int fuzz_csv_input(const uint8_t* data, size_t size);

}  // namespace xferlab::fuzz
