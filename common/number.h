// common/number.h — full-string number parsing (std::from_chars): the whole
// text must be the number, so "12x", "" or " 3" are errors instead of the 0
// or 12 that atoi/strtod would return. Callers add where the text came from.
// The one shortest round-trip number formatter, and rounding to the digits a
// measured value carries.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "common/result.h"

namespace xferlab {

// parse_int: a decimal integer ("-12"); error "'TEXT' is not an integer".
Result<int64_t> parse_int(std::string_view text);
// parse_uint: a non-negative decimal integer; error "'TEXT' is not a
// non-negative integer".
Result<uint64_t> parse_uint(std::string_view text);
// parse_double: a finite decimal or scientific number ("1.5", "2e-3");
// error "'TEXT' is not a number".
Result<double> parse_double(std::string_view text);

// round_significant: the double nearest `value` written with `digits`
// significant decimal digits (round_significant(0.91353928, 4) = 0.9135), so
// format_round_trip prints exactly those digits. 0, inf and NaN unchanged.
double round_significant(double value, int digits);
// round_to_uncertainty: `value` rounded where its uncertainty's second
// significant digit stands (5622.27 ± 31.4 -> 5622; 0.913539 ± 0.00012 ->
// 0.91354): digits beyond that carry no information; a value smaller than
// that keeps one digit. An uncertainty that is not > 0 or finite rounds to
// kFallbackDigits significant digits.
inline constexpr int kFallbackDigits = 4;
double round_to_uncertainty(double value, double uncertainty);

// format_round_trip: the "%.Pg" text of `value` with the fewest digits P
// (min_digits <= P <= 17) that reads back as exactly `value`.
std::string format_round_trip(double value, int min_digits);

}  // namespace xferlab
