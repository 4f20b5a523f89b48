#include "query/projection.h"

#include <string>

#include "absl/strings/str_cat.h"
#include "base/status.h"
#include "gtest/gtest.h"
#include "query/filter.h"
#include "query/test_doc.h"
#include "ttldb/json.h"

namespace ttldb {
namespace {

std::string ErrorText(const absl::Status& s) {
  return absl::StrCat("error ", ErrorCode(s), ": ", s.message());
}

// Projects `doc` with `spec` for a find whose filter is `query`.
std::string Project(const std::string& spec, const std::string& doc,
                    const std::string& query = "{}") {
  auto filter = Filter::Parse(Doc(query));
  if (!filter.ok()) return ErrorText(filter.status());
  auto p = Projection::Parse(Doc(spec), &*filter);
  if (!p.ok()) return ErrorText(p.status());
  auto out = p->Apply(Doc(doc));
  if (!out.ok()) return ErrorText(out.status());
  return ToJson(*out);
}

const char kDoc[] =
    R"({"_id": 1, "a": 1, "b": {"c": 2, "d": 3}, "e": [{"c": 4, "d": 5}, 6, [{"c": 7}]]})";

TEST(ProjectionTest, Inclusion) {
  EXPECT_EQ(Project(R"({"a": 1})", kDoc), R"({"_id":1,"a":1})");
  EXPECT_EQ(Project(R"({"a": true, "_id": 0})", kDoc), R"({"a":1})");
  EXPECT_EQ(Project(R"({"b.c": 1})", kDoc), R"({"_id":1,"b":{"c":2}})");
  EXPECT_EQ(Project(R"({"e.c": 1})", kDoc),
            R"({"_id":1,"e":[{"c":4},[{"c":7}]]})");
  EXPECT_EQ(Project(R"({"b.x": 1})", kDoc), R"({"_id":1,"b":{}})");
  EXPECT_EQ(Project(R"({"a.x": 1})", kDoc), R"({"_id":1})");
  EXPECT_EQ(Project(R"({"missing": 1})", kDoc), R"({"_id":1})");
  // Document order, not projection order.
  EXPECT_EQ(Project(R"({"b": 1, "a": 1})", kDoc),
            R"({"_id":1,"a":1,"b":{"c":2,"d":3}})");
  EXPECT_EQ(Project(R"({"_id": 1})", kDoc), R"({"_id":1})");
}

TEST(ProjectionTest, Exclusion) {
  EXPECT_EQ(Project(R"({"a": 0})", kDoc),
            R"({"_id":1,"b":{"c":2,"d":3},"e":[{"c":4,"d":5},6,[{"c":7}]]})");
  EXPECT_EQ(Project(R"({"b.c": 0, "e": false})", kDoc),
            R"({"_id":1,"a":1,"b":{"d":3}})");
  EXPECT_EQ(Project(R"({"e.c": 0, "b": 0, "a": 0})", kDoc),
            R"({"_id":1,"e":[{"d":5},6,[{}]]})");
  EXPECT_EQ(Project(R"({"_id": 0})", R"({"_id": 1, "a": 1})"), R"({"a":1})");
  EXPECT_EQ(Project(R"({"_id": 0, "a": 0})", R"({"_id": 1, "a": 1, "b": 2})"),
            R"({"b":2})");
  EXPECT_EQ(Project("{}", kDoc), ToJson(Doc(kDoc)));
}

TEST(ProjectionTest, Errors) {
  EXPECT_EQ(Project(R"({"a": 1, "b": 0})", kDoc),
            "error 31254: Cannot do exclusion on field b in inclusion "
            "projection");
  EXPECT_EQ(Project(R"({"a": 0, "b": 1})", kDoc),
            "error 31253: Cannot do inclusion on field b in exclusion "
            "projection");
  EXPECT_EQ(Project(R"({"a": 1, "a.b": 1})", kDoc),
            "error 31250: Path collision at a.b remaining portion b");
  EXPECT_EQ(Project(R"({"a.b": 1, "a": 1})", kDoc),
            "error 31250: Path collision at a");
  EXPECT_EQ(
      ErrorCode(Projection::Parse(Doc(R"({"a": {"$meta": "x"}})")).status()),
      kBadValue);
}

// T4 (review query-conformance.md). MongoDB manual "$ (projection)";
// jstests/core/query/project/positional_projection.js; the codes from
// query/projection_parser.cpp and exec/projection_executor_utils.cpp.
TEST(ProjectionTest, PositionalReturnsTheMatchedElement) {
  const char doc[] = R"({"_id": 1, "a": [{"b": 1, "c": 2}, {"b": 3, "c": 4}]})";
  EXPECT_EQ(Project(R"({"a.$": 1})", doc, R"({"a": {"$elemMatch": {"b": 3}}})"),
            R"({"_id":1,"a":[{"b":3,"c":4}]})");
  EXPECT_EQ(Project(R"({"a.$": 1})", doc, R"({"a.b": 1})"),
            R"({"_id":1,"a":[{"b":1,"c":2}]})");
  EXPECT_EQ(Project(R"({"a.$": 1, "_id": 0})", doc, R"({"a.c": {"$gt": 2}})"),
            R"({"a":[{"b":3,"c":4}]})");
  // Scalars, other fields in document order, a nested array path.
  EXPECT_EQ(Project(R"({"x.$": 1, "y": 1})", R"({"_id": 2, "y": 0,
                "x": [1, 5, 9]})",
                    R"({"x": {"$gte": 5}})"),
            R"({"_id":2,"y":0,"x":[5]})");
  EXPECT_EQ(
      Project(R"({"o.x.$": 1})", R"({"_id": 3, "o": {"x": [4, 6], "z": 1}})",
              R"({"o.x": 6})"),
      R"({"_id":3,"o":{"x":[6]}})");
  // The query matched without an array position: the field is left as is.
  EXPECT_EQ(Project(R"({"a.$": 1})", R"({"_id": 4, "a": 7})", R"({"a": 7})"),
            R"({"_id":4,"a":7})");
  // "a.$.b" projects like "a.$" (the rest of the path is ignored).
  EXPECT_EQ(Project(R"({"a.$.b": 1})", doc, R"({"a.b": 3})"),
            R"({"_id":1,"a":[{"b":3,"c":4}]})");
}

TEST(ProjectionTest, PositionalErrors) {
  const char doc[] = R"({"_id": 1, "a": [{"b": 1, "c": 2}, {"b": 3, "c": 4}]})";
  EXPECT_EQ(Project(R"({"a.$": 1})", doc),
            "error 31277: Positional projection 'a.$' does not match the "
            "query document.");
  EXPECT_EQ(Project(R"({"a.$": 0})", doc),
            "error 16410: FieldPath field names may not start with '$'. "
            "Consider using $getField or $setField.");
  EXPECT_EQ(Project(R"({"a.$": 1, "b.$": 1})", doc, R"({"a": 1, "b": 1})"),
            "error 31276: Cannot specify more than one positional projection "
            "per query.");
  EXPECT_EQ(Project(R"({"a.$.b.$": 1})", doc, R"({"a": 1})"),
            "error 31287: Cannot use positional operator twice: a.$.b.$");
  EXPECT_EQ(Project(R"({"a.$": {"x": 1}})", doc, R"({"a": 1})"),
            "error 31271: positional projection cannot be used with an "
            "expression or sub object");
  EXPECT_EQ(Project(R"({"a.$": "x"})", doc, R"({"a": 1})"),
            "error 31308: positional projection cannot be used with a literal");
  EXPECT_EQ(Project(R"({"a.$": 1, "b": 0})", doc, R"({"a.b": 1})"),
            "error 31254: Cannot do exclusion on field b in inclusion "
            "projection");
  EXPECT_EQ(Project(R"({"a.$": 1, "b": {"$elemMatch": {"c": 1}}})", doc,
                    R"({"a.b": 1})"),
            "error 31255: Cannot specify positional operator and $elemMatch.");
  EXPECT_EQ(Project(R"({"b": {"$elemMatch": {"c": 1}}, "a.$": 1})", doc,
                    R"({"a.b": 1})"),
            "error 31256: Cannot specify positional operator and $elemMatch.");
  EXPECT_EQ(ErrorCode(Projection::Parse(Doc(R"({"a.$": 1})")).status()), 51050);
  // The query tests a but records no position (the array matched whole).
  EXPECT_EQ(Project(R"({"a.$": 1})", R"({"_id": 1, "a": [1, 2]})",
                    R"({"a": [1, 2]})"),
            "error 51246: positional operator '.$' couldn't find a matching "
            "element in the array");
  // Inclusion drops the scalar the position was counted on.
  EXPECT_EQ(Project(R"({"a.b.$": 1})", R"({"_id": 1, "a": [1, {"b": 2}]})",
                    R"({"a.b": 2})"),
            "error 51247: positional operator '.$' element mismatch");
}

// MongoDB manual "$slice (projection)"; exec/projection_executor_utils.cpp
// sliceArray(); jstests/core/query/project/projection_slice*.js.
TEST(ProjectionTest, Slice) {
  const char doc[] = R"({"_id": 1, "x": 0, "a": [1, 2, 3, 4, 5]})";
  EXPECT_EQ(Project(R"({"a": {"$slice": 2}})", doc),
            R"({"_id":1,"x":0,"a":[1,2]})");
  EXPECT_EQ(Project(R"({"a": {"$slice": -2}})", doc),
            R"({"_id":1,"x":0,"a":[4,5]})");
  EXPECT_EQ(Project(R"({"a": {"$slice": 0}})", doc),
            R"({"_id":1,"x":0,"a":[]})");
  EXPECT_EQ(Project(R"({"a": {"$slice": 9}})", doc),
            R"({"_id":1,"x":0,"a":[1,2,3,4,5]})");
  EXPECT_EQ(Project(R"({"a": {"$slice": -9}})", doc),
            R"({"_id":1,"x":0,"a":[1,2,3,4,5]})");
  EXPECT_EQ(Project(R"({"a": {"$slice": [1, 2]}})", doc),
            R"({"_id":1,"x":0,"a":[2,3]})");
  EXPECT_EQ(Project(R"({"a": {"$slice": [-2, 1]}})", doc),
            R"({"_id":1,"x":0,"a":[4]})");
  EXPECT_EQ(Project(R"({"a": {"$slice": [-9, 2]}})", doc),
            R"({"_id":1,"x":0,"a":[1,2]})");
  EXPECT_EQ(Project(R"({"a": {"$slice": [7, 2]}})", doc),
            R"({"_id":1,"x":0,"a":[]})");
  // Mode: alone an exclusion; with an inclusion or {_id: 1}, an inclusion.
  EXPECT_EQ(Project(R"({"a": {"$slice": 1}, "_id": 0})", doc),
            R"({"x":0,"a":[1]})");
  EXPECT_EQ(Project(R"({"a": {"$slice": 1}, "_id": 1})", doc),
            R"({"_id":1,"a":[1]})");
  EXPECT_EQ(Project(R"({"a": {"$slice": 1}, "x": 0})", doc),
            R"({"_id":1,"a":[1]})");
  // The manual's embedded-array example: inclusion keeps only the slice.
  EXPECT_EQ(Project(R"({"qty": 1, "details.colors": {"$slice": 1}})",
                    R"({"_id": 1, "qty": 100, "details": {"colors": ["blue",
                    "red"], "sizes": ["S", "M"]}})"),
            R"({"_id":1,"qty":100,"details":{"colors":["blue"]}})");
  EXPECT_EQ(Project(R"({"details.colors": {"$slice": 1}})",
                    R"({"_id": 1, "details": {"colors": ["blue", "red"],
                    "sizes": ["S", "M"]}})"),
            R"({"_id":1,"details":{"colors":["blue"],"sizes":["S","M"]}})");
  // Through arrays of objects; nested arrays and scalars are left alone;
  // a non-array is unchanged.
  EXPECT_EQ(Project(R"({"a.b": {"$slice": 1}})",
                    R"({"a": [{"b": [1, 2]}, 5, [{"b": [3, 4]}], {"b": 6}]})"),
            R"({"a":[{"b":[1]},5,[{"b":[3,4]}],{"b":6}]})");
  EXPECT_EQ(Project(R"({"x": {"$slice": 1}})", doc), ToJson(Doc(doc)));
}

// BSONElement::numberInt() reads the $slice arguments: a long keeps its low
// 32 bits (INT64_MIN is 0), a double truncates and saturates, a decimal
// rounds half to even (Decimal128::toInt) and is INT_MIN when out of range.
TEST(ProjectionTest, SliceNumberExtremes) {
  const char doc[] = R"({"_id": 1, "a": [1, 2, 3, 4, 5]})";
  EXPECT_EQ(Project(R"({"a": {"$slice": {"$numberLong":
                    "-9223372036854775808"}}})",
                    doc),
            R"({"_id":1,"a":[]})");
  EXPECT_EQ(Project(R"({"a": {"$slice": {"$numberLong": "4294967298"}}})", doc),
            R"({"_id":1,"a":[1,2]})");
  EXPECT_EQ(Project(R"({"a": {"$slice": -1e300}})", doc),
            R"({"_id":1,"a":[1,2,3,4,5]})");
  EXPECT_EQ(Project(R"({"a": {"$slice": [-1e300, 1e300]}})", doc),
            R"({"_id":1,"a":[1,2,3,4,5]})");
  EXPECT_EQ(Project(R"({"a": {"$slice": [{"$numberLong":
                    "-9223372036854775807"}, 1]}})",
                    doc),
            R"({"_id":1,"a":[2]})");  // low 32 bits: skip 1
  EXPECT_EQ(Project(R"({"a": {"$slice": {"$numberDecimal": "2"}}})", doc),
            R"({"_id":1,"a":[1,2]})");
  EXPECT_EQ(Project(R"({"a": {"$slice": {"$numberDecimal": "2.5"}}})", doc),
            R"({"_id":1,"a":[1,2]})");
  EXPECT_EQ(Project(R"({"a": {"$slice": {"$numberDecimal": "-3.5"}}})", doc),
            R"({"_id":1,"a":[2,3,4,5]})");
  EXPECT_EQ(Project(R"({"a": {"$slice": {"$numberDecimal": "1e40"}}})", doc),
            R"({"_id":1,"a":[1,2,3,4,5]})");
}

TEST(ProjectionTest, SliceErrors) {
  EXPECT_EQ(Project(R"({"a": {"$slice": [1]}})", "{}"),
            "error 31272: $slice array argument should be of form [skip, "
            "limit]");
  EXPECT_EQ(Project(R"({"a": {"$slice": ["x", 1]}})", "{}"),
            "error 31257: $slice expects the skip argument to be a number, "
            "got string");
  EXPECT_EQ(Project(R"({"a": {"$slice": [1, "x"]}})", "{}"),
            "error 31258: $slice expects the limit argument to be a number, "
            "got string");
  EXPECT_EQ(Project(R"({"a": {"$slice": [1, 0]}})", "{}"),
            "error 31259: $slice limit must be positive, got 0");
  EXPECT_EQ(Project(R"({"a": {"$slice": [1, -1]}})", "{}"),
            "error 31259: $slice limit must be positive, got -1");
  EXPECT_EQ(Project(R"({"a": {"$slice": "x"}})", "{}"),
            "error 31273: $slice only supports numbers and [skip, limit] "
            "arrays");
  EXPECT_EQ(Project(R"({"a": {"$slice": 1}, "a.b": 1})", "{}"),
            "error 31250: Path collision at a.b remaining portion b");
}

// MongoDB manual "$elemMatch (projection)" (4.4+: the field comes after
// the included fields); projection_parser.cpp for the errors.
TEST(ProjectionTest, ElemMatch) {
  const char doc[] =
      R"({"_id": 1, "zip": 63109, "students": [{"name": "john", "school": 102,
      "age": 10}, {"name": "jess", "school": 102, "age": 11}, {"name": "jeff",
      "school": 108, "age": 15}]})";
  EXPECT_EQ(Project(R"({"students": {"$elemMatch": {"school": 102}}})", doc),
            R"({"_id":1,"students":[{"name":"john","school":102,"age":10}]})");
  EXPECT_EQ(
      Project(
          R"({"students": {"$elemMatch": {"school": 102, "age": {"$gt": 10}}},
                  "zip": 1})",
          doc),
      R"({"_id":1,"zip":63109,"students":[{"name":"jess","school":102,"age":11}]})");
  // No match, or not an array: the field is absent.
  EXPECT_EQ(Project(R"({"students": {"$elemMatch": {"school": 1}}})", doc),
            R"({"_id":1})");
  EXPECT_EQ(Project(R"({"zip": {"$elemMatch": {"$gt": 1}}, "_id": 0})", doc),
            "{}");
  // Value form.
  EXPECT_EQ(Project(R"({"a": {"$elemMatch": {"$gt": 2}}})",
                    R"({"_id": 1, "a": [1, 3, 5]})"),
            R"({"_id":1,"a":[3]})");
  EXPECT_EQ(Project(R"({"a": {"$elemMatch": 1}})", "{}"),
            "error 31274: elemMatch: Invalid argument, object required, but "
            "got int");
  EXPECT_EQ(Project(R"({"a.b": {"$elemMatch": {"c": 1}}})", "{}"),
            "error 31275: Cannot use $elemMatch projection on a nested field.");
}

// jstests/core/query/project/slice1.js and projection_conflicts.js;
// src/mongo/db/query/projection_parser.cpp (parseSubObject: nested form,
// 51270; computed fields make an inclusion, 31252 in an exclusion).
TEST(ProjectionTest, NestedForm) {
  const char doc[] =
      R"({"_id": 1, "a": [{"b": [1, 2, 3], "d": 4}, [{"b": [1, 2, 3]}], 5]})";
  EXPECT_EQ(Project(R"({"a": {"b": {"$slice": [1, 1]}}})", doc),
            R"({"_id":1,"a":[{"b":[2],"d":4},[{"b":[1,2,3]}],5]})");
  EXPECT_EQ(Project(R"({"a": {"b": {"$slice": -1}, "d": 1}, "_id": 0})", doc),
            R"({"a":[{"b":[3],"d":4},[{"b":[1,2,3]}]]})");
  EXPECT_EQ(Project(R"({"a": {"d": 0}})", doc),
            R"({"_id":1,"a":[{"b":[1,2,3]},[{"b":[1,2,3]}],5]})");
  EXPECT_EQ(Project(R"({"a": {}})", doc),
            "error 51270: An empty sub-projection is not a valid value. "
            "Found empty object at path a");
  EXPECT_EQ(Project(R"({"a.b": 1, "a": {"b": {"c": 1}}})", doc),
            "error 31250: Path collision at a.b.c remaining portion c");
  EXPECT_EQ(Project(R"({"a.b": 1, "a": {"b": "$$REMOVE"}})", doc),
            "error 31250: Path collision at a.b");
}

TEST(ProjectionTest, ComputedFields) {
  const char doc[] =
      R"({"_id": 1, "a": [{"b": {"c": [1, 2, 3], "d": 1}}, [{"b": {"c": [4]}}], 7], "e": -10})";
  EXPECT_EQ(Project(R"({"a": {"b": {"c": {"$slice": [1, 1]},
                  "d": {"$add": [{"$abs": "$e"}, -4]}}}})",
                    doc),
            R"({"_id":1,"a":[{"b":{"c":[2],"d":6}},[{"b":{"c":[4],"d":6}}]]})");
  EXPECT_EQ(
      Project(R"({"x": "$e", "y": "lit", "z": "$$REMOVE", "_id": 0})", doc),
      R"({"x":-10,"y":"lit"})");
  // A scalar or missing parent becomes an object.
  EXPECT_EQ(Project(R"({"e.f": {"$literal": 1}, "g.h": "lit", "_id": 0})", doc),
            R"({"e":{"f":1},"g":{"h":"lit"}})");
  EXPECT_EQ(Project(R"({"a": 0, "x": "$e"})", doc),
            "error 31252: Cannot use expression other than $meta in "
            "exclusion projection");
  EXPECT_EQ(Project(R"({"x": "$e", "a": 0})", doc),
            "error 31254: Cannot do exclusion on field a in inclusion "
            "projection");
}

// jstests/core/query/sort/sortl.js; src/mongo/db/query/canonical_query.cpp
// ("cannot use sortKey $meta projection without a sort").
TEST(ProjectionTest, MetaSortKey) {
  auto p = Projection::Parse(Doc(R"({"b": {"$meta": "sortKey"}})"));
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_TRUE(p->wants_sort_key());
  EXPECT_FALSE(p->is_inclusion());
  auto sort = SortSpec::Parse(Doc(R"({"a": 1, "c": -1})"));
  ASSERT_TRUE(sort.ok());
  auto out = p->Apply(Doc(R"({"_id": 1, "a": [2, 1], "c": "x"})"), &*sort);
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(ToJson(*out), R"({"_id":1,"a":[2,1],"c":"x","b":[1,"x"]})");
  EXPECT_EQ(
      ErrorCode(Projection::Parse(Doc(R"({"a": {"$meta": "x"}})")).status()),
      kBadValue);
}

}  // namespace
}  // namespace ttldb
