// traces/chunk_table_json.cc — a strict reader of the usual "chunks" table
// form (see the header); anything else is left to nlohmann.
#include "traces/chunk_table_json.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>

namespace xferlab::traces {

namespace {

bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r';  // JSON's whitespace only
}

// Scanner: a cursor over JSON text; every method returns false where the
// text is not the form it reads (the caller then gives up).
struct Scanner {
  std::string_view s;
  size_t i = 0;

  void space() {
    while (i < s.size() && is_space(s[i])) ++i;
  }
  bool eat(char c) {
    space();
    if (i >= s.size() || s[i] != c) return false;
    ++i;
    return true;
  }
  // string: the raw text between the quotes; *escaped when it holds a '\'.
  bool string(std::string_view* out, bool* escaped) {
    if (!eat('"')) return false;
    const size_t begin = i;
    *escaped = false;
    while (i < s.size() && s[i] != '"') {
      if (s[i] == '\\') *escaped = true, ++i;
      ++i;
    }
    if (i >= s.size()) return false;
    *out = s.substr(begin, i - begin);
    ++i;
    return true;
  }
  // skip_value: past one value, brackets matched outside strings; whether
  // it is valid JSON is the parser's to say.
  bool skip_value() {
    space();
    if (i >= s.size()) return false;
    std::string_view text;
    bool escaped = false;
    if (s[i] == '"') return string(&text, &escaped);
    if (s[i] != '{' && s[i] != '[') {
      const size_t begin = i;
      while (i < s.size() && s[i] != ',' && s[i] != '}' && s[i] != ']' && !is_space(s[i])) ++i;
      return i > begin;
    }
    std::string closers;
    do {
      if (i >= s.size()) return false;
      const char c = s[i];
      if (c == '"') {
        if (!string(&text, &escaped)) return false;
        continue;
      }
      if (c == '{' || c == '[') closers.push_back(c == '{' ? '}' : ']');
      if (c == '}' || c == ']') {
        if (closers.back() != c) return false;
        closers.pop_back();
      }
      ++i;
    } while (!closers.empty());
    return true;
  }
  // unsigned_integer: JSON's integer form without sign, fraction or exponent
  // (0 or no leading zero), at most `max`.
  bool unsigned_integer(uint64_t max, uint64_t* out) {
    space();
    const size_t begin = i;
    uint64_t v = 0;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') {
      const uint64_t digit = static_cast<uint64_t>(s[i] - '0');
      if (v > (max - digit) / 10) return false;
      v = v * 10 + digit;
      ++i;
    }
    if (i == begin || (s[begin] == '0' && i - begin > 1)) return false;
    if (i < s.size() && (s[i] == '.' || s[i] == 'e' || s[i] == 'E')) return false;
    *out = v;
    return true;
  }
};

// chunk_object: one table entry; unknown or repeated keys, and values that
// are not unsigned integers in range, are refused.
bool chunk_object(Scanner& sc, ChunkInfo* c) {
  static constexpr std::string_view kKeys[] = {"id",         "gpu",     "offset_bytes",
                                               "size_bytes", "writers", "destinations"};
  constexpr uint64_t k32 = std::numeric_limits<uint32_t>::max();
  constexpr uint64_t k64 = std::numeric_limits<uint64_t>::max();
  if (!sc.eat('{')) return false;
  if (sc.eat('}')) return true;
  unsigned seen = 0;
  do {
    std::string_view key;
    bool escaped = false;
    if (!sc.string(&key, &escaped) || escaped || !sc.eat(':')) return false;
    const auto* k = std::find(std::begin(kKeys), std::end(kKeys), key);
    const auto field = static_cast<unsigned>(k - std::begin(kKeys));
    if (k == std::end(kKeys) || (seen & (1u << field)) != 0) return false;
    seen |= 1u << field;
    uint64_t v = 0;
    const bool narrow = field == 0 || field == 1 || field == 4;  // uint32_t fields
    if (!sc.unsigned_integer(narrow ? k32 : k64, &v)) return false;
    switch (field) {
      case 0: c->id = static_cast<uint32_t>(v); break;
      case 1: c->gpu = static_cast<uint32_t>(v); break;
      case 2: c->offset_bytes = v; break;
      case 3: c->size_bytes = v; break;
      case 4: c->writers = static_cast<uint32_t>(v); break;
      default: c->destinations = v; break;
    }
  } while (sc.eat(','));
  return sc.eat('}');
}

}  // namespace

std::optional<std::pair<size_t, size_t>> top_level_value(std::string_view text,
                                                         std::string_view key) {
  Scanner sc{text};
  if (!sc.eat('{') || sc.eat('}')) return std::nullopt;
  std::optional<std::pair<size_t, size_t>> found;
  do {
    std::string_view k;
    bool escaped = false;
    // An escaped key might spell `key`: leave such text to the parser.
    if (!sc.string(&k, &escaped) || escaped || !sc.eat(':')) return std::nullopt;
    sc.space();
    const size_t begin = sc.i;
    if (!sc.skip_value()) return std::nullopt;
    if (k == key) {
      if (found) return std::nullopt;  // twice: which one counts is the parser's rule
      found = std::make_pair(begin, sc.i);
    }
  } while (sc.eat(','));
  if (!sc.eat('}')) return std::nullopt;
  return found;
}

std::optional<std::vector<ChunkInfo>> plain_chunk_table(std::string_view array) {
  Scanner sc{array};
  if (!sc.eat('[')) return std::nullopt;
  std::vector<ChunkInfo> out;
  if (!sc.eat(']')) {
    do {
      ChunkInfo c;
      if (!chunk_object(sc, &c)) return std::nullopt;
      out.push_back(c);
    } while (sc.eat(','));
    if (!sc.eat(']')) return std::nullopt;
  }
  sc.space();
  if (sc.i != array.size()) return std::nullopt;
  std::vector<uint32_t> ids;
  ids.reserve(out.size());
  for (const ChunkInfo& c : out) ids.push_back(c.id);
  std::sort(ids.begin(), ids.end());
  if (std::adjacent_find(ids.begin(), ids.end()) != ids.end()) return std::nullopt;
  return out;
}

}  // namespace xferlab::traces
