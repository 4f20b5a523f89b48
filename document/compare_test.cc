#include "document/compare.h"

#include <cmath>
#include <limits>
#include <vector>

#include "gtest/gtest.h"

namespace ttldb {
namespace {

TEST(CompareTest, CrossTypeOrder) {
  ObjectId oid;
  ASSERT_TRUE(ObjectId::FromHex("000000000000000000000000", &oid));
  // One value of every type bracket, ascending.
  std::vector<Value> ordered = {
      Value::MinKey(),
      Value::Null(),
      Value::Double(-INFINITY),
      Value::Int64(5),
      Value::String(""),
      Value::MakeObject(),
      Value::MakeArray(),
      Value::Bin({0, ""}),
      Value::Oid(oid),
      Value::Bool(false),
      Value::Date(std::numeric_limits<int64_t>::min()),
      Value::Ts({0, 0}),
      Value::Re({"", ""}),
      Value::MaxKey(),
  };
  for (size_t i = 0; i < ordered.size(); ++i) {
    for (size_t j = 0; j < ordered.size(); ++j) {
      int c = CompareValues(ordered[i], ordered[j]);
      EXPECT_EQ(c < 0, i < j) << i << " " << j;
      EXPECT_EQ(c == 0, i == j) << i << " " << j;
    }
  }
  // Type beats value: a huge number is below the empty string.
  EXPECT_LT(CompareValues(Value::Double(INFINITY), Value::String("")), 0);
  EXPECT_LT(CompareValues(Value::Bool(true), Value::Date(-5)), 0);
}

TEST(CompareTest, NumbersCompareExactlyAcrossTypes) {
  const int64_t two53 = int64_t{1} << 53;
  EXPECT_EQ(CompareValues(Value::Int32(1), Value::Double(1.0)), 0);
  EXPECT_EQ(CompareValues(Value::Int32(1), Value::Int64(1)), 0);
  EXPECT_GT(CompareValues(Value::Int64(two53 + 1), Value::Double(two53)), 0);
  EXPECT_LT(CompareValues(Value::Double(two53), Value::Int64(two53 + 1)), 0);
  EXPECT_EQ(CompareValues(Value::Int64(two53), Value::Double(two53)), 0);
  EXPECT_LT(CompareValues(Value::Int64(2), Value::Double(2.5)), 0);
  EXPECT_GT(CompareValues(Value::Int64(-2), Value::Double(-2.5)), 0);
  EXPECT_LT(CompareValues(Value::Int64(-3), Value::Double(-2.5)), 0);
  const int64_t max = std::numeric_limits<int64_t>::max();
  const int64_t min = std::numeric_limits<int64_t>::min();
  // (double)max rounds up to 2^63, which is above every int64.
  EXPECT_LT(
      CompareValues(Value::Int64(max), Value::Double(9223372036854775808.0)),
      0);
  EXPECT_EQ(
      CompareValues(Value::Int64(min), Value::Double(-9223372036854775808.0)),
      0);
  EXPECT_GT(CompareValues(Value::Int64(min), Value::Double(-1e19)), 0);
  EXPECT_LT(CompareValues(Value::Int64(max), Value::Double(INFINITY)), 0);
  EXPECT_GT(CompareValues(Value::Int64(min), Value::Double(-INFINITY)), 0);
  EXPECT_EQ(CompareValues(Value::Double(0.0), Value::Double(-0.0)), 0);
  EXPECT_EQ(CompareValues(Value::Int32(0), Value::Double(-0.0)), 0);
}

TEST(CompareTest, NanIsTheLowestNumberAndEqualsItself) {
  Value nan = Value::Double(std::nan(""));
  EXPECT_EQ(CompareValues(nan, Value::Double(-std::nan(""))), 0);
  EXPECT_LT(CompareValues(nan, Value::Double(-INFINITY)), 0);
  EXPECT_LT(
      CompareValues(nan, Value::Int64(std::numeric_limits<int64_t>::min())), 0);
  EXPECT_GT(CompareValues(Value::Int32(0), nan), 0);
  EXPECT_GT(CompareValues(nan, Value::Null()), 0);
}

TEST(CompareTest, StringsAreBytewise) {
  EXPECT_LT(CompareValues(Value::String("B"), Value::String("a")), 0);
  EXPECT_LT(CompareValues(Value::String("a"), Value::String("ab")), 0);
  EXPECT_LT(CompareValues(Value::String("z"), Value::String("\xc3\xa9")), 0);
}

TEST(CompareTest, ObjectsFieldByField) {
  auto obj = [](Value::Object f) { return Value::MakeObject(std::move(f)); };
  // Type order of the first differing field decides before its name.
  EXPECT_LT(CompareValues(obj({{"b", Value::Int32(1)}}),
                          obj({{"a", Value::String("x")}})),
            0);
  // Same type: name, then value.
  EXPECT_LT(CompareValues(obj({{"a", Value::Int32(9)}}),
                          obj({{"b", Value::Int32(1)}})),
            0);
  EXPECT_LT(CompareValues(obj({{"a", Value::Int32(1)}}),
                          obj({{"a", Value::Double(1.5)}})),
            0);
  EXPECT_EQ(CompareValues(obj({{"a", Value::Int32(1)}}),
                          obj({{"a", Value::Double(1)}})),
            0);
  // Fewer fields first.
  EXPECT_LT(CompareValues(obj({{"a", Value::Int32(1)}}),
                          obj({{"a", Value::Int32(1)}, {"b", Value::Null()}})),
            0);
  EXPECT_LT(CompareValues(obj({}), obj({{"a", Value::MinKey()}})), 0);
}

TEST(CompareTest, ArraysElementByElement) {
  Value a = Value::MakeArray({Value::Int32(1), Value::Int32(2)});
  Value b = Value::MakeArray({Value::Int32(1), Value::Int32(3)});
  Value c = Value::MakeArray({Value::Int32(1)});
  EXPECT_LT(CompareValues(a, b), 0);
  EXPECT_LT(CompareValues(c, a), 0);
  EXPECT_LT(CompareValues(Value::MakeArray({Value::Int32(5)}),
                          Value::MakeArray({Value::String("")})),
            0);
}

TEST(CompareTest, OtherTypes) {
  // Binary: length, then subtype, then bytes.
  EXPECT_LT(CompareValues(Value::Bin({9, "a"}), Value::Bin({0, "aa"})), 0);
  EXPECT_LT(CompareValues(Value::Bin({0, "b"}), Value::Bin({1, "a"})), 0);
  EXPECT_LT(CompareValues(Value::Bin({0, "a"}), Value::Bin({0, "\xff"})), 0);
  EXPECT_EQ(CompareValues(Value::Bin({3, "ab"}), Value::Bin({3, "ab"})), 0);
  // ObjectId by creation time first.
  EXPECT_LT(CompareValues(Value::Oid(ObjectId::GenerateAt(5)),
                          Value::Oid(ObjectId::GenerateAt(6))),
            0);
  EXPECT_LT(CompareValues(Value::Bool(false), Value::Bool(true)), 0);
  EXPECT_LT(CompareValues(Value::Date(-1), Value::Date(0)), 0);
  EXPECT_LT(CompareValues(Value::Ts({1, 9}), Value::Ts({2, 0})), 0);
  EXPECT_LT(CompareValues(Value::Ts({1, 1}), Value::Ts({1, 2})), 0);
  EXPECT_LT(CompareValues(Value::Re({"a", "z"}), Value::Re({"b", ""})), 0);
  EXPECT_LT(CompareValues(Value::Re({"a", "i"}), Value::Re({"a", "m"})), 0);
  EXPECT_EQ(CompareValues(Value::Null(), Value::Null()), 0);
  EXPECT_EQ(CompareValues(Value::MaxKey(), Value::MaxKey()), 0);
  EXPECT_TRUE(ValuesEqual(Value::String("x"), Value::String("x")));
  EXPECT_TRUE(ValueLess()(Value::Int32(1), Value::Int64(2)));
}

TEST(CompareTest, IdenticalValuesIsStricterThanEquality) {
  // Equal in MongoDB's order, but not identical (their index keys or
  // stored forms may differ).
  EXPECT_TRUE(ValuesEqual(Value::Int32(1), Value::Double(1.0)));
  EXPECT_FALSE(IdenticalValues(Value::Int32(1), Value::Double(1.0)));
  EXPECT_FALSE(IdenticalValues(Value::Int32(1), Value::Int64(1)));
  EXPECT_FALSE(IdenticalValues(Value::Double(0.0), Value::Double(-0.0)));
  EXPECT_FALSE(
      IdenticalValues(Value::Decimal(*Decimal128::FromString("1.0")),
                      Value::Decimal(*Decimal128::FromString("1.00"))));
  EXPECT_FALSE(IdenticalValues(
      Value::MakeObject(
          {Field("a", Value::Int32(1)), Field("b", Value::Int32(2))}),
      Value::MakeObject(
          {Field("b", Value::Int32(2)), Field("a", Value::Int32(1))})));
  EXPECT_FALSE(
      IdenticalValues(Value::MakeArray({Value::Int32(1)}),
                      Value::MakeArray({Value::Int32(1), Value::Int32(1)})));
  EXPECT_FALSE(IdenticalValues(Value::Bin({0, "a"}), Value::Bin({1, "a"})));
  EXPECT_FALSE(IdenticalValues(Value::Re({"a", "i"}), Value::Re({"a", ""})));
  EXPECT_FALSE(IdenticalValues(Value::Ts({1, 2}), Value::Ts({1, 3})));
  // Identical.
  const double nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_TRUE(IdenticalValues(Value::Double(nan), Value::Double(nan)));
  EXPECT_TRUE(IdenticalValues(Value::Date(5), Value::Date(5)));
  EXPECT_FALSE(IdenticalValues(Value::Date(5), Value::Int64(5)));
  const Value doc = Value::MakeObject(
      {Field("a", Value::MakeArray({Value::String("x"), Value::Null()})),
       Field("b", Value::MakeObject(
                      {Field("c", Value::Oid(ObjectId::GenerateAt(7)))}))});
  const Value copy = doc;
  EXPECT_TRUE(IdenticalValues(doc, copy));
  EXPECT_TRUE(IdenticalValues(Value::MinKey(), Value::MinKey()));
  EXPECT_FALSE(IdenticalValues(Value::MinKey(), Value::MaxKey()));
}

// ExactEqual: IdenticalValues but doubles by value (what an update compares
// to decide "modified" and "_id changed"; query/update.cc).
TEST(CompareTest, ExactEqualComparesDoublesByValue) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_TRUE(ExactEqual(Value::Double(0.0), Value::Double(-0.0)));
  EXPECT_FALSE(IdenticalValues(Value::Double(0.0), Value::Double(-0.0)));
  EXPECT_TRUE(ExactEqual(Value::Double(nan), Value::Double(-nan)));
  EXPECT_TRUE(ExactEqual(
      Value::MakeArray({Value::MakeObject({Field("a", Value::Double(-0.0))})}),
      Value::MakeArray({Value::MakeObject({Field("a", Value::Double(0.0))})})));
  EXPECT_FALSE(ExactEqual(Value::Int32(1), Value::Double(1.0)));
  EXPECT_FALSE(ExactEqual(Value::Int32(1), Value::Int64(1)));
  EXPECT_FALSE(ExactEqual(Value::Decimal(*Decimal128::FromString("1.0")),
                          Value::Decimal(*Decimal128::FromString("1.00"))));
  EXPECT_FALSE(ExactEqual(Value::MakeObject({Field("a", Value::Int32(1)),
                                             Field("b", Value::Int32(2))}),
                          Value::MakeObject({Field("b", Value::Int32(2)),
                                             Field("a", Value::Int32(1))})));
  EXPECT_TRUE(ExactEqual(Value::String("x"), Value::String("x")));
  EXPECT_FALSE(ExactEqual(Value::Re({"a", "i"}), Value::Re({"a", ""})));
}

}  // namespace
}  // namespace ttldb
