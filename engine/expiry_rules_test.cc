// Collection::TtlRules / ExpiresAt (ttldb/expiry_rules.h): the expiry the
// collection's TTL indexes give a document that is not stored, and that it
// agrees with what the TTL monitor deletes.
#include "ttldb/expiry_rules.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/time/time.h"
#include "base/status.h"
#include "engine/database_internal.h"
#include "gtest/gtest.h"
#include "tests/test_util.h"
#include "ttldb/clock.h"
#include "ttldb/database.h"
#include "ttldb/json.h"

namespace ttldb {
namespace {

class ExpiryRulesTest : public ::testing::Test {
 protected:
  ExpiryRulesTest() {
    Options options;
    options.ttl_monitor_enabled = false;
    options.clock = &clock_;
    db_ = std::move(Database::Open(dir_.path(), options).value());
  }
  Collection& c() { return db_->collection("c"); }
  static Value Doc(const std::string& json) {
    return ParseDocument(json).value();
  }

  TempDir dir_;
  FakeClock clock_{kTestStart};
  std::unique_ptr<Database> db_;
};

TEST_F(ExpiryRulesTest, NoCollectionOrNoTtlIndexNothingExpires) {
  const Value doc = Doc(absl::StrCat("{\"at\": ", DateJson(kTestStart), "}"));
  EXPECT_EQ(c().ExpiresAt(doc).value(), std::nullopt);
  ASSERT_TRUE(c().CreateIndex("{\"at\": 1}").ok());  // not a TTL index
  EXPECT_EQ(c().ExpiresAt(doc).value(), std::nullopt);
  EXPECT_EQ(c().TtlRules().value().size(), 0u);
}

TEST_F(ExpiryRulesTest, EarliestDateOfTheEarliestIndex) {
  ASSERT_TRUE(
      c().CreateIndex("{\"at\": 1}", "{\"expireAfterSeconds\": 60}").ok());
  ASSERT_TRUE(
      c().CreateIndex("{\"seen\": 1}",
                      "{\"expireAfterSeconds\": 10, \"rejectExpired\": true}")
          .ok());
  const absl::Time t = kTestStart;
  // An array at the end of the path: its earliest Date counts.
  const Value doc = Doc(absl::StrCat(
      "{\"at\": [", DateJson(t + absl::Hours(1)), ", ", DateJson(t),
      ", \"not a date\"], \"seen\": ", DateJson(t + absl::Seconds(100)), "}"));
  ExpiryRules rules = c().TtlRules().value();
  EXPECT_EQ(rules.size(), 2u);
  std::vector<IndexExpiry> all = rules.Expiries(doc);
  ASSERT_EQ(all.size(), 2u);
  EXPECT_EQ(all[0].index, "at_1");
  EXPECT_EQ(all[0].expires_at, t + absl::Seconds(60));
  EXPECT_FALSE(all[0].reject_expired);
  EXPECT_EQ(all[1].index, "seen_1");
  EXPECT_EQ(all[1].expires_at, t + absl::Seconds(110));
  EXPECT_TRUE(all[1].reject_expired);
  EXPECT_EQ(c().ExpiresAt(doc).value(), t + absl::Seconds(60));
  // No Date at either path: no expiry.
  EXPECT_EQ(rules.ExpiresAt(Doc("{\"at\": 5, \"seen\": \"x\"}")), std::nullopt);
}

TEST_F(ExpiryRulesTest, PartialFilterAndInactiveIndexes) {
  ASSERT_TRUE(c().CreateIndex("{\"at\": 1}",
                              "{\"expireAfterSeconds\": 60, "
                              "\"partialFilterExpression\": {\"kind\": "
                              "\"session\"}}")
                  .ok());
  const std::string at = DateJson(kTestStart);
  EXPECT_EQ(c().ExpiresAt(Doc(absl::StrCat(
                              "{\"kind\": \"session\", \"at\": ", at, "}")))
                .value(),
            kTestStart + absl::Seconds(60));
  EXPECT_EQ(
      c().ExpiresAt(Doc(absl::StrCat("{\"kind\": \"log\", \"at\": ", at, "}")))
          .value(),
      std::nullopt);
  // A listIndexes shape the rules skip: a negative expireAfterSeconds.
  std::vector<Value> specs = {
      Doc("{\"v\": 2, \"key\": {\"a\": 1}, \"name\": \"a_1\", "
          "\"expireAfterSeconds\": -1}"),
      Doc("{\"v\": 2, \"key\": {\"b\": 1}, \"name\": \"b_1\", "
          "\"expireAfterSeconds\": 3}")};
  ExpiryRules rules = ExpiryRules::FromIndexSpecs(specs).value();
  EXPECT_EQ(rules.size(), 1u);
  // A partial filter that does not parse is an error, not a silent rule.
  specs.push_back(
      Doc("{\"v\": 2, \"key\": {\"c\": 1}, \"name\": \"c_1\", "
          "\"expireAfterSeconds\": 3, \"partialFilterExpression\": {\"x\": "
          "{\"$nosuch\": 1}}}"));
  EXPECT_FALSE(ExpiryRules::FromIndexSpecs(specs).ok());
}

// The rules and the monitor agree to the millisecond: present one
// millisecond before ExpiresAt, deleted by a pass at ExpiresAt.
TEST_F(ExpiryRulesTest, AgreesWithTheMonitor) {
  ASSERT_TRUE(
      c().CreateIndex("{\"at\": 1}", "{\"expireAfterSeconds\": 30}").ok());
  const Value doc = Doc(absl::StrCat(
      "{\"_id\": 1, \"at\": ", DateJson(kTestStart + absl::Milliseconds(7)),
      "}"));
  const absl::Time expires = c().ExpiresAt(doc).value().value();
  EXPECT_EQ(expires, kTestStart + absl::Milliseconds(30'007));
  ASSERT_TRUE(c().InsertOne(doc).ok());
  DatabaseInternal::RunTtlPass(*db_, expires - absl::Milliseconds(1));
  EXPECT_EQ(c().CountDocuments("{}").value(), 1);
  DatabaseInternal::RunTtlPass(*db_, expires);
  EXPECT_EQ(c().CountDocuments("{}").value(), 0);
}

// A partial filter is matched in its index's collation, by the rules as by
// the monitor (MongoDB: the index's collation applies to its
// partialFilterExpression, index_catalog_impl.cpp): with strength 2,
// "SESSION" matches {kind: "session"}.
TEST_F(ExpiryRulesTest, CollatedPartialFilterAgreesWithTheMonitor) {
  ASSERT_TRUE(c().CreateIndex("{\"at\": 1}",
                              "{\"expireAfterSeconds\": 30, "
                              "\"partialFilterExpression\": {\"kind\": "
                              "\"session\"}, \"collation\": {\"locale\": "
                              "\"en\", \"strength\": 2}}")
                  .ok());
  const Value doc = Doc(absl::StrCat(
      "{\"_id\": 1, \"kind\": \"SESSION\", \"at\": ", DateJson(kTestStart),
      "}"));
  const std::optional<absl::Time> expires = c().ExpiresAt(doc).value();
  ASSERT_TRUE(expires.has_value());
  EXPECT_EQ(*expires, kTestStart + absl::Seconds(30));
  EXPECT_EQ(c().ExpiresAt(Doc(absl::StrCat("{\"kind\": \"other\", \"at\": ",
                                           DateJson(kTestStart), "}")))
                .value(),
            std::nullopt);
  ASSERT_TRUE(c().InsertOne(doc).ok());
  DatabaseInternal::RunTtlPass(*db_, *expires);
  EXPECT_EQ(c().CountDocuments("{}").value(), 0);
}

}  // namespace
}  // namespace ttldb
