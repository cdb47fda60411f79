// common/csv.cc — RFC 4180 reader (see csv.h).
#include "common/csv.h"

#include <fstream>
#include <sstream>

#include "common/number.h"

namespace xferlab {
namespace {

std::string_view trim_spaces(std::string_view s) {
  while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
  while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
  return s;
}

// Parser: one record at a time from `text`, tracking the line number.
class Parser {
 public:
  Parser(std::string_view text, std::string file) : text_(text), file_(std::move(file)) {}
  bool done() const { return pos_ >= text_.size(); }
  int line() const { return line_; }

  // next: the fields of the next record, or empty for a blank/comment line.
  Result<std::vector<std::string>> next() {
    std::vector<std::string> fields;
    if (text_[pos_] == '#' || text_[pos_] == '\n' || text_.substr(pos_, 2) == "\r\n") {
      skip_line();
      return fields;
    }
    while (true) {
      Result<std::string> f = field();
      if (!f.ok()) return f.error();
      fields.push_back(std::move(*f));
      if (pos_ >= text_.size()) break;
      const char c = text_[pos_++];
      if (c == ',') continue;
      if (c == '\r' && pos_ < text_.size() && text_[pos_] == '\n') ++pos_;
      ++line_;
      break;
    }
    return fields;
  }

 private:
  void skip_line() {
    const size_t nl = text_.find('\n', pos_);
    pos_ = nl == std::string_view::npos ? text_.size() : nl + 1;
    ++line_;
  }

  Result<std::string> field() {
    size_t start = pos_;
    while (pos_ < text_.size() && text_[pos_] == ' ') ++pos_;
    if (pos_ >= text_.size() || text_[pos_] != '"') {
      pos_ = start;
      while (pos_ < text_.size() && text_[pos_] != ',' && text_[pos_] != '\n' &&
             text_[pos_] != '\r') {
        if (text_[pos_] == '"') return error("quote inside an unquoted field");
        ++pos_;
      }
      return std::string(trim_spaces(text_.substr(start, pos_ - start)));
    }
    const int open_line = line_;
    std::string out;
    for (++pos_;; ++pos_) {
      if (pos_ >= text_.size()) {
        return make_error(file_ + ":" + std::to_string(open_line) + ": unterminated quoted field");
      }
      const char c = text_[pos_];
      if (c == '"') {
        if (pos_ + 1 < text_.size() && text_[pos_ + 1] == '"') {
          out += '"';
          ++pos_;
          continue;
        }
        ++pos_;
        break;
      }
      if (c == '\n') ++line_;
      out += c;
    }
    while (pos_ < text_.size() && text_[pos_] == ' ') ++pos_;
    if (pos_ < text_.size() && text_[pos_] != ',' && text_[pos_] != '\n' && text_[pos_] != '\r') {
      return error("text after a closing quote");
    }
    return out;
  }

  Error error(const std::string& what) const {
    return make_error(file_ + ":" + std::to_string(line_) + ": " + what);
  }

  std::string_view text_;
  std::string file_;
  size_t pos_ = 0;
  int line_ = 1;
};

}  // namespace

int CsvTable::column(std::string_view name) const {
  for (size_t i = 0; i < header.size(); ++i) {
    if (header[i] == name) return static_cast<int>(i);
  }
  return -1;
}

Status CsvTable::require(std::initializer_list<std::string_view> names) const {
  return require(std::span<const std::string_view>(names.begin(), names.size()));
}

Status CsvTable::require(std::span<const std::string_view> names) const {
  for (std::string_view name : names) {
    if (column(name) < 0) {
      return make_error(file + ":" + std::to_string(header_line) + ": missing column '" +
                        std::string(name) + "' in the header");
    }
  }
  return Status::Ok();
}

Result<CsvTable> parse_csv(std::string_view text, std::string_view file_name) {
  CsvTable t;
  t.file = std::string(file_name);
  Parser p(text, t.file);
  bool have_header = false;
  while (!p.done()) {
    const int line = p.line();
    Result<std::vector<std::string>> fields = p.next();
    if (!fields.ok()) return fields.error();
    if (fields->empty()) continue;
    if (!have_header) {
      t.header = std::move(*fields);
      t.header_line = line;
      have_header = true;
      continue;
    }
    t.rows.push_back(std::move(*fields));
    t.lines.push_back(line);
  }
  if (!have_header) return make_error(t.file + ":1: empty file (no header row)");
  return t;
}

Result<CsvTable> read_csv_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return make_error(path + ": cannot open");
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad()) return make_error(path + ": read error");
  return parse_csv(ss.str(), path);
}

Error CsvRow::error(std::string_view column, const std::string& problem) const {
  return make_error(table_.file + ":" + std::to_string(line()) + ": column '" +
                    std::string(column) + "': " + problem);
}

Result<std::string> CsvRow::text(std::string_view column) const {
  const int index = table_.column(column);
  if (index < 0) return error(column, "not in the header");
  const std::vector<std::string>& fields = table_.rows[row_];
  if (static_cast<size_t>(index) >= fields.size()) {
    return error(column, "missing (row has " + std::to_string(fields.size()) + " fields)");
  }
  return fields[static_cast<size_t>(index)];
}

Result<double> CsvRow::number(std::string_view column) const {
  Result<std::string> t = text(column);
  if (!t.ok()) return t.error();
  Result<double> v = parse_double(*t);
  if (!v.ok()) return error(column, v.error().message);
  return *v;
}

Result<int64_t> CsvRow::integer(std::string_view column) const {
  Result<std::string> t = text(column);
  if (!t.ok()) return t.error();
  Result<int64_t> v = parse_int(*t);
  if (!v.ok()) return error(column, v.error().message);
  return *v;
}

Result<uint64_t> CsvRow::count(std::string_view column) const {
  Result<std::string> t = text(column);
  if (!t.ok()) return t.error();
  Result<uint64_t> v = parse_uint(*t);
  if (!v.ok()) return error(column, v.error().message);
  return *v;
}

}  // namespace xferlab
