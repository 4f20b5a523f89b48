// An update regenerates index keys only for the indexes whose fields it
// changed (ComputeDocKeys, storage/index_keys.h, with the old version): every
// index must still agree with the documents (Collection::Validate checks each
// entry and the TTL entries' sibling lists), and finds through each index must
// return what MongoDB returns. Expected answers: MongoDB's update semantics
// (jstests/core/write/update/update_set_unset.js: $set of a field leaves
// the others; jstests/core/index/index_multikey.js and
// jstests/core/index/index_partial_write_ops.js: index entries follow
// updates of array elements and of a partial filter's fields).
#include <string>
#include <vector>

#include "base/status.h"
#include "gtest/gtest.h"
#include "tests/db_fixture.h"
#include "tests/test_util.h"
#include "ttldb/database.h"
#include "ttldb/json.h"

namespace ttldb {
namespace {

// Dates are near kTestStart (1,800,000,000 s), the fixture clock's now, so
// that no document is expired (hidden).
class UpdateKeysTest : public DbTest {
 protected:
  // The _ids `filter` finds through the index `hint`, in index order.
  std::vector<std::string> Ids(Collection& c, const std::string& filter,
                               const std::string& hint) {
    FindOptions options;
    options.hint = hint;
    auto cursor = c.Find(filter, options);
    EXPECT_TRUE(cursor.ok()) << cursor.status();
    std::vector<std::string> ids;
    if (!cursor.ok()) return ids;
    auto docs = (*cursor)->ToVector();
    EXPECT_TRUE(docs.ok()) << docs.status();
    if (!docs.ok()) return ids;
    for (const Value& d : *docs) ids.push_back(ToJson(*d.Get("_id")));
    return ids;
  }
  void Update(Collection& c, const std::string& filter,
              const std::string& update) {
    auto r = c.UpdateOne(filter, update);
    ASSERT_TRUE(r.ok()) << r.status();
    EXPECT_EQ(r->modified_count, 1) << update;
  }
};

TEST_F(UpdateKeysTest, SetOfUnindexedFieldKeepsEveryIndexEntry) {
  Collection& c = db_->collection("s");
  ASSERT_TRUE(
      c.CreateIndex(R"({"accessTime": 1})", R"({"expireAfterSeconds": 3600})")
          .ok());
  ASSERT_TRUE(c.CreateIndex(R"({"userId": 1})").ok());
  ASSERT_TRUE(c.CreateIndex(R"({"tags": 1})").ok());  // multikey
  ASSERT_TRUE(c.InsertOne(R"({"_id": 1, "userId": 7, "tags": ["x", "y"],
      "accessTime": {"$date": 1799999998000}, "n": 0})")
                  .ok());
  Update(c, R"({"_id": 1})", R"({"$set": {"n": 1}})");
  Update(c, R"({"_id": 1})",
         R"({"$set": {"accessTime": {"$date": 1799999999000}}})");
  ASSERT_TRUE(c.Touch(R"({"_id": 1})", "accessTime").ok());
  EXPECT_TRUE(Valid(c));
  EXPECT_EQ(Ids(c, R"({"userId": 7})", "userId_1"),
            std::vector<std::string>{"1"});
  EXPECT_EQ(Ids(c, R"({"tags": "y"})", "tags_1"),
            std::vector<std::string>{"1"});
  EXPECT_EQ(Ids(c, R"({"accessTime": {"$gt": {"$date": 1799999999000}}})",
                "accessTime_1"),
            std::vector<std::string>{"1"});
}

TEST_F(UpdateKeysTest, SetOfIndexedFieldMovesItsEntryAndTheTtlSiblings) {
  Collection& c = db_->collection("s");
  ASSERT_TRUE(
      c.CreateIndex(R"({"accessTime": 1})", R"({"expireAfterSeconds": 3600})")
          .ok());
  ASSERT_TRUE(c.CreateIndex(R"({"userId": 1})").ok());
  ASSERT_TRUE(
      c.InsertOne(
           R"({"_id": 1, "userId": 7, "accessTime": {"$date": 1800000000001}})")
          .ok());
  Update(c, R"({"_id": 1})", R"({"$set": {"userId": 8}})");
  EXPECT_TRUE(Valid(c));  // the TTL entry lists userId 8, not 7
  EXPECT_EQ(Ids(c, R"({"userId": 7})", "userId_1"), std::vector<std::string>{});
  EXPECT_EQ(Ids(c, R"({"userId": 8})", "userId_1"),
            std::vector<std::string>{"1"});
  // A change of type only (int 8 to double 8.0): the same number for
  // queries, but not an identical value, so its keys are regenerated.
  Update(c, R"({"_id": 1})", R"({"$set": {"userId": 8.5}})");
  Update(c, R"({"_id": 1})", R"({"$set": {"userId": 8.0}})");
  EXPECT_TRUE(Valid(c));
  EXPECT_EQ(Ids(c, R"({"userId": 8})", "userId_1"),
            std::vector<std::string>{"1"});
  EXPECT_EQ(Ids(c, R"({"userId": {"$type": "double"}})", "userId_1"),
            std::vector<std::string>{"1"});
}

TEST_F(UpdateKeysTest, NestedPathsAndArrayElements) {
  Collection& c = db_->collection("s");
  ASSERT_TRUE(c.CreateIndex(R"({"a.b": 1})").ok());
  ASSERT_TRUE(c.CreateIndex(R"({"a.c": 1})").ok());
  ASSERT_TRUE(c.CreateIndex(R"({"items.sku": 1})").ok());
  ASSERT_TRUE(c.InsertOne(R"({"_id": 1, "a": {"b": 1, "c": 2},
      "items": [{"sku": "p"}, {"sku": "q"}]})")
                  .ok());
  // a.b changes; a.c's top-level field "a" changes too (regenerated, same
  // keys); items is untouched.
  Update(c, R"({"_id": 1})", R"({"$set": {"a.b": 5}})");
  Update(c, R"({"_id": 1})", R"({"$set": {"items.1.sku": "r"}})");
  Update(c, R"({"_id": 1})", R"({"$push": {"items": {"sku": "s"}}})");
  EXPECT_TRUE(Valid(c));
  EXPECT_EQ(Ids(c, R"({"a.b": 1})", "a.b_1"), std::vector<std::string>{});
  EXPECT_EQ(Ids(c, R"({"a.b": 5})", "a.b_1"), std::vector<std::string>{"1"});
  EXPECT_EQ(Ids(c, R"({"a.c": 2})", "a.c_1"), std::vector<std::string>{"1"});
  EXPECT_EQ(Ids(c, R"({"items.sku": "q"})", "items.sku_1"),
            std::vector<std::string>{});
  EXPECT_EQ(Ids(c, R"({"items.sku": "r"})", "items.sku_1"),
            std::vector<std::string>{"1"});
  EXPECT_EQ(Ids(c, R"({"items.sku": "s"})", "items.sku_1"),
            std::vector<std::string>{"1"});
  // $unset of an indexed field: null key.
  Update(c, R"({"_id": 1})", R"({"$unset": {"a": ""}})");
  EXPECT_TRUE(Valid(c));
  EXPECT_EQ(Ids(c, R"({"a.c": null})", "a.c_1"), std::vector<std::string>{"1"});
}

TEST_F(UpdateKeysTest, PartialFilterFieldChangeEntersAndLeavesTheIndex) {
  Collection& c = db_->collection("s");
  ASSERT_TRUE(c.CreateIndex(R"({"userId": 1})",
                            R"({"partialFilterExpression": {"active": true}})")
                  .ok());
  ASSERT_TRUE(c.InsertOne(R"({"_id": 1, "userId": 7, "active": false})").ok());
  // Only the filter's field changes, not the key's.
  Update(c, R"({"_id": 1})", R"({"$set": {"active": true}})");
  EXPECT_TRUE(Valid(c));
  EXPECT_EQ(Ids(c, R"({"userId": 7, "active": true})", "userId_1"),
            std::vector<std::string>{"1"});
  Update(c, R"({"_id": 1})", R"({"$set": {"active": false}})");
  EXPECT_TRUE(Valid(c));
  EXPECT_EQ(Ids(c, R"({"userId": 7, "active": true})", "userId_1"),
            std::vector<std::string>{});
}

TEST_F(UpdateKeysTest, UniqueIndexStillChecksChangedKeysOnly) {
  Collection& c = db_->collection("s");
  ASSERT_TRUE(c.CreateIndex(R"({"email": 1})", R"({"unique": true})").ok());
  ASSERT_TRUE(c.InsertOne(R"({"_id": 1, "email": "a", "n": 0})").ok());
  ASSERT_TRUE(c.InsertOne(R"({"_id": 2, "email": "b", "n": 0})").ok());
  Update(c, R"({"_id": 1})", R"({"$set": {"n": 1}})");  // its own key: fine
  auto dup = c.UpdateOne(R"({"_id": 1})", R"({"$set": {"email": "b"}})");
  EXPECT_EQ(ErrorCode(dup.status()), 11000) << dup.status();
  EXPECT_TRUE(Valid(c));
  EXPECT_EQ(Ids(c, R"({"email": "a"})", "email_1"),
            std::vector<std::string>{"1"});
}

}  // namespace
}  // namespace ttldb
