// common/csv.h — CsvTable: the one CSV reader. RFC 4180 as common/table.cc
// writes it: fields separated by ',', a field in double quotes may hold
// commas, newlines and "" (one quote); CRLF or LF line ends. Also accepted,
// for hand-written files: blank lines and lines starting with '#' are
// skipped, and spaces around an unquoted field are dropped. The first row is
// the header. Errors name the file and line.
#pragma once

#include <initializer_list>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "common/result.h"

namespace xferlab {

struct CsvTable {
  std::string file;                            ///< for error messages.
  std::vector<std::string> header;             ///< column names.
  int header_line = 1;                         ///< line of the header.
  std::vector<std::vector<std::string>> rows;  ///< data rows (may be short or long).
  std::vector<int> lines;                      ///< line where each row starts (1-based).

  // column: index of `name` in the header, or -1.
  int column(std::string_view name) const;
  // require: an error "FILE:LINE: missing column 'NAME' in the header" for
  // the first absent name.
  Status require(std::initializer_list<std::string_view> names) const;
  Status require(std::span<const std::string_view> names) const;
};

// parse_csv: `text` of a file called `file_name`. Errors: no header, a quote
// left open, text after a closing quote.
Result<CsvTable> parse_csv(std::string_view text, std::string_view file_name);
// read_csv_file: parse_csv of the file's contents; error if it cannot be read.
Result<CsvTable> read_csv_file(const std::string& path);

// CsvRow: one row's fields by column name, with errors
// "FILE:LINE: column 'NAME': PROBLEM".
class CsvRow {
 public:
  CsvRow(const CsvTable& table, size_t row) : table_(table), row_(row) {}
  int line() const { return table_.lines[row_]; }
  // text: the field; error if the column is absent or the row too short.
  Result<std::string> text(std::string_view column) const;
  // number / integer / count: text() through common/number.h (count: >= 0).
  Result<double> number(std::string_view column) const;
  Result<int64_t> integer(std::string_view column) const;
  Result<uint64_t> count(std::string_view column) const;
  // error: a message naming this row and `column`.
  Error error(std::string_view column, const std::string& problem) const;

 private:
  const CsvTable& table_;
  size_t row_;
};

}  // namespace xferlab
