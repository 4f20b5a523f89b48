#include "document/storable.h"

#include <string>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "base/status.h"
#include "gtest/gtest.h"
#include "ttldb/json.h"

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

// CheckStorable judges with a walk that builds no path, then names the
// failure with a second walk: every kind of failure, at the top, in an
// object and in an array, keeps its exact message and path, and what
// follows a failure does not change it.
// "d.0.0...": the path of the array at depth 100 below {"d": [[[...]]]}.
std::string DeepPath() {
  std::string path = "d";
  for (int i = 0; i < 99; ++i) path += ".0";
  return path;
}

TEST(StorableTest, EveryFailureKeepsItsMessageAndPath) {
  const Value bad_utf8 = Value::String("\xff");
  const Value bad_regex = Value::Re(Regex{"a", "\xff"});
  auto in = [](const std::string& name, Value v) {
    return Value::MakeObject({Field("ok", Value::Int32(1)),
                              Field(name, std::move(v)),
                              Field("after", Value::String("\xfe"))});
  };
  struct Case {
    Value doc;
    std::string message;
  };
  Value deep = Value::Int32(1);
  for (int i = 0; i < 100; ++i) deep = Value::MakeArray({deep});
  std::vector<Case> cases = {
      {in("s", bad_utf8),
       "document cannot be stored: string is not valid UTF-8 (at 's')"},
      {in("o", in("s", bad_utf8)),
       "document cannot be stored: string is not valid UTF-8 (at 'o.s')"},
      {in("a", Value::MakeArray({Value::Int32(0), bad_utf8})),
       "document cannot be stored: string is not valid UTF-8 (at 'a.1')"},
      {in("r", bad_regex),
       "document cannot be stored: regular expression is not valid UTF-8 "
       "(at 'r')"},
      {in("o", Value::MakeObject({Field("\xff", Value::Int32(1))})),
       "document cannot be stored: field name is not valid UTF-8 "
       "(at 'o.\xff')"},
      {in("o", Value::MakeObject({Field(std::string("n\0", 2), Value())})),
       std::string("document cannot be stored: field names cannot contain "
                   "the null character (at 'o.n") +
           '\0' + "')"},
      // insert.cpp fixDocumentForInsert's message (BadValue).
      {Value::MakeObject({Field("$x", Value::Int32(1))}),
       "Document can't have $ prefixed field names: $x"},
      {in("o", Value::MakeObject({Field("$oid", Value::Int32(1))})),
       "document cannot be stored: '$oid' is an Extended JSON type keyword: "
       "the document would read back with another type (at 'o.$oid')"},
      {Value::MakeObject({Field("d", Value::MakeArray({deep}))}),
       // storage_validation.cpp's message (Overflow, 15).
       "Document exceeds maximum nesting depth of 100 (at '" + DeepPath() +
           "')"},
  };
  for (const Case& c : cases) {
    absl::Status s = CheckStorable(c.doc);
    EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
    EXPECT_EQ(s.message(), c.message);
    // MongoDB's codes, never InternalError (1) (issue 28 item 14).
    EXPECT_EQ(ErrorCode(s),
              absl::StrContains(c.message, "nesting") ? kOverflow : kBadValue)
        << s;
  }
}

}  // namespace
}  // namespace ttldb
