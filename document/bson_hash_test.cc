// BsonHash64 against MongoDB's own test vectors: src/mongo/db/hasher_test.cpp
// (BSONElementHasher::hash64(o.firstElement(), 0) for o = {check: <value>})
// and hasher.cpp's startup check ({check: 42} -> -944302157085130861).
#include "document/bson_hash.h"

#include <cmath>
#include <limits>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "ttldb/json.h"

namespace ttldb {
namespace {

int64_t Hash(const char* json) {
  auto doc = ParseDocument(absl::StrCat(R"({"check": )", json, "}"));
  EXPECT_TRUE(doc.ok()) << doc.status();
  return BsonHash64(*doc->Get("check"));
}

// HashIntOrLongOrDouble: every number hashes as the int64 it truncates to.
TEST(BsonHash64, Numbers) {
  EXPECT_EQ(Hash("42"), -944302157085130861LL);
  EXPECT_EQ(Hash("42.123"), -944302157085130861LL);
  EXPECT_EQ(Hash(R"({"$numberLong": "42"})"), -944302157085130861LL);
  EXPECT_EQ(Hash("0"), 4854801880128277513LL);
  EXPECT_EQ(Hash("0.456"), 4854801880128277513LL);
  EXPECT_EQ(BsonHash64(Value::Double(std::nan(""))), 4854801880128277513LL);
  EXPECT_EQ(Hash("1"), 5902408780260971510LL);
  EXPECT_EQ(Hash("1.987"), 5902408780260971510LL);
  EXPECT_EQ(Hash("-1"), 1140205862565771219LL);
  EXPECT_EQ(Hash("-1.789"), 1140205862565771219LL);
  EXPECT_EQ(Hash("-2147483648"), 6165898260261354870LL);
  EXPECT_EQ(Hash("-2147483648.0"), 6165898260261354870LL);
  EXPECT_EQ(Hash("2147483647"), 1143184177162245883LL);
  // Doubles beyond int64 clamp to its bounds.
  EXPECT_EQ(BsonHash64(Value::Double(std::numeric_limits<double>::max())),
            921523596458303250LL);
  EXPECT_EQ(BsonHash64(Value::Int64(std::numeric_limits<int64_t>::max())),
            921523596458303250LL);
  EXPECT_EQ(BsonHash64(Value::Double(-std::numeric_limits<double>::max())),
            4532067210535695462LL);
  EXPECT_EQ(BsonHash64(Value::Int64(std::numeric_limits<int64_t>::min())),
            4532067210535695462LL);
  EXPECT_EQ(Hash(R"({"$numberDecimal": "42"})"), -944302157085130861LL);
}

TEST(BsonHash64, OtherTypes) {
  EXPECT_EQ(Hash(R"({"$minKey": 1})"), 7961148599568647290LL);
  EXPECT_EQ(Hash(R"({"$maxKey": 1})"), 5504842513779440750LL);
  EXPECT_EQ(Hash(R"("abc")"), 8478485326885698097LL);
  EXPECT_EQ(Hash(R"("")"), 2049396243249673340LL);
  EXPECT_EQ(Hash(R"({"a": "abc", "b": {"$numberLong": "123"}})"),
            4771603801758380216LL);
  EXPECT_EQ(Hash("{}"), 7980500913326740417LL);
  EXPECT_EQ(Hash(R"(["bar", "baz", "qux"])"), -2938911267422831539LL);
  EXPECT_EQ(Hash("[]"), 8849948234993459283LL);
  EXPECT_EQ(Hash(R"({"$binary": {"base64": "AAECAwQG", "subType": "00"}})"),
            7252465090394235301LL);
  EXPECT_EQ(Hash(R"({"$binary": {"base64": "AAECAwQG", "subType": "80"}})"),
            5736670452907618262LL);
  EXPECT_EQ(Hash(R"({"$binary": {"base64": "AAECAwQFBgcICQoLDA0ODw==",
                                  "subType": "04"}})"),
            6084661258071355978LL);
  EXPECT_EQ(Hash(R"({"$oid": "010203040506070809101112"})"),
            -5588663249627035708LL);
  EXPECT_EQ(Hash(R"({"$oid": "000000000000000000000000"})"),
            -4293118519463489418LL);
  EXPECT_EQ(Hash("true"), 6405873908747105701LL);
  EXPECT_EQ(Hash("false"), 6289544573401934092LL);
  EXPECT_EQ(Hash(R"({"$date": {"$numberLong": "6153737367135073092"}})"),
            4476222765095560467LL);
  EXPECT_EQ(Hash(R"({"$date": {"$numberLong": "0"}})"), -1178696894582842035LL);
  EXPECT_EQ(Hash(R"({"$regularExpression": {"pattern": "mongodb",
                                            "options": ""}})"),
            -7275792090268217043LL);
  EXPECT_EQ(Hash(R"({"$regularExpression": {"pattern": ".*",
                                            "options": "i"}})"),
            7095855029187981886LL);
}

}  // namespace
}  // namespace ttldb
