// Property test: random documents, random filters, sorts, skips and limits,
// run on a collection without secondary indexes and on one with indexes
// (the planner's choice, and each index forced by hint). An index changes
// how documents are found, never which, nor their order where the sort
// decides it (MongoDB: jstests/core/query/sort/sort_array.js,
// testAggAndFindSort, "hinted and unhinted results are identical"; the
// planner rules in src/mongo/db/query/query_solution.cpp).
//
// The oracle is this build's collection scan, so the test stays valid when
// the in-memory sort keys change. Ties are not false failures: two answers
// agree when they have the same length, each position holds documents with
// equal sort keys (SortSpec::Compare), every returned document is a distinct
// match, and without skip/limit the same documents come back.
//
// Sorts include multikey fields (arrays in `a`, dotted `d.x` through arrays
// of objects), compound sorts, and sorts without an _id tie-breaker, so an
// index can provide them; filters include range bounds on the sorted field
// (review T2: the scan from the bound ordered arrays by their first element
// inside the bounds). A hinted sparse index returns only the documents it
// holds, as in MongoDB: its oracle is the collection scan of the filter AND
// the index's membership condition; so does a hinted partial index (MongoDB
// falls back to a whole-index scan, SERVER-26413). Unhinted, the planner
// uses a partial index only when the filter implies its expression, and
// must then give the collection scan's answer.
#include <algorithm>
#include <cstdlib>
#include <map>
#include <random>
#include <set>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "gtest/gtest.h"
#include "query/sort.h"
#include "tests/test_util.h"
#include "ttldb/clock.h"
#include "ttldb/database.h"
#include "ttldb/json.h"

namespace ttldb {
namespace {

class Gen {
 public:
  explicit Gen(uint32_t seed) : rng_(seed) {}
  int Int(int n) { return std::uniform_int_distribution<int>(0, n - 1)(rng_); }

  // A scalar from a small domain so that equalities hit, across types.
  std::string Scalar() {
    switch (Int(11)) {
      case 0:
        return absl::StrCat(Int(10));
      case 9:  // NaN: sorts below every number, matches no range
        return R"({"$numberDouble": "NaN"})";
      case 10:  // equal to the int of the same value
        return absl::StrCat(R"({"$numberDecimal": ")", Int(10), R"(.0"})");
      case 1:
        return absl::StrCat(Int(10), ".5");
      case 2:
        return absl::StrCat(R"({"$numberLong": ")", Int(10), R"("})");
      case 3:
        return absl::StrCat(R"(")", std::string(1, 'a' + Int(5)), R"(")");
      case 4:
        return "null";
      case 5:
        return Int(2) ? "true" : "false";
      case 6:
        return absl::StrCat(R"({"$date": {"$numberLong": ")", Int(5) * 1000,
                            R"("}})");
      case 7:
        return absl::StrCat(R"({"x": )", Int(3), "}");
      default:
        return absl::StrCat(-Int(5));
    }
  }
  // Mostly numbers, so that range predicates on the sorted field select
  // arrays whose elements straddle the bound.
  std::string Number() {
    return Int(3) == 0 ? absl::StrCat(Int(20), ".5") : absl::StrCat(Int(20));
  }
  std::string Array(bool numeric) {
    std::vector<std::string> items;
    for (int i = Int(5); i > 0; --i) {
      if (Int(12) == 0) {
        items.push_back(absl::StrCat("[", Number(), "]"));  // nested array
      } else {
        items.push_back(numeric ? Number() : Scalar());
      }
    }
    return absl::StrCat("[", absl::StrJoin(items, ","), "]");
  }
  std::string FieldValue() {
    switch (Int(6)) {
      case 0:
        return Array(false);
      case 1:
      case 2:
        return Array(true);
      case 3:
        return Scalar();
      default:
        return Number();
    }
  }
  // d: an object, or an array of objects (some without x), or a scalar.
  std::string DValue() {
    auto obj = [&]() {
      return Int(5) == 0 ? std::string(R"({"y": 1})")
                         : absl::StrCat(R"({"x": )", Number(), "}");
    };
    switch (Int(4)) {
      case 0:
        return obj();
      case 1:
        return Number();
      default: {
        std::vector<std::string> items;
        // Now and then a scalar element: MongoDB keys it as null for "d.x"
        // (review T6).
        for (int i = Int(4); i > 0; --i) {
          items.push_back(Int(6) == 0 ? Number() : obj());
        }
        return absl::StrCat("[", absl::StrJoin(items, ","), "]");
      }
    }
  }
  std::string Document(int id) {
    std::string doc = absl::StrCat(R"({"_id": )", id);
    if (Int(8) != 0) absl::StrAppend(&doc, R"(, "a": )", FieldValue());
    if (Int(6) != 0) {
      absl::StrAppend(&doc, R"(, "b": )", Int(2) ? Number() : Scalar());
    }
    if (Int(3) != 0) absl::StrAppend(&doc, R"(, "d": )", DValue());
    if (Int(2) != 0) absl::StrAppend(&doc, R"(, "s": )", Number());
    return doc + "}";
  }
  std::string Predicate(const char* field) {
    static const char* kOps[] = {"$eq", "$gt", "$gte", "$lt", "$lte", "$ne"};
    auto operand = [&]() { return Int(3) == 0 ? Scalar() : Number(); };
    switch (Int(5)) {
      case 0:
        return absl::StrCat(R"(")", field, R"(": )", operand());
      case 1:
        return absl::StrCat(R"(")", field, R"(": {"$in": [)", operand(), ",",
                            operand(), "]}");
      case 2:
        return absl::StrCat(R"(")", field, R"(": {")", kOps[1 + Int(4)],
                            R"(": )", operand(), R"(, ")", kOps[1 + Int(4)],
                            R"(": )", operand(), "}");
      default:  // a range: the T2 trigger on a multikey field
        return absl::StrCat(R"(")", field, R"(": {")", kOps[1 + Int(4)],
                            R"(": )", operand(), "}");
    }
  }
  std::string Filter() {
    static const char* kFields[] = {"a", "b", "d.x", "s"};
    switch (Int(6)) {
      case 0:
        return "{}";
      case 1:
        return absl::StrCat("{", Predicate(kFields[Int(4)]), "}");
      case 2:
        return absl::StrCat(R"({"$or": [{)", Predicate("a"), "}, {",
                            Predicate("b"), "}]}");
      case 3:
        return absl::StrCat("{", Predicate("a"), ",", Predicate("b"), "}");
      default:
        return absl::StrCat("{", Predicate(kFields[Int(4)]), "}");
    }
  }
  std::string Sort() {
    static const char* kSorts[] = {
        R"({"a": 1})",           R"({"a": -1})",          R"({"b": 1})",
        R"({"b": -1})",          R"({"a": -1, "b": 1})",  R"({"b": 1, "a": 1})",
        R"({"b": -1, "a": -1})", R"({"d.x": 1})",         R"({"d.x": -1})",
        R"({"s": 1})",           R"({"a": 1, "_id": 1})", "",
    };
    return kSorts[Int(12)];
  }

 private:
  std::mt19937 rng_;
};

struct Answer {
  bool ok = false;
  std::vector<Value> docs;
};

Answer RunFind(Collection& c, const std::string& filter,
               const std::string& sort, int64_t skip, int64_t limit,
               const std::string& hint) {
  FindOptions options;
  if (!sort.empty()) options.sort = *ParseDocument(sort);
  options.skip = skip;
  options.limit = limit;
  options.hint = hint;
  Answer out;
  auto cursor = c.Find(filter, options);
  EXPECT_TRUE(cursor.ok()) << filter << " " << cursor.status();
  if (!cursor.ok()) return out;
  auto docs = (*cursor)->ToVector();
  EXPECT_TRUE(docs.ok()) << docs.status();
  if (!docs.ok()) return out;
  out.ok = true;
  out.docs = std::move(*docs);
  return out;
}

std::string Json(const Value& v) { return ToJson(v, JsonFormat::kCanonical); }

// Empty when `got` is an acceptable answer, else what is wrong. `expected`
// is the oracle's answer to the same query, `all` its answer without skip
// and limit (every matching document).
std::string Disagreement(const Answer& got, const Answer& expected,
                         const Answer& all, const std::string& sort,
                         bool windowed) {
  if (!got.ok || !expected.ok || !all.ok) return "a query failed";
  if (got.docs.size() != expected.docs.size()) {
    return absl::StrCat(got.docs.size(), " documents, expected ",
                        expected.docs.size());
  }
  std::set<std::string> matches;
  for (const Value& d : all.docs) matches.insert(Json(d));
  std::set<std::string> seen;
  for (const Value& d : got.docs) {
    const std::string j = Json(d);
    if (matches.count(j) == 0) return absl::StrCat("not a match: ", j);
    if (!seen.insert(j).second) return absl::StrCat("returned twice: ", j);
  }
  if (!sort.empty()) {
    const SortSpec spec = *SortSpec::Parse(*ParseDocument(sort));
    for (size_t i = 0; i < got.docs.size(); ++i) {
      auto got_key = spec.KeyOf(got.docs[i]);
      auto expected_key = spec.KeyOf(expected.docs[i]);
      if (!got_key.ok() || !expected_key.ok()) return "a sort key failed";
      if (spec.CompareKeys(*got_key, *expected_key) != 0) {
        return absl::StrCat("position ", i, ": ", Json(got.docs[i]),
                            " where the sort puts ", Json(expected.docs[i]));
      }
    }
  }
  if (!windowed) {
    std::set<std::string> want;
    for (const Value& d : expected.docs) want.insert(Json(d));
    if (want != seen) return "different documents";
  }
  return "";
}

struct IndexUnderTest {
  std::string name;
  // For sparse and partial indexes: the filter of the documents they hold
  // (a hinted scan returns only those); empty: every document.
  std::string membership;
};

TEST(IndexEquivalenceTest, IndexesNeverChangeResults) {
  TempDir dir;
  FakeClock clock;
  Options options;
  options.clock = &clock;
  options.ttl_monitor_enabled = false;
  auto db = Database::Open(dir.path(), options);
  ASSERT_TRUE(db.ok());
  Collection& plain = (*db)->collection("plain");
  Collection& indexed = (*db)->collection("indexed");
  const std::vector<IndexUnderTest> indexes = {
      {"a_1", ""},
      {"b_-1", ""},
      {"a_-1_b_1", ""},
      {"b_1_a_1", ""},
      {"d.x_1", ""},
      {"s_1", R"({"s": {"$exists": true}})"},  // sparse
      {"b_1", R"({"b": {"$gt": 5}})"},         // partial
      {"b_lt_5", R"({"b": {"$lt": 5}})"},      // partial, NaN outside
  };
  ASSERT_TRUE(indexed.CreateIndex(R"({"a": 1})").ok());
  ASSERT_TRUE(indexed.CreateIndex(R"({"b": -1})").ok());
  ASSERT_TRUE(indexed.CreateIndex(R"({"d.x": 1})").ok());
  ASSERT_TRUE(indexed.CreateIndex(R"({"s": 1})", R"({"sparse": true})").ok());

  // TTLDB_EQUIV_SEED=<n> runs another random set (the default is CI's).
  const char* seed_env = getenv("TTLDB_EQUIV_SEED");
  Gen gen(seed_env != nullptr ? strtoul(seed_env, nullptr, 10) : 20261123);
  for (int id = 0; id < 300; ++id) {
    std::string doc = gen.Document(id);
    ASSERT_TRUE(plain.InsertOne(doc).ok()) << doc;
    ASSERT_TRUE(indexed.InsertOne(doc).ok()) << doc;
  }
  // Built after the data: exercises the index build path too.
  ASSERT_TRUE(indexed.CreateIndex(R"({"a": -1, "b": 1})").ok());
  ASSERT_TRUE(indexed.CreateIndex(R"({"b": 1, "a": 1})").ok());
  ASSERT_TRUE(
      indexed
          .CreateIndex(R"({"b": 1})",
                       R"({"partialFilterExpression": {"b": {"$gt": 5}}})")
          .ok());
  ASSERT_TRUE(
      indexed
          .CreateIndex(R"({"b": 1})",
                       R"({"name": "b_lt_5", "partialFilterExpression": )"
                       R"({"b": {"$lt": 5}}})")
          .ok());

  int compared = 0, failures = 0;
  for (int i = 0; i < 250 && failures < 20; ++i) {
    const std::string filter = gen.Filter();
    const std::string sort = gen.Sort();
    const int64_t skip = gen.Int(3) == 0 ? gen.Int(6) : 0;
    const int64_t limit = gen.Int(2) == 0 ? 1 + gen.Int(5) : 0;
    const bool windowed = skip > 0 || limit > 0;
    const Answer all = RunFind(plain, filter, sort, 0, 0, "");
    const Answer expected = RunFind(plain, filter, sort, skip, limit, "");
    auto check = [&](const std::string& hint, const Answer& oracle,
                     const Answer& oracle_all) {
      const Answer got = RunFind(indexed, filter, sort, skip, limit, hint);
      const std::string why =
          Disagreement(got, oracle, oracle_all, sort, windowed);
      EXPECT_EQ(why, "") << "hint '" << hint << "', filter " << filter
                         << " sort " << sort << " skip " << skip << " limit "
                         << limit;
      if (!why.empty()) ++failures;
    };
    check("", expected, all);
    for (const IndexUnderTest& index : indexes) {
      if (index.membership.empty()) {
        check(index.name, expected, all);
        continue;
      }
      const std::string held =
          absl::StrCat(R"({"$and": [)", filter, ",", index.membership, "]}");
      check(index.name, RunFind(plain, held, sort, skip, limit, ""),
            RunFind(plain, held, sort, 0, 0, ""));
    }
    compared += expected.docs.size();
  }
  EXPECT_GT(compared, 1000);  // the domain is small enough to match often
  EXPECT_TRUE(indexed.Validate()->Get("valid")->bool_value());
}

}  // namespace
}  // namespace ttldb
