// common/units.h — parsing quantities written with units at the edges
// (config files, CLI flags) into xferlab's base units.
//
// Base units: time in ns, size in bytes, bandwidth in bytes/s, frequency in Hz,
// rate in 1/s. Strings with units are parsed once here and never travel further.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "common/result.h"

namespace xferlab {

enum class Unit { kTimeNs, kSizeBytes, kBandwidthBytesPerS, kFrequencyHz, kRatePerS, kNone };

// unit_name: human-readable name of a unit kind ("time", "bandwidth", ...).
const char* unit_name(Unit unit);

// unit_examples: accepted spellings for a unit kind, for error messages.
const char* unit_examples(Unit unit);

// parse_quantity: "700ns" -> 700 (kTimeNs); "25GBps" or "25 GB/s" -> 25e9;
// "200Gbps" -> 25e9; "4KiB" -> 4096; "4kB" -> 4000; "1.5GHz" -> 1.5e9;
// "2.5G/s" -> 2.5e9 (kRatePerS). A bare number is rejected unless unit is kNone.
// Errors name the text and the expected unit; callers prefix file/field.
Result<double> parse_quantity(std::string_view text, Unit unit);

// parse_size_list: "1,2,4,4KiB" -> sizes in bytes (bare numbers are bytes).
Result<std::vector<double>> parse_size_list(std::string_view text);

// closest_match: the candidate with the smallest edit distance to `name`, or ""
// when none is reasonably close (used for "did you mean ...?" suggestions).
std::string closest_match(std::string_view name, const std::vector<std::string>& candidates);

// did_you_mean: "; did you mean 'x'?" or "" — appended to unknown-key errors.
std::string did_you_mean(std::string_view name, const std::vector<std::string>& candidates);

}  // namespace xferlab
