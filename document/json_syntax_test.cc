#include "document/json_syntax.h"

#include "gtest/gtest.h"

namespace ttldb {
namespace {

TEST(JsonSyntaxTest, AcceptsGrammaticalJson) {
  JsonSyntaxError e;
  for (const char* ok :
       {"{}", "[]", " 1 ", "-0.5e+10", "\"a\\u00e9\\n\"", "true", "null",
        R"({"a":[1,{"b":[]},"x"],"c":{}})", "[[[[]]]]"}) {
    EXPECT_TRUE(CheckJsonSyntax(ok, &e)) << ok << " at " << e.offset;
  }
}

TEST(JsonSyntaxTest, LocatesFirstError) {
  struct Case {
    const char* json;
    size_t offset;
  } cases[] = {
      {"", 0},   {"[1,]", 3}, {"{\"a\"}", 4}, {"[1}", 2}, {"\"\\u12g4\"", 1},
      {"1.", 2}, {"1e", 2},   {"[", 1},       {"nul", 0}, {"[] x", 3},
  };
  for (const Case& c : cases) {
    JsonSyntaxError e;
    EXPECT_FALSE(CheckJsonSyntax(c.json, &e)) << c.json;
    EXPECT_EQ(e.offset, c.offset) << c.json << ": " << e.expected;
  }
}

}  // namespace
}  // namespace ttldb
