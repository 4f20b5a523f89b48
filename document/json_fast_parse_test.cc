#include "document/json_fast_parse.h"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "document/compare.h"
#include "gtest/gtest.h"
#include "ttldb/json.h"

namespace ttldb {
namespace json_internal {
namespace {

// Exact structural identity (document/compare.h): same types everywhere,
// bit-identical doubles, equal strings and field order.
bool Identical(const Value& a, const Value& b) { return IdenticalValues(a, b); }

// Runs both paths on `json`. Whenever the fast path accepts, the full path
// must accept it too and give an identical value. Returns whether the fast
// path accepted.
bool Agree(const std::string& json, const ParseOptions& options = {}) {
  Value fast;
  const bool accepted = FastParseValue(json, options, &fast);
  absl::StatusOr<Value> full = ParseValueFullPath(json, options);
  if (accepted) {
    EXPECT_TRUE(full.ok()) << "fast path accepted what the full path "
                              "rejects: "
                           << json << " -> " << full.status();
    if (full.ok()) {
      EXPECT_TRUE(Identical(fast, *full))
          << json << ": fast " << ToJson(fast, JsonFormat::kCanonical)
          << " vs full " << ToJson(*full, JsonFormat::kCanonical);
    }
  }
  // Whichever path ran, ParseValue's outcome is the full path's.
  absl::StatusOr<Value> public_result = ParseValue(json, options);
  EXPECT_EQ(public_result.ok(), full.ok()) << json;
  if (!full.ok()) {
    EXPECT_EQ(public_result.status(), full.status()) << json;
  } else if (public_result.ok()) {
    EXPECT_TRUE(Identical(*public_result, *full)) << json;
  }
  return accepted;
}

ObjectId SomeOid() {
  ObjectId id;
  EXPECT_TRUE(ObjectId::FromHex("5f1a2b3c4d5e6f7081920a0b", &id));
  return id;
}

constexpr char kEscapes[] = "q\" b\\ s/ \b\f\n\r\t \x01 nul:\0 del:\x7f";

// A document with every type the fast path handles, in storage form.
Value HandledDocument() {
  return Value::MakeObject({
      Field("_id", Value::Oid(SomeOid())),
      Field("i32", Value::Int32(-2147483647 - 1)),
      Field("i32max", Value::Int32(2147483647)),
      Field("i64", Value::Int64(std::numeric_limits<int64_t>::min())),
      Field("i64max", Value::Int64(std::numeric_limits<int64_t>::max())),
      Field("small64", Value::Int64(5)),  // stored as {"$numberLong":"5"}
      Field("d", Value::Double(0.1)),
      Field("dint", Value::Double(3.0)),
      Field("negzero", Value::Double(-0.0)),
      Field("big", Value::Double(1.7976931348623157e308)),
      Field("tiny", Value::Double(2.2250738585072014e-308)),
      Field("e", Value::Double(-1.25e-7)),
      Field("dec", Value::Decimal(*Decimal128::FromString("1.50"))),
      Field("decneg0", Value::Decimal(*Decimal128::FromString("-0"))),
      Field("decnan", Value::Decimal(Decimal128::NaN())),
      Field("decbig", Value::Decimal(*Decimal128::FromString("1E+6144"))),
      Field("s", Value::String("plain")),
      Field("esc", Value::String(std::string(kEscapes, sizeof(kEscapes) - 1))),
      Field("utf8",
            Value::String("h\xC3\xA9llo \xE2\x82\xAC \xF0\x9F\x98\x80")),
      Field("", Value::String("")),
      Field("t", Value::Bool(true)),
      Field("f", Value::Bool(false)),
      Field("n", Value::Null()),
      Field("date", Value::Date(1790000000123)),
      Field("olddate", Value::Date(-86400000)),
      Field("eo", Value::MakeObject()),
      Field("ea", Value::MakeArray()),
      Field("nested",
            Value::MakeObject({Field(
                "a", Value::MakeArray(
                         {Value::Int32(1), Value::MakeArray(),
                          Value::MakeObject({Field("b", Value::Date(0))})}))})),
  });
}

TEST(FastParse, StorageFormOfHandledTypesTakesTheFastPathExactly) {
  const Value doc = HandledDocument();
  {
    const std::string json = ToJson(doc, JsonFormat::kStorage);
    Value fast;
    ASSERT_TRUE(FastParseValue(json, {}, &fast)) << json;
    EXPECT_TRUE(Identical(fast, doc)) << json;
    EXPECT_TRUE(Agree(json));
  }
  // The benchmark's document shape.
  EXPECT_TRUE(
      Agree(R"({"_id":"k000000000042","accessTime":{"$date":{"$numberLong":)"
            R"("1790000000000"}},"userId":"user-0000042","group":7,)"
            R"("payload":"abc def 0123456789"})"));
}

TEST(FastParse, EveryTypeRoundTripsExactlyThroughParseDocument) {
  Binary bin;
  bin.subtype = 4;
  bin.data = std::string("\x00\x01\xff", 3);
  Regex re;
  re.pattern = "^a.*b$";
  re.options = "imsx";
  Value::Object fields = HandledDocument().object_fields();
  fields.emplace_back("min", Value::MinKey());
  fields.emplace_back("max", Value::MaxKey());
  fields.emplace_back("ts", Value::Ts(Timestamp{1700000000, 7}));
  fields.emplace_back("bin", Value::Bin(bin));
  fields.emplace_back("re", Value::Re(re));
  fields.emplace_back("inf",
                      Value::Double(std::numeric_limits<double>::infinity()));
  fields.emplace_back("ninf",
                      Value::Double(-std::numeric_limits<double>::infinity()));
  fields.emplace_back("farDate", Value::Date(400000000000000));
  const Value doc = Value::MakeObject(fields);
  const std::string json = ToJson(doc, JsonFormat::kStorage);
  absl::StatusOr<Value> back = ParseDocument(json);
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_TRUE(Identical(*back, doc)) << json;
  // The types it does not handle go to the full path, which reads them.
  Value fast;
  EXPECT_FALSE(FastParseValue(json, {}, &fast));
  Agree(json);
  for (const Field& f : fields) {
    const std::string one =
        ToJson(Value::MakeObject({f}), JsonFormat::kStorage);
    absl::StatusOr<Value> v = ParseDocument(one);
    ASSERT_TRUE(v.ok()) << one << ": " << v.status();
    EXPECT_TRUE(Identical(*v, Value::MakeObject({f}))) << one;
    Agree(one);
  }
}

TEST(FastParse, DeclinesWhatItDoesNotDecide) {
  const std::vector<std::string> declined = {
      // Malformed JSON.
      "",
      " ",
      "{",
      "}",
      "{\"a\"}",
      "{\"a\":}",
      "{\"a\":1,}",
      "[1,]",
      "[1 2]",
      "{\"a\":1 \"b\":2}",
      "{a:1}",
      "{'a':1}",
      "{\"a\":1}x",
      "{\"a\":1}{}",
      "[",
      "]",
      "\"abc",
      "tru",
      "nul",
      "falsey",
      "truex",
      "{\"a\":tru}",
      // Numbers outside the grammar or the fast path's range.
      "01",
      "-",
      "1.",
      ".5",
      "+1",
      "1e",
      "1e+",
      "-01",
      "0x1",
      "1.5e",
      "--1",
      "1234567890123456789",
      "-1234567890123456789",
      "18446744073709551615",
      "123456789012345678901234567890",
      "1e400",
      "-1e400",
      "NaN",
      "Infinity",
      // Strings.
      "\"\\ud83d\\ude00\"",
      "\"\\ud800\"",
      "\"\\udc00x\"",
      "\"\\x\"",
      "\"\\u12\"",
      "\"\\u12g4\"",
      std::string("\"a\x01\""),
      std::string("\"a\nb\""),
      "\"\xff\"",
      "\"\xc0\xaf\"",
      "\"\xed\xa0\x80\"",
      "\"\xf4\x90\x80\x80\"",
      "\"\xe2\x82\"",
      std::string("{\"\x80\":1}"),
      std::string("\"a\0b\"", 5),
      std::string("{\"a\":1}\0", 8),
      // '$' keys other than the storage form's wrappers.
      "{\"$gt\":5}",
      "{\"a\":1,\"$date\":5}",
      "{\"$date\":5}",
      "{\"$date\":\"2026-11-21T10:00:00Z\"}",
      "{\"$date\":{\"$numberLong\":5}}",
      "{\"$date\":{\"$numberLong\":\"1\",\"x\":1}}",
      "{\"$date\":{\"$numberLong\":\"1x\"}}",
      "{\"$date\":{\"x\":\"1\"}}",
      "{\"$numberLong\":\"99999999999999999999\"}",
      "{\"$numberLong\":\"+1\"}",
      "{\"$numberLong\":\"1\",\"a\":2}",
      "{\"$numberLong\":1}",
      "{\"$oid\":\"123\"}",
      "{\"$oid\":\"5f1a2b3c4d5e6f7081920a0g\"}",
      "{\"$numberDecimal\":\"abc\"}",
      "{\"$numberDecimal\":\"12345678901234567890123456789012345\"}",
      "{\"$numberDecimal\":1}",
      "{\"$regex\":\"a\",\"$options\":\"i\"}",
      "{\"$minKey\":1}",
      "{\"$numberInt\":\"1\"}",
      "{\"$\":1}",
  };
  for (const std::string& json : declined) {
    Value v;
    EXPECT_FALSE(FastParseValue(json, {}, &v)) << json;
    Agree(json);
  }
}

TEST(FastParse, AcceptsCornerCasesIdentically) {
  const std::vector<std::string> accepted = {
      "0",
      "-0",
      "-0.0",
      "0.0",
      "1e5",
      "1E+5",
      "1e-5",
      "2147483647",
      "2147483648",
      "-2147483648",
      "-2147483649",
      "123456789012345678",
      "-123456789012345678",
      "1.0",
      "0.1",
      "1e308",
      "4.9e-324",
      "2.2250738585072011e-308",
      "1e-320",
      "123456789012345678901234567890.5",
      "0.30000000000000004",
      "true",
      "false",
      "null",
      "\"\"",
      "\"\\u0000\\u00e9\\u20AC\\uFFFF\\/\"",
      " \t\r\n{ \"a\" : [ 1 , { } ] } \n",
      "{\"a\":1,\"a\":2}",
      "{\"$numberLong\":\"-0\"}",
      "{\"$numberLong\":\"007\"}",
      "{\"$date\":{\"$numberLong\":\"-9223372036854775808\"}}",
      "{\"$oid\":\"5F1A2B3C4D5E6F7081920A0B\"}",
      "{\"$n\\u0075mberLong\":\"12\"}",
      "{\"a\\\"b\":\"\\\\\"}",
      "\"\xf0\x90\x80\x80\xf4\x8f\xbf\xbf\xef\xbf\xbd\"",
  };
  for (const std::string& json : accepted) {
    Value v;
    EXPECT_TRUE(FastParseValue(json, {}, &v)) << json;
    Agree(json);
  }
}

TEST(FastParse, ContainersAreSizedExactlyAndScratchDoesNotLeak) {
  // Each object and array is allocated at its exact size (the parser's
  // per-depth scratch), so a cached document holds no spare capacity.
  Value v;
  ASSERT_TRUE(FastParseValue(
      R"({"a":1,"b":"x","c":[1,2,3],"d":{"e":true,"f":null},"g":2.5})", {},
      &v));
  EXPECT_EQ(v.object_fields().size(), 5u);
  EXPECT_EQ(v.object_fields().capacity(), 5u);
  EXPECT_EQ(v.Get("c")->array_items().capacity(), 3u);
  EXPECT_EQ(v.Get("d")->object_fields().capacity(), 2u);
  // A parse that fails halfway leaves fields in the scratch of its depths;
  // the next parse at those depths must not see them.
  Value junk;
  EXPECT_FALSE(FastParseValue(R"({"p":1,"q":{"r":[1,2,{"s":)", {}, &junk));
  EXPECT_TRUE(Agree(R"({"t":{"u":[3,{"w":4}]}})"));
  ASSERT_TRUE(FastParseValue(R"({"t":{"u":[3,{"w":4}]}})", {}, &v));
  EXPECT_EQ(ToJson(v), R"({"t":{"u":[3,{"w":4}]}})");
  // Large containers (past the scratch's kept capacity), then small ones.
  std::string big = "{";
  for (int i = 0; i < 3000; ++i) {
    if (i > 0) big += ",";
    big += "\"k" + std::to_string(i) + "\":[" + std::to_string(i) + "]";
  }
  big += "}";
  EXPECT_TRUE(Agree(big));
  ASSERT_TRUE(FastParseValue(big, {}, &v));
  EXPECT_EQ(v.object_fields().size(), 3000u);
  EXPECT_EQ(v.object_fields()[2999].first, "k2999");
  EXPECT_TRUE(Agree(R"({"k":[1],"k":[2]})"));  // duplicates kept in order
  // Strings and keys unescaped in place, long and short, after a failure.
  EXPECT_FALSE(FastParseValue(R"({"a\nb":"x\ty)", {}, &junk));
  EXPECT_TRUE(Agree(R"({"a\nb":"x\ty","long key past sixteen bytes":")" +
                    std::string(300, 'z') + R"(\u00e9"})"));
}

// ParseDocumentInto (the read path's decode into the Value it hands out)
// gives exactly ParseDocument's value or error, whatever *out held before:
// no field, item or byte of the old value survives.
TEST(FastParse, ParseDocumentIntoOverwritesAndAgreesWithParseDocument) {
  std::string deep;
  for (int i = 0; i < 99; ++i) deep += "{\"d\":";
  deep += "[1]";
  for (int i = 0; i < 99; ++i) deep += "}";
  std::string too_deep = "{\"a\":" + deep + "}";
  const std::string inputs[] = {
      R"({"_id":"k000000000042","accessTime":{"$date":{"$numberLong":)"
      R"("1799999940000"}},"userId":"user-0000042","group":4,"payload":")" +
          std::string(180, 'p') + "\"}",
      std::string("{\"nul\":\"a\\u0000b\",\"") + std::string(15, 'k') +
          "\":\"" + std::string(15, 's') + "\",\"" + std::string(16, 'k') +
          "\":\"" + std::string(16, 's') + "\"}",
      "{\"u\":\"caf\xc3\xa9 \xf0\x9f\x98\x80\",\"e\":\"\\u00e9\\n\"}",
      R"({"a":[1,[2,[3,{"b":{}}]],[]],"c":{}})",
      R"({})",
      deep,
      too_deep,                                     // an error (depth)
      R"({"d":{"$date":"2020-01-01T00:00:00Z"}})",  // the full path's
      R"({"b":{"$binary":{"base64":"AAE=","subType":"04"}}})",
      R"([1,2])",  // not a document
      R"("str")",
      R"({"a":1,})",  // malformed
      "",
  };
  std::vector<Value> olds;
  olds.push_back(Value());
  olds.push_back(Value::String(std::string(40, 'o')));
  olds.push_back(Value::MakeObject(
      {Field("old", Value::Int32(1)), Field("payload", Value::String("x"))}));
  olds.push_back(Value::MakeArray({Value::Int32(1), Value::MakeObject()}));
  for (const std::string& json : inputs) {
    SCOPED_TRACE(json.substr(0, 80));
    // Expected independently of ParseDocument (which wraps ParseDocumentInto):
    // ParseValue's outcome, and a non-object is refused with its type.
    absl::StatusOr<Value> want = ParseValue(json, StoredJsonParseOptions());
    if (want.ok() && !want->is_object()) {
      want = absl::InvalidArgumentError(absl::StrCat(
          "a document must be a JSON object, not ", TypeName(want->type())));
    }
    absl::StatusOr<Value> via_wrapper =
        ParseDocument(json, StoredJsonParseOptions());
    ASSERT_EQ(via_wrapper.status(), want.status());
    for (const Value& old : olds) {
      Value out = old;
      absl::Status st = ParseDocumentInto(json, StoredJsonParseOptions(), &out);
      ASSERT_EQ(st, want.status());
      if (want.ok()) {
        EXPECT_TRUE(Identical(out, *want))
            << ToJson(out, JsonFormat::kCanonical) << " vs "
            << ToJson(*want, JsonFormat::kCanonical);
      }
    }
  }
}

TEST(FastParse, DepthLimitIsLeftToTheFullPath) {
  ParseOptions options;
  options.max_depth = 3;
  EXPECT_TRUE(Agree("{\"a\":{\"b\":[1]}}", options));
  EXPECT_FALSE(Agree("{\"a\":{\"b\":[[1]]}}", options));  // an error
  // A date at the deepest level: the full path does not count wrappers.
  const std::string date_at_3 =
      "{\"a\":{\"b\":{\"$date\":{\"$numberLong\":\"1\"}}}}";
  EXPECT_FALSE(Agree(date_at_3, options));
  EXPECT_TRUE(ParseValue(date_at_3, options).ok());
  options.max_depth = 0;
  EXPECT_TRUE(Agree("5", options));
  EXPECT_FALSE(Agree("[]", options));
  std::string deep(100, '[');
  deep += std::string(100, ']');
  EXPECT_TRUE(Agree(deep));
  std::string too_deep(101, '[');
  too_deep += std::string(101, ']');
  EXPECT_FALSE(Agree(too_deep));
  // Deeper than the fast path recurses (128), within the caller's limit.
  options.max_depth = 200;
  std::string deeper(150, '[');
  deeper += std::string(150, ']');
  EXPECT_FALSE(Agree(deeper, options));
  EXPECT_TRUE(ParseValue(deeper, options).ok());
}

// Random JSON texts and random byte mutations of them: wherever the fast
// path accepts, it agrees exactly with the full path.
class Generator {
 public:
  explicit Generator(uint32_t seed) : rng_(seed) {}

  std::string Document() {
    std::string out;
    Object(0, &out);
    return out;
  }

  std::string Mutate(std::string s) {
    static const char kBytes[] =
        "{}[]:,\"\\ \t\n0123456789.-+eEtrufalsn$u\x01\x7f\x80\xc3\xa9\xed\xff";
    const int edits = 1 + Uniform(3);
    for (int k = 0; k < edits; ++k) {
      const size_t pos = s.empty() ? 0 : Uniform(static_cast<int>(s.size()));
      const char c = kBytes[Uniform(sizeof(kBytes) - 1)];
      switch (Uniform(3)) {
        case 0:
          if (!s.empty()) s.erase(pos, 1);
          break;
        case 1:
          s.insert(pos, 1, c);
          break;
        default:
          if (!s.empty()) s[pos] = c;
      }
    }
    return s;
  }

  int Uniform(int n) {
    return static_cast<int>(rng_() % static_cast<uint32_t>(n));
  }

 private:
  void Ws(std::string* out) {
    static const char* kWs[] = {"", "", "", " ", "\n", "\t ", "\r\n"};
    out->append(kWs[Uniform(7)]);
  }

  void String(std::string* out) {
    static const char* kPieces[] = {"a",
                                    "key",
                                    "$",
                                    "$date",
                                    "$numberLong",
                                    "\\\"",
                                    "\\\\",
                                    "\\/",
                                    "\\n",
                                    "\\u0041",
                                    "\\u00e9",
                                    "\\u20ac",
                                    "\\ud83d\\ude00",
                                    "\xc3\xa9",
                                    "\xe2\x82\xac",
                                    "\xf0\x9f\x98\x80",
                                    " ",
                                    "0",
                                    "-",
                                    "abcdefghijklmnopqrstuvwxyz0123456789"};
    out->push_back('"');
    const int n = Uniform(5);
    for (int k = 0; k < n; ++k) out->append(kPieces[Uniform(20)]);
    out->push_back('"');
  }

  void Number(std::string* out) {
    char buf[64];
    switch (Uniform(6)) {
      case 0:
        snprintf(buf, sizeof(buf), "%d", static_cast<int>(rng_()));
        break;
      case 1:
        snprintf(buf, sizeof(buf), "%lld",
                 static_cast<long long>(static_cast<uint64_t>(rng_()) << 32 |
                                        rng_()) >>
                     Uniform(64));
        break;
      case 2: {
        double d;
        uint64_t bits = static_cast<uint64_t>(rng_()) << 32 | rng_();
        std::memcpy(&d, &bits, sizeof(d));
        if (!std::isfinite(d)) d = 1.5;
        snprintf(buf, sizeof(buf), "%.*g", 1 + Uniform(17), d);
        break;
      }
      case 3:
        snprintf(buf, sizeof(buf), "%d.%de%d", Uniform(1000), Uniform(1000),
                 Uniform(700) - 350);
        break;
      case 4:
        snprintf(buf, sizeof(buf), "-0.%de-%d", Uniform(100000),
                 300 + Uniform(30));
        break;
      default:
        snprintf(buf, sizeof(buf), "%s", Uniform(2) ? "-0" : "0");
    }
    out->append(buf);
  }

  void Scalar(std::string* out) {
    switch (Uniform(9)) {
      case 0:
        String(out);
        break;
      case 1:
        out->append(Uniform(2) ? "true" : "false");
        break;
      case 2:
        out->append("null");
        break;
      case 3:
        out->append("{\"$date\":{\"$numberLong\":\"");
        out->append(std::to_string(static_cast<int64_t>(rng_()) - (1 << 30)));
        out->append("\"}}");
        break;
      case 4:
        out->append("{\"$numberLong\":\"");
        out->append(std::to_string(static_cast<int64_t>(rng_()) << 20));
        out->append("\"}");
        break;
      case 5:
        out->append("{\"$oid\":\"5f1a2b3c4d5e6f7081920a0b\"}");
        break;
      default:
        Number(out);
    }
  }

  void AnyValue(int depth, std::string* out) {
    const int r = Uniform(10);
    if (depth < 4 && r == 0) return Object(depth + 1, out);
    if (depth < 4 && r == 1) return Array(depth + 1, out);
    Scalar(out);
  }

  void Object(int depth, std::string* out) {
    out->push_back('{');
    const int n = Uniform(5);
    for (int k = 0; k < n; ++k) {
      if (k > 0) out->push_back(',');
      Ws(out);
      String(out);
      Ws(out);
      out->push_back(':');
      Ws(out);
      AnyValue(depth, out);
      Ws(out);
    }
    out->push_back('}');
  }

  void Array(int depth, std::string* out) {
    out->push_back('[');
    const int n = Uniform(4);
    for (int k = 0; k < n; ++k) {
      if (k > 0) out->push_back(',');
      Ws(out);
      AnyValue(depth, out);
      Ws(out);
    }
    out->push_back(']');
  }

  std::mt19937 rng_;
};

TEST(FastParse, AgreesWithTheFullPathOnRandomAndMutatedInput) {
  Generator gen(12345);
  int accepted = 0, mutated_accepted = 0;
  for (int k = 0; k < 3000; ++k) {
    const std::string doc = gen.Document();
    accepted += Agree(doc);
    for (int m = 0; m < 5; ++m) mutated_accepted += Agree(gen.Mutate(doc));
    if (HasFailure()) break;
  }
  // Most generated documents are inside the fast path's subset, and
  // mutations exercise both outcomes.
  EXPECT_GT(accepted, 500);
  EXPECT_GT(mutated_accepted, 1000);
  EXPECT_LT(mutated_accepted, 15000);
}

}  // namespace
}  // namespace json_internal
}  // namespace ttldb
