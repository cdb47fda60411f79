// common/number.cc — full-string number parsing (see number.h).
#include "common/number.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace xferlab {
namespace {

template <typename T>
bool parse_all(std::string_view text, T& value) {
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, value);
  return !text.empty() && ec == std::errc() && ptr == end;
}

}  // namespace

Result<int64_t> parse_int(std::string_view text) {
  int64_t v = 0;
  if (!parse_all(text, v)) return make_error("'" + std::string(text) + "' is not an integer");
  return v;
}

Result<uint64_t> parse_uint(std::string_view text) {
  uint64_t v = 0;
  // from_chars rejects a leading '-' for unsigned types.
  if (!parse_all(text, v)) {
    return make_error("'" + std::string(text) + "' is not a non-negative integer");
  }
  return v;
}

Result<double> parse_double(std::string_view text) {
  double v = 0;
  if (!parse_all(text, v) || !std::isfinite(v)) {
    return make_error("'" + std::string(text) + "' is not a number");
  }
  return v;
}

double round_significant(double value, int digits) {
  if (value == 0 || !std::isfinite(value)) return value;
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*e", std::clamp(digits, 1, 17) - 1, value);
  return std::strtod(buf, nullptr);
}

double round_to_uncertainty(double value, double uncertainty) {
  if (!(uncertainty > 0) || !std::isfinite(uncertainty) || value == 0 || !std::isfinite(value))
    return round_significant(value, kFallbackDigits);
  // Digits of `value` down to the uncertainty's second significant digit.
  const int digits = static_cast<int>(std::floor(std::log10(std::fabs(value)))) -
                     static_cast<int>(std::floor(std::log10(uncertainty))) + 2;
  return round_significant(value, std::max(digits, 1));  // a value below its noise keeps 1
}

std::string format_round_trip(double value, int min_digits) {
  char buf[64];
  for (int p = std::max(1, min_digits); p <= 17; ++p) {
    std::snprintf(buf, sizeof buf, "%.*g", p, value);
    if (std::strtod(buf, nullptr) == value) return buf;
  }
  return buf;  // %.17g always reads back (or value is NaN)
}

}  // namespace xferlab
