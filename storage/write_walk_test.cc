// WalkForWrite (storage/write_walk.h) answers in one walk what four
// functions answer in four: CheckStorable, BsonDocumentSize,
// ReparsesIdentically and CacheCharge. Compared on generated documents
// that reach every rule of each (UTF-8, NUL and '$' names, Extended JSON
// keywords, nesting near 90 and 100, NaN, decimals with non-canonical
// bits, regex options, arrays past 10 items, strings and vectors with
// spare capacity).
#include "storage/write_walk.h"

#include <cmath>
#include <limits>
#include <random>
#include <string>

#include "document/bson.h"
#include "document/storable.h"
#include "gtest/gtest.h"
#include "storage/doc_cache.h"

namespace ttldb {
namespace {

class Gen {
 public:
  explicit Gen(uint32_t seed) : rng_(seed) {}

  int Pick(int n) { return std::uniform_int_distribution<int>(0, n - 1)(rng_); }

  std::string Text() {
    static const char* const kPieces[] = {
        "a",   "b",        "$",    "$date",        "$dollar",
        "\0",  "\xc3\xa9", "\xff", "\xed\xa0\x80", "0123456789abcdef",
        "x.y", "\x7f",     "\n"};
    std::string s;
    const int n = Pick(5);
    for (int i = 0; i < n; ++i) {
      const char* p = kPieces[Pick(13)];
      // "\0" is one byte.
      s.append(p, *p == 0 ? 1 : std::strlen(p));
    }
    if (Pick(4) == 0) s.reserve(s.size() + Pick(40));  // spare capacity
    return s;
  }

  std::string Name() {
    switch (Pick(12)) {
      case 0:
        return "$date";
      case 1:
        return "$x";
      case 2:
        return std::string("a\0b", 3);
      case 3:
        return "\xff";
      default:
        return Pick(2) ? "f" + std::to_string(Pick(30)) : Text();
    }
  }

  Value Scalar() {
    switch (Pick(16)) {
      case 0:
        return Value::Null();
      case 1:
        return Value::MinKey();
      case 2:
        return Value::Bool(Pick(2));
      case 3:
        return Value::Int32(Pick(1000) - 500);
      case 4:
        return Value::Int64(int64_t{1} << 40);
      case 5:
        return Value::Double(Pick(3) == 0 ? std::nan("") : 1.5);
      case 6:
        return Value::Decimal(Pick(2) ? Decimal128::FromInt64(Pick(100))
                                      : Decimal128(0xfc00000000000001ull, 7));
      case 7:
        return Value::Decimal(Decimal128(0x7e00000000000000ull, 3));
      case 8:
        return Value::Date(Pick(1 << 20));
      case 9:
        return Value::Ts(Timestamp{1, 2});
      case 10: {
        Binary b;
        b.data = Text();
        b.subtype = 0;
        return Value::Bin(b);
      }
      case 11: {
        Regex r;
        r.pattern = Text();
        static const char* const kOptions[] = {"", "im", "mi", "i\xc3\xa9",
                                               "\xff"};
        r.options = kOptions[Pick(5)];
        return Value::Re(r);
      }
      case 12:
        return Value::Oid(ObjectId());
      default:
        return Value::String(Text());
    }
  }

  Value Any(int depth, int max_depth) {
    const int kind = depth >= max_depth ? 2 : Pick(5);
    if (kind == 0) return Object(depth + 1, max_depth);
    if (kind == 1) {
      Value::Array items;
      const int n = Pick(3) == 0 ? 12 + Pick(3) : Pick(4);
      for (int i = 0; i < n; ++i) items.push_back(Any(depth + 1, max_depth));
      return Value::MakeArray(std::move(items));
    }
    return Scalar();
  }

  // An object at `depth` containers (the document is 1).
  Value Object(int depth, int max_depth) {
    Value::Object fields;
    const int n = Pick(5);
    for (int i = 0; i < n; ++i) {
      // Mostly good names, so that deep documents stay storable.
      std::string name = Pick(6) == 0 ? Name() : "f" + std::to_string(i);
      fields.emplace_back(std::move(name), Any(depth, max_depth));
    }
    return Value::MakeObject(std::move(fields));
  }

  // A chain of single-field objects/arrays `levels` deep, with a random
  // leaf.
  Value Chain(int levels) {
    Value v = Scalar();
    for (int i = 1; i < levels; ++i) {
      if (Pick(2)) {
        v = Value::MakeArray({std::move(v)});
      } else {
        v = Value::MakeObject({Field("c", std::move(v))});
      }
    }
    return Value::MakeObject(
        {Field("_id", Value::Int32(1)), Field("deep", std::move(v))});
  }

 private:
  std::mt19937 rng_;
};

void ExpectSame(const Value& doc, int* storable_count) {
  const WriteWalk w = WalkForWrite(doc);
  const bool storable = CheckStorable(doc).ok();
  ASSERT_EQ(w.storable, storable);
  if (!storable) return;
  ++*storable_count;
  EXPECT_EQ(w.bson_size, BsonDocumentSize(doc));
  EXPECT_EQ(w.reparses, ReparsesIdentically(doc));
  for (const char* key : {"short", "a key longer than fifteen bytes"}) {
    EXPECT_EQ(CacheChargeFromWalk(key, w), CacheCharge(key, doc));
  }
}

TEST(WriteWalkTest, AgreesWithTheFourFunctions) {
  int storable = 0, total = 0;
  for (uint32_t seed = 1; seed <= 20000; ++seed) {
    Gen gen(seed);
    Value doc = gen.Object(1, 1 + gen.Pick(5));
    SCOPED_TRACE(seed);
    ExpectSame(doc, &storable);
    ++total;
    if (HasFailure()) return;
  }
  // Both verdicts are well represented.
  EXPECT_GT(storable, total / 5);
  EXPECT_LT(storable, total * 4 / 5);
}

TEST(WriteWalkTest, NestingAroundBothLimits) {
  int storable = 0;
  for (int levels : {1, 2, 88, 89, 90, 91, 92, 99, 100, 101, 102}) {
    for (uint32_t seed = 1; seed <= 20; ++seed) {
      Gen gen(seed * 1000 + levels);
      SCOPED_TRACE(levels);
      ExpectSame(gen.Chain(levels), &storable);
      if (HasFailure()) return;
    }
  }
  EXPECT_GT(storable, 0);
}

}  // namespace
}  // namespace ttldb
