// Tests for common/table: the three renderings of one table.
#include "common/table.h"

#include <gtest/gtest.h>

#include <sstream>

namespace xferlab {
namespace {

Table sample() {
  Table t({{"name"}, {"size_bytes"}, {"efficiency", 3}});
  t.add_row({std::string("a,b"), int64_t{4}, 0.0812345});
  t.add_row({std::string("q\"x"), int64_t{128}, 0.9});
  return t;
}

TEST(Table, Text) {
  std::ostringstream out;
  sample().write_text(out);
  EXPECT_EQ(out.str(),
            "name  size_bytes  efficiency\n"
            "a,b            4      0.0812\n"
            "q\"x          128       0.900\n");
}

TEST(Table, Csv) {
  std::ostringstream out;
  sample().write_csv(out);
  EXPECT_EQ(out.str(), "name,size_bytes,efficiency\n\"a,b\",4,0.0812345\n\"q\"\"x\",128,0.9\n");
}

TEST(Table, Json) {
  std::ostringstream out;
  sample().write_json(out);
  EXPECT_EQ(out.str(),
            "[\n {\"name\": \"a,b\", \"size_bytes\": 4, \"efficiency\": 0.0812345},\n"
            " {\"name\": \"q\\\"x\", \"size_bytes\": 128, \"efficiency\": 0.9}\n]\n");
}

TEST(Table, FormatParsing) {
  EXPECT_TRUE(parse_output_format("csv").ok());
  auto bad = parse_output_format("xml");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().message, "--format: 'xml' is not one of table, csv, json");
}

}  // namespace
}  // namespace xferlab
