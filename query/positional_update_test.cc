// The positional update operators "$", "$[]" and "$[<id>]" with
// arrayFilters (query/update.h). Expectations from MongoDB's
// jstests/core/write/update/update_arrayFilters.js,
// jstests/core/write/update/updatel.js (positional without a match) and
// src/mongo/db/update/update_object_node.cpp / update_array_node.cpp
// (the error messages).
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "base/status.h"
#include "gtest/gtest.h"
#include "query/filter.h"
#include "query/test_doc.h"
#include "query/update.h"
#include "ttldb/json.h"

namespace ttldb {
namespace {

constexpr int64_t kNow = 1704067200000;

std::string ErrorText(const absl::Status& s) {
  return absl::StrCat("error ", ErrorCode(s), ": ", s.message());
}

// Applies `update` with `filters` (a JSON array) to `doc`, which matched
// `query` (its MatchDetails give "$"). Returns the JSON result or the error
// (and checks that an error changed nothing).
std::string Upd(const std::string& update, const std::string& doc,
                const std::string& filters = "[]",
                const std::string& query = "{}", bool is_insert = false) {
  auto wrapped = ParseDocument(absl::StrCat(R"({"f": )", filters, "}"));
  EXPECT_TRUE(wrapped.ok());
  const Value& f = *wrapped->Get("f");
  auto u = Update::Parse(Doc(update), f.array_items());
  if (!u.ok()) return ErrorText(u.status());
  Value d = Doc(doc);
  const std::string before = ToJson(d, JsonFormat::kCanonical);
  std::optional<size_t> matched;
  if (!is_insert) {
    auto q = Filter::Parse(Doc(query));
    EXPECT_TRUE(q.ok());
    MatchDetails details;
    EXPECT_TRUE(q->Matches(d, &details)) << query << " " << doc;
    matched = details.elem_match_key;
  }
  bool modified = false;
  absl::Status s = u->Apply(&d, kNow, is_insert, &modified, matched);
  if (!s.ok()) {
    EXPECT_EQ(ToJson(d, JsonFormat::kCanonical), before) << "not atomic";
    return ErrorText(s);
  }
  return ToJson(d);
}

TEST(PositionalUpdateTest, ArrayFiltersPerOperator) {
  const char nums[] = R"({"_id": 0, "a": [0, 1, 0, 1]})";
  EXPECT_EQ(Upd(R"({"$set": {"a.$[i]": 2}})", nums, R"([{"i": 0}])"),
            R"({"_id":0,"a":[2,1,2,1]})");
  EXPECT_EQ(Upd(R"({"$set": {"a.$[]": 3}})", nums),
            R"({"_id":0,"a":[3,3,3,3]})");
  EXPECT_EQ(Upd(R"({"$unset": {"a.$[i]": true}})", nums, R"([{"i": 0}])"),
            R"({"_id":0,"a":[null,1,null,1]})");
  EXPECT_EQ(Upd(R"({"$unset": {"a.$[]": true}})", nums),
            R"({"_id":0,"a":[null,null,null,null]})");
  EXPECT_EQ(Upd(R"({"$inc": {"a.$[i]": 1}})", nums, R"([{"i": 1}])"),
            R"({"_id":0,"a":[0,2,0,2]})");
  EXPECT_EQ(Upd(R"({"$inc": {"a.$[]": 1}})", nums),
            R"({"_id":0,"a":[1,2,1,2]})");
  EXPECT_EQ(Upd(R"({"$mul": {"a.$[i]": 3}})",
                R"({"_id": 0, "a": [0, 2, 0, 2]})", R"([{"i": 2}])"),
            R"({"_id":0,"a":[0,6,0,6]})");
  const char objs[] =
      R"({"_id": 0, "a": [{"b": 0, "c": 1}, {"b": 0, "c": -1}, {"b": 1, "c": 1}]})";
  EXPECT_EQ(Upd(R"({"$min": {"a.$[i].c": 0}})", objs, R"([{"i.b": 0}])"),
            R"({"_id":0,"a":[{"b":0,"c":0},{"b":0,"c":-1},{"b":1,"c":1}]})");
  EXPECT_EQ(Upd(R"({"$min": {"a.$[].c": 0}})", objs),
            R"({"_id":0,"a":[{"b":0,"c":0},{"b":0,"c":-1},{"b":1,"c":0}]})");
  EXPECT_EQ(Upd(R"({"$max": {"a.$[i].c": 0}})", objs, R"([{"i.b": 0}])"),
            R"({"_id":0,"a":[{"b":0,"c":1},{"b":0,"c":0},{"b":1,"c":1}]})");
  const char nested[] = R"({"_id": 0, "a": [[0], [1]]})";
  EXPECT_EQ(Upd(R"({"$addToSet": {"a.$[i]": 2}})", nested, R"([{"i": 0}])"),
            R"({"_id":0,"a":[[0,2],[1]]})");
  EXPECT_EQ(Upd(R"({"$addToSet": {"a.$[]": 2}})", nested),
            R"({"_id":0,"a":[[0,2],[1,2]]})");
  EXPECT_EQ(Upd(R"({"$push": {"a.$[i]": 4}})", nested, R"([{"i": 1}])"),
            R"({"_id":0,"a":[[0],[1,4]]})");
  EXPECT_EQ(Upd(R"({"$pop": {"a.$[i]": 1}})",
                R"({"_id": 0, "a": [[0, 1], [1, 2]]})", R"([{"i": 0}])"),
            R"({"_id":0,"a":[[0],[1,2]]})");
  EXPECT_EQ(
      Upd(R"({"$pull": {"a.$[]": 1}})", R"({"_id": 0, "a": [[0, 1], [1, 2]]})"),
      R"({"_id":0,"a":[[0],[2]]})");
  EXPECT_EQ(Upd(R"({"$pullAll": {"a.$[i]": [0]}})",
                R"({"_id": 0, "a": [[0, 1], [1, 2]]})", R"([{"i": 1}])"),
            R"({"_id":0,"a":[[1],[1,2]]})");
}

TEST(PositionalUpdateTest, NestedAndLogicalFilters) {
  EXPECT_EQ(
      Upd(R"({"$set": {"a.$[i].c.$[j].d": 2}})",
          R"({"_id": 0, "a": [{"b": 0, "c": [{"d": 0}, {"d": 1}]},
              {"b": 1, "c": [{"d": 0}, {"d": 1}]}]})",
          R"([{"i.b": 0}, {"j.d": 0}])"),
      R"({"_id":0,"a":[{"b":0,"c":[{"d":2},{"d":1}]},{"b":1,"c":[{"d":0},{"d":1}]}]})");
  EXPECT_EQ(Upd(R"({"$set": {"a.$[i]": 2}})", R"({"_id": 0, "a": [0, 1, 3]})",
                R"([{"$or": [{"i": 0}, {"i": 3}]}])"),
            R"({"_id":0,"a":[2,1,2]})");
  // $[] then a field, creating it in every element.
  EXPECT_EQ(Upd(R"({"$set": {"a.$[].x": 1}})", R"({"a": [{}, {"y": 2}]})"),
            R"({"a":[{"x":1},{"y":2,"x":1}]})");
  // Two identifiers on one array.
  EXPECT_EQ(Upd(R"({"$set": {"a.$[i]": 5, "a.$[j]": 6}})",
                R"({"a": [0, 1, 2]})", R"([{"i": 0}, {"j": 2}])"),
            R"({"a":[5,1,6]})");
  // No element passes: nothing changes.
  EXPECT_EQ(Upd(R"({"$set": {"a.$[i]": 5}})", R"({"a": [1]})", R"([{"i": 0}])"),
            R"({"a":[1]})");
}

// updatel.js and the positional operator manual page.
TEST(PositionalUpdateTest, DollarUsesTheQueryMatch) {
  EXPECT_EQ(Upd(R"({"$set": {"a.$": 9}})", R"({"a": [0, 1, 2]})", "[]",
                R"({"a": 1})"),
            R"({"a":[0,9,2]})");
  EXPECT_EQ(Upd(R"({"$set": {"a.$.c": 5}})", R"({"a": [{"b": 1}, {"b": 2}]})",
                "[]", R"({"a.b": 2})"),
            R"({"a":[{"b":1},{"b":2,"c":5}]})");
  EXPECT_EQ(Upd(R"({"$inc": {"a.$.n": 1}})",
                R"({"a": [{"k": "x", "n": 1}, {"k": "y", "n": 1}]})", "[]",
                R"({"a": {"$elemMatch": {"k": "y"}}})"),
            R"({"a":[{"k":"x","n":1},{"k":"y","n":2}]})");
  EXPECT_EQ(
      Upd(R"({"$unset": {"a.$": 1}})", R"({"a": [4, 5]})", "[]", R"({"a": 5})"),
      R"({"a":[4,null]})");
  EXPECT_EQ(Upd(R"({"$set": {"a.$": 1}})", R"({"a": [1]})"),
            "error 2: The positional operator did not find the match needed "
            "from the query.");
  // An upsert's insert has no match either.
  EXPECT_EQ(Upd(R"({"$set": {"a.$.b": 1}})", "{}", "[]", "{}", true),
            "error 2: The positional operator did not find the match needed "
            "from the query.");
  // $setOnInsert is a no-op on an update, but its path still resolves.
  EXPECT_EQ(Upd(R"({"$setOnInsert": {"a.$": 1}})", R"({"a": [1]})"),
            "error 2: The positional operator did not find the match needed "
            "from the query.");
  EXPECT_EQ(Upd(R"({"$setOnInsert": {"a.$[]": 1}})", R"({"a": [1]})"),
            R"({"a":[1]})");
  EXPECT_EQ(Upd(R"({"$setOnInsert": {"a.$[]": 1}})", R"({"_id": 1})", "[]",
                "{}", true),
            "error 2: The path 'a' must exist in the document in order to "
            "apply array updates.");
  // "$" and "$[]" together.
  EXPECT_EQ(Upd(R"({"$set": {"a.$.b.$[]": 0}})",
                R"({"a": [{"b": [1, 2]}, {"k": 1, "b": [3]}]})", "[]",
                R"({"a.k": 1})"),
            R"({"a":[{"b":[1,2]},{"k":1,"b":[0]}]})");
}

TEST(PositionalUpdateTest, ParseErrors) {
  EXPECT_EQ(Upd(R"({"$set": {"a.$[i]": 0}})", "{}"),
            "error 2: No array filter found for identifier 'i' in path "
            "'a.$[i]'");
  EXPECT_EQ(Upd(R"({"$set": {"a.$[i]": 5}})", "{}", R"([{"i": 0}, {"j": 0}])"),
            "error 9: The array filter for identifier 'j' was not used in the "
            "update { $set: { a.$[i]: 5 } }");
  EXPECT_EQ(
      Upd(R"({"$set": {"a.$[i]": 5.0}})", "{}", R"([{"i": 0}, {"j": 0}])"),
      "error 9: The array filter for identifier 'j' was not used in the "
      "update { $set: { a.$[i]: 5.0 } }");
  EXPECT_EQ(Upd(R"({"$set": {"a.$[i]": 5, "a.$[j]": 6}})", "{}",
                R"([{"i": 0}, {"j": 0}, {"i": 1}])"),
            "error 9: Found multiple array filters with the same top-level "
            "field name i");
  EXPECT_EQ(Upd(R"({"$set": {"a.$[i]": 5}})", "{}", R"([{"i": 0, "j": 0}])"),
            "error 9: Error parsing array filter :: caused by :: Expected a "
            "single top-level field name, found 'i' and 'j'");
  EXPECT_EQ(Upd(R"({"$set": {"a.$[I]": 5}})", "{}", R"([{"I": 0}])"),
            "error 2: Error parsing array filter :: caused by :: The "
            "top-level field name must be an alphanumeric string beginning "
            "with a lowercase letter, found 'I'");
  EXPECT_EQ(Upd(R"({"$set": {"a.$[i]": 5}})", "{}", R"([{}])"),
            "error 9: Cannot use an expression without a top-level field name "
            "in arrayFilters");
  EXPECT_EQ(Upd(R"({"$set": {"a.$[i]": 5}})", "{}", R"(["bad"])"),
            "error 14: BSON field 'update.updates.arrayFilters.0' is the wrong "
            "type 'string', expected type 'object'");
  EXPECT_EQ(Upd(R"({"$set": {"a.$.b.$": 1}})", "{}"),
            "error 2: Too many positional (i.e. '$') elements found in path "
            "'a.$.b.$'");
  EXPECT_EQ(Upd(R"({"$set": {"$.a": 1}})", "{}"),
            "error 2: Cannot have positional (i.e. '$') element in the first "
            "position in path '$.a'");
  EXPECT_EQ(Upd(R"({"$set": {"$[].a": 1}})", "{}"),
            "error 2: Cannot have array filter identifier (i.e. '$[<id>]') "
            "element in the first position in path '$[].a'");
  EXPECT_EQ(Upd(R"({"$set": {"a.$[i]": 0, "a.$": 0}})", "{}", R"([{"i": 0}])"),
            "error 40: Updating the path 'a.$' would create a conflict at 'a'");
  EXPECT_EQ(Upd(R"({"$set": {"a.$[i]": 0, "a.0": 0}})", "{}", R"([{"i": 0}])"),
            "error 40: Updating the path 'a.0' would create a conflict at 'a'");
  EXPECT_EQ(Upd(R"({"$rename": {"a.$[i]": "b"}})", "{}", R"([{"i": 0}])"),
            "error 2: The source field for $rename may not be dynamic: a.$[i]");
  EXPECT_EQ(Upd(R"({"$rename": {"a.$[]": "b"}})", "{}"),
            "error 2: The source field for $rename may not be dynamic: a.$[]");
  EXPECT_EQ(Upd(R"({"$rename": {"a": "b.$[]"}})", "{}"),
            "error 2: The destination field for $rename may not be dynamic: "
            "b.$[]");
  EXPECT_EQ(Upd(R"({"$rename": {"a": "b"}})", "{}", R"([{"i": 0}])"),
            "error 9: The array filter for identifier 'i' was not used in the "
            "update { $rename: { a: \"b\" } }");
}

TEST(PositionalUpdateTest, ApplyErrors) {
  EXPECT_EQ(Upd(R"({"$set": {"a.$[]": 1}})", R"({"a": 1})"),
            "error 2: Cannot apply array updates to non-array element a: 1");
  EXPECT_EQ(Upd(R"({"$set": {"a.$[]": 1}})", "{}"),
            "error 2: The path 'a' must exist in the document in order to "
            "apply array updates.");
  EXPECT_EQ(Upd(R"({"$set": {"x.y.$[]": 1}})", R"({"x": {}})"),
            "error 2: The path 'x.y' must exist in the document in order to "
            "apply array updates.");
  EXPECT_EQ(Upd(R"({"$set": {"a.$[i]": 1, "a.$[j]": 2}})", R"({"a": [0]})",
                R"([{"i": 0}, {"j": 0}])"),
            "error 40: Update created a conflict at 'a.0'");
  // The merge fails whether or not the rest resolves (update_arrayFilters.js).
  EXPECT_EQ(Upd(R"({"$set": {"a.$[i].b.$[k].c": 1, "a.$[j].b.$[k].c": 2}})",
                R"({"a": [{"x": 0, "b": [{"y": 1}]}]})",
                R"([{"i.x": 0}, {"j.x": 0}, {"k.y": 0}])"),
            "error 40: Update created a conflict at 'a.0.b.$[k].c'");
  EXPECT_EQ(Upd(R"({"$set": {"a.$[i].b.$[k].c": 1, "a.$[j].b.$[k].c": 2}})",
                R"({"a": [{"x": 0, "b": [{"y": 1}]}, {"x": 1, "b": []}]})",
                R"([{"i.x": 0}, {"j.x": 1}, {"k.y": 0}])"),
            R"({"a":[{"x":0,"b":[{"y":1}]},{"x":1,"b":[]}]})");
  // update_array_node_test.cpp: $[] with two identifiers below it.
  EXPECT_EQ(Upd(R"({"$set": {"a.$[].b.$[i]": 1, "a.$[].b.$[j]": 1}})",
                R"({"a": [{"b": [0]}]})", R"([{"i": 0}, {"j": 0}])"),
            "error 40: Update created a conflict at 'a.0.b.0'");
  // "$" resolving to an element another path names.
  EXPECT_EQ(Upd(R"({"$set": {"a.$": 1, "a.0.b": 2}})", R"({"a": [{"b": 0}]})",
                "[]", R"({"a.b": 0})"),
            "error 40: Update created a conflict at 'a.0'");
  EXPECT_EQ(Upd(R"({"$inc": {"a.$[]": 1}})", R"({"_id": 7, "a": [1, "x"]})"),
            "error 14: Cannot apply $inc to a value of non-numeric type. "
            "{_id: 7} has the field '1' of non-numeric type string");
}

}  // namespace
}  // namespace ttldb
