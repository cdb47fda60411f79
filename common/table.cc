// common/table.cc — text/CSV/JSON rendering of Table.
#include "common/table.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "common/number.h"

namespace xferlab {
namespace {

std::string cell_text(const Table::Cell& cell, int digits) {
  if (const auto* s = std::get_if<std::string>(&cell)) return *s;
  if (const auto* i = std::get_if<int64_t>(&cell)) return std::to_string(*i);
  return format_number(std::get<double>(cell), digits);
}

std::string cell_exact(const Table::Cell& cell) {
  if (const auto* s = std::get_if<std::string>(&cell)) return *s;
  if (const auto* i = std::get_if<int64_t>(&cell)) return std::to_string(*i);
  double v = std::get<double>(cell);
  if (!std::isfinite(v)) return "";
  return format_round_trip(v, 6);
}

}  // namespace

Result<OutputFormat> parse_output_format(std::string_view text) {
  if (text == "table") return OutputFormat::kTable;
  if (text == "csv") return OutputFormat::kCsv;
  if (text == "json") return OutputFormat::kJson;
  return make_error("--format: '" + std::string(text) + "' is not one of table, csv, json");
}

std::string format_number(double value, int significant_digits) {
  if (std::isnan(value)) return "-";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  if (value == 0) return "0";
  double magnitude = std::floor(std::log10(std::fabs(value)));
  char buf[64];
  if (magnitude >= 15 || magnitude < -4) {
    std::snprintf(buf, sizeof buf, "%.*e", std::max(0, significant_digits - 1), value);
  } else {
    int decimals = std::max(0, significant_digits - 1 - static_cast<int>(magnitude));
    std::snprintf(buf, sizeof buf, "%.*f", decimals, value);
  }
  return buf;
}

Table::Table(std::vector<Column> columns) : columns_(std::move(columns)) {}

void Table::add_row(std::vector<Cell> cells) {
  if (cells.size() != columns_.size()) {
    std::fprintf(stderr, "%s:%d: Table::add_row: %zu cells for %zu columns\n", __FILE__, __LINE__,
                 cells.size(), columns_.size());
    std::abort();
  }
  rows_.push_back(std::move(cells));
}

void Table::write(std::ostream& out, OutputFormat format) const {
  switch (format) {
    case OutputFormat::kTable: write_text(out); break;
    case OutputFormat::kCsv: write_csv(out); break;
    case OutputFormat::kJson: write_json(out); break;
  }
}

void Table::write_text(std::ostream& out) const {
  std::vector<std::vector<std::string>> text(rows_.size());
  std::vector<size_t> width(columns_.size());
  for (size_t c = 0; c < columns_.size(); ++c) width[c] = columns_[c].name.size();
  for (size_t r = 0; r < rows_.size(); ++r) {
    for (size_t c = 0; c < columns_.size(); ++c) {
      text[r].push_back(cell_text(rows_[r][c], columns_[c].significant_digits));
      width[c] = std::max(width[c], text[r][c].size());
    }
  }
  auto pad = [&](const std::string& s, size_t w, bool right) {
    std::string fill(w - s.size(), ' ');
    return right ? fill + s : s + fill;
  };
  for (size_t c = 0; c < columns_.size(); ++c) {
    bool numeric = !rows_.empty() && !std::holds_alternative<std::string>(rows_[0][c]);
    out << (c ? "  " : "") << pad(columns_[c].name, width[c], numeric);
  }
  out << '\n';
  for (size_t r = 0; r < rows_.size(); ++r) {
    for (size_t c = 0; c < columns_.size(); ++c) {
      bool numeric = !std::holds_alternative<std::string>(rows_[r][c]);
      out << (c ? "  " : "") << pad(text[r][c], width[c], numeric);
    }
    out << '\n';
  }
}

void Table::write_csv(std::ostream& out) const {
  auto quote = [](const std::string& s) {
    if (s.find_first_of(",\"\n") == std::string::npos) return s;
    std::string q = "\"";
    for (char ch : s) q += ch == '"' ? std::string("\"\"") : std::string(1, ch);
    return q + "\"";
  };
  for (size_t c = 0; c < columns_.size(); ++c) out << (c ? "," : "") << quote(columns_[c].name);
  out << '\n';
  for (const auto& row : rows_) {
    for (size_t c = 0; c < columns_.size(); ++c) out << (c ? "," : "") << quote(cell_exact(row[c]));
    out << '\n';
  }
}

void Table::write_json(std::ostream& out) const {
  out << "[";
  for (size_t r = 0; r < rows_.size(); ++r) {
    out << (r ? ",\n " : "\n ") << "{";
    for (size_t c = 0; c < columns_.size(); ++c) {
      out << (c ? ", " : "") << '"' << json_escape(columns_[c].name) << "\": ";
      const Cell& cell = rows_[r][c];
      if (const auto* s = std::get_if<std::string>(&cell)) {
        out << '"' << json_escape(*s) << '"';
      } else {
        std::string v = cell_exact(cell);
        out << (v.empty() ? "null" : v);
      }
    }
    out << "}";
  }
  out << (rows_.empty() ? "]\n" : "\n]\n");
}

std::string json_escape(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (char ch : s) {
    switch (ch) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (static_cast<unsigned char>(ch) < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", ch);
          out += buf;
        } else {
          out += ch;
        }
    }
  }
  return out;
}

}  // namespace xferlab
