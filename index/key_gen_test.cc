#include "index/key_gen.h"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "base/status.h"
#include "document/path_keys.h"
#include "gtest/gtest.h"
#include "index/index_spec.h"
#include "index/key_codec.h"
#include "ttldb/json.h"

namespace ttldb {
namespace {

IndexSpec Spec(std::vector<std::pair<std::string, int>> fields,
               bool sparse = false) {
  IndexSpec spec;
  spec.name = "test";
  for (const auto& f : fields) spec.key.push_back({f.first, f.second});
  spec.sparse = sparse;
  return spec;
}

std::vector<std::string> Keys(const IndexSpec& spec, const std::string& json,
                              bool* multikey = nullptr) {
  Value doc = ParseDocument(json).value();
  std::vector<std::string> keys;
  absl::Status s = GenerateIndexKeys(spec, doc, &keys, multikey);
  EXPECT_TRUE(s.ok()) << s;
  return keys;
}

// The expected keys: one tuple of JSON values per key, encoded in the
// directions of `spec`, then sorted.
std::vector<std::string> Expected(
    const IndexSpec& spec, std::vector<std::vector<std::string>> tuples) {
  std::vector<std::string> out;
  for (const auto& tuple : tuples) {
    std::string key;
    for (size_t i = 0; i < tuple.size(); ++i) {
      bool desc = spec.key[i].direction < 0;
      if (tuple[i] == "EMPTY") {
        AppendEmptyArrayKey(desc, &key);
      } else {
        AppendKeyValue(ParseValue(tuple[i]).value(), desc, &key);
      }
    }
    out.push_back(key);
  }
  std::sort(out.begin(), out.end());
  return out;
}

TEST(KeyGenTest, SingleField) {
  auto spec = Spec({{"a", 1}});
  bool multikey = true;
  EXPECT_EQ(Keys(spec, R"({"a": 5})", &multikey), Expected(spec, {{"5"}}));
  EXPECT_FALSE(multikey);
  EXPECT_EQ(Keys(spec, R"({"a": {"$date": "2026-01-01T00:00:00Z"}})"),
            Expected(spec, {{R"({"$date": "2026-01-01T00:00:00Z"})"}}));
}

TEST(KeyGenTest, MissingFieldIsNull) {
  auto spec = Spec({{"a", 1}});
  EXPECT_EQ(Keys(spec, R"({"b": 1})"), Expected(spec, {{"null"}}));
  EXPECT_EQ(Keys(spec, R"({"a": null})"), Expected(spec, {{"null"}}));
}

TEST(KeyGenTest, MultikeyDeduplicates) {
  auto spec = Spec({{"a", 1}});
  bool multikey = false;
  EXPECT_EQ(
      Keys(spec, R"({"a": [3, 1, 1.0, {"$numberLong": "3"}, "x"]})", &multikey),
      Expected(spec, {{"1"}, {"3"}, {R"("x")"}}));
  EXPECT_TRUE(multikey);
}

TEST(KeyGenTest, NestedArrayIsIndexedAsArray) {
  auto spec = Spec({{"a", 1}});
  EXPECT_EQ(Keys(spec, R"({"a": [[1, 2], 3]})"),
            Expected(spec, {{"[1, 2]"}, {"3"}}));
}

TEST(KeyGenTest, EmptyArraySortsBelowNull) {
  auto spec = Spec({{"a", 1}});
  std::vector<std::string> keys = Keys(spec, R"({"a": []})");
  EXPECT_EQ(keys, Expected(spec, {{"EMPTY"}}));
  EXPECT_LT(keys[0], EncodeKeyValue(Value::Null(), false));
  EXPECT_GT(keys[0], EncodeKeyValue(Value::MinKey(), false));
}

TEST(KeyGenTest, DottedPathThroughArrays) {
  auto spec = Spec({{"a.b", 1}});
  bool multikey = false;
  EXPECT_EQ(
      Keys(spec, R"({"a": [{"b": 1}, {"b": 2}, {"b": [3, 4]}]})", &multikey),
      Expected(spec, {{"1"}, {"2"}, {"3"}, {"4"}}));
  EXPECT_TRUE(multikey);
  // An element without the field, or not an object, contributes null.
  EXPECT_EQ(Keys(spec, R"({"a": [{}, {"b": 1}, 7]})"),
            Expected(spec, {{"null"}, {"1"}}));
  EXPECT_EQ(Keys(spec, R"({"a": {"b": {"c": 1}}})"),
            Expected(spec, {{R"({"c": 1})"}}));
  EXPECT_EQ(Keys(spec, R"({"a": 5})"), Expected(spec, {{"null"}}));
  EXPECT_EQ(Keys(Spec({{"a.b.c", 1}}),
                 R"({"a": [{"b": [{"c": 1}, {"c": 2}]}, {"b": {"c": 3}}]})"),
            Expected(spec, {{"1"}, {"2"}, {"3"}}));
}

TEST(KeyGenTest, PositionalComponent) {
  auto spec = Spec({{"a.1", 1}});
  bool multikey = true;
  EXPECT_EQ(Keys(spec, R"({"a": [10, 20, 30]})", &multikey),
            Expected(spec, {{"20"}}));
  EXPECT_FALSE(multikey);
  EXPECT_EQ(Keys(spec, R"({"a": [10]})"), Expected(spec, {{"null"}}));
}

TEST(KeyGenTest, CompoundDirections) {
  auto spec = Spec({{"a", 1}, {"b", -1}});
  std::vector<std::string> keys = Keys(spec, R"({"a": 1, "b": 2})");
  EXPECT_EQ(keys, Expected(spec, {{"1", "2"}}));
  std::string want;
  AppendKeyValue(Value::Int32(1), false, &want);
  AppendKeyValue(Value::Int32(2), true, &want);
  EXPECT_EQ(keys[0], want);
  // Descending second field: b=3 sorts before b=2.
  EXPECT_LT(Keys(spec, R"({"a": 1, "b": 3})")[0], keys[0]);
}

TEST(KeyGenTest, CompoundWithOneArray) {
  auto spec = Spec({{"a", 1}, {"b", -1}});
  EXPECT_EQ(Keys(spec, R"({"a": [1, 2], "b": "x"})"),
            Expected(spec, {{"1", R"("x")"}, {"2", R"("x")"}}));
  EXPECT_EQ(Keys(spec, R"({"b": [1, 2]})"),
            Expected(spec, {{"null", "1"}, {"null", "2"}}));
}

TEST(KeyGenTest, ParallelArraysRejected) {
  auto spec = Spec({{"a", 1}, {"b", 1}});
  Value doc = ParseDocument(R"({"a": [1, 2], "b": [3]})").value();
  std::vector<std::string> keys;
  absl::Status s = GenerateIndexKeys(spec, doc, &keys);
  EXPECT_EQ(ErrorCode(s), kCannotIndexParallelArrays);
  // MongoDB names the arrays' fields, the later one first
  // (btree_key_generator.cpp assertParallelArrays(e.fieldName(),
  // arrElt.fieldName())): "cannot index parallel arrays [b] [a]".
  EXPECT_EQ(s.message(), "cannot index parallel arrays [b] [a]");
  // Arrays met along dotted paths count too.
  auto dotted = Spec({{"x.y", 1}, {"z", 1}});
  doc = ParseDocument(R"({"x": [{"y": 1}], "z": []})").value();
  EXPECT_EQ(ErrorCode(GenerateIndexKeys(dotted, doc, &keys)),
            kCannotIndexParallelArrays);
}

// The review's T3: fields sharing an array prefix are not parallel arrays;
// keys are per-element tuples (btree_key_generator_test.cpp
// GetKeysAlternateMissing, MultipleArraysNotParallelCompound,
// GetKeysFromParallelArraysComplex).
TEST(KeyGenTest, SharedArrayPrefixGivesPerElementTuples) {
  auto spec = Spec({{"items.sku", 1}, {"items.qty", 1}});
  bool multikey = false;
  EXPECT_EQ(
      Keys(spec,
           R"({"items": [{"sku": "x", "qty": 1}, {"sku": "y", "qty": 2}]})",
           &multikey),
      Expected(spec, {{R"("x")", "1"}, {R"("y")", "2"}}));
  EXPECT_TRUE(multikey);
  auto ab = Spec({{"a.b", 1}, {"a.c", -1}});
  EXPECT_EQ(Keys(ab, R"({"a": [{"b": 1}, {"c": 2}]})"),
            Expected(ab, {{"null", "2"}, {"1", "null"}}));
  auto bcd = Spec({{"a.b.c", 1}, {"a.b.d", 1}});
  EXPECT_EQ(Keys(bcd, R"({"a": [1, 2, {"b": {"c": [3, 4], "d": 5}}]})"),
            Expected(bcd, {{"null", "null"}, {"3", "5"}, {"4", "5"}}));
  // Arrays below the shared prefix are parallel.
  Value doc = ParseDocument(R"({"a": [{"b": [1], "c": [2]}]})").value();
  std::vector<std::string> keys;
  absl::Status s = GenerateIndexKeys(ab, doc, &keys);
  EXPECT_EQ(ErrorCode(s), kCannotIndexParallelArrays);
  EXPECT_EQ(s.message(), "cannot index parallel arrays [c] [b]");
}

// btree_key_generator_test.cpp GetKeysFromArrayWithEquivalentValues and
// MultipleArraysNotParallel (a scalar met with path left gives null).
TEST(KeyGenTest, EquivalentValuesAndScalarsOnThePath) {
  auto a = Spec({{"a", 1}});
  EXPECT_EQ(Keys(a, R"({"a": [0, {"$numberInt": "0"}, {"$numberLong": "0"}]})"),
            Expected(a, {{"0"}}));
  auto abc = Spec({{"a.b.c", -1}});
  EXPECT_EQ(Keys(abc, R"({"a": [1, 2, {"b": {"c": [3, 4]}}]})"),
            Expected(abc, {{"null"}, {"3"}, {"4"}}));
}

TEST(KeyGenTest, Sparse) {
  auto spec = Spec({{"a", 1}, {"b", 1}}, /*sparse=*/true);
  EXPECT_TRUE(Keys(spec, R"({"c": 1})").empty());
  EXPECT_EQ(Keys(spec, R"({"b": 2})"), Expected(spec, {{"null", "2"}}));
  EXPECT_EQ(Keys(spec, R"({"a": null})"), Expected(spec, {{"null", "null"}}));
  auto single = Spec({{"a.b", 1}}, /*sparse=*/true);
  EXPECT_TRUE(Keys(single, R"({"a": [{"c": 1}]})").empty());
  EXPECT_EQ(Keys(single, R"({"a": []})").size(), 0u);
  EXPECT_EQ(Keys(Spec({{"a", 1}}, true), R"({"a": []})"),
            Expected(single, {{"EMPTY"}}));
}

// The keys of the general generator (document/path_keys.h), encoded as
// GenerateIndexKeys encodes them: what its shortcut for top-level,
// non-array fields must reproduce exactly.
std::vector<std::string> GeneralKeys(const IndexSpec& spec, const Value& doc) {
  std::vector<std::string> paths;
  for (const IndexKeyField& kf : spec.key) paths.push_back(kf.path);
  std::vector<std::vector<KeyElement>> tuples;
  EXPECT_TRUE(PathKeyGenerator(paths, spec.sparse).GetKeys(doc, &tuples).ok());
  std::vector<std::string> out;
  for (const auto& tuple : tuples) {
    std::string key;
    for (size_t f = 0; f < spec.key.size(); ++f) {
      const bool desc = spec.key[f].direction < 0;
      switch (tuple[f].kind) {
        case KeyElement::Kind::kValue:
          AppendKeyValue(*tuple[f].value, desc, &key);
          break;
        case KeyElement::Kind::kNull:
          AppendKeyValue(Value::Null(), desc, &key);
          break;
        case KeyElement::Kind::kEmptyArray:
          AppendEmptyArrayKey(desc, &key);
          break;
      }
    }
    out.push_back(key);
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

TEST(KeyGenTest, TopLevelFieldsAgreeWithTheGeneralGenerator) {
  const std::vector<IndexSpec> specs = {
      Spec({{"a", 1}}),
      Spec({{"a", -1}}),
      Spec({{"a", 1}}, /*sparse=*/true),
      Spec({{"a", 1}, {"b", -1}}),
      Spec({{"a", 1}, {"b", 1}}, /*sparse=*/true),
      Spec({{"b", 1}, {"a", 1}, {"c", -1}}),
      Spec({{"a", 1}, {"b.c", 1}}),  // dotted: the general path
      Spec({{"f1", 1},
            {"f2", 1},
            {"f3", 1},
            {"f4", 1},
            {"f5", 1},
            {"f6", 1},
            {"f7", 1},
            {"f8", 1},
            {"a", 1}}),  // > 8 fields
  };
  const std::vector<std::string> docs = {
      R"({})",
      R"({"a": 1})",
      R"({"a": null})",
      R"({"a": {"$date": {"$numberLong": "1700000000000"}}, "b": "x"})",
      R"({"a": {"x": 1, "y": [1, 2]}, "b": {"c": 5}})",
      R"({"b": 2.5, "c": {"$numberDecimal": "1.0"}})",
      R"({"a": [1, 2], "b": 3})",
      R"({"a": [], "b": null})",
      R"({"b": [{"c": 1}, {"c": 2}]})",
      R"({"a": "first", "a": "second", "b": true})",  // duplicate names
      R"({"a": {"$minKey": 1}, "b": {"$maxKey": 1}, "c": "z"})",
      R"({"f1": 1, "f8": 8, "a": 0})",
  };
  for (const IndexSpec& spec : specs) {
    for (const std::string& json : docs) {
      Value doc = ParseDocument(json).value();
      std::vector<std::string> keys;
      ASSERT_TRUE(GenerateIndexKeys(spec, doc, &keys).ok()) << json;
      EXPECT_EQ(keys, GeneralKeys(spec, doc))
          << ToJson(IndexSpecToValue(spec)) << " " << json;
    }
  }
}

TEST(KeyGenTest, PrefixAndSuffixSurroundEveryKey) {
  const std::string prefix("\x01\x02ix", 4), suffix("\x00id\xff", 4);
  for (const char* json :
       {R"({"a": 7, "b": "s"})", R"({"a": [3, 1, 3, 2], "b": "s"})",
        R"({"b": "s"})"}) {
    for (const auto& spec : {Spec({{"a", 1}, {"b", -1}}), Spec({{"a", -1}})}) {
      Value doc = ParseDocument(json).value();
      std::vector<std::string> bare, affixed;
      bool multikey_bare = false, multikey_affixed = false;
      ASSERT_TRUE(GenerateIndexKeys(spec, doc, &bare, &multikey_bare).ok());
      ASSERT_TRUE(GenerateIndexKeys(spec, doc, &affixed, &multikey_affixed,
                                    prefix, suffix)
                      .ok());
      ASSERT_EQ(affixed.size(), bare.size()) << json;
      for (size_t i = 0; i < bare.size(); ++i) {
        EXPECT_EQ(affixed[i], prefix + bare[i] + suffix) << json;
      }
      EXPECT_EQ(multikey_affixed, multikey_bare);
    }
  }
}

TEST(KeyGenTest, EmptyKeyPatternIsAnError) {
  IndexSpec spec;
  std::vector<std::string> keys;
  EXPECT_FALSE(GenerateIndexKeys(spec, Value::MakeObject(), &keys).ok());
}

}  // namespace
}  // namespace ttldb
