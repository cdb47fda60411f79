// traces/fuzz_reader.h — the reader fuzz harness, shared by the libFuzzer
// build (tools/fuzz_traces.sh) and the replay test (malformed_test).
#pragma once

#include <cstddef>
#include <cstdint>

namespace xferlab::traces {

// fuzz_one_input: treat `data` as a trace file and exercise everything that
// reads one: open (both strict and forgiving), streaming, random access, time
// windows, semantic check and Perfetto export. Must never crash, hang or
// allocate without bound whatever the bytes; errors are the expected outcome.
// Returns the number of events streamed (so callers can tell accepted input).
uint64_t fuzz_one_input(const uint8_t* data, size_t size);

}  // namespace xferlab::traces
