#include "document/compare_hash.h"

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "document/collator.h"
#include "document/compare.h"
#include "gtest/gtest.h"
#include "ttldb/decimal128.h"
#include "ttldb/json.h"

namespace ttldb {
namespace {

Value V(const std::string& json) { return *ParseValue(json); }

// Every pair CompareValues finds equal hashes alike.
void ExpectConsistent(const std::vector<Value>& values,
                      const Collator* collator) {
  for (const Value& a : values) {
    for (const Value& b : values) {
      if (CompareValues(a, b, collator) == 0) {
        EXPECT_EQ(CompareHash(a, collator), CompareHash(b, collator))
            << ToJson(a) << " vs " << ToJson(b);
      }
    }
  }
}

TEST(CompareHashTest, EqualNumbersOfEveryTypeHashAlike) {
  std::vector<Value> v = {
      Value::Int32(1),
      Value::Int64(1),
      Value::Double(1.0),
      V(R"({"$numberDecimal": "1.00"})"),
      Value::Double(-0.0),
      Value::Int32(0),
      V(R"({"$numberDecimal": "-0"})"),
      Value::Double(1.5),
      V(R"({"$numberDecimal": "1.5"})"),
      Value::Double(-1.5),
      V(R"({"$numberDecimal": "-1.50"})"),
      Value::Double(std::numeric_limits<double>::quiet_NaN()),
      V(R"({"$numberDecimal": "NaN"})"),
      Value::Double(9007199254740992.0),
      Value::Int64(9007199254740992),
      Value::Double(std::ldexp(1.0, 62)),
      Value::Int64(int64_t{1} << 62),
      Value::Double(-std::ldexp(1.0, 63)),
      Value::Int64(std::numeric_limits<int64_t>::min()),
      Value::Double(std::numeric_limits<double>::infinity()),
      V(R"({"$numberDecimal": "Infinity"})"),
      V(R"({"$numberDecimal": "1E+30"})"),
      Value::Double(1e30)};
  ExpectConsistent(v, nullptr);
  EXPECT_EQ(CompareHash(Value::Int32(1), nullptr),
            CompareHash(V(R"({"$numberDecimal": "1.00"})"), nullptr));
  EXPECT_NE(CompareHash(Value::Int32(1), nullptr),
            CompareHash(Value::Int32(2), nullptr));
}

TEST(CompareHashTest, StringsObjectsArraysAndCollation) {
  std::vector<Value> v = {V(R"("a")"),          V(R"("A")"),
                          V(R"({"x": 1})"),     V(R"({"x": 1.0})"),
                          V(R"({"x": "A"})"),   V(R"({"x": "a"})"),
                          V(R"([1, "a"])"),     V(R"([1.0, "A"])"),
                          V(R"({"$date": 5})"), Value::Null()};
  ExpectConsistent(v, nullptr);
  EXPECT_NE(CompareHash(V(R"("a")"), nullptr),
            CompareHash(V(R"("A")"), nullptr));
  auto ci = Collator::Make(V(R"({"locale": "en", "strength": 2})"));
  ASSERT_TRUE(ci.ok()) << ci.status();
  ExpectConsistent(v, ci->get());
  EXPECT_EQ(CompareHash(V(R"({"x": ["a"]})"), ci->get()),
            CompareHash(V(R"({"x": ["A"]})"), ci->get()));
}

}  // namespace
}  // namespace ttldb
