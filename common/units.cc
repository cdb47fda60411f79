// common/units.cc — unit parsing and closest-match suggestions.
#include "common/units.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <string>
#include <utility>

namespace xferlab {
namespace {

struct Suffix {
  std::string_view text;
  double factor;
};

// Longest suffixes first within each table so that "GBps" wins over "Bps".
constexpr Suffix kTime[] = {{"ns", 1.0}, {"us", 1e3},  {"µs", 1e3},  {"ms", 1e6},
                            {"s", 1e9},  {"ps", 1e-3}, {"min", 60e9}};
constexpr Suffix kSize[] = {{"B", 1.0},
                            {"kB", 1e3},
                            {"KB", 1e3},
                            {"MB", 1e6},
                            {"GB", 1e9},
                            {"TB", 1e12},
                            {"KiB", 1024.0},
                            {"MiB", 1048576.0},
                            {"GiB", 1073741824.0},
                            {"TiB", 1099511627776.0}};
constexpr Suffix kBandwidth[] = {
    {"Bps", 1.0},         {"kBps", 1e3},           {"KBps", 1e3},
    {"MBps", 1e6},        {"GBps", 1e9},           {"TBps", 1e12},
    {"B/s", 1.0},         {"kB/s", 1e3},           {"KB/s", 1e3},
    {"MB/s", 1e6},        {"GB/s", 1e9},           {"TB/s", 1e12},
    {"bps", 0.125},       {"kbps", 125.0},         {"Mbps", 1.25e5},
    {"Gbps", 1.25e8},     {"Tbps", 1.25e11},       {"b/s", 0.125},
    {"kb/s", 125.0},      {"Mb/s", 1.25e5},        {"Gb/s", 1.25e8},
    {"Tb/s", 1.25e11},    {"GiBps", 1073741824.0}, {"GiB/s", 1073741824.0},
    {"MiBps", 1048576.0}, {"MiB/s", 1048576.0}};
constexpr Suffix kFrequency[] = {{"Hz", 1.0}, {"kHz", 1e3}, {"MHz", 1e6}, {"GHz", 1e9}};
constexpr Suffix kRate[] = {{"/s", 1.0},    {"k/s", 1e3},  {"M/s", 1e6},  {"G/s", 1e9},
                            {"per_s", 1.0}, {"Mpps", 1e6}, {"Gpps", 1e9}, {"pps", 1.0}};

template <size_t N>
const Suffix* find_suffix(const Suffix (&table)[N], std::string_view s) {
  for (const Suffix& suffix : table)
    if (suffix.text == s) return &suffix;
  return nullptr;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

const Suffix* lookup(Unit unit, std::string_view s) {
  switch (unit) {
    case Unit::kTimeNs: return find_suffix(kTime, s);
    case Unit::kSizeBytes: return find_suffix(kSize, s);
    case Unit::kBandwidthBytesPerS: return find_suffix(kBandwidth, s);
    case Unit::kFrequencyHz: return find_suffix(kFrequency, s);
    case Unit::kRatePerS: return find_suffix(kRate, s);
    case Unit::kNone: return nullptr;
  }
  return nullptr;
}

size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diag = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t up = row[j];
      size_t cost = std::tolower(static_cast<unsigned char>(a[i - 1])) ==
                            std::tolower(static_cast<unsigned char>(b[j - 1]))
                        ? 0
                        : 1;
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + cost});
      diag = up;
    }
  }
  return row[b.size()];
}

}  // namespace

const char* unit_name(Unit unit) {
  switch (unit) {
    case Unit::kTimeNs: return "time";
    case Unit::kSizeBytes: return "size";
    case Unit::kBandwidthBytesPerS: return "bandwidth";
    case Unit::kFrequencyHz: return "frequency";
    case Unit::kRatePerS: return "rate";
    case Unit::kNone: return "number";
  }
  return "number";
}

const char* unit_examples(Unit unit) {
  switch (unit) {
    case Unit::kTimeNs: return "e.g. 700ns, 1.5us, 2ms";
    case Unit::kSizeBytes: return "e.g. 64B, 4KiB, 256MB";
    case Unit::kBandwidthBytesPerS: return "e.g. 25GBps, 25GB/s, 200Gbps";
    case Unit::kFrequencyHz: return "e.g. 1.98GHz";
    case Unit::kRatePerS: return "e.g. 2.5G/s, 100M/s";
    case Unit::kNone: return "a plain number";
  }
  return "";
}

Result<double> parse_quantity(std::string_view text, Unit unit) {
  std::string_view s = trim(text);
  double value = 0;
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
  if (ec != std::errc() || ptr == s.data()) {
    return make_error("'" + std::string(text) + "' is not a " + unit_name(unit) + " (" +
                      unit_examples(unit) + ")");
  }
  if (!std::isfinite(value)) {
    return make_error("'" + std::string(text) + "' is not a finite number");
  }
  std::string_view rest = trim(s.substr(static_cast<size_t>(ptr - s.data())));
  if (unit == Unit::kNone) {
    if (!rest.empty()) return make_error("'" + std::string(text) + "' should be a plain number");
    return value;
  }
  if (rest.empty()) {
    return make_error("'" + std::string(text) + "' has no unit; write a " + unit_name(unit) +
                      " with its unit (" + unit_examples(unit) + ")");
  }
  const Suffix* suffix = lookup(unit, rest);
  if (suffix == nullptr) {
    return make_error("'" + std::string(text) + "': unknown " + unit_name(unit) + " unit '" +
                      std::string(rest) + "' (" + unit_examples(unit) + ")");
  }
  return value * suffix->factor;
}

Result<std::vector<double>> parse_size_list(std::string_view text) {
  std::vector<double> out;
  size_t start = 0;
  while (start <= text.size()) {
    size_t comma = text.find(',', start);
    if (comma == std::string_view::npos) comma = text.size();
    std::string_view item = trim(text.substr(start, comma - start));
    if (item.empty()) return make_error("empty entry in list '" + std::string(text) + "'");
    bool bare = std::all_of(item.begin(), item.end(), [](char c) {
      return std::isdigit(static_cast<unsigned char>(c)) || c == '.';
    });
    Result<double> v = parse_quantity(item, bare ? Unit::kNone : Unit::kSizeBytes);
    if (!v.ok()) return v.error();
    if (*v < 0) return make_error("negative size '" + std::string(item) + "'");
    out.push_back(*v);
    start = comma + 1;
  }
  return out;
}

std::string closest_match(std::string_view name, const std::vector<std::string>& candidates) {
  std::string best;
  size_t best_distance = std::string::npos;
  for (const std::string& c : candidates) {
    size_t d = edit_distance(name, c);
    if (d < best_distance) {
      best_distance = d;
      best = c;
    }
  }
  // Accept suggestions within about a third of the name's length.
  size_t limit = std::max<size_t>(2, name.size() / 3 + 1);
  return best_distance <= limit ? best : std::string();
}

std::string did_you_mean(std::string_view name, const std::vector<std::string>& candidates) {
  std::string best = closest_match(name, candidates);
  return best.empty() ? std::string() : "; did you mean '" + best + "'?";
}

}  // namespace xferlab
