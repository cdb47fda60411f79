// common/number.h — full-string number parsing (std::from_chars): the whole
// text must be the number, so "12x", "" or " 3" are errors instead of the 0
// or 12 that atoi/strtod would return. Callers add where the text came from.
// And the one shortest round-trip number formatter.
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

// format_round_trip: the "%.Pg" text of `value` with the fewest digits P
// (min_digits <= P <= 17) that reads back as exactly `value`.
std::string format_round_trip(double value, int min_digits);

}  // namespace xferlab
