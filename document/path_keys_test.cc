// Cases ported from MongoDB's src/mongo/db/index/btree_key_generator_test.cpp
// (same names), with their exact key sets and multikey paths.
#include "document/path_keys.h"

#include <set>
#include <string>
#include <vector>

#include "base/status.h"
#include "gtest/gtest.h"
#include "ttldb/json.h"

namespace ttldb {
namespace {

using Keys = std::set<std::string>;
using Paths = std::vector<std::set<size_t>>;

std::string Render(const std::vector<KeyElement>& tuple) {
  std::string out = "(";
  for (size_t i = 0; i < tuple.size(); ++i) {
    if (i > 0) out += ", ";
    switch (tuple[i].kind) {
      case KeyElement::Kind::kValue:
        out += ToJson(*tuple[i].value);
        break;
      case KeyElement::Kind::kNull:
        out += "null";
        break;
      case KeyElement::Kind::kEmptyArray:
        out += "undefined";
        break;
    }
  }
  return out + ")";
}

struct Result {
  absl::Status status;
  Keys keys;
  Paths multikey;
};

Result Gen(const std::vector<std::string>& paths, const std::string& json,
           bool sparse = false) {
  Value doc = ParseDocument(json).value();
  PathKeyGenerator gen(paths, sparse);
  std::vector<std::vector<KeyElement>> tuples;
  Result r;
  r.status = gen.GetKeys(doc, &tuples, &r.multikey);
  for (const auto& t : tuples) r.keys.insert(Render(t));
  return r;
}

void ExpectKeys(const std::vector<std::string>& paths, const std::string& doc,
                const Keys& keys, const Paths& multikey, bool sparse = false) {
  Result r = Gen(paths, doc, sparse);
  EXPECT_TRUE(r.status.ok()) << r.status;
  EXPECT_EQ(r.keys, keys) << doc;
  EXPECT_EQ(r.multikey, multikey) << doc;
}

#define EXPECT_KEYS(...)     \
  do {                       \
    SCOPED_TRACE("");        \
    ExpectKeys(__VA_ARGS__); \
  } while (0)
#define EXPECT_SPARSE_KEYS(...)               \
  do {                                        \
    SCOPED_TRACE("");                         \
    ExpectKeys(__VA_ARGS__, /*sparse=*/true); \
  } while (0)

void ExpectParallel(const std::vector<std::string>& paths,
                    const std::string& doc, const std::string& message = "") {
  Result r = Gen(paths, doc);
  EXPECT_EQ(ErrorCode(r.status), kCannotIndexParallelArrays) << doc;
  if (!message.empty()) {
    EXPECT_EQ(r.status.message(), message);
  }
}

const std::set<size_t> kNone;

TEST(PathKeysTest, GetKeysFromObjectSimple) {
  EXPECT_KEYS({"a"}, R"({"b": 4, "a": 5})", {"(5)"}, {kNone});
}

TEST(PathKeysTest, GetKeysFromObjectDotted) {
  EXPECT_KEYS({"a.b"}, R"({"a": {"b": 4}, "c": "foo"})", {"(4)"}, {kNone});
}

TEST(PathKeysTest, GetKeysFromArraySimple) {
  EXPECT_KEYS({"a"}, R"({"a": [1, 2, 3]})", {"(1)", "(2)", "(3)"}, {{0}});
}

TEST(PathKeysTest, GetKeysFromArrayFirstElement) {
  EXPECT_KEYS({"a", "b"}, R"({"a": [1, 2, 3], "b": 2})",
              {"(1, 2)", "(2, 2)", "(3, 2)"}, {{0}, kNone});
}

TEST(PathKeysTest, GetKeysFromArraySecondElement) {
  EXPECT_KEYS({"first", "a"}, R"({"first": 5, "a": [1, 2, 3]})",
              {"(5, 1)", "(5, 2)", "(5, 3)"}, {kNone, {0}});
}

TEST(PathKeysTest, GetKeysFromSecondLevelArray) {
  EXPECT_KEYS({"a.b"}, R"({"a": {"b": [1, 2, 3]}})", {"(1)", "(2)", "(3)"},
              {{1}});
}

TEST(PathKeysTest, GetKeysFromParallelArraysBasic) {
  ExpectParallel({"a", "b"}, R"({"a": [1, 2, 3], "b": [1, 2, 3]})",
                 "cannot index parallel arrays [b] [a]");
}

TEST(PathKeysTest, GetKeysFromArraySubobjectBasic) {
  EXPECT_KEYS(
      {"a.b"},
      R"({"a": [{"b": 1, "c": 4}, {"b": 2, "c": 4}, {"b": 3, "c": 4}]})",
      {"(1)", "(2)", "(3)"}, {{0}});
}

TEST(PathKeysTest, GetKeysFromSubobjectWithArrayOfSubobjects) {
  EXPECT_KEYS({"a.b.c"}, R"({"a": {"b": [{"c": 1}, {"c": 2}]}})",
              {"(1)", "(2)"}, {{1}});
}

TEST(PathKeysTest, GetKeysArraySubobjectSingleMissing) {
  EXPECT_KEYS({"a.b"}, R"({"a": [{"foo": 41}, {"b": 1}, {"b": 2}, {"b": 3}]})",
              {"(null)", "(1)", "(2)", "(3)"}, {{0}});
}

TEST(PathKeysTest, GetKeysFromArraySubobjectMissing) {
  EXPECT_KEYS({"a.b"}, R"({"a": [{"foo": 41}, {"foo": 41}, {"foo": 41}]})",
              {"(null)"}, {{0}});
}

TEST(PathKeysTest, GetKeysMissingField) {
  EXPECT_KEYS({"a"}, R"({"b": 1})", {"(null)"}, {kNone});
}

TEST(PathKeysTest, GetKeysSubobjectMissing) {
  EXPECT_KEYS({"a.b"}, R"({"a": [1, 2]})", {"(null)"}, {{0}});
}

TEST(PathKeysTest, GetKeysFromCompoundMissing) {
  EXPECT_KEYS({"x", "y"}, R"({"x": "a"})", {R"(("a", null))"}, {kNone, kNone});
}

TEST(PathKeysTest, GetKeysFromArraySubelementComplex) {
  // Both the 'a' and 'a.b' arrays contain a single element, so they are
  // considered multikey.
  EXPECT_KEYS({"a.b"}, R"({"a": [{"b": [2]}]})", {"(2)"}, {{0, 1}});
}

TEST(PathKeysTest, GetKeysFromParallelArraysComplex) {
  ExpectParallel({"a.b", "a.c"}, R"({"a": [{"b": [1], "c": [2]}]})",
                 "cannot index parallel arrays [c] [b]");
}

TEST(PathKeysTest, GetKeysAlternateMissing) {
  // Both fields share the 'a' prefix array: not parallel arrays.
  EXPECT_KEYS({"a.b", "a.c"}, R"({"a": [{"b": 1}, {"c": 2}]})",
              {"(null, 2)", "(1, null)"}, {{0}, {0}});
}

TEST(PathKeysTest, GetKeysFromMultiComplex) {
  EXPECT_KEYS({"a.b"}, R"({"a": [{"b": 1}, {"b": [1, 2, 3]}]})",
              {"(1)", "(2)", "(3)"}, {{0, 1}});
}

TEST(PathKeysTest, GetKeysArrayEmpty) {
  EXPECT_KEYS({"a"}, R"({"a": [1, 2]})", {"(1)", "(2)"}, {{0}});
  EXPECT_KEYS({"a"}, R"({"a": [1]})", {"(1)"}, {{0}});
  EXPECT_KEYS({"a"}, R"({"a": []})", {"(undefined)"}, {{0}});
  EXPECT_KEYS({"a"}, R"({"a": null})", {"(null)"}, {kNone});
}

TEST(PathKeysTest, GetKeysFromDoubleArray) {
  EXPECT_KEYS({"a", "a"}, R"({"a": [1, 2]})", {"(1, 1)", "(2, 2)"}, {{0}, {0}});
}

TEST(PathKeysTest, GetKeysFromDoubleEmptyArray) {
  EXPECT_KEYS({"a", "a"}, R"({"a": []})", {"(undefined, undefined)"},
              {{0}, {0}});
}

TEST(PathKeysTest, GetKeysFromMultiEmptyArray) {
  EXPECT_KEYS({"a", "b"}, R"({"a": 1, "b": [1, 2]})", {"(1, 1)", "(1, 2)"},
              {kNone, {0}});
  EXPECT_KEYS({"a", "b"}, R"({"a": 1, "b": []})", {"(1, undefined)"},
              {kNone, {0}});
}

TEST(PathKeysTest, GetKeysFromNestedEmptyArray) {
  EXPECT_KEYS({"a.b"}, R"({"a": []})", {"(null)"}, {{0}});
}

TEST(PathKeysTest, GetKeysFromMultiNestedEmptyArray) {
  EXPECT_KEYS({"a.b", "a.c"}, R"({"a": []})", {"(null, null)"}, {{0}, {0}});
}

TEST(PathKeysTest, GetKeysFromUnevenNestedEmptyArray) {
  EXPECT_KEYS({"a", "a.b"}, R"({"a": []})", {"(undefined, null)"}, {{0}, {0}});
  EXPECT_KEYS({"a", "a.b"}, R"({"a": [{"b": 1}]})", {R"(({"b":1}, 1))"},
              {{0}, {0}});
  EXPECT_KEYS({"a", "a.b"}, R"({"a": [{"b": []}]})",
              {R"(({"b":[]}, undefined))"}, {{0}, {0, 1}});
}

TEST(PathKeysTest, SparseReverseUnevenNestedEmptyArray) {
  EXPECT_SPARSE_KEYS({"a.b", "a"}, R"({"a": []})", {"(null, undefined)"},
                     {{0}, {0}});
}

TEST(PathKeysTest, GetKeysFromSparseEmptyArray) {
  EXPECT_SPARSE_KEYS({"a.b"}, R"({"a": 1})", {}, {kNone});
  EXPECT_SPARSE_KEYS({"a.b"}, R"({"a": []})", {}, {{0}});
  EXPECT_SPARSE_KEYS({"a.b"}, R"({"a": [{"c": 1}]})", {}, {{0}});
}

TEST(PathKeysTest, GetKeysFromSparseEmptyArraySecond) {
  EXPECT_SPARSE_KEYS({"z", "a.b"}, R"({"a": 1})", {}, {kNone, kNone});
  EXPECT_SPARSE_KEYS({"z", "a.b"}, R"({"a": []})", {}, {kNone, {0}});
  EXPECT_SPARSE_KEYS({"z", "a.b"}, R"({"a": [{"c": 1}]})", {}, {kNone, {0}});
}

TEST(PathKeysTest, SparseNonObjectMissingNestedField) {
  EXPECT_SPARSE_KEYS({"a.b"}, R"({"a": []})", {}, {{0}});
  EXPECT_SPARSE_KEYS({"a.b"}, R"({"a": [1]})", {}, {{0}});
  EXPECT_SPARSE_KEYS({"a.b"}, R"({"a": [1, {"b": 1}]})", {"(1)"}, {{0}});
}

TEST(PathKeysTest, GetKeysFromIndexedArrayIndex) {
  EXPECT_KEYS({"a.0"}, R"({"a": [1]})", {"(1)"}, {kNone});
  EXPECT_KEYS({"a.0"}, R"({"a": [[1]]})", {"([1])"}, {kNone});
  EXPECT_KEYS({"a.0"}, R"({"a": [[]]})", {"(undefined)"}, {kNone});
  EXPECT_KEYS({"a.0"}, R"({"a": {"0": 1}})", {"(1)"}, {kNone});
  Result r = Gen({"a.0"}, R"({"a": [{"0": 1}]})");
  EXPECT_EQ(ErrorCode(r.status), 16746);
  EXPECT_EQ(std::string(r.status.message()),
            "Ambiguous field name found in array (do not use numeric field "
            "names in embedded elements in an array), field: '0' for array: "
            "[{\"0\":1}]");
  EXPECT_EQ(ErrorCode(Gen({"a.0"}, R"({"a": [1, {"0": 2}]})").status), 16746);
}

TEST(PathKeysTest, GetKeysFromDoubleIndexedArrayIndex) {
  EXPECT_KEYS({"a.0.0"}, R"({"a": [[1]]})", {"(1)"}, {kNone});
  EXPECT_KEYS({"a.0.0"}, R"({"a": [[]]})", {"(null)"}, {kNone});
  // The first "0" acts as a field name (no element 0): "a" is multikey.
  EXPECT_KEYS({"a.0.0"}, R"({"a": []})", {"(null)"}, {{0}});
  EXPECT_KEYS({"a.0.0"}, R"({"a": [[[]]]})", {"(undefined)"}, {kNone});
}

TEST(PathKeysTest, GetKeysFromObjectWithinArray) {
  EXPECT_KEYS({"a.0.b"}, R"({"a": [{"b": 1}]})", {"(1)"}, {kNone});
  EXPECT_KEYS({"a.0.b"}, R"({"a": [{"b": [1]}]})", {"(1)"}, {{2}});
  EXPECT_KEYS({"a.0.b"}, R"({"a": [{"b": [[1]]}]})", {"([1])"}, {{2}});
  EXPECT_KEYS({"a.0.b"}, R"({"a": [[{"b": 1}]]})", {"(1)"}, {{1}});
  EXPECT_KEYS({"a.0.b"}, R"({"a": [[{"b": [1]}]]})", {"(1)"}, {{1, 2}});
  EXPECT_KEYS({"a.0.b"}, R"({"a": [[{"b": [[1]]}]]})", {"([1])"}, {{1, 2}});
  EXPECT_KEYS({"a.0.b"}, R"({"a": [[{"b": []}]]})", {"(undefined)"}, {{1, 2}});
}

TEST(PathKeysTest, GetKeysPositionalElementIsExpandedArray) {
  EXPECT_KEYS({"a.0.b"}, R"({"a": [[{"b": 1}, {"b": 2}]]})", {"(1)", "(2)"},
              {{1}});
}

TEST(PathKeysTest, GetKeysTrailingPositionalElementIsSingletonArray) {
  EXPECT_KEYS({"a.b.c.3"}, R"({"a": {"b": {"c": [0, 1, 2, [3]]}}})", {"([3])"},
              {kNone});
}

TEST(PathKeysTest, GetKeysTrailingPositionalElementIsEmptyArray) {
  EXPECT_KEYS({"a.b.c.3"}, R"({"a": {"b": {"c": [0, 1, 2, []]}}})",
              {"(undefined)"}, {kNone});
}

TEST(PathKeysTest, GetKeysManyPositionalElementsComplex) {
  EXPECT_KEYS({"a.0.1.2.b.0"}, R"({"a": [[1, [1, 2, [{"b": [[], 2]}]]], 1]})",
              {"(undefined)"}, {{3}});
}

TEST(PathKeysTest, GetKeysFromArrayWithinObjectWithinArray) {
  EXPECT_KEYS({"a.0.b.0"}, R"({"a": [{"b": [1]}]})", {"(1)"}, {kNone});
}

TEST(PathKeysTest, ParallelArraysInNestedObjects) {
  ExpectParallel({"a.a", "b.a"}, R"({"a": {"a": [1]}, "b": {"a": [1]}})");
}

TEST(PathKeysTest, ParallelArraysUneven) {
  ExpectParallel({"b.a", "a"}, R"({"b": {"a": [1]}, "a": [1, 2]})",
                 "cannot index parallel arrays [a] [a]");
}

TEST(PathKeysTest, MultipleArraysNotParallel) {
  EXPECT_KEYS({"a.b.c"}, R"({"a": [1, 2, {"b": {"c": [3, 4]}}]})",
              {"(null)", "(3)", "(4)"}, {{0, 2}});
}

TEST(PathKeysTest, MultipleArraysNotParallelCompound) {
  EXPECT_KEYS({"a.b.c", "a.b.d"},
              R"({"a": [1, 2, {"b": {"c": [3, 4], "d": 5}}]})",
              {"(null, null)", "(3, 5)", "(4, 5)"}, {{0, 2}, {0}});
}

TEST(PathKeysTest, GetKeysComplexNestedArrays) {
  EXPECT_KEYS(
      {"a.b.c.d", "a.g", "a.b.f", "a.b.c", "a.b.e"},
      R"({"a": [1, {"b": [2, {"c": [3, {"d": 1}], "e": 4}, 5, {"f": 6}], "g": 7}]})",
      {"(null, null, null, null, null)", "(null, 7, null, null, null)",
       "(null, 7, null, 3, 4)", "(null, 7, 6, null, null)",
       R"((1, 7, null, {"d":1}, 4))"},
      {{0, 1, 2}, {0}, {0, 1}, {0, 1, 2}, {0, 1}});
}

TEST(PathKeysTest, GetKeys2DArray) {
  EXPECT_KEYS({"a"}, R"({"a": [[2]]})", {"([2])"}, {{0}});
}

TEST(PathKeysTest, GetKeysParallelEmptyArrays) {
  ExpectParallel({"a", "b"}, R"({"a": [], "b": []})");
  ExpectParallel({"a", "b"}, R"({"a": [], "b": [1, 2, 3]})");
  ExpectParallel({"a.b.c", "a.b.d"},
                 R"({"a": [{"b": [{"c": [1, 2, 3], "d": []}]}]})");
}

TEST(PathKeysTest, GetKeysPositionalKeyPatternMissingElement) {
  EXPECT_KEYS({"a.2"}, R"({"a": [{"2": 5}]})", {"(5)"}, {{0}});
}

TEST(PathKeysTest, GetKeysPositionalKeyPatternNestedArray) {
  EXPECT_KEYS({"a.2"}, R"({"a": [[1, 2, 5]]})", {"(null)"}, {{0}});
  EXPECT_KEYS({"a.2"}, R"({"a": [[1, 2, 5], [3, 4, 6], [0, 1, 2]]})",
              {"([0,1,2])"}, {kNone});
  EXPECT_KEYS({"a.2"}, R"({"a": [{"0": 1, "1": 2, "2": 5}]})", {"(5)"}, {{0}});
  EXPECT_KEYS({"a.b.2"}, R"({"a": [{"b": [[1, 2, 5]]}]})", {"(null)"},
              {{0, 1}});
  EXPECT_KEYS({"a.2"}, R"({"a": [[1, 2, 5], {"2": 6}]})", {"(null)", "(6)"},
              {{0}});
}

TEST(PathKeysTest, GetNullKeyNestedArray) {
  EXPECT_KEYS({"a.b"}, R"({"a": [[1, 2, 5]]})", {"(null)"}, {{0}});
}

TEST(PathKeysTest, GetKeysUnevenNestedArrays) {
  EXPECT_KEYS({"a", "a.b"}, R"({"a": [1, {"b": [2, 3, 4]}]})",
              {"(1, null)", R"(({"b":[2,3,4]}, 2))", R"(({"b":[2,3,4]}, 3))",
               R"(({"b":[2,3,4]}, 4))"},
              {{0}, {0, 1}});
}

TEST(PathKeysTest, PositionalKeyPatternParallelArrays) {
  ExpectParallel({"a", "b.0"}, R"({"a": [1], "b": [2]})");
}

TEST(PathKeysTest, KeyPatternA00BInsideArrays) {
  // KeyPattern_a_0_b_Extracts_b_ElementInsideSingleton2DArray and the
  // a_0_0_b family.
  EXPECT_KEYS({"a.0.b"}, R"({"a": [[{"b": 1}]]})", {"(1)"}, {{1}});
  EXPECT_KEYS({"a.0.0.b"}, R"({"a": [[{"b": 1}]]})", {"(1)"}, {kNone});
  EXPECT_KEYS({"a.0.0.b"}, R"({"a": [[{"b": [1, 2, 3]}]]})",
              {"(1)", "(2)", "(3)"}, {{3}});
  EXPECT_KEYS({"a.0.0.b"}, R"({"a": [[[{"b": 1}]]]})", {"(1)"}, {{2}});
  EXPECT_KEYS({"a.0.0.b"}, R"({"a": [[[{"b": 1}, {"b": 2}, {"b": 3}]]]})",
              {"(1)", "(2)", "(3)"}, {{2}});
  EXPECT_KEYS({"a.0.0.b"}, R"({"a": [[[[{"b": 1}]]]]})", {"(null)"}, {{2}});
}

TEST(PathKeysTest, PositionalKeyPatternNestedArrays5) {
  EXPECT_KEYS({"a.b.1"}, R"({"a": [{"b": [1, 2]}]})", {"(2)"}, {{0}});
}

TEST(PathKeysTest, PositionalKeyPatternNestedArrays6) {
  EXPECT_KEYS({"a", "a.b", "a.0.b", "a.b.0", "a.0.b.0"},
              R"({"a": [{"b": [1, 2]}, {"b": 3}]})",
              {R"(({"b":3}, 3, 1, null, 1))", R"(({"b":3}, 3, 2, null, 1))",
               R"(({"b":[1,2]}, 1, 1, 1, 1))", R"(({"b":[1,2]}, 2, 2, 1, 1))"},
              {{0}, {0, 1}, {2}, {0}, kNone});
}

TEST(PathKeysTest, PositionalKeyPatternNestedArrays7) {
  EXPECT_KEYS({"a", "a.b", "a.0.b", "a.b.0", "a.0.b.0"},
              R"({"a": [{"b": [1, 2]}, {"b": {"0": 3}}]})",
              {R"(({"b":{"0":3}}, {"0":3}, 1, 3, 1))",
               R"(({"b":{"0":3}}, {"0":3}, 2, 3, 1))",
               R"(({"b":[1,2]}, 1, 1, 1, 1))", R"(({"b":[1,2]}, 2, 2, 1, 1))"},
              {{0}, {0, 1}, {2}, {0}, kNone});
}

}  // namespace
}  // namespace ttldb
