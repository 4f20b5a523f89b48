// Scans of a TTL index skip the expired Date range when hide_expired is on
// (engine/query_exec.h, SkipExpiredEntries; issue 19, "Queries after a mass
// expiry"), and a big TTL pass compacts what it swept before it returns.
//
// Expected orders follow MongoDB's index key order: null (and missing) <
// numbers < strings < Dates (src/mongo/bson/bsontypes.h,
// canonicalizeBSONType; the manual's includes/fact-sort-order.rst), equal
// keys in RecordId (here _id) order. A document whose indexed field is an
// array expires at its lowest Date (the manual's core/index-ttl.txt,
// "Expiration of Data"), and a Date <= now - expireAfterSeconds is expired
// (src/mongo/db/ttl/ttl.cpp deletes the index range up to that cutoff,
// inclusive). With hide_expired off, expired documents are returned until
// the pass deletes them, as in MongoDB.
#include <string>
#include <tuple>
#include <vector>

#include "absl/strings/str_cat.h"
#include "tests/db_fixture.h"
#include "ttldb/json.h"
#include "ttldb/testing/ttldb_testing.h"

namespace ttldb {
namespace {

const absl::Time kNow = kTestStart;

// (hide_expired, index direction)
class TtlQueryBoundsTest
    : public DbFixture<::testing::TestWithParam<std::tuple<bool, int>>> {
 protected:
  bool hide() const { return std::get<0>(GetParam()); }
  int dir() const { return std::get<1>(GetParam()); }
  void AdjustOptions(Options* options) override {
    options->hide_expired = hide();
  }

  void SetUp() override {
    DbFixture::SetUp();
    Collection& c = db_->collection("s");
    ASSERT_TRUE(c.CreateIndex(absl::StrCat(R"({"at": )", dir(), "}"),
                              R"({"expireAfterSeconds": 60})")
                    .ok());
    auto at = [](absl::Time t) { return DateJson(t); };
    const std::vector<std::string> docs = {
        absl::StrCat(R"({"_id": 1, "at": )", at(kNow - absl::Hours(2)), "}"),
        absl::StrCat(R"({"_id": 2, "at": )", at(kNow - absl::Hours(1)), "}"),
        absl::StrCat(R"({"_id": 3, "at": )", at(kNow - absl::Seconds(30)), "}"),
        absl::StrCat(R"({"_id": 4, "at": )", at(kNow + absl::Hours(1)), "}"),
        R"({"_id": 5, "at": null})",
        R"({"_id": 6, "at": 5})",
        R"({"_id": 7, "at": "s"})",
        R"({"_id": 8})",
        absl::StrCat(R"({"_id": 9, "at": [)", at(kNow - absl::Hours(2)),
                     ", 7]}"),
        // Exactly at the cutoff (expired), and 1 ms above it (not).
        absl::StrCat(R"({"_id": 10, "at": )", at(kNow - absl::Seconds(60)),
                     "}"),
        absl::StrCat(R"({"_id": 11, "at": )",
                     at(kNow - absl::Seconds(60) + absl::Milliseconds(1)), "}"),
    };
    for (const std::string& d : docs) ASSERT_TRUE(c.InsertOne(d).ok()) << d;
  }

  // The _ids `filter` finds through the TTL index, in scan order.
  std::vector<int> Ids(const std::string& filter, int64_t limit = 0) {
    FindOptions options;
    options.hint = absl::StrCat("at_", dir());
    options.limit = limit;
    auto cursor = db_->collection("s").Find(filter, options);
    EXPECT_TRUE(cursor.ok()) << cursor.status();
    std::vector<int> out;
    if (!cursor.ok()) return out;
    while (true) {
      auto doc = (*cursor)->Next();
      EXPECT_TRUE(doc.ok()) << doc.status();
      if (!doc.ok() || !doc->has_value()) return out;
      out.push_back(static_cast<int>((*doc)->Get("_id")->AsDouble()));
    }
  }

  Value Explain(const std::string& filter, int64_t limit = 0) {
    FindOptions options;
    options.hint = absl::StrCat("at_", dir());
    options.limit = limit;
    auto e = db_->collection("s").Explain(filter, options);
    EXPECT_TRUE(e.ok()) << e.status();
    return e.ok() ? *e : Value();
  }

  // The whole index in scan order, each document once, and the oldest
  // Dates first (or last for a descending index).
  std::vector<int> AllIds(bool with_expired) const {
    std::vector<int> head = {5, 8, 6};    // null/missing, then 5
    if (with_expired) head.push_back(9);  // its 7 comes before "s"
    head.push_back(7);
    std::vector<int> dates = with_expired ? std::vector<int>{1, 2, 10, 11, 3, 4}
                                          : std::vector<int>{11, 3, 4};
    if (dir() > 0) {
      head.insert(head.end(), dates.begin(), dates.end());
      return head;
    }
    // Descending: later dates first, then strings, numbers, nulls; a
    // multikey document once, at its first key in scan order. Ties (equal
    // keys) keep _id order.
    std::vector<int> out(dates.rbegin(), dates.rend());
    if (with_expired) {
      // 9 is first met at its Date (-2h, beside 1, which it follows by _id).
      out = {4, 3, 11, 10, 2, 1, 9};
    }
    out.push_back(7);
    out.push_back(6);
    out.push_back(5);
    out.push_back(8);
    return out;
  }
};

std::string DateLte(absl::Time t) {
  return absl::StrCat(R"({"at": {"$lte": )", DateJson(t), "}}");
}

TEST_P(TtlQueryBoundsTest, BeforeThePass) {
  // Expired documents (1, 2, 9, 10) are visible only with hide_expired off.
  EXPECT_EQ(Ids("{}"), AllIds(!hide()));
  const std::string lte = DateLte(kNow + absl::Hours(2));
  using Ids_ = std::vector<int>;
  if (dir() > 0) {
    EXPECT_EQ(Ids(lte, 1), hide() ? Ids_{11} : Ids_{1});
    EXPECT_EQ(Ids(lte, 2), (hide() ? Ids_{11, 3} : Ids_{1, 9}));
  } else {
    EXPECT_EQ(Ids(lte, 1), Ids_{4});
  }
  Ids_ all_dates =
      dir() > 0 ? Ids_{1, 9, 2, 10, 11, 3, 4} : Ids_{4, 3, 11, 10, 2, 1, 9};
  Ids_ live_dates = dir() > 0 ? Ids_{11, 3, 4} : Ids_{4, 3, 11};
  EXPECT_EQ(Ids(lte), hide() ? live_dates : all_dates);
  // Non-Date values never expire and are found by their own ranges.
  EXPECT_EQ(Ids(R"({"at": null})"), (std::vector<int>{5, 8}));
  EXPECT_EQ(Ids(R"({"at": {"$gte": 0}})"),
            (hide() ? Ids_{6} : (dir() > 0 ? Ids_{6, 9} : Ids_{9, 6})));
  EXPECT_EQ(Ids(R"({"at": "s"})"), std::vector<int>{7});
  // Only the expired range: nothing with hide_expired (and no key read).
  const std::string expired = DateLte(kNow - absl::Seconds(60));
  Ids_ expired_ids = dir() > 0 ? Ids_{1, 9, 2, 10} : Ids_{10, 2, 1, 9};
  EXPECT_EQ(Ids(expired), hide() ? Ids_{} : expired_ids);
  if (hide()) {
    Value e = Explain(expired);
    EXPECT_EQ(e.Get("executionStats")->Get("totalKeysExamined")->AsDouble(), 0)
        << ToJson(e);
  }
}

TEST_P(TtlQueryBoundsTest, ExplainShowsTheSkippedRange) {
  Value e = Explain(DateLte(kNow + absl::Hours(2)), 1);
  const Value* scan = e.Get("queryPlanner")->Get("winningPlan");
  ASSERT_EQ(scan->Get("stage")->string_value(), "IXSCAN") << ToJson(e);
  const Value* skipped = scan->Get("skippedExpiredBounds");
  if (!hide()) {
    EXPECT_EQ(skipped, nullptr) << ToJson(e);
    return;
  }
  ASSERT_NE(skipped, nullptr) << ToJson(e);
  ASSERT_TRUE(skipped->Get("at") != nullptr) << ToJson(e);
  ASSERT_EQ(skipped->Get("at")->array_items().size(), 1u) << ToJson(e);
  EXPECT_EQ(
      skipped->Get("at")->array_items()[0].string_value(),
      absl::StrCat(
          "[date min, ",
          ToJson(Value::Date(absl::ToUnixMillis(kNow - absl::Seconds(60)))),
          "]"));
  // The first live entry is the first key the ascending scan reads.
  if (dir() > 0) {
    EXPECT_EQ(e.Get("executionStats")->Get("totalKeysExamined")->AsDouble(), 1)
        << ToJson(e);
  }
}

// A backward scan of the TTL index (sort opposite to its direction): the
// skipped expired range stays skipped, documents come from the high end,
// a multikey document once at its first key met, ties (equal keys) in
// descending _id order (a backward scan of MongoDB's {key, RecordId}).
TEST_P(TtlQueryBoundsTest, BackwardScan) {
  FindOptions options;
  options.hint = absl::StrCat("at_", dir());
  options.sort = Value::MakeObject({Field("at", Value::Int32(-dir()))});
  auto ids = [&](int64_t limit) {
    options.limit = limit;
    auto cursor = db_->collection("s").Find("{}", options);
    EXPECT_TRUE(cursor.ok()) << cursor.status();
    std::vector<int> out;
    if (!cursor.ok()) return out;
    auto docs = (*cursor)->ToVector();
    EXPECT_TRUE(docs.ok()) << docs.status();
    if (!docs.ok()) return out;
    for (const Value& d : *docs) {
      out.push_back(static_cast<int>(d.Get("_id")->AsDouble()));
    }
    return out;
  };
  using Ids_ = std::vector<int>;
  if (dir() > 0) {
    // {at: -1} over {at: 1}: Dates newest first, "s", 5, null/missing.
    EXPECT_EQ(ids(0), hide() ? Ids_({4, 3, 11, 7, 6, 8, 5})
                             : Ids_({4, 3, 11, 10, 2, 9, 1, 7, 6, 8, 5}));
  } else {
    // {at: 1} over {at: -1}: null/missing, 5, [.., 7], "s", Dates oldest
    // first.
    EXPECT_EQ(ids(0), hide() ? Ids_({8, 5, 6, 7, 11, 3, 4})
                             : Ids_({8, 5, 6, 9, 7, 1, 2, 10, 11, 3, 4}));
  }
  EXPECT_EQ(ids(1), Ids_{dir() > 0 ? 4 : 8});
  options.limit = 1;
  auto e = db_->collection("s").Explain("{}", options);
  ASSERT_TRUE(e.ok()) << e.status();
  const Value* scan = e->Get("queryPlanner")->Get("winningPlan");
  EXPECT_EQ(scan->Get("stage")->string_value(), "IXSCAN") << ToJson(*e);
  EXPECT_EQ(scan->Get("direction")->string_value(), "backward") << ToJson(*e);
  EXPECT_EQ(scan->Get("skippedExpiredBounds") != nullptr, hide()) << ToJson(*e);
  EXPECT_EQ(e->Get("executionStats")->Get("totalKeysExamined")->AsDouble(), 1)
      << ToJson(*e);
  // After the pass deleted the expired documents, the same answer.
  ttldb_testing::RunTtlPass(*db_, kNow);
  EXPECT_EQ(ids(0).size(), 7u);
}

TEST_P(TtlQueryBoundsTest, AfterThePass) {
  TtlPassStats stats = ttldb_testing::RunTtlPass(*db_, kNow);
  EXPECT_EQ(stats.deleted_documents, 4);
  EXPECT_EQ(Ids("{}"), AllIds(false));
  const std::string lte = DateLte(kNow + absl::Hours(2));
  EXPECT_EQ(Ids(lte, 1), std::vector<int>{dir() > 0 ? 11 : 4});
  EXPECT_EQ(Ids(R"({"at": {"$lt": 10}})"), std::vector<int>{6});
  EXPECT_TRUE(Valid(db_->collection("s")));
}

TEST_P(TtlQueryBoundsTest, TheCutoffFollowsTheEngineClock) {
  // 30 s later, 11 and 3 are expired too.
  clock_.Advance(absl::Seconds(31));
  const std::string lte = DateLte(kNow + absl::Hours(2));
  EXPECT_EQ(Ids(lte, 1), std::vector<int>{dir() > 0 && !hide() ? 1 : 4});
  EXPECT_EQ(Ids("{}").size(), hide() ? 5u : 11u);
}

INSTANTIATE_TEST_SUITE_P(HideAndDirection, TtlQueryBoundsTest,
                         ::testing::Combine(::testing::Bool(),
                                            ::testing::Values(1, -1)));

}  // namespace
}  // namespace ttldb
