// Issue 18 (with the conformance issue's PCRE2 matcher): a $regex over a
// long string neither crashes nor hangs. The review
// (../shared/reviews/reliability.md, F4 and F5) killed the process with
// SIGSEGV by /^a*$/ over 40,000 characters and by /.*error/ over 67 KB of
// prose (libstdc++ std::regex recursed once per character), and hung on
// /(a+)+$/. MongoDB's matcher is PCRE2 too
// (src/mongo/db/matcher/expression_leaf.cpp, RegexMatchExpression).
#include <string>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "tests/test_util.h"
#include "ttldb/database.h"

namespace ttldb {
namespace {

TEST(RegexSubjectTest, LongSubjectsNeitherCrashNorHang) {
  TempDir dir;
  Options options;
  options.ttl_monitor_enabled = false;
  auto db = Database::Open(dir.path(), options);
  ASSERT_TRUE(db.ok()) << db.status();
  Collection& c = (*db)->collection("c");
  std::string prose;
  while (prose.size() < 67'000) {
    prose += "The quick brown fox jumps over the lazy dog. ";
  }
  ASSERT_TRUE(c.InsertOne(absl::StrCat(R"({"_id": 1, "s": ")",
                                       std::string(200'000, 'a'), R"("})"))
                  .ok());
  ASSERT_TRUE(
      c.InsertOne(absl::StrCat(R"({"_id": 2, "s": ")", prose, R"("})")).ok());
  ASSERT_TRUE(c.InsertOne(absl::StrCat(R"({"_id": 3, "s": ")",
                                       std::string(40, 'a'), R"(b"})"))
                  .ok());
  auto count = [&](const char* regex) {
    auto n = c.CountDocuments(
        absl::StrCat(R"({"s": {"$regex": ")", regex, R"("}})"));
    EXPECT_TRUE(n.ok()) << regex << ": " << n.status();
    return n.ok() ? *n : -1;
  };
  EXPECT_EQ(count("^a*$"), 1);
  EXPECT_EQ(count(".*error"), 0);
  EXPECT_EQ(count(".*lazy dog\\\\. $"), 1);
  EXPECT_EQ(count("^(a|b)*c"), 0);
  EXPECT_EQ(count("^(a+)+$"), 1);  // the 40 a's + b: no catastrophic hang
}

}  // namespace
}  // namespace ttldb
