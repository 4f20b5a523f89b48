#include "remote/hidden_filter.h"

#include "gtest/gtest.h"
#include "ttldb/json.h"

namespace ttldb {
namespace remote {
namespace {

Value Doc(const char* json) {
  absl::StatusOr<Value> v = ParseDocument(json);
  EXPECT_TRUE(v.ok()) << v.status();
  return v.ok() ? *v : Value::MakeObject();
}

TEST(HiddenFilterTest, TtlRulesAreTheSingleFieldIndexesWithExpireAfter) {
  std::vector<Value> specs = {
      Doc(R"({"v": 2, "key": {"_id": 1}, "name": "_id_"})"),
      Doc(R"({"v": 2, "key": {"at": 1}, "name": "at_1",
              "expireAfterSeconds": 60})"),
      Doc(R"({"v": 2, "key": {"a": 1, "b": 1}, "name": "a_1_b_1",
              "expireAfterSeconds": 60})"),
      Doc(R"({"v": 2, "key": {"u": 1}, "name": "u_1", "unique": true})"),
  };
  std::vector<TtlRule> rules = TtlRulesOf(specs);
  ASSERT_EQ(rules.size(), 1u);
  EXPECT_EQ(rules[0].field, "at");
  EXPECT_EQ(rules[0].expire_after_seconds, 60);
}

TEST(HiddenFilterTest, VisibleConditionExcludesDatesAtOrBeforeTheCutoff) {
  const absl::Time now = absl::FromUnixSeconds(1'800'000'000);
  Value c = VisibleCondition({{"at", 60}, {"expireAt", 0}}, now);
  EXPECT_EQ(ToJson(c), ToJson(Doc(R"({"$nor": [
                {"at": {"$lte": {"$date": {"$numberLong": "1799999940000"}}}},
                {"expireAt": {"$lte": {"$date": {"$numberLong": "1800000000000"}}}}
            ]})")));
  EXPECT_TRUE(VisibleCondition({}, now).is_null());
}

TEST(HiddenFilterTest, WithVisibleConditionAndsTheFilter) {
  const absl::Time now = absl::FromUnixSeconds(1'800'000'000);
  Value f = Doc(R"({"user": "ann"})");
  EXPECT_EQ(ToJson(WithVisibleCondition(f, {}, now)), ToJson(f));
  Value w = WithVisibleCondition(f, {{"at", 60}}, now);
  ASSERT_NE(w.Get("$and"), nullptr);
  EXPECT_EQ(w.Get("$and")->array_items().size(), 2u);
  // An empty filter becomes the condition alone.
  Value e = WithVisibleCondition(Value::MakeObject(), {{"at", 60}}, now);
  EXPECT_NE(e.Get("$nor"), nullptr);
}

TEST(HiddenFilterTest, ExpiredHolderFilterIsTheKeyAndExpired) {
  const absl::Time now = absl::FromUnixSeconds(1'800'000'000);
  Value f = ExpiredHolderFilter(Doc(R"({"user": "ann", "n": {"$gt": 1}})"),
                                {{"at", 60}}, now);
  // $eq: a key value that looks like an operator is a value.
  EXPECT_EQ(ToJson(f), ToJson(Doc(R"({"$and": [
                {"user": {"$eq": "ann"}},
                {"n": {"$eq": {"$gt": 1}}},
                {"$or": [{"at": {"$lte":
                    {"$date": {"$numberLong": "1799999940000"}}}}]}
            ]})")));
  EXPECT_TRUE(ExpiredHolderFilter(Doc(R"({"_id": 1})"), {}, now).is_null());
  EXPECT_TRUE(
      ExpiredHolderFilter(Value::MakeObject(), {{"at", 60}}, now).is_null());
}

}  // namespace
}  // namespace remote
}  // namespace ttldb
