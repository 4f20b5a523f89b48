#include "ttldb/value.h"

#include <set>
#include <thread>
#include <vector>

#include "gtest/gtest.h"

namespace ttldb {
namespace {

TEST(TypeNameTest, MongoNames) {
  EXPECT_EQ(TypeName(ValueType::kDouble), "double");
  EXPECT_EQ(TypeName(ValueType::kInt32), "int");
  EXPECT_EQ(TypeName(ValueType::kInt64), "long");
  EXPECT_EQ(TypeName(ValueType::kBinary), "binData");
  EXPECT_EQ(TypeName(ValueType::kObjectId), "objectId");
  EXPECT_EQ(TypeName(ValueType::kBool), "bool");
  EXPECT_EQ(TypeName(ValueType::kDate), "date");
  EXPECT_EQ(TypeName(ValueType::kMinKey), "minKey");
  EXPECT_EQ(TypeName(ValueType::kMaxKey), "maxKey");
  EXPECT_EQ(TypeName(ValueType::kTimestamp), "timestamp");
  EXPECT_EQ(TypeName(ValueType::kRegex), "regex");
}

TEST(CanonicalTypeOrderTest, NumbersShareABracketAndOrderIsMongos) {
  EXPECT_EQ(CanonicalTypeOrder(ValueType::kInt32),
            CanonicalTypeOrder(ValueType::kDouble));
  EXPECT_EQ(CanonicalTypeOrder(ValueType::kInt64),
            CanonicalTypeOrder(ValueType::kDouble));
  const ValueType order[] = {
      ValueType::kMinKey, ValueType::kNull,      ValueType::kDouble,
      ValueType::kString, ValueType::kObject,    ValueType::kArray,
      ValueType::kBinary, ValueType::kObjectId,  ValueType::kBool,
      ValueType::kDate,   ValueType::kTimestamp, ValueType::kRegex,
      ValueType::kMaxKey};
  for (size_t i = 1; i < sizeof(order) / sizeof(order[0]); ++i) {
    EXPECT_LT(CanonicalTypeOrder(order[i - 1]), CanonicalTypeOrder(order[i]))
        << TypeName(order[i]);
  }
}

TEST(ObjectIdTest, HexRoundTrip) {
  ObjectId id;
  ASSERT_TRUE(ObjectId::FromHex("507f1f77bcf86cd799439011", &id));
  EXPECT_EQ(id.ToHex(), "507f1f77bcf86cd799439011");
  EXPECT_EQ(id.Seconds(), 0x507f1f77u);
  ASSERT_TRUE(ObjectId::FromHex("ABCDEF0123456789ABCDEF01", &id));
  EXPECT_EQ(id.ToHex(), "abcdef0123456789abcdef01");
  EXPECT_FALSE(ObjectId::FromHex("507f1f77bcf86cd79943901", &id));
  EXPECT_FALSE(ObjectId::FromHex("507f1f77bcf86cd7994390111", &id));
  EXPECT_FALSE(ObjectId::FromHex("507f1f77bcf86cd79943901g", &id));
  EXPECT_FALSE(ObjectId::FromHex("", &id));
}

TEST(ObjectIdTest, LayoutAndOrderByTime) {
  ObjectId a = ObjectId::GenerateAt(1000);
  ObjectId b = ObjectId::GenerateAt(0x01020304);
  EXPECT_EQ(a.Seconds(), 1000u);
  EXPECT_EQ(b.Seconds(), 0x01020304u);
  EXPECT_EQ(b.bytes[0], 1);
  EXPECT_EQ(b.bytes[3], 4);
  EXPECT_TRUE(a < b);
  // Same process: same 5 random bytes.
  for (int i = 4; i < 9; ++i) EXPECT_EQ(a.bytes[i], b.bytes[i]);
  // Same second: the counter increases by one (mod 2^24).
  ObjectId c = ObjectId::GenerateAt(1000);
  ObjectId d = ObjectId::GenerateAt(1000);
  uint32_t cc = c.bytes[9] << 16 | c.bytes[10] << 8 | c.bytes[11];
  uint32_t dc = d.bytes[9] << 16 | d.bytes[10] << 8 | d.bytes[11];
  EXPECT_EQ((cc + 1) & 0xFFFFFF, dc);
  uint32_t now = ObjectId::Generate().Seconds();
  EXPECT_GT(now, 1600000000u);
}

TEST(ObjectIdTest, UniqueAcrossThreads) {
  std::vector<std::vector<ObjectId>> ids(4);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&ids, t] {
      for (int i = 0; i < 10000; ++i) ids[t].push_back(ObjectId::Generate());
    });
  }
  for (auto& th : threads) th.join();
  std::set<std::string> seen;
  for (auto& v : ids)
    for (auto& id : v) seen.insert(id.ToHex());
  EXPECT_EQ(seen.size(), 40000u);
}

TEST(ValueTest, ObjectFieldAccess) {
  Value v = Value::MakeObject();
  EXPECT_EQ(v.Get("a"), nullptr);
  v.Set("a", Value::Int32(1));
  v.Set("b", Value::String("x"));
  v.Set("a", Value::Int64(7));  // replaces in place
  ASSERT_EQ(v.object_fields().size(), 2u);
  EXPECT_EQ(v.object_fields()[0].first, "a");
  EXPECT_EQ(v.Get("a")->type(), ValueType::kInt64);
  EXPECT_EQ(v.Get("a")->int64_value(), 7);
  *v.GetMutable("b") = Value::Bool(true);
  EXPECT_TRUE(v.Get("b")->bool_value());
  EXPECT_TRUE(v.Remove("a"));
  EXPECT_FALSE(v.Remove("a"));
  ASSERT_EQ(v.object_fields().size(), 1u);
  EXPECT_EQ(v.object_fields()[0].first, "b");
}

TEST(ValueTest, AsDouble) {
  EXPECT_EQ(Value::Int32(-3).AsDouble(), -3.0);
  EXPECT_EQ(Value::Int64(int64_t{1} << 40).AsDouble(), 1099511627776.0);
  EXPECT_EQ(Value::Double(2.5).AsDouble(), 2.5);
}

// Binary and Regex live in a box (value.h), so that a Value is 48 bytes:
// copies are deep, and a moved-from value reads as empty, as the unboxed
// members did.
TEST(ValueTest, BoxedBinaryAndRegexCopyDeepAndMoveOut) {
  static_assert(sizeof(Value) <= 48, "every field and item pays this size");
  Value bin = Value::Bin(Binary{4, std::string("\x01\x02", 2)});
  Value re = Value::Re(Regex{"^a.*", "im"});
  Value bin_copy = bin;
  Value re_copy = re;
  EXPECT_NE(&bin_copy.binary_value(), &bin.binary_value());
  EXPECT_EQ(bin_copy.binary_value().subtype, 4);
  EXPECT_EQ(bin_copy.binary_value().data, std::string("\x01\x02", 2));
  EXPECT_NE(&re_copy.regex_value(), &re.regex_value());
  EXPECT_EQ(re_copy.regex_value().pattern, "^a.*");
  EXPECT_EQ(re_copy.regex_value().options, "im");
  Value bin_moved = std::move(bin);
  Value re_moved = std::move(re);
  EXPECT_EQ(bin_moved.binary_value().data, std::string("\x01\x02", 2));
  EXPECT_EQ(re_moved.regex_value().pattern, "^a.*");
  EXPECT_EQ(bin.binary_value().data, "");   // NOLINT(bugprone-use-after-move)
  EXPECT_EQ(re.regex_value().pattern, "");  // NOLINT(bugprone-use-after-move)
  bin_copy = re_copy;                       // assignment across the boxed types
  EXPECT_EQ(bin_copy.type(), ValueType::kRegex);
  EXPECT_EQ(bin_copy.regex_value().options, "im");
}

}  // namespace
}  // namespace ttldb
