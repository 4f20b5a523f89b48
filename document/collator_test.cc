// Expected answers from MongoDB's src/mongo/db/query/collation/
// collator_factory_icu_test.cpp and collator_interface_icu_test.cpp (parse
// errors and codes, the resolved spec) and the manual's Collation page
// (https://www.mongodb.com/docs/manual/reference/collation/: strength 1
// ignores case and diacritics, 2 ignores case, numericOrdering).
#include "document/collator.h"

#include <gtest/gtest.h>

#include "base/status.h"
#include "document/compare.h"
#include "ttldb/json.h"

namespace ttldb {
namespace {

std::shared_ptr<const Collator> Make(const char* json) {
  auto c = Collator::Make(ParseDocument(json).value());
  EXPECT_TRUE(c.ok()) << c.status();
  return c.ok() ? *c : nullptr;
}

int Code(const char* json) {
  auto c = Collator::Make(ParseDocument(json).value());
  return c.ok() ? 0 : ErrorCode(c.status());
}

TEST(CollatorTest, ResolvedSpecHasEveryFieldWithTheLocaleDefaults) {
  // collator_factory_icu_test.cpp LocaleStringParsesSuccessfully,
  // DefaultsSetSuccessfully; MongoDB reports its ICU version 57.1.
  auto c = Make(R"({"locale": "en_US"})");
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(ToJson(c->spec()),
            ToJson(ParseDocument(R"({"locale": "en_US", "caseLevel": false,
                "caseFirst": "off", "strength": 3, "numericOrdering": false,
                "alternate": "non-ignorable", "maxVariable": "punct",
                "normalization": false, "backwards": false,
                "version": "57.1"})")
                       .value()));
  auto fr = Make(R"({"locale": "fr_CA", "strength": 2})");
  ASSERT_NE(fr, nullptr);
  // Canadian French sorts secondary differences backwards by default.
  EXPECT_EQ(fr->spec().Get("backwards")->bool_value(), true);
  EXPECT_EQ(fr->spec().Get("strength")->int64_value(), 2);
}

TEST(CollatorTest, SimpleIsTheNullCollator) {
  // collator_factory_icu_test.cpp SimpleLocaleReturnsNullPointer,
  // SimpleLocaleWithOtherFieldsFailsToParse.
  auto c = Collator::Make(ParseDocument(R"({"locale": "simple"})").value());
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(*c, nullptr);
  EXPECT_EQ(Code(R"({"locale": "simple", "strength": 1})"), kFailedToParse);
}

TEST(CollatorTest, ParseErrorsHaveMongoDBsCodes) {
  // collator_factory_icu_test.cpp: MissingLocaleStringFailsToParse (4),
  // LocaleNonStringFailsToParse (14), invalid locales (BadValue), the
  // type, range and unknown-field errors.
  EXPECT_EQ(Code(R"({})"), kNoSuchKey);
  EXPECT_EQ(Code(R"({"locale": 3})"), kTypeMismatch);
  EXPECT_EQ(Code(R"({"locale": ""})"), kBadValue);
  EXPECT_EQ(Code(R"({"locale": "xx_invalid"})"), kBadValue);
  EXPECT_EQ(Code(R"({"locale": "en-US"})"), kBadValue);
  EXPECT_EQ(Code(R"({"locale": "en", "strength": "2"})"), kTypeMismatch);
  EXPECT_EQ(Code(R"({"locale": "en", "strength": 1.5})"), kBadValue);
  EXPECT_EQ(Code(R"({"locale": "en", "strength": 0})"), kFailedToParse);
  EXPECT_EQ(Code(R"({"locale": "en", "strength": 6})"), kFailedToParse);
  EXPECT_EQ(Code(R"({"locale": "en", "strength": 2.0})"), 0);
  EXPECT_EQ(Code(R"({"locale": "en", "caseLevel": 1})"), kTypeMismatch);
  EXPECT_EQ(Code(R"({"locale": "en", "caseFirst": "blah"})"), kFailedToParse);
  EXPECT_EQ(Code(R"({"locale": "en", "alternate": "blah"})"), kFailedToParse);
  EXPECT_EQ(Code(R"({"locale": "en", "maxVariable": "blah"})"), kFailedToParse);
  EXPECT_EQ(Code(R"({"locale": "en", "foo": 1})"), kFailedToParse);
  EXPECT_EQ(Code(R"({"locale": "en", "version": "57.1"})"), 0);
  EXPECT_EQ(Code(R"({"locale": "en", "version": "1.0"})"),
            kIncompatibleCollationVersion);
  // validateCollationSpec.
  EXPECT_EQ(Code(R"({"locale": "en", "strength": 1, "backwards": true})"),
            kBadValue);
  EXPECT_EQ(Code(R"({"locale": "en", "strength": 2, "caseFirst": "upper"})"),
            kBadValue);
  EXPECT_EQ(Code(R"({"locale": "en", "strength": 2, "caseFirst": "upper",
                     "caseLevel": true})"),
            0);
}

TEST(CollatorTest, StrengthsCompareAsTheManualSays) {
  auto primary = Make(R"({"locale": "en", "strength": 1})");
  auto secondary = Make(R"({"locale": "en", "strength": 2})");
  auto tertiary = Make(R"({"locale": "en"})");
  EXPECT_EQ(primary->CompareStrings("cafe", "Café"), 0);
  EXPECT_EQ(secondary->CompareStrings("abc", "ABC"), 0);
  EXPECT_NE(secondary->CompareStrings("cafe", "café"), 0);
  EXPECT_LT(tertiary->CompareStrings("abc", "ABC"), 0);
  EXPECT_LT(tertiary->CompareStrings("a", "B"), 0);  // bytewise: "B" < "a"
  auto numeric = Make(R"({"locale": "en", "numericOrdering": true})");
  EXPECT_LT(numeric->CompareStrings("2", "10"), 0);
  EXPECT_GT(tertiary->CompareStrings("2", "10"), 0);
}

TEST(CollatorTest, KeysOrderAsTheComparison) {
  auto c = Make(R"({"locale": "en", "strength": 2})");
  EXPECT_EQ(c->Key("abc"), c->Key("ABC"));
  EXPECT_LT(c->Key("a"), c->Key("B"));
  EXPECT_LT(c->Key(""), c->Key("a"));
  // KeyValue keeps field names and non-strings.
  Value v = ParseDocument(R"({"Name": ["ABC", 1]})").value();
  Value k = c->KeyValue(v);
  EXPECT_EQ(k.object_fields()[0].first, "Name");
  EXPECT_EQ(k.Get("Name")->array_items()[1].int64_value(), 1);
  EXPECT_EQ(
      CompareValues(ParseDocument(R"({"a": ["x", "Y"]})").value(),
                    ParseDocument(R"({"a": ["X", "y"]})").value(), c.get()),
      0);
  EXPECT_NE(
      CompareValues(ParseDocument(R"({"a": ["x", "Y"]})").value(),
                    ParseDocument(R"({"a": ["X", "y"]})").value(), nullptr),
      0);
}

TEST(CollatorTest, SameCollationComparesResolvedSpecs) {
  auto a = Make(R"({"locale": "en"})");
  auto b = Make(R"({"locale": "en", "strength": 3})");
  auto c = Make(R"({"locale": "en", "strength": 2})");
  EXPECT_TRUE(SameCollation(a.get(), b.get()));
  EXPECT_FALSE(SameCollation(a.get(), c.get()));
  EXPECT_FALSE(SameCollation(a.get(), nullptr));
  EXPECT_TRUE(SameCollation(nullptr, nullptr));
}

}  // namespace
}  // namespace ttldb
