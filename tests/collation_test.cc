// Collations through the public C++ API (FindOptions, DeleteOptions,
// UpdateOptions, FindOneAndModifyOptions, AggregateOptions and WriteModel
// `collation`; ValidationOptions::collation for the collection default;
// CreateIndex's `collation` option), across a reopen: the catalog keeps the
// resolved specs, the index keeps its collation keys, Validate agrees with
// what writes put into the index. Expected answers: MongoDB's
// jstests/core/query/collation/collation.js (inheritance, overriding with
// {locale: "simple"}, find/update/remove/findAndModify/aggregate with a
// collation) and the manual's case-insensitive index page
// (https://www.mongodb.com/docs/manual/core/index-case-insensitive/).
#include <string>
#include <vector>

#include "base/status.h"
#include "gtest/gtest.h"
#include "tests/db_fixture.h"
#include "ttldb/database.h"
#include "ttldb/json.h"

namespace ttldb {
namespace {

Value J(const char* json) { return *ParseDocument(json); }

class CollationTest : public DbTest {
 protected:
  std::string Names(Collection& c, const char* filter, FindOptions o) {
    if (o.sort.is_null()) o.sort = J(R"({"_id": 1})");
    auto cursor = c.Find(filter, o);
    EXPECT_TRUE(cursor.ok()) << cursor.status();
    std::string out;
    if (!cursor.ok()) return out;
    while (true) {
      auto doc = (*cursor)->Next();
      EXPECT_TRUE(doc.ok()) << doc.status();
      if (!doc.ok() || !doc->has_value()) break;
      const Value* n = (*doc)->Get("name");
      out += (out.empty() ? "" : ",") + (n ? n->string_value() : "-");
    }
    return out;
  }
  static FindOptions With(const char* collation) {
    FindOptions o;
    o.collation = J(collation);
    return o;
  }
};

constexpr char kCi[] = R"({"locale": "en", "strength": 2})";

TEST_F(CollationTest, CaseInsensitiveUniqueIndexSurvivesReopen) {
  Collection& users = db_->collection("users");
  ASSERT_TRUE(users
                  .CreateIndex(R"({"name": 1})",
                               R"({"unique": true, "collation": {"locale":
                                   "en", "strength": 2}})")
                  .ok());
  ASSERT_TRUE(users.InsertOne(R"({"_id": 1, "name": "Zoë"})").ok());
  ASSERT_TRUE(users.InsertOne(R"({"_id": 2, "name": "abc"})").ok());
  Open();
  Collection& again = db_->collection("users");
  auto dup = again.InsertOne(R"({"_id": 3, "name": "ZOË"})");
  EXPECT_EQ(ErrorCode(dup.status()), kDuplicateKey) << dup.status();
  ASSERT_TRUE(again.InsertOne(R"({"_id": 4, "name": "zoe"})").ok());
  EXPECT_TRUE(Valid(again));
  EXPECT_EQ(Names(again, R"({"name": "ZOË"})", With(kCi)), "Zoë");
  EXPECT_EQ(Names(again, R"({"name": "ZOË"})", FindOptions()), "");
  // The index is used (and its keys found) in its collation.
  auto explain = again.Explain(R"({"name": "ABC"})", With(kCi));
  ASSERT_TRUE(explain.ok());
  EXPECT_NE(ToJson(*explain).find("name_1"), std::string::npos)
      << ToJson(*explain);
  // An update that changes only the case is refused by nothing and keeps
  // the index valid.
  UpdateOptions uo;
  uo.collation = J(kCi);
  auto r =
      again.UpdateOne(R"({"name": "ABC"})", R"({"$set": {"name": "ABC"}})", uo);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->modified_count, 1);
  EXPECT_TRUE(Valid(again));
}

TEST_F(CollationTest, CollectionDefaultAndOverrides) {
  ValidationOptions v;
  v.collation = J(kCi);
  ASSERT_TRUE(db_->CreateCollection("c", v).ok());
  Collection& c = db_->collection("c");
  ASSERT_TRUE(c.InsertOne(R"({"_id": 1, "name": "abc"})").ok());
  ASSERT_TRUE(c.InsertOne(R"({"_id": 2, "name": "ABC"})").ok());
  ASSERT_TRUE(c.InsertOne(R"({"_id": 3, "name": "b"})").ok());
  Open();
  Collection& c2 = db_->collection("c");
  EXPECT_EQ(Names(c2, R"({"name": "aBc"})", FindOptions()), "abc,ABC");
  EXPECT_EQ(Names(c2, R"({"name": "aBc"})", With(R"({"locale": "simple"})")),
            "");
  auto count = c2.CountDocuments(R"({"name": "ABC"})");
  ASSERT_TRUE(count.ok());
  EXPECT_EQ(*count, 2);
  auto distinct = c2.Distinct("name");
  ASSERT_TRUE(distinct.ok());
  EXPECT_EQ(distinct->size(), 2u);  // "abc" (first met) and "b"
  FindOneAndModifyOptions fam;
  fam.collation = J(R"({"locale": "simple"})");
  auto none = c2.FindOneAndDelete(R"({"name": "aBc"})", fam);
  ASSERT_TRUE(none.ok());
  EXPECT_FALSE(none->has_value());
  DeleteOptions del;  // the default collation
  auto n = c2.DeleteMany(R"({"name": "aBc"})", del);
  ASSERT_TRUE(n.ok());
  EXPECT_EQ(*n, 2);
  auto bad = c2.Find("{}", With(R"({"locale": "en", "strength": 0})"));
  EXPECT_EQ(ErrorCode(bad.status()), kFailedToParse);
}

TEST_F(CollationTest, AggregateAndBulkWrite) {
  Collection& c = db_->collection("c");
  ASSERT_TRUE(c.InsertOne(R"({"_id": 1, "name": "abc"})").ok());
  ASSERT_TRUE(c.InsertOne(R"({"_id": 2, "name": "ABC"})").ok());
  AggregateOptions ao;
  ao.collation = J(kCi);
  auto cursor = c.Aggregate(
      R"([{"$match": {"name": "Abc"}}, {"$group": {"_id": "$name",
          "n": {"$sum": 1}}}])",
      ao);
  ASSERT_TRUE(cursor.ok()) << cursor.status();
  auto doc = (*cursor)->Next();
  ASSERT_TRUE(doc.ok() && doc->has_value());
  EXPECT_EQ((*doc)->Get("n")->int64_value(), 2);
  WriteModel w;
  w.kind = WriteModel::Kind::kUpdateMany;
  w.filter = J(R"({"name": "aBC"})");
  w.update = J(R"({"$set": {"x": 1}})");
  w.collation = J(kCi);
  auto r = c.BulkWrite(std::vector<WriteModel>{w});
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->modified_count, 2);
}

}  // namespace
}  // namespace ttldb
