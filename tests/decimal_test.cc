// Decimal128 through the engine: index scans give the collection scan's
// answers over mixed numeric types, sorts by an index agree with blocking
// sorts, unique indexes treat equal numbers as one key, and databases of an
// older format get their number keys rebuilt at open.
#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "document/compare.h"
#include "gtest/gtest.h"
#include "leveldb/db.h"
#include "leveldb/write_batch.h"
#include "proto/catalog.pb.h"
#include "storage/keys.h"
#include "tests/db_fixture.h"
#include "tests/test_util.h"
#include "ttldb/clock.h"
#include "ttldb/database.h"
#include "ttldb/json.h"

namespace ttldb {
namespace {

// Values around the interesting boundaries, as Extended JSON.
const std::vector<std::string>& Numbers() {
  static const auto* kNumbers = new std::vector<std::string>{
      "1",
      "1.0",
      R"({"$numberLong": "1"})",
      R"({"$numberDecimal": "1.00"})",
      R"({"$numberDecimal": "1.000000000000000000000000000000001"})",
      "0.1",
      R"({"$numberDecimal": "0.1"})",
      R"({"$numberDecimal": "0.1000000000000000055511151231257827"})",
      R"({"$numberDecimal": "0.1000000000000000055511151231257828"})",
      R"({"$numberDecimal": "-0"})",
      "-0.0",
      "0",
      R"({"$numberDecimal": "-1E-6176"})",
      R"({"$numberDecimal": "1E+400"})",
      "1e308",
      R"({"$numberDouble": "Infinity"})",
      R"({"$numberDecimal": "-Infinity"})",
      R"({"$numberDecimal": "NaN"})",
      R"({"$numberDouble": "NaN"})",
      R"({"$numberLong": "9223372036854775807"})",
      R"({"$numberDecimal": "9223372036854775807.5"})",
      R"({"$numberDecimal": "9223372036854775808"})",
      "9223372036854775808.0",
      R"({"$numberDecimal": "-2.5"})",
      "-2.5",
      R"({"$numberDecimal": "-2.49"})",
      R"({"$numberDecimal": "123456789012345678901234567890.1234"})"};
  return *kNumbers;
}

std::vector<std::string> Query(Collection& c, const std::string& filter,
                               const std::string& sort,
                               const std::string& hint) {
  FindOptions options;
  if (!sort.empty()) options.sort = *ParseDocument(sort);
  options.hint = hint;
  auto cursor = c.Find(filter, options);
  EXPECT_TRUE(cursor.ok()) << filter << " " << cursor.status();
  if (!cursor.ok()) return {};
  auto docs = (*cursor)->ToVector();
  EXPECT_TRUE(docs.ok()) << docs.status();
  std::vector<std::string> out;
  for (const Value& d : *docs) out.push_back(ToJson(d, JsonFormat::kCanonical));
  if (sort.empty()) std::sort(out.begin(), out.end());
  return out;
}

class DecimalEngineTest : public DbTest {};

// Every comparison against every value, with and without the index (hinted
// ascending and descending), gives the same documents; an index-provided
// sort gives the blocking sort's order of values. MongoDB indexes numbers by
// value (key_string.cpp), so these must agree as its collection scans do.
TEST_F(DecimalEngineTest, IndexScansAgreeWithCollectionScans) {
  Collection& c = db_->collection("d");
  Collection& plain = db_->collection("plain");
  const std::vector<std::string>& numbers = Numbers();
  for (size_t i = 0; i < numbers.size(); ++i) {
    const std::string doc =
        absl::StrCat(R"({"_id": )", i, R"(, "a": )", numbers[i], "}");
    ASSERT_TRUE(c.InsertOne(doc).ok()) << doc;
    ASSERT_TRUE(plain.InsertOne(doc).ok()) << doc;
  }
  ASSERT_TRUE(c.CreateIndex(R"({"a": 1})").ok());
  ASSERT_TRUE(c.CreateIndex(R"({"a": -1})").ok());
  int checked = 0;
  for (const std::string& v : numbers) {
    for (const char* op : {"$eq", "$gt", "$gte", "$lt", "$lte"}) {
      const std::string filter =
          absl::StrCat(R"({"a": {")", op, R"(": )", v, "}}");
      const std::vector<std::string> scan = Query(plain, filter, "", "");
      EXPECT_EQ(Query(c, filter, "", "a_1"), scan) << filter;
      EXPECT_EQ(Query(c, filter, "", "a_-1"), scan) << filter;
      ++checked;
    }
  }
  EXPECT_EQ(checked, 5 * static_cast<int>(numbers.size()));
  // Sorted by a through each index and by a blocking sort: the values come
  // in the same order (ties in any order).
  auto values = [&](const std::string& sort, const std::string& hint) {
    std::vector<Value> out;
    FindOptions options;
    options.sort = *ParseDocument(sort);
    options.hint = hint;
    auto docs = (*(hint.empty() ? plain : c).Find("{}", options))->ToVector();
    for (const Value& d : *docs) out.push_back(*d.Get("a"));
    return out;
  };
  for (const char* sort : {R"({"a": 1})", R"({"a": -1})"}) {
    std::vector<Value> blocking = values(sort, "");
    for (const char* hint : {"a_1", "a_-1"}) {
      std::vector<Value> by_index = values(sort, hint);
      ASSERT_EQ(by_index.size(), blocking.size());
      for (size_t i = 0; i < blocking.size(); ++i) {
        EXPECT_EQ(CompareValues(by_index[i], blocking[i]), 0)
            << sort << " " << hint << " at " << i << ": " << ToJson(by_index[i])
            << " vs " << ToJson(blocking[i]);
      }
    }
  }
}

// 1, 1.0, NumberLong(1) and NumberDecimal("1.00") are one unique key; a
// decimal one unit in the 34th digit away is another (E11000 is MongoDB's
// answer for equal numbers of any type: jstests/decimal/decimal_find_basic.js
// finds them all with {a: 1}).
TEST_F(DecimalEngineTest, UniqueIndexTreatsEqualNumbersAsOneKey) {
  Collection& c = db_->collection("u");
  ASSERT_TRUE(c.CreateIndex(R"({"a": 1})", R"({"unique": true})").ok());
  ASSERT_TRUE(
      c.InsertOne(R"({"_id": 1, "a": {"$numberDecimal": "1.00"}})").ok());
  for (const char* dup : {R"({"_id": 2, "a": 1})", R"({"_id": 3, "a": 1.0})",
                          R"({"_id": 4, "a": {"$numberLong": "1"}})",
                          R"({"_id": 5, "a": {"$numberDecimal": "1E0"}})"}) {
    EXPECT_EQ(c.InsertOne(dup).status().code(),
              absl::StatusCode::kAlreadyExists)
        << dup;
  }
  EXPECT_TRUE(c.InsertOne(R"({"_id": 6, "a": {"$numberDecimal": )"
                          R"("1.000000000000000000000000000000001"}})")
                  .ok());
  EXPECT_TRUE(c.InsertOne(R"({"_id": 7, "a": 1.0000000000000002})").ok());
  // A decimal _id is its own key too: 2.5 and 2.50 are the same _id.
  ASSERT_TRUE(
      c.InsertOne(R"({"_id": {"$numberDecimal": "2.5"}, "a": 9})").ok());
  EXPECT_EQ(c.InsertOne(R"({"_id": 2.5, "a": 10})").status().code(),
            absl::StatusCode::kAlreadyExists);
}

// distinct dedups by value across types (MongoDB's distinct compares with
// the BSON comparator: 1, 1.0, NumberLong(1) and NumberDecimal("1.00") are one
// value; jstests/decimal/decimal_find_basic.js), also through arrays.
TEST_F(DecimalEngineTest, DistinctTreatsEqualNumbersAsOne) {
  Collection& c = db_->collection("dist");
  for (
      const char* doc :
      {R"({"_id": 1, "a": {"$numberDecimal": "1.00"}})",
       R"({"_id": 2, "a": 1})",
       R"({"_id": 3, "a": [1.0, {"$numberDecimal": "2.5"}]})",
       R"({"_id": 4, "a": 2.5})", R"({"_id": 5, "a": {"$numberLong": "1"}})",
       R"({"_id": 6, "a": {"$numberDecimal": "2.5000000000000000000000001"}})"}) {
    ASSERT_TRUE(c.InsertOne(doc).ok()) << doc;
  }
  auto values = c.Distinct("a");
  ASSERT_TRUE(values.ok()) << values.status();
  ASSERT_EQ(values->size(), 3u);
  EXPECT_EQ(CompareValues((*values)[0], Value::Int32(1)), 0);
  EXPECT_EQ(CompareValues((*values)[1], Value::Double(2.5)), 0);
  EXPECT_EQ((*values)[2].type(), ValueType::kDecimal);
}

// A database of format 2 (no exactness byte in number keys) is rekeyed at
// open: here its index entries are gone and its document keys are stale,
// and after the open every query and _id lookup works and the database says
// format 3. A read-only open of such a database is refused.
TEST_F(DecimalEngineTest, OlderFormatIsRekeyedAtOpen) {
  Collection& c = db_->collection("m");
  ASSERT_TRUE(c.CreateIndex(R"({"a": 1})").ok());
  for (int i = 0; i < 50; ++i) {
    ASSERT_TRUE(
        c.InsertOne(absl::StrCat(R"({"_id": )", i, R"(.5, "a": )", i, "}"))
            .ok());
  }
  const std::vector<std::string> before =
      Query(c, R"({"a": {"$gte": 40}})", "", "a_1");
  ASSERT_EQ(before.size(), 10u);
  db_.reset();
  {
    leveldb::DB* raw = nullptr;
    ASSERT_TRUE(leveldb::DB::Open(leveldb::Options(), dir_.path(), &raw).ok());
    std::unique_ptr<leveldb::DB> owned(raw);
    leveldb::WriteBatch batch;
    std::unique_ptr<leveldb::Iterator> it(
        raw->NewIterator(leveldb::ReadOptions()));
    int docs = 0;
    for (it->Seek("D"); it->Valid() && it->key().starts_with("D"); it->Next()) {
      // Stale document key: same collection prefix, other bytes.
      std::string stale = it->key().ToString();
      stale.back() = static_cast<char>(0x00);
      stale += "old";
      batch.Delete(it->key());
      batch.Put(stale, it->value());
      ++docs;
    }
    EXPECT_EQ(docs, 50);
    for (it->Seek("I"); it->Valid() && it->key().starts_with("I"); it->Next()) {
      batch.Delete(it->key());
    }
    proto::DatabaseMeta meta;
    std::string m;
    ASSERT_TRUE(raw->Get(leveldb::ReadOptions(), MetaKey(), &m).ok());
    ASSERT_TRUE(meta.ParseFromString(m));
    meta.set_format_version(2);
    batch.Put(MetaKey(), meta.SerializeAsString());
    it.reset();
    ASSERT_TRUE(raw->Write(leveldb::WriteOptions(), &batch).ok());
  }
  {
    Options ro;
    ro.read_only = true;
    ro.ttl_monitor_enabled = false;
    auto db = Database::Open(dir_.path(), ro);
    ASSERT_FALSE(db.ok());
    EXPECT_EQ(db.status().code(), absl::StatusCode::kFailedPrecondition);
  }
  Open();
  Collection& m = db_->collection("m");
  EXPECT_EQ(Query(m, R"({"a": {"$gte": 40}})", "", "a_1"), before);
  EXPECT_EQ(Query(m, R"({"_id": 7.5})", "", "").size(), 1u);
  EXPECT_EQ(Query(m, "{}", "", "").size(), 50u);
  db_.reset();
  leveldb::DB* raw = nullptr;
  ASSERT_TRUE(leveldb::DB::Open(leveldb::Options(), dir_.path(), &raw).ok());
  std::unique_ptr<leveldb::DB> owned(raw);
  std::string m2;
  ASSERT_TRUE(raw->Get(leveldb::ReadOptions(), MetaKey(), &m2).ok());
  proto::DatabaseMeta meta;
  ASSERT_TRUE(meta.ParseFromString(m2));
  EXPECT_EQ(meta.format_version(), 3u);
  EXPECT_TRUE(
      raw->Get(leveldb::ReadOptions(), RekeyMarkerKey(), &m2).IsNotFound());
}

}  // namespace
}  // namespace ttldb
