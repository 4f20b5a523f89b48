// Property test: random documents, random filters and sorts, run on a
// collection without secondary indexes and on one with indexes (the
// planner's choice, and each index forced by hint). The results must be
// identical: an index changes how documents are found, never which.
#include <random>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "base/clock.h"
#include "document/json.h"
#include "engine/database.h"
#include "gtest/gtest.h"
#include "tests/test_util.h"

namespace ttldb {
namespace {

class Gen {
 public:
  explicit Gen(uint32_t seed) : rng_(seed) {}
  int Int(int n) { return std::uniform_int_distribution<int>(0, n - 1)(rng_); }

  // A scalar from a small domain so that equalities hit, across types.
  std::string Scalar() {
    switch (Int(9)) {
      case 0:
        return absl::StrCat(Int(10));
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
  std::string FieldValue() {
    if (Int(5) == 0) {  // an array (multikey)
      std::vector<std::string> items;
      for (int i = Int(4); i > 0; --i) items.push_back(Scalar());
      return absl::StrCat("[", absl::StrJoin(items, ","), "]");
    }
    return Scalar();
  }
  std::string Document(int id) {
    std::string doc = absl::StrCat(R"({"_id": )", id);
    if (Int(6) != 0) absl::StrAppend(&doc, R"(, "a": )", FieldValue());
    if (Int(6) != 0) absl::StrAppend(&doc, R"(, "b": )", Scalar());
    return doc + "}";
  }
  std::string Predicate(const char* field) {
    static const char* kOps[] = {"$eq", "$gt", "$gte", "$lt", "$lte", "$ne"};
    switch (Int(4)) {
      case 0:
        return absl::StrCat(R"(")", field, R"(": )", Scalar());
      case 1:
        return absl::StrCat(R"(")", field, R"(": {"$in": [)", Scalar(), ",",
                            Scalar(), "]}");
      case 2:
        return absl::StrCat(R"(")", field, R"(": {")", kOps[Int(6)], R"(": )",
                            Scalar(), R"(, ")", kOps[1 + Int(4)], R"(": )",
                            Scalar(), "}");
      default:
        return absl::StrCat(R"(")", field, R"(": {")", kOps[Int(6)], R"(": )",
                            Scalar(), "}");
    }
  }
  std::string Filter() {
    switch (Int(4)) {
      case 0:
        return absl::StrCat("{", Predicate("a"), "}");
      case 1:
        return absl::StrCat("{", Predicate("b"), "}");
      case 2:
        return absl::StrCat("{", Predicate("a"), ",", Predicate("b"), "}");
      default:
        return absl::StrCat(R"({"$or": [{)", Predicate("a"), "}, {",
                            Predicate("b"), "}]}");
    }
  }
  std::string Sort() {
    switch (Int(4)) {
      case 0:
        return R"({"a": 1, "_id": 1})";
      case 1:
        return R"({"a": -1, "b": 1, "_id": 1})";
      case 2:
        return R"({"b": -1, "_id": -1})";
      default:
        return "";
    }
  }

 private:
  std::mt19937 rng_;
};

std::vector<std::string> RunQuery(Collection& c, const std::string& filter,
                                  const std::string& sort,
                                  const std::string& hint) {
  FindOptions options;
  if (!sort.empty()) options.sort = *ParseDocument(sort);
  options.hint = hint;
  auto cursor = c.Find(filter, options);
  EXPECT_TRUE(cursor.ok()) << filter << " " << cursor.status();
  if (!cursor.ok()) return {};
  auto docs = (*cursor)->ToVector();
  EXPECT_TRUE(docs.ok()) << docs.status();
  std::vector<std::string> out;
  for (const Value& d : *docs) out.push_back(ToJson(d, JsonFormat::kCanonical));
  if (sort.empty()) std::sort(out.begin(), out.end());
  return out;
}

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
  const std::vector<std::string> indexes = {"a_1", "a_-1_b_1", "b_-1"};
  ASSERT_TRUE(indexed.CreateIndex(R"({"a": 1})").ok());
  ASSERT_TRUE(indexed.CreateIndex(R"({"b": -1})").ok());

  Gen gen(20261122);
  for (int id = 0; id < 400; ++id) {
    std::string doc = gen.Document(id);
    ASSERT_TRUE(plain.InsertOne(doc).ok()) << doc;
    ASSERT_TRUE(indexed.InsertOne(doc).ok()) << doc;
  }
  // Built after the data: exercises the index build path too.
  auto compound = indexed.CreateIndex(R"({"a": -1, "b": 1})");
  ASSERT_TRUE(compound.ok()) << compound.status();

  int compared = 0;
  for (int i = 0; i < 300; ++i) {
    const std::string filter = gen.Filter();
    const std::string sort = gen.Sort();
    const std::vector<std::string> expected = RunQuery(plain, filter, sort, "");
    EXPECT_EQ(RunQuery(indexed, filter, sort, ""), expected)
        << "planner, filter " << filter << " sort " << sort;
    for (const std::string& hint : indexes) {
      EXPECT_EQ(RunQuery(indexed, filter, sort, hint), expected)
          << "hint " << hint << ", filter " << filter << " sort " << sort;
    }
    compared += expected.size();
  }
  EXPECT_GT(compared, 1000);  // the domain is small enough to match often
  EXPECT_TRUE(indexed.Validate()->Get("valid")->bool_value());
}

}  // namespace
}  // namespace ttldb
