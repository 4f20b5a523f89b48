#include "query/update.h"

#include <string>

#include "absl/strings/str_cat.h"
#include "base/status.h"
#include "gtest/gtest.h"
#include "query/test_doc.h"
#include "ttldb/json.h"

namespace ttldb {
namespace {

// 2024-01-01T00:00:00Z
constexpr int64_t kNow = 1704067200000;

// Applies `update` to `doc`; returns the resulting JSON, or
// "error <code>: <message>" (and checks the document was left unchanged).
std::string Upd(const std::string& update, const std::string& doc,
                bool is_insert = false, bool* modified_out = nullptr) {
  auto u = Update::Parse(Doc(update));
  if (!u.ok()) {
    return absl::StrCat("error ", ErrorCode(u.status()), ": ",
                        u.status().message());
  }
  Value d = Doc(doc);
  const std::string before = ToJson(d, JsonFormat::kCanonical);
  bool modified = true;
  absl::Status s = u->Apply(&d, kNow, is_insert, &modified);
  if (modified_out != nullptr) *modified_out = modified;
  // ApplyToCopy (the engine's update path, which has copied the document
  // already) agrees with Apply on every case of this file: status, result
  // and *modified.
  {
    const Value original = Doc(doc);
    Value copy = original;
    bool copy_modified = !modified;
    absl::Status cs = u->ApplyToCopy(original, &copy, kNow, is_insert,
                                     &copy_modified, std::nullopt);
    EXPECT_EQ(cs.code(), s.code()) << update << " " << doc;
    EXPECT_EQ(cs.message(), s.message()) << update << " " << doc;
    if (s.ok()) {
      EXPECT_EQ(ToJson(copy, JsonFormat::kCanonical),
                ToJson(d, JsonFormat::kCanonical))
          << update << " " << doc;
      EXPECT_EQ(copy_modified, modified) << update << " " << doc;
    }
  }
  if (!s.ok()) {
    EXPECT_EQ(ToJson(d, JsonFormat::kCanonical), before) << "not atomic";
    EXPECT_FALSE(modified);
    return absl::StrCat("error ", ErrorCode(s), ": ", s.message());
  }
  return ToJson(d);
}

TEST(UpdateTest, Set) {
  EXPECT_EQ(Upd(R"({"$set": {"a": 2}})", R"({"_id": 1, "a": 1})"),
            R"({"_id":1,"a":2})");
  EXPECT_EQ(Upd(R"({"$set": {"b": 2}})", R"({"_id": 1, "a": 1})"),
            R"({"_id":1,"a":1,"b":2})");
  EXPECT_EQ(Upd(R"({"$set": {"a.b.c": 1}})", R"({"_id": 1})"),
            R"({"_id":1,"a":{"b":{"c":1}}})");
  EXPECT_EQ(Upd(R"({"$set": {"a.b": 1}})", R"({"_id": 1, "a": {"x": 0}})"),
            R"({"_id":1,"a":{"x":0,"b":1}})");
  // New fields are created in lexicographic path order.
  EXPECT_EQ(
      Upd(R"({"$set": {"c": 1, "b": 2}, "$inc": {"a": 1}})", R"({"_id": 1})"),
      R"({"_id":1,"a":1,"b":2,"c":1})");
  // Array elements by position, padding with nulls.
  EXPECT_EQ(Upd(R"({"$set": {"a.1": 9}})", R"({"_id": 1, "a": [1, 2]})"),
            R"({"_id":1,"a":[1,9]})");
  EXPECT_EQ(Upd(R"({"$set": {"a.3": 9}})", R"({"_id": 1, "a": [1]})"),
            R"({"_id":1,"a":[1,null,null,9]})");
  EXPECT_EQ(Upd(R"({"$set": {"a.0.b": 9}})", R"({"_id": 1, "a": [{"b": 1}]})"),
            R"({"_id":1,"a":[{"b":9}]})");
  EXPECT_EQ(Upd(R"({"$set": {"a.2.b": 9}})", R"({"_id": 1, "a": []})"),
            R"({"_id":1,"a":[null,null,{"b":9}]})");
  // A numeric component on a missing path creates an object field.
  EXPECT_EQ(Upd(R"({"$set": {"a.0": 1}})", R"({"_id": 1})"),
            R"({"_id":1,"a":{"0":1}})");
  EXPECT_EQ(Upd(R"({"$set": {"a.b": 1}})", R"({"_id": 1, "a": 5})"),
            "error 28: Cannot create field 'b' in element {a: 5}");
  EXPECT_EQ(Upd(R"({"$set": {"a.b": 1}})", R"({"_id": 1, "a": [1]})"),
            "error 28: Cannot create field 'b' in element {a: [1]}");
  EXPECT_EQ(Upd(R"({"$set": {"_id": 1, "a": 2}})", R"({"_id": 1})"),
            R"({"_id":1,"a":2})");
}

TEST(UpdateTest, Modified) {
  bool modified = true;
  EXPECT_EQ(
      Upd(R"({"$set": {"a": 1}})", R"({"_id": 1, "a": 1})", false, &modified),
      R"({"_id":1,"a":1})");
  EXPECT_FALSE(modified);
  EXPECT_EQ(
      Upd(R"({"$set": {"a": 1.0}})", R"({"_id": 1, "a": 1})", false, &modified),
      R"({"_id":1,"a":1.0})");
  EXPECT_TRUE(modified);
  Upd(R"({"$unset": {"x": 1}})", R"({"_id": 1})", false, &modified);
  EXPECT_FALSE(modified);
}

TEST(UpdateTest, Unset) {
  EXPECT_EQ(Upd(R"({"$unset": {"a": ""}})", R"({"_id": 1, "a": 1, "b": 2})"),
            R"({"_id":1,"b":2})");
  EXPECT_EQ(
      Upd(R"({"$unset": {"a.b": 1}})", R"({"_id": 1, "a": {"b": 1, "c": 2}})"),
      R"({"_id":1,"a":{"c":2}})");
  EXPECT_EQ(Upd(R"({"$unset": {"a.1": 1}})", R"({"_id": 1, "a": [1, 2, 3]})"),
            R"({"_id":1,"a":[1,null,3]})");
  EXPECT_EQ(Upd(R"({"$unset": {"x.y": 1}})", R"({"_id": 1, "x": 5})"),
            R"({"_id":1,"x":5})");
}

TEST(UpdateTest, Inc) {
  EXPECT_EQ(Upd(R"({"$inc": {"a": 2}})", R"({"_id": 1, "a": 1})"),
            R"({"_id":1,"a":3})");
  EXPECT_EQ(Upd(R"({"$inc": {"a": -2}})", R"({"_id": 1})"),
            R"({"_id":1,"a":-2})");
  EXPECT_EQ(Upd(R"({"$inc": {"a": 0.5}})", R"({"_id": 1, "a": 1})"),
            R"({"_id":1,"a":1.5})");
  EXPECT_EQ(Upd(R"({"$inc": {"a.b": 1}})", R"({"_id": 1, "a": {"b": 1}})"),
            R"({"_id":1,"a":{"b":2}})");
  // int32 overflow promotes to long.
  EXPECT_EQ(Upd(R"({"$inc": {"a": 1}})", R"({"_id": 1, "a": 2147483647})"),
            R"({"_id":1,"a":2147483648})");
  EXPECT_EQ(
      Upd(R"({"$inc": {"a": 1}})", R"({"_id": 1, "a": "x"})"),
      "error 14: Cannot apply $inc to a value of non-numeric type. {_id: 1} "
      "has the field 'a' of non-numeric type string");
  EXPECT_EQ(
      Upd(R"({"$inc": {"a": "x"}})", R"({"_id": 1})"),
      R"(error 14: Cannot increment with non-numeric argument: {a: "x"})");
}

TEST(UpdateTest, Mul) {
  EXPECT_EQ(Upd(R"({"$mul": {"a": 3}})", R"({"_id": 1, "a": 2})"),
            R"({"_id":1,"a":6})");
  EXPECT_EQ(Upd(R"({"$mul": {"a": 3}})", R"({"_id": 1})"),
            R"({"_id":1,"a":0})");
  EXPECT_EQ(Upd(R"({"$mul": {"a": 2.5}})", R"({"_id": 1})"),
            R"({"_id":1,"a":0.0})");
  EXPECT_EQ(Upd(R"({"$mul": {"a": 1.5}})", R"({"_id": 1, "a": 2})"),
            R"({"_id":1,"a":3.0})");
  EXPECT_EQ(Upd(R"({"$mul": {"a": "x"}})", R"({"_id": 1})"),
            R"(error 14: Cannot multiply with non-numeric argument: {a: "x"})");
}

// A decimal operand makes a decimal (mongo/util/safe_num.cpp: ints and longs
// convert exactly, doubles to 15 digits); jstests/decimal/decimal_update.js
// ($inc NumberDecimal("10") on 1.0, 1.00, NumberLong(1) and 1 gives 11 for
// all four; $mul by NumberDecimal("0") gives 0 for every number).
TEST(UpdateTest, DecimalArithmetic) {
  EXPECT_EQ(Upd(R"({"$inc": {"a": {"$numberDecimal": "10"}}})",
                R"({"_id": 1, "a": {"$numberDecimal": "1.0"}})"),
            R"({"_id":1,"a":{"$numberDecimal":"11.0"}})");
  EXPECT_EQ(Upd(R"({"$inc": {"a": {"$numberDecimal": "10"}}})",
                R"({"_id": 1, "a": {"$numberLong": "1"}})"),
            R"({"_id":1,"a":{"$numberDecimal":"11"}})");
  EXPECT_EQ(Upd(R"({"$inc": {"a": {"$numberDecimal": "10"}}})",
                R"({"_id": 1, "a": 1})"),
            R"({"_id":1,"a":{"$numberDecimal":"11"}})");
  // A double operand meets a decimal field: the double at 15 digits.
  EXPECT_EQ(Upd(R"({"$inc": {"a": 0.1}})",
                R"({"_id": 1, "a": {"$numberDecimal": "1"}})"),
            R"({"_id":1,"a":{"$numberDecimal":"1.100000000000000"}})");
  EXPECT_EQ(Upd(R"({"$mul": {"a": {"$numberDecimal": "1.5"}}})",
                R"({"_id": 1, "a": 3})"),
            R"({"_id":1,"a":{"$numberDecimal":"4.5"}})");
  EXPECT_EQ(Upd(R"({"$mul": {"a": {"$numberDecimal": "0"}}})",
                R"({"_id": 1, "a": 2.5})"),
            R"({"_id":1,"a":{"$numberDecimal":"0E-14"}})");
  EXPECT_EQ(Upd(R"({"$mul": {"a": 2}})",
                R"({"_id": 1, "a": {"$numberDecimal": "1.25"}})"),
            R"({"_id":1,"a":{"$numberDecimal":"2.50"}})");
  // Missing field: $inc sets the operand, $mul its product with int 0.
  EXPECT_EQ(
      Upd(R"({"$inc": {"a": {"$numberDecimal": "2.5"}}})", R"({"_id": 1})"),
      R"({"_id":1,"a":{"$numberDecimal":"2.5"}})");
  EXPECT_EQ(
      Upd(R"({"$mul": {"a": {"$numberDecimal": "1.25"}}})", R"({"_id": 1})"),
      R"({"_id":1,"a":{"$numberDecimal":"0.00"}})");
  // Decimal overflow is Infinity, not an error.
  EXPECT_EQ(Upd(R"({"$mul": {"a": {"$numberDecimal": "10"}}})",
                R"({"_id": 1, "a": {"$numberDecimal": "9E+6144"}})"),
            R"({"_id":1,"a":{"$numberDecimal":"Infinity"}})");
}

// $addToSet and $pull compare by value: NumberDecimal("1.0") is already in
// [1] (jstests/decimal/decimal_find_basic.js equality across types).
TEST(UpdateTest, DecimalSetMembership) {
  bool modified = true;
  EXPECT_EQ(Upd(R"({"$addToSet": {"a": {"$numberDecimal": "1.0"}}})",
                R"({"_id": 1, "a": [1, 2.5]})", false, &modified),
            R"({"_id":1,"a":[1,2.5]})");
  EXPECT_FALSE(modified);
  EXPECT_EQ(Upd(R"({"$pull": {"a": {"$numberDecimal": "2.50"}}})",
                R"({"_id": 1, "a": [1, 2.5, 3]})"),
            R"({"_id":1,"a":[1,3]})");
}

// Error messages print a decimal as BSONElement::toString does
// (mongo/bson/bsonelement.cpp: NumberDecimal("2")).
TEST(UpdateTest, DecimalInErrorMessages) {
  EXPECT_EQ(Upd(R"({"$pop": {"a": {"$numberDecimal": "2"}}})",
                R"({"_id": 1, "a": [1]})"),
            R"(error 9: $pop expects 1 or -1, found: NumberDecimal("2"))");
  EXPECT_EQ(Upd(R"({"$pop": {"a": {"$numberDecimal": "-1.0"}}})",
                R"({"_id": 1, "a": [1, 2]})"),
            R"({"_id":1,"a":[2]})");
}

// $min/$max compare across numeric types by value (update_min_max_examples.js
// style): a decimal replaces only a strictly smaller/larger value.
TEST(UpdateTest, DecimalMinMax) {
  EXPECT_EQ(Upd(R"({"$min": {"a": {"$numberDecimal": "0.1"}}})",
                R"({"_id": 1, "a": 0.1})"),
            R"({"_id":1,"a":{"$numberDecimal":"0.1"}})");
  bool modified = true;
  EXPECT_EQ(Upd(R"({"$max": {"a": {"$numberDecimal": "1.00"}}})",
                R"({"_id": 1, "a": 1})", false, &modified),
            R"({"_id":1,"a":1})");
  EXPECT_FALSE(modified);
  EXPECT_EQ(Upd(R"({"$max": {"a": 1.5}})",
                R"({"_id": 1, "a": {"$numberDecimal": "1.4999999999"}})"),
            R"({"_id":1,"a":1.5})");
}

TEST(UpdateTest, MinMax) {
  EXPECT_EQ(Upd(R"({"$min": {"a": 1}})", R"({"_id": 1, "a": 3})"),
            R"({"_id":1,"a":1})");
  EXPECT_EQ(Upd(R"({"$min": {"a": 5}})", R"({"_id": 1, "a": 3})"),
            R"({"_id":1,"a":3})");
  EXPECT_EQ(Upd(R"({"$max": {"a": 5}})", R"({"_id": 1, "a": 3})"),
            R"({"_id":1,"a":5})");
  EXPECT_EQ(Upd(R"({"$max": {"a": 5}})", R"({"_id": 1})"),
            R"({"_id":1,"a":5})");
  // Across types, MongoDB's type order: null < numbers < strings.
  EXPECT_EQ(Upd(R"({"$min": {"a": null}})", R"({"_id": 1, "a": 3})"),
            R"({"_id":1,"a":null})");
  EXPECT_EQ(Upd(R"({"$max": {"a": "x"}})", R"({"_id": 1, "a": 3})"),
            R"({"_id":1,"a":"x"})");
}

TEST(UpdateTest, Rename) {
  EXPECT_EQ(Upd(R"({"$rename": {"a": "b"}})", R"({"_id": 1, "a": 1, "c": 2})"),
            R"({"_id":1,"c":2,"b":1})");
  EXPECT_EQ(Upd(R"({"$rename": {"a": "x.y"}})", R"({"_id": 1, "a": 1})"),
            R"({"_id":1,"x":{"y":1}})");
  EXPECT_EQ(Upd(R"({"$rename": {"a.b": "c"}})", R"({"_id": 1, "a": {"b": 1}})"),
            R"({"_id":1,"a":{},"c":1})");
  EXPECT_EQ(Upd(R"({"$rename": {"z": "b"}})", R"({"_id": 1, "a": 1})"),
            R"({"_id":1,"a":1})");
  EXPECT_EQ(Upd(R"({"$rename": {"a": "b"}})", R"({"_id": 1, "a": 1, "b": 2})"),
            R"({"_id":1,"b":1})");
  EXPECT_EQ(Upd(R"({"$rename": {"a": 1}})", R"({"_id": 1})"),
            "error 2: The 'to' field for $rename must be a string: a: 1");
  EXPECT_EQ(
      Upd(R"({"$rename": {"a": "a"}})", R"({"_id": 1})"),
      R"(error 2: The source and target field for $rename must differ: a: "a")");
  EXPECT_EQ(
      Upd(R"({"$rename": {"a.0": "b"}})", R"({"_id": 1, "a": [1]})"),
      "error 2: The source field cannot be an array element, 'a.0' in doc "
      "with {_id: 1} has an array field called 'a'");
  EXPECT_EQ(Upd(R"({"$rename": {"_id": "b"}})", R"({"_id": 1})"),
            "error 66: Performing an update on the path '_id' would modify the "
            "immutable field '_id'");
}

TEST(UpdateTest, CurrentDate) {
  EXPECT_EQ(Upd(R"({"$currentDate": {"a": true}})", R"({"_id": 1})"),
            R"({"_id":1,"a":{"$date":"2024-01-01T00:00:00.000Z"}})");
  EXPECT_EQ(Upd(R"({"$currentDate": {"a": {"$type": "date"}}})",
                R"({"_id": 1, "a": 1})"),
            R"({"_id":1,"a":{"$date":"2024-01-01T00:00:00.000Z"}})");
  EXPECT_EQ(Upd(R"({"$currentDate": {"a": {"$type": "timestamp"}}})",
                R"({"_id": 1})"),
            R"({"_id":1,"a":{"$timestamp":{"t":1704067200,"i":1}}})");
  EXPECT_EQ(Upd(R"({"$currentDate": {"a": {"$type": "x"}}})", R"({"_id": 1})"),
            "error 2: The '$type' string field is required to be 'date' or "
            "'timestamp': {$currentDate: {field : {$type: 'date'}}}");
}

TEST(UpdateTest, SetOnInsert) {
  EXPECT_EQ(
      Upd(R"({"$setOnInsert": {"a": 1}, "$set": {"b": 2}})", R"({"_id": 1})"),
      R"({"_id":1,"b":2})");
  EXPECT_EQ(
      Upd(R"({"$setOnInsert": {"a": 1}, "$set": {"b": 2}})", R"({"_id": 1})",
          /*is_insert=*/true),
      R"({"_id":1,"a":1,"b":2})");
}

// push_node.cpp: performPush() trims to |$slice| (LLONG_MIN counts as
// LLONG_MAX, "std::abs(LLONG_MIN) results in undefined behavior"), so a huge
// negative $slice keeps every element; insertElementsWithPosition() puts a
// huge negative $position at the front and a huge positive one at the back.
// parseIntegerElementToLong() takes doubles in [-2^63, 2^63).
TEST(UpdateTest, PushSliceAndPositionExtremes) {
  const std::string arr = R"({"_id": 1, "a": [1, 2, 3, 4]})";
  EXPECT_EQ(Upd(R"({"$push": {"a": {"$each": [5], "$slice":
                {"$numberLong": "-9223372036854775808"}}}})",
                arr),
            R"({"_id":1,"a":[1,2,3,4,5]})");
  EXPECT_EQ(Upd(R"({"$push": {"a": {"$each": [5], "$slice":
                {"$numberLong": "-9223372036854775807"}}}})",
                arr),
            R"({"_id":1,"a":[1,2,3,4,5]})");
  EXPECT_EQ(Upd(R"({"$push": {"a": {"$each": [5], "$slice":
                {"$numberLong": "9223372036854775807"}}}})",
                arr),
            R"({"_id":1,"a":[1,2,3,4,5]})");
  EXPECT_EQ(Upd(R"({"$push": {"a": {"$each": [5], "$slice":
                -9223372036854775808.0}}})",
                arr),
            R"({"_id":1,"a":[1,2,3,4,5]})");
  EXPECT_EQ(Upd(R"({"$push": {"a": {"$each": [5], "$slice": 9.1e18}}})", arr),
            R"({"_id":1,"a":[1,2,3,4,5]})");
  EXPECT_EQ(Upd(R"({"$push": {"a": {"$each": [5], "$slice": -4}}})", arr),
            R"({"_id":1,"a":[2,3,4,5]})");
  EXPECT_EQ(Upd(R"({"$push": {"a": {"$each": [0], "$position":
                {"$numberLong": "-9223372036854775808"}}}})",
                arr),
            R"({"_id":1,"a":[0,1,2,3,4]})");
  EXPECT_EQ(Upd(R"({"$push": {"a": {"$each": [0], "$position":
                {"$numberLong": "9223372036854775807"}}}})",
                arr),
            R"({"_id":1,"a":[1,2,3,4,0]})");
}

// path_support.cpp maybePadTo(): padding an array by more than
// kMaxPaddingAllowed (1500000) nulls is CannotBackfillArray (34), not a
// gigabyte allocation.
TEST(UpdateTest, BackfillIsCapped) {
  EXPECT_EQ(Upd(R"({"$set": {"a.1500001": 1}})", R"({"_id": 1, "a": [0]})"),
            "error 34: can't backfill more than 1500000 elements");
  EXPECT_EQ(Upd(R"({"$set": {"a.999999999": 1}})", R"({"_id": 1, "a": []})"),
            "error 34: can't backfill more than 1500000 elements");
  EXPECT_EQ(Upd(R"({"$set": {"a.1500000.b": 1}})", R"({"_id": 1, "a": []})"),
            "error 34: can't backfill more than 1500000 elements");
  const std::string ok =
      Upd(R"({"$set": {"a.1500000": 1}})", R"({"_id": 1, "a": [0]})");
  EXPECT_EQ(ok.substr(0, 25), R"({"_id":1,"a":[0,null,null)");
  EXPECT_EQ(ok.substr(ok.size() - 8), "null,1]}");
}

TEST(UpdateTest, Push) {
  EXPECT_EQ(Upd(R"({"$push": {"a": 3}})", R"({"_id": 1, "a": [1, 2]})"),
            R"({"_id":1,"a":[1,2,3]})");
  EXPECT_EQ(Upd(R"({"$push": {"a": [3]}})", R"({"_id": 1})"),
            R"({"_id":1,"a":[[3]]})");
  EXPECT_EQ(
      Upd(R"({"$push": {"a": {"$each": [3, 4]}}})", R"({"_id": 1, "a": [1]})"),
      R"({"_id":1,"a":[1,3,4]})");
  EXPECT_EQ(Upd(R"({"$push": {"a": {"$each": [3, 4], "$position": 0}}})",
                R"({"_id": 1, "a": [1]})"),
            R"({"_id":1,"a":[3,4,1]})");
  EXPECT_EQ(Upd(R"({"$push": {"a": {"$each": [9], "$position": -1}}})",
                R"({"_id": 1, "a": [1, 2]})"),
            R"({"_id":1,"a":[1,9,2]})");
  EXPECT_EQ(
      Upd(R"({"$push": {"a": {"$each": [5, 0], "$sort": 1, "$slice": 3}}})",
          R"({"_id": 1, "a": [3, 1]})"),
      R"({"_id":1,"a":[0,1,3]})");
  EXPECT_EQ(Upd(R"({"$push": {"a": {"$each": [5], "$slice": -2}}})",
                R"({"_id": 1, "a": [1, 2, 3]})"),
            R"({"_id":1,"a":[3,5]})");
  EXPECT_EQ(Upd(R"({"$push": {"a": {"$each": [], "$slice": 0}}})",
                R"({"_id": 1, "a": [1, 2, 3]})"),
            R"({"_id":1,"a":[]})");
  EXPECT_EQ(
      Upd(R"({"$push": {"a": {"$each": [{"s": 2}], "$sort": {"s": -1}}}})",
          R"({"_id": 1, "a": [{"s": 1}, {"s": 3}]})"),
      R"({"_id":1,"a":[{"s":3},{"s":2},{"s":1}]})");
  EXPECT_EQ(Upd(R"({"$push": {"a": 1}})", R"({"_id": 1, "a": 5})"),
            "error 2: The field 'a' must be an array but is of type int in "
            "document {_id: 1}");
  EXPECT_EQ(Upd(R"({"$push": {"a": {"$each": 1}}})", R"({"_id": 1})"),
            "error 2: The argument to $each in $push must be an array but it "
            "was of type: int");
  EXPECT_EQ(
      Upd(R"({"$push": {"a": {"$each": [1], "$foo": 1}}})", R"({"_id": 1})"),
      "error 2: Unrecognized clause in $push: $foo");
}

TEST(UpdateTest, AddToSet) {
  EXPECT_EQ(Upd(R"({"$addToSet": {"a": 2}})", R"({"_id": 1, "a": [1, 2]})"),
            R"({"_id":1,"a":[1,2]})");
  EXPECT_EQ(Upd(R"({"$addToSet": {"a": 3}})", R"({"_id": 1, "a": [1, 2]})"),
            R"({"_id":1,"a":[1,2,3]})");
  EXPECT_EQ(Upd(R"({"$addToSet": {"a": {"$each": [2, 3, 3]}}})",
                R"({"_id": 1, "a": [1, 2]})"),
            R"({"_id":1,"a":[1,2,3]})");
  EXPECT_EQ(Upd(R"({"$addToSet": {"a": {"$each": [1, 1]}}})", R"({"_id": 1})"),
            R"({"_id":1,"a":[1]})");
  EXPECT_EQ(Upd(R"({"$addToSet": {"a": 1}})", R"({"_id": 1, "a": 1})"),
            "error 14: Cannot apply $addToSet to non-array field. Field named "
            "'a' has non-array type int");
}

TEST(UpdateTest, PullAndPop) {
  EXPECT_EQ(Upd(R"({"$pull": {"a": 2}})", R"({"_id": 1, "a": [1, 2, 3, 2]})"),
            R"({"_id":1,"a":[1,3]})");
  EXPECT_EQ(
      Upd(R"({"$pull": {"a": {"$gte": 2}}})", R"({"_id": 1, "a": [1, 2, 3]})"),
      R"({"_id":1,"a":[1]})");
  EXPECT_EQ(Upd(R"({"$pull": {"a": {"$in": [1, 3]}}})",
                R"({"_id": 1, "a": [1, 2, 3]})"),
            R"({"_id":1,"a":[2]})");
  EXPECT_EQ(Upd(R"({"$pull": {"a": {"b": 1}}})",
                R"({"_id": 1, "a": [{"b": 1, "c": 1}, {"b": 2}, 1]})"),
            R"({"_id":1,"a":[{"b":2},1]})");
  EXPECT_EQ(Upd(R"({"$pull": {"a": 1}})", R"({"_id": 1})"), R"({"_id":1})");
  EXPECT_EQ(Upd(R"({"$pull": {"a": 1}})", R"({"_id": 1, "a": 1})"),
            "error 2: Cannot apply $pull to a non-array value");
  EXPECT_EQ(
      Upd(R"({"$pullAll": {"a": [1, 2]}})", R"({"_id": 1, "a": [1, 2, 3, 1]})"),
      R"({"_id":1,"a":[3]})");
  EXPECT_EQ(Upd(R"({"$pop": {"a": 1}})", R"({"_id": 1, "a": [1, 2, 3]})"),
            R"({"_id":1,"a":[1,2]})");
  EXPECT_EQ(Upd(R"({"$pop": {"a": -1}})", R"({"_id": 1, "a": [1, 2, 3]})"),
            R"({"_id":1,"a":[2,3]})");
  EXPECT_EQ(Upd(R"({"$pop": {"a": 1}})", R"({"_id": 1, "a": []})"),
            R"({"_id":1,"a":[]})");
  EXPECT_EQ(Upd(R"({"$pop": {"a": 2}})", R"({"_id": 1})"),
            "error 9: $pop expects 1 or -1, found: 2");
  EXPECT_EQ(Upd(R"({"$pop": {"a": 1}})", R"({"_id": 1, "a": 1})"),
            "error 14: Path 'a' contains an element of non-array type 'int'");
}

TEST(UpdateTest, ParseErrors) {
  EXPECT_EQ(Upd(R"({"$foo": {"a": 1}})", "{}"),
            "error 9: Unknown modifier: $foo. Expected a valid update modifier "
            "or pipeline-style update specified as an array");
  EXPECT_EQ(Upd(R"({"$set": {}})", "{}"),
            "error 9: '$set' is empty. You must specify a field like so: "
            "{$set: {<field>: ...}}");
  EXPECT_EQ(Upd(R"({"$set": 1})", "{}"),
            "error 9: Modifiers operate on fields but we found type int "
            "instead. For example: {$mod: {<field>: ...}} not {$set: 1}");
  EXPECT_EQ(Upd(R"({"$set": {"a": 1}, "b": 2})", "{}"),
            "error 9: Unknown modifier: b. Expected a valid update modifier "
            "or pipeline-style update specified as an array");
  EXPECT_EQ(Upd(R"({"b": 2, "$set": {"a": 1}})", "{}"),
            "error 52: The dollar ($) prefixed field '$set' in '$set' is not "
            "valid for storage.");
  EXPECT_EQ(Upd(R"({"$set": {"a": 1}, "$inc": {"a": 1}})", "{}"),
            "error 40: Updating the path 'a' would create a conflict at 'a'");
  EXPECT_EQ(Upd(R"({"$set": {"a.b": 1, "a": 1}})", "{}"),
            "error 40: Updating the path 'a' would create a conflict at 'a'");
  EXPECT_EQ(Upd(R"({"$set": {"a": 1}, "$unset": {"a.b": 1}})", "{}"),
            "error 40: Updating the path 'a.b' would create a conflict at 'a'");
  EXPECT_EQ(Upd(R"({"$set": {"ab": 1, "a": 1}})", R"({"_id": 1})"),
            R"({"_id":1,"a":1,"ab":1})");
  EXPECT_EQ(Upd(R"({"$set": {"a..b": 1}})", "{}"),
            "error 56: The update path 'a..b' contains an empty field name, "
            "which is not allowed.");
}

TEST(UpdateTest, ImmutableId) {
  const std::string kErr =
      "error 66: Performing an update on the path '_id' would modify the "
      "immutable field '_id'";
  EXPECT_EQ(Upd(R"({"$set": {"_id": 2}})", R"({"_id": 1})"), kErr);
  EXPECT_EQ(Upd(R"({"$unset": {"_id": 1}})", R"({"_id": 1})"), kErr);
  EXPECT_EQ(Upd(R"({"$inc": {"_id": 1}})", R"({"_id": 1})"), kErr);
  EXPECT_EQ(Upd(R"({"$set": {"_id.a": 2}})", R"({"_id": {"a": 1}})"), kErr);
  // Setting _id on a document that has none (an upsert seed) is allowed.
  EXPECT_EQ(Upd(R"({"$set": {"_id": 2}})", R"({})", true), R"({"_id":2})");
}

TEST(UpdateTest, Replacement) {
  EXPECT_EQ(Upd(R"({"b": 2})", R"({"_id": 1, "a": 1})"), R"({"_id":1,"b":2})");
  EXPECT_EQ(Upd(R"({"b": 2, "_id": 1})", R"({"_id": 1, "a": 1})"),
            R"({"_id":1,"b":2})");
  EXPECT_EQ(Upd(R"({})", R"({"_id": 1, "a": 1})"), R"({"_id":1})");
  EXPECT_EQ(Upd(R"({"b": 2, "_id": 2})", R"({"_id": 1, "a": 1})"),
            "error 66: After applying the update, the (immutable) field '_id' "
            "was found to have been altered to _id: 2");
  EXPECT_EQ(Upd(R"({"b": 2, "_id": 3})", R"({})", true), R"({"_id":3,"b":2})");
  auto u = Update::Parse(Doc(R"({"b": 2})"));
  ASSERT_TRUE(u.ok());
  EXPECT_TRUE(u->is_replacement());
}

std::string Seed(const std::string& filter) {
  auto f = Filter::Parse(Doc(filter));
  EXPECT_TRUE(f.ok()) << f.status();
  auto seed = UpsertSeed(*f);
  if (!seed.ok()) {
    return absl::StrCat("error ", ErrorCode(seed.status()), ": ",
                        seed.status().message());
  }
  return ToJson(*seed);
}

TEST(UpdateTest, UpsertSeed) {
  EXPECT_EQ(Seed(R"({"a": 1, "b": {"$gt": 2}})"), R"({"a":1})");
  EXPECT_EQ(Seed(R"({"a.b": 1, "a.c": 2, "_id": 7})"),
            R"({"_id":7,"a":{"b":1,"c":2}})");
  EXPECT_EQ(
      Seed(R"({"$and": [{"a": 1}, {"b": {"$eq": 2}}], "c": {"$in": [3]}})"),
      R"({"a":1,"b":2,"c":3})");
  // A single-clause $or is its clause (jstests/core/upsert_and.js); a
  // longer $or seeds nothing.
  EXPECT_EQ(Seed(R"({"$or": [{"a": 1}], "b": {"$in": [1, 2]}})"), R"({"a":1})");
  EXPECT_EQ(Seed(R"({"$or": [{"$or": [{"a": 1, "b.c": 2}]}]})"),
            R"({"a":1,"b":{"c":2}})");
  EXPECT_EQ(Seed(R"({"$nor": [{"a": 1}]})"), R"({})");
  EXPECT_EQ(Seed(R"({"a": 1, "$and": [{"a": 2}]})"),
            "error 54: cannot infer query fields to set, path 'a' is matched "
            "twice");
  EXPECT_EQ(Seed(R"({"a": 1, "a.b": 2})"),
            "error 54: cannot infer query fields to set, both paths 'a.b' and "
            "'a' are matched");
}

// jstests/core/write/update/update_bit_examples.js; update/bit_node.cpp
// (BadValue for a bad argument or a non-integral field; int32 unless an
// int64 takes part, as SafeNum).
TEST(UpdateTest, Bit) {
  EXPECT_EQ(Upd(R"({"$bit": {"a": {"and": 4}}})", R"({"a": 2})"), R"({"a":0})");
  EXPECT_EQ(Upd(R"({"$bit": {"a": {"or": 4}}})", R"({"a": 2})"), R"({"a":6})");
  EXPECT_EQ(Upd(R"({"$bit": {"a": {"xor": 4, "or": 1}}})", R"({"a": 0})"),
            R"({"a":5})");
  {
    auto u =
        Update::Parse(Doc(R"({"$bit": {"a": {"or": {"$numberLong": "8"}}}})"));
    ASSERT_TRUE(u.ok()) << u.status();
    Value d = Doc(R"({"a": 1})");
    bool modified = false;
    ASSERT_TRUE(u->Apply(&d, kNow, false, &modified).ok());
    EXPECT_EQ(ToJson(d, JsonFormat::kCanonical),
              R"({"a":{"$numberLong":"9"}})");
  }
  // Missing: applied to an int32 0; array positions are padded.
  EXPECT_EQ(Upd(R"({"$bit": {"b": {"or": 3}}})", "{}"), R"({"b":3})");
  EXPECT_EQ(Upd(R"({"$bit": {"a.2": {"or": 0}}})", R"({"a": [0]})"),
            R"({"a":[0,null,0]})");
  EXPECT_EQ(Upd(R"({"$bit": {"a": {}}})", "{}"),
            "error 2: You must pass in at least one bitwise operation. The "
            "format is: {$bit: {field: {and/or/xor: #}}");
  EXPECT_EQ(Upd(R"({"$bit": {"a": {"not": 1}}})", "{}"),
            "error 2: The $bit modifier only supports 'and', 'or', and 'xor', "
            "not 'not' which is an unknown operator: {not: 1}");
  EXPECT_EQ(Upd(R"({"$bit": {"a": {"and": 1.5}}})", "{}"),
            "error 2: The $bit modifier field must be an Integer(32/64 bit); "
            "a 'double' is not supported here: {and: 1.5}");
  EXPECT_EQ(ErrorCode(Update::Parse(Doc(R"({"$bit": {"a": 1}})")).status()),
            kBadValue);
  EXPECT_EQ(Upd(R"({"$bit": {"a": {"and": 1}}})", R"({"_id": 1, "a": "s"})"),
            "error 2: Cannot apply $bit to a value of non-integral type.{_id: "
            "1} has the field a of non-integer type string");
}

// jstests/core/write/update/update_modifier_pop.js;
// update/update_leaf_node.cpp checkViability (28 PathNotViable).
TEST(UpdateTest, PopBlockedPath) {
  EXPECT_EQ(Upd(R"({"$pop": {"a.b.c": 1}})", R"({"a": {"b": 1}})"),
            "error 28: Cannot use the part (c) of (a.b.c) to traverse the "
            "element ({b: 1})");
  EXPECT_EQ(Upd(R"({"$pop": {"a.b.c": 1}})", R"({"a": {"b": [1, 2]}})"),
            "error 28: Cannot use the part (c) of (a.b.c) to traverse the "
            "element ({b: [1, 2]})");
  bool modified = true;
  EXPECT_EQ(
      Upd(R"({"$pop": {"a.b": 1}})", R"({"a": {"c": 1}})", false, &modified),
      R"({"a":{"c":1}})");
  EXPECT_FALSE(modified);
  EXPECT_EQ(Upd(R"({"$pop": {"a.2.b": 1}})", R"({"a": [{"b": 0}]})"),
            R"({"a":[{"b":0}]})");
}

// jstests/core/write/update/updateh.js, update_dbref.js: only a path's
// first field may not start with '$' (52 DollarPrefixedFieldName).
TEST(UpdateTest, DollarPrefixedBelowTopLevel) {
  EXPECT_EQ(Upd(R"({"$set": {"a.$b": 1}})", "{}"), R"({"a":{"$b":1}})");
  EXPECT_EQ(
      Upd(R"({"$set": {"x.$id": 2}})", R"({"x": {"$ref": "c", "$id": 1}})"),
      R"({"x":{"$ref":"c","$id":2}})");
  EXPECT_EQ(Upd(R"({"$set": {"$secret.agent.x": 1}})", "{}"),
            "error 52: The dollar ($) prefixed field '$secret' in "
            "'$secret.agent.x' is not valid for storage.");
}

}  // namespace
}  // namespace ttldb
