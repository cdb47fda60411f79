// common/table.h — Table: rows of named columns rendered as an aligned text
// table, CSV or JSON, so every CLI command offers the same --format choices.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "common/result.h"

namespace xferlab {

enum class OutputFormat { kTable, kCsv, kJson };

// parse_output_format: "table" | "csv" | "json".
Result<OutputFormat> parse_output_format(std::string_view text);

// Table: a tidy table. Numeric cells keep full precision in CSV/JSON and are
// printed with the column's significant digits in text.
class Table {
 public:
  using Cell = std::variant<std::string, double, int64_t>;

  // Column: name (snake_case with unit, e.g. "time_ns") and text precision.
  struct Column {
    std::string name;
    int significant_digits = 4;
  };

  explicit Table(std::vector<Column> columns);

  // add_row: one cell per column (checked).
  void add_row(std::vector<Cell> cells);

  size_t num_rows() const { return rows_.size(); }
  const std::vector<Column>& columns() const { return columns_; }
  const std::vector<std::vector<Cell>>& rows() const { return rows_; }

  void write(std::ostream& out, OutputFormat format) const;
  void write_text(std::ostream& out) const;
  void write_csv(std::ostream& out) const;
  void write_json(std::ostream& out) const;

 private:
  std::vector<Column> columns_;
  std::vector<std::vector<Cell>> rows_;
};

// json_escape: a JSON string literal body for `s` (no surrounding quotes).
std::string json_escape(std::string_view s);

// format_number: `value` with `significant_digits` (no exponent for ordinary
// magnitudes), as used in text tables.
std::string format_number(double value, int significant_digits);

}  // namespace xferlab
