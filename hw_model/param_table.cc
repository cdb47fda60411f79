// hw_model/param_table.cc — text forms of parameter values (units, counts,
// booleans) shared by preset parsing, --set and dumps.
#include "hw_model/param_table.h"

#include <charconv>
#include <cmath>
#include <cstdlib>

#include "common/number.h"

namespace xferlab::hw_model {
namespace {

struct Suffix {
  const char* text;
  double factor;
};

// Preferred spellings, largest first; every one is accepted by parse_quantity.
constexpr Suffix kTime[] = {{"s", 1e9}, {"ms", 1e6}, {"us", 1e3}, {"ns", 1}};
// Sizes: binary prefixes for exact multiples of 1024 (4KiB), decimal otherwise.
constexpr Suffix kSizeBinary[] = {{"GiB", 1073741824.0}, {"MiB", 1048576.0}, {"KiB", 1024.0}};
constexpr Suffix kSizeDecimal[] = {{"TB", 1e12}, {"GB", 1e9}, {"MB", 1e6}, {"kB", 1e3}, {"B", 1}};
constexpr Suffix kBandwidth[] = {
    {"TBps", 1e12}, {"GBps", 1e9}, {"MBps", 1e6}, {"kBps", 1e3}, {"Bps", 1}};
constexpr Suffix kFrequency[] = {{"GHz", 1e9}, {"MHz", 1e6}, {"kHz", 1e3}, {"Hz", 1}};
constexpr Suffix kRate[] = {{"G/s", 1e9}, {"M/s", 1e6}, {"k/s", 1e3}, {"/s", 1}};

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

template <size_t N>
std::string pick(const Suffix (&table)[N], double value) {
  for (const Suffix& s : table) {
    double scaled = value / s.factor;
    if (std::fabs(scaled) < 1 && s.factor != 1) continue;
    std::string number = format_plain(scaled);
    std::string text = number + s.text;
    if (std::strtod(number.c_str(), nullptr) * s.factor == value) return text;
  }
  return format_plain(value) + table[N - 1].text;
}

}  // namespace

std::string format_plain(double value) {
  // Enough digits for the integer part, so 400 prints as "400", not "4e+02".
  double magnitude = value != 0 ? std::floor(std::log10(std::fabs(value))) : 0;
  int first = magnitude >= 0 && magnitude < 15 ? static_cast<int>(magnitude) + 1 : 1;
  return format_round_trip(value, first);
}

std::string format_quantity(double value, Unit unit) {
  if (value == 0) {
    switch (unit) {
      case Unit::kTimeNs: return "0ns";
      case Unit::kSizeBytes: return "0B";
      case Unit::kBandwidthBytesPerS: return "0Bps";
      case Unit::kFrequencyHz: return "0Hz";
      case Unit::kRatePerS: return "0/s";
      case Unit::kNone: return "0";
    }
  }
  switch (unit) {
    case Unit::kTimeNs: return pick(kTime, value);
    case Unit::kSizeBytes: {
      // The shorter of the decimal form and an exact binary one ("16GB", "4KiB").
      std::string best = pick(kSizeDecimal, value);
      for (const Suffix& s : kSizeBinary) {
        double scaled = value / s.factor;
        std::string text = format_plain(scaled) + s.text;
        if (std::fabs(scaled) >= 1 && scaled == std::floor(scaled) && text.size() < best.size())
          best = text;
      }
      return best;
    }
    case Unit::kBandwidthBytesPerS: return pick(kBandwidth, value);
    case Unit::kFrequencyHz: return pick(kFrequency, value);
    case Unit::kRatePerS: return pick(kRate, value);
    case Unit::kNone: return format_plain(value);
  }
  return format_plain(value);
}

Plausible unit_plausible_range(Unit unit) {
  switch (unit) {
    case Unit::kTimeNs: return {0, 1e9};
    case Unit::kSizeBytes: return {0, 1e13};
    case Unit::kBandwidthBytesPerS: return {0, 1e14};
    case Unit::kFrequencyHz: return {1e6, 1e10};
    case Unit::kRatePerS: return {0, 1e12};
    case Unit::kNone: return {0, 1e9};
  }
  return {0, 1e9};
}

Result<double> parse_plain_number(std::string_view text) {
  return parse_quantity(text, Unit::kNone);
}

Result<int64_t> parse_count(std::string_view text) {
  std::string_view s = trim(text);
  int64_t value = 0;
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
  if (ec != std::errc() || ptr != s.data() + s.size() || s.empty()) {
    return make_error("'" + std::string(text) + "' is not a whole number");
  }
  return value;
}

Result<bool> parse_bool(std::string_view text) {
  std::string_view s = trim(text);
  if (s == "true") return true;
  if (s == "false") return false;
  return make_error("'" + std::string(text) + "' is not true or false");
}

}  // namespace xferlab::hw_model
