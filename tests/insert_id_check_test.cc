// The _id existence check of an insert: skipped only for a document key
// above every key the collection has stored (DbImpl::doc_key_bound_), so a
// duplicate _id is refused (11000, nothing written) wherever it lies, after
// a reopen, after deletes and drops, for generated ObjectIds and numbers.
// Expected answers: MongoDB's unique _id index (jstests/core/write/insert/
// insert_id_undefined.js, jstests/core/index/index_id_options.js: a second
// insert of the same _id fails with DuplicateKey 11000).
#include <string>

#include "absl/strings/str_cat.h"
#include "base/status.h"
#include "gtest/gtest.h"
#include "tests/db_fixture.h"
#include "tests/test_util.h"
#include "ttldb/database.h"
#include "ttldb/json.h"

namespace ttldb {
namespace {

class InsertIdCheckTest : public DbTest {
 protected:
  void Insert(Collection& c, const std::string& json) {
    auto r = c.InsertOne(json);
    ASSERT_TRUE(r.ok()) << r.status() << " " << json;
  }
  void ExpectDuplicate(Collection& c, const std::string& json) {
    auto r = c.InsertOne(json);
    EXPECT_EQ(ErrorCode(r.status()), 11000) << r.status() << " " << json;
  }
  int64_t Count(Collection& c) {
    auto n = c.CountDocuments("{}");
    EXPECT_TRUE(n.ok()) << n.status();
    return n.ok() ? *n : -1;
  }
};

TEST_F(InsertIdCheckTest, DuplicatesAtAndBelowTheHighestKey) {
  Collection& c = db_->collection("s");
  Insert(c, R"({"_id": "k1", "v": 1})");
  Insert(c, R"({"_id": "k3", "v": 1})");
  ExpectDuplicate(c, R"({"_id": "k3", "v": 2})");  // the highest key itself
  ExpectDuplicate(c, R"({"_id": "k1", "v": 2})");  // below it
  Insert(c, R"({"_id": "k2", "v": 1})");           // below it, new
  Insert(c, R"({"_id": 5})");             // a number sorts below strings
  ExpectDuplicate(c, R"({"_id": 5.0})");  // the same _id to the unique index
  EXPECT_EQ(Count(c), 4);
  auto doc = c.FindById(Value::String("k3"));
  ASSERT_TRUE(doc.ok()) << doc.status();
  EXPECT_EQ(doc->Get("v")->int32_value(), 1);  // not overwritten
  EXPECT_TRUE(Valid(c));
}

TEST_F(InsertIdCheckTest, AfterReopenTheStoredKeysCount) {
  {
    Collection& c = db_->collection("s");
    Insert(c, R"({"_id": "a"})");
    Insert(c, R"({"_id": "z"})");
  }
  Open();
  Collection& c = db_->collection("s");
  ExpectDuplicate(c, R"({"_id": "z"})");
  ExpectDuplicate(c, R"({"_id": "a"})");
  Insert(c, R"({"_id": "zz"})");
  ExpectDuplicate(c, R"({"_id": "zz"})");
  EXPECT_EQ(Count(c), 3);
}

TEST_F(InsertIdCheckTest, GeneratedObjectIdsCannotBeReusedByAUser) {
  Collection& c = db_->collection("s");
  auto id = c.InsertOne(R"({"n": 1})");
  ASSERT_TRUE(id.ok()) << id.status();
  ASSERT_TRUE(c.InsertOne(R"({"n": 2})").ok());
  // A user who inserts the first generated _id again is refused.
  ExpectDuplicate(c, absl::StrCat(R"({"_id": )", ToJson(*id), R"(, "n": 3})"));
  EXPECT_EQ(Count(c), 2);
  // An ObjectId above every stored one given by the user: inserted once.
  const std::string high = R"({"_id": {"$oid": "ffffffffffffffffffffffff"}})";
  Insert(c, high);
  ExpectDuplicate(c, high);
}

TEST_F(InsertIdCheckTest, DeletesDropsAndUpserts) {
  Collection& c = db_->collection("s");
  Insert(c, R"({"_id": 1})");
  Insert(c, R"({"_id": 2})");
  ASSERT_TRUE(c.DeleteOne(R"({"_id": 2})").ok());
  Insert(c, R"({"_id": 2})");  // deleted: free again
  ExpectDuplicate(c, R"({"_id": 2})");
  // An upsert inserts through the same path.
  UpdateOptions upsert;
  upsert.upsert = true;
  auto r = c.UpdateOne(R"({"_id": 3})", R"({"$set": {"v": 1}})", upsert);
  ASSERT_TRUE(r.ok()) << r.status();
  ExpectDuplicate(c, R"({"_id": 3})");
  // A dropped and re-created collection starts empty.
  ASSERT_TRUE(db_->DropCollection("s").ok());
  Collection& again = db_->collection("s");
  Insert(again, R"({"_id": 1})");
  Insert(again, R"({"_id": 3})");
  ExpectDuplicate(again, R"({"_id": 3})");
  EXPECT_EQ(Count(again), 2);
}

TEST_F(InsertIdCheckTest, AnExpiredDocumentAtTheHighestKeyIsReplaced) {
  // hide_expired: a document past its TTL is absent to reads, and an insert
  // of its _id replaces it (docs/ttl.md), also when its key is the highest.
  Collection& c = db_->collection("s");
  ASSERT_TRUE(
      c.CreateIndex(R"({"accessTime": 1})", R"({"expireAfterSeconds": 60})")
          .ok());
  const std::string t = absl::StrCat(absl::ToUnixMillis(kTestStart));
  Insert(c, absl::StrCat(R"({"_id": "z", "v": 1, "accessTime": {"$date": )", t,
                         "}}"));
  ExpectDuplicate(c, R"({"_id": "z", "v": 2})");
  clock_.Advance(absl::Minutes(2));
  Insert(c, R"({"_id": "z", "v": 3})");
  auto doc = c.FindById(Value::String("z"));
  ASSERT_TRUE(doc.ok()) << doc.status();
  EXPECT_EQ(doc->Get("v")->int32_value(), 3);
  EXPECT_TRUE(Valid(c));
}

}  // namespace
}  // namespace ttldb
