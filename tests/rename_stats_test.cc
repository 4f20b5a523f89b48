// Database::RenameCollection and Database::Stats through the public API.
// Expected answers: src/mongo/db/catalog/rename_collection.cpp
// (checkSourceAndTargetNamespaces: 26 "Source collection ... does not
// exist", 48 "target namespace exists"), jstests/core/
// rename_collection_to_itself.js (20 IllegalOperation), jstests/core/
// rename7.js and the manual's renameCollection page (dropTarget; indexes
// kept), and the manual's dbStats page for Stats' shape.
#include <string>

#include "absl/strings/str_cat.h"
#include "base/status.h"
#include "gtest/gtest.h"
#include "tests/db_fixture.h"
#include "tests/test_util.h"
#include "ttldb/database.h"
#include "ttldb/json.h"
#include "ttldb/testing/ttldb_testing.h"

namespace ttldb {
namespace {

using RenameTest = DbTest;

TEST_F(RenameTest, Errors) {
  ASSERT_TRUE(db_->collection("a").InsertOne(R"({"_id": 1})").ok());
  ASSERT_TRUE(db_->collection("b").InsertOne(R"({"_id": 2})").ok());
  absl::Status s = db_->RenameCollection("nosuch", "z");
  EXPECT_EQ(ErrorCode(s), kNamespaceNotFound);
  EXPECT_EQ(s.message(), "Source collection nosuch does not exist");
  s = db_->RenameCollection("a", "b");
  EXPECT_EQ(ErrorCode(s), 48);
  EXPECT_EQ(s.message(), "target namespace exists");
  s = db_->RenameCollection("a", "a", /*drop_target=*/true);
  EXPECT_EQ(ErrorCode(s), 20);
  EXPECT_EQ(s.message(), "Can't rename a collection to itself");
  EXPECT_EQ(ErrorCode(db_->RenameCollection("a", "$x")), 73);
  // Nothing changed.
  EXPECT_EQ(*db_->collection("a").CountDocuments(), 1);
  EXPECT_EQ(*db_->collection("b").CountDocuments(), 1);
}

// dropTarget: the target's documents and indexes go, the source's take its
// name, in one step that survives a reopen.
TEST_F(RenameTest, DropTarget) {
  Collection& a = db_->collection("a");
  ASSERT_TRUE(a.InsertOne(R"({"_id": 1, "x": 1})").ok());
  ASSERT_TRUE(a.CreateIndex(R"({"x": 1})").ok());
  Collection& b = db_->collection("b");
  ASSERT_TRUE(b.InsertOne(R"({"_id": 2, "y": 1})").ok());
  ASSERT_TRUE(b.CreateIndex(R"({"y": 1})").ok());
  ASSERT_TRUE(db_->RenameCollection("a", "b", /*drop_target=*/true).ok());
  Open();
  EXPECT_EQ(*db_->ListCollectionNames(), std::vector<std::string>{"b"});
  Collection& nb = db_->collection("b");
  EXPECT_EQ(ToJson(*nb.FindOne("{}").value()), R"({"_id":1,"x":1})");
  auto idx = nb.ListIndexes();
  ASSERT_EQ(idx->size(), 2u);
  EXPECT_EQ((*idx)[1].Get("name")->string_value(), "x_1");
  EXPECT_TRUE(Valid(nb));
  // The dropped target's data is gone: a new "a" starts empty.
  EXPECT_EQ(*db_->collection("a").CountDocuments(), 0);
  auto stats = db_->Stats();
  ASSERT_TRUE(stats.ok()) << stats.status();
  EXPECT_EQ(stats->Get("objects")->int64_value(), 1);
}

// A TTL index moves with the collection and keeps expiring.
TEST_F(RenameTest, TtlIndexKeepsExpiring) {
  Collection& a = db_->collection("log");
  ASSERT_TRUE(
      a.CreateIndex(R"({"at": 1})", R"({"expireAfterSeconds": 60})").ok());
  ASSERT_TRUE(a.InsertOne(absl::StrCat(R"({"_id": 1, "at": )",
                                       DateJson(kTestStart), "}"))
                  .ok());
  ASSERT_TRUE(db_->RenameCollection("log", "oldlog").ok());
  Collection& b = db_->collection("oldlog");
  auto idx = b.ListIndexes();
  ASSERT_EQ(idx->size(), 2u);
  EXPECT_EQ((*idx)[1].Get("expireAfterSeconds")->AsDouble(), 60);
  EXPECT_EQ(*b.EstimatedDocumentCount(), 1);
  ttldb_testing::RunTtlPass(*db_, kTestStart + absl::Seconds(61));
  EXPECT_EQ(*b.EstimatedDocumentCount(), 0);
  EXPECT_TRUE(Valid(b));
}

// dbStats' fields, in MongoDB's order, with counts over every collection.
TEST_F(RenameTest, DbStatsShape) {
  Collection& a = db_->collection("a");
  ASSERT_TRUE(a.InsertOne(R"({"_id": 1, "s": "xxxx"})").ok());
  ASSERT_TRUE(a.InsertOne(R"({"_id": 2, "s": "yyyy"})").ok());
  ASSERT_TRUE(a.CreateIndex(R"({"s": 1})").ok());
  ASSERT_TRUE(db_->collection("b").InsertOne(R"({"_id": 3})").ok());
  auto s = db_->Stats(1, "app");
  ASSERT_TRUE(s.ok()) << s.status();
  std::vector<std::string> names;
  for (const auto& f : s->object_fields()) names.push_back(f.first);
  EXPECT_EQ(names,
            (std::vector<std::string>{
                "db", "collections", "views", "objects", "avgObjSize",
                "dataSize", "storageSize", "indexes", "indexSize", "totalSize",
                "scaleFactor", "fsUsedSize", "fsTotalSize", "ok"}));
  EXPECT_EQ(s->Get("db")->string_value(), "app");
  EXPECT_EQ(s->Get("collections")->int64_value(), 2);
  EXPECT_EQ(s->Get("views")->int64_value(), 0);
  EXPECT_EQ(s->Get("objects")->int64_value(), 3);
  EXPECT_EQ(s->Get("indexes")->int64_value(), 3);  // _id_ x2, s_1
  const double data_size = s->Get("dataSize")->AsDouble();
  EXPECT_EQ(data_size,
            a.Stats()->Get("size")->AsDouble() +
                db_->collection("b").Stats()->Get("size")->AsDouble());
  EXPECT_EQ(s->Get("avgObjSize")->AsDouble(), data_size / 3);
  EXPECT_EQ(
      s->Get("totalSize")->AsDouble(),
      s->Get("storageSize")->AsDouble() + s->Get("indexSize")->AsDouble());
  EXPECT_GT(s->Get("fsTotalSize")->AsDouble(), 0);
  EXPECT_EQ(s->Get("ok")->AsDouble(), 1);
  auto k = db_->Stats(1024);
  ASSERT_TRUE(k.ok());
  EXPECT_EQ(k->Get("scaleFactor")->int64_value(), 1024);
  EXPECT_EQ(k->Get("dataSize")->AsDouble(),
            static_cast<int64_t>(data_size) / 1024);
  auto bad = db_->Stats(0);
  EXPECT_EQ(ErrorCode(bad.status()), 51024);
  EXPECT_EQ(bad.status().message(),
            "BSON field 'scale' value must be >= 1, actual value '0'");
}

TEST_F(RenameTest, DbStatsEmpty) {
  auto s = db_->Stats();
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(s->Get("collections")->int64_value(), 0);
  EXPECT_EQ(s->Get("objects")->int64_value(), 0);
  EXPECT_EQ(s->Get("avgObjSize")->AsDouble(), 0);
}

}  // namespace
}  // namespace ttldb
