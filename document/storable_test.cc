#include "document/storable.h"

#include <string>

#include "document/json.h"
#include "gtest/gtest.h"

namespace ttldb {
namespace {

TEST(StorableTest, Utf8) {
  EXPECT_TRUE(IsValidUtf8("plain"));
  EXPECT_TRUE(IsValidUtf8("h\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80"));
  EXPECT_FALSE(IsValidUtf8("\xff"));
  EXPECT_FALSE(IsValidUtf8("\xc0\xaf"));          // overlong '/'
  EXPECT_FALSE(IsValidUtf8("\xed\xa0\x80"));      // surrogate
  EXPECT_FALSE(IsValidUtf8("\xf4\x90\x80\x80"));  // above U+10FFFF
  EXPECT_FALSE(IsValidUtf8("\xe2\x82"));          // truncated
}

TEST(StorableTest, Utf8AtEveryOffsetOfLongAsciiRuns) {
  // The ASCII fast path reads eight bytes at a time: every sequence, valid
  // or not, must be judged the same at every offset and run length.
  const std::string seqs[] = {
      "\xc3\xa9", "\xe2\x82\xac", "\xf0\x9f\x98\x80", "\xff",
      "\xc0\xaf", "\xed\xa0\x80", "\xf4\x90\x80\x80", "\xe2\x82",
      "\x80"};
  for (const std::string& seq : seqs) {
    const bool valid = IsValidUtf8(seq);
    for (int before = 0; before < 20; ++before) {
      for (int after = 0; after < 10; ++after) {
        const std::string s =
            std::string(before, 'a') + seq + std::string(after, 'b');
        EXPECT_EQ(IsValidUtf8(s), valid) << before << " " << after;
      }
    }
  }
  EXPECT_TRUE(IsValidUtf8(std::string(1000, 'x')));
  EXPECT_TRUE(IsValidUtf8(""));
}

TEST(StorableTest, RejectsWhatCannotBeReadBack) {
  EXPECT_TRUE(CheckStorable(*ParseDocument(R"({"a": {"b": [1, "x"]}})")).ok());
  Value bad_string = Value::MakeObject(
      {Field("a", Value::MakeObject({Field("b", Value::String("\xff"))}))});
  absl::Status s = CheckStorable(bad_string);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("'a.b'"), absl::string_view::npos) << s;
  Value dollar = Value::MakeObject(
      {Field("a", Value::MakeObject({Field("$date", Value::Int32(5))}))});
  EXPECT_NE(CheckStorable(dollar).message().find("$date"),
            absl::string_view::npos);
  Value plain_dollar = Value::MakeObject(
      {Field("a", Value::MakeObject({Field("$dollar", Value::Int32(5))}))});
  EXPECT_TRUE(CheckStorable(plain_dollar).ok());
  Value nul = Value::MakeObject({Field(std::string("a\0b", 3), Value())});
  EXPECT_FALSE(CheckStorable(nul).ok());
  Value deep = Value::Int32(1);
  for (int i = 0; i < 100; ++i) deep = Value::MakeObject({Field("a", deep)});
  EXPECT_TRUE(CheckStorable(deep).ok());  // 100 levels
  deep = Value::MakeObject({Field("a", deep)});
  EXPECT_FALSE(CheckStorable(deep).ok());  // 101
}

}  // namespace
}  // namespace ttldb
