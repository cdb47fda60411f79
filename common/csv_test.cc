// Tests for the CSV reader: it reads back what common/table.cc writes
// (quotes, commas, newlines, "" escapes), and bad files give one-line errors
// naming file, line and column.
#include "common/csv.h"

#include <gtest/gtest.h>

#include <sstream>

#include "common/table.h"

namespace xferlab {
namespace {

TEST(Csv, ReadsWhatTableWrites) {
  Table t({{"name"}, {"note"}, {"value"}});
  t.add_row({std::string("a,b"), std::string("say \"hi\"\nthen go"), 1.5});
  t.add_row({std::string("plain"), std::string(""), int64_t{7}});
  std::ostringstream os;
  t.write(os, OutputFormat::kCsv);
  Result<CsvTable> c = parse_csv(os.str(), "t.csv");
  ASSERT_TRUE(c.ok()) << c.error().message;
  ASSERT_EQ(c->header, (std::vector<std::string>{"name", "note", "value"}));
  ASSERT_EQ(c->rows.size(), 2u);
  EXPECT_EQ(c->rows[0][0], "a,b");
  EXPECT_EQ(c->rows[0][1], "say \"hi\"\nthen go");
  EXPECT_EQ(c->lines[1], 4);  // the quoted newline counts
  EXPECT_DOUBLE_EQ(*CsvRow(*c, 0).number("value"), 1.5);
  EXPECT_EQ(*CsvRow(*c, 1).integer("value"), 7);
}

TEST(Csv, CommentsBlankLinesCrlfAndSpaces) {
  Result<CsvTable> c = parse_csv("# made by hand\r\na, b\r\n\r\n 1 , 2\r\n", "h.csv");
  ASSERT_TRUE(c.ok()) << c.error().message;
  EXPECT_EQ(c->header, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(c->header_line, 2);
  ASSERT_EQ(c->rows.size(), 1u);
  EXPECT_EQ(c->rows[0], (std::vector<std::string>{"1", "2"}));
  EXPECT_EQ(c->lines[0], 4);
}

TEST(Csv, ErrorsNameFileLineAndColumn) {
  EXPECT_EQ(parse_csv("", "e.csv").error().message, "e.csv:1: empty file (no header row)");
  EXPECT_EQ(parse_csv("a\n\"open\n", "q.csv").error().message,
            "q.csv:2: unterminated quoted field");
  EXPECT_EQ(parse_csv("a\n\"x\"y\n", "q.csv").error().message,
            "q.csv:2: text after a closing quote");
  Result<CsvTable> c = parse_csv("a,b\n1\nx,2\n", "r.csv");
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(c->require({"a", "zz"}).error().message, "r.csv:1: missing column 'zz' in the header");
  EXPECT_EQ(CsvRow(*c, 0).text("b").error().message,
            "r.csv:2: column 'b': missing (row has 1 fields)");
  EXPECT_EQ(CsvRow(*c, 1).number("a").error().message, "r.csv:3: column 'a': 'x' is not a number");
  EXPECT_EQ(CsvRow(*c, 1).count("b").value(), 2u);
  EXPECT_EQ(read_csv_file("/nonexistent/x.csv").error().message, "/nonexistent/x.csv: cannot open");
}

}  // namespace
}  // namespace xferlab
