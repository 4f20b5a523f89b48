// The one blocking sort (query/sorter.h): in memory, as a top-k heap, and
// spilled to files, every form gives exactly the stable full sort's slice.
#include "query/sorter.h"

#include <stdlib.h>

#include <algorithm>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "base/status.h"
#include "gtest/gtest.h"
#include "query/sort.h"
#include "query/test_doc.h"
#include "ttldb/json.h"

namespace ttldb {
namespace {

class SorterTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl =
        (std::filesystem::temp_directory_path() / "ttldb-sorter-XXXXXX")
            .string();
    ASSERT_NE(mkdtemp(tmpl.data()), nullptr);
    dir_ = tmpl;
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  // Documents {_id: i, k: <0..9>, pad: "..."}: many ties on k.
  static std::vector<Value> Docs(int n, unsigned seed) {
    std::mt19937 rng(seed);
    std::vector<Value> docs;
    for (int i = 0; i < n; ++i) {
      docs.push_back(
          Doc(absl::StrCat(R"({"_id": )", i, R"(, "k": )", rng() % 10,
                           R"(, "pad": ")", std::string(40, 'x'), R"("})")));
    }
    return docs;
  }

  // The ids of the stable sort by k descending, sliced.
  static std::vector<int> Expected(const std::vector<Value>& docs, int64_t skip,
                                   int64_t limit) {
    std::vector<Value> sorted = docs;
    std::stable_sort(sorted.begin(), sorted.end(),
                     [](const Value& a, const Value& b) {
                       return a.Get("k")->AsDouble() > b.Get("k")->AsDouble();
                     });
    std::vector<int> ids;
    for (int64_t i = skip; i < static_cast<int64_t>(sorted.size()); ++i) {
      if (limit > 0 && i >= skip + limit) break;
      ids.push_back(static_cast<int>(sorted[i].Get("_id")->AsDouble()));
    }
    return ids;
  }

  // Sorts `docs` by {k: -1} with `o`; the ids in the order returned.
  absl::StatusOr<std::vector<int>> Run(const std::vector<Value>& docs,
                                       SorterOptions o, int* spills) {
    ASSIGN_OR_RETURN(SortSpec sort, SortSpec::Parse(Doc(R"({"k": -1})")));
    Sorter sorter(&sort, std::move(o));
    for (const Value& d : docs) RETURN_IF_ERROR(sorter.Add(d));
    std::vector<int> ids;
    while (true) {
      ASSIGN_OR_RETURN(std::optional<Value> d, sorter.Next());
      if (!d.has_value()) break;
      ids.push_back(static_cast<int>(d->Get("_id")->AsDouble()));
    }
    *spills = sorter.spills();
    return ids;
  }

  SorterOptions Spilling(size_t max_bytes) {
    SorterOptions o;
    o.max_memory_bytes = max_bytes;
    o.spill_directory = [this]() -> absl::StatusOr<std::string> {
      ++directory_calls_;
      return dir_;
    };
    return o;
  }

  std::string dir_;
  int directory_calls_ = 0;
};

TEST_F(SorterTest, InMemoryIsTheStableSortSlice) {
  const std::vector<Value> docs = Docs(500, 1);
  for (auto [skip, limit] : {std::pair<int64_t, int64_t>{0, 0},
                             {0, 7},
                             {13, 0},
                             {13, 25},
                             {495, 10},
                             {600, 3}}) {
    SorterOptions o;
    o.skip = skip;
    o.limit = limit;
    int spills = -1;
    absl::StatusOr<std::vector<int>> got = Run(docs, o, &spills);
    ASSERT_TRUE(got.ok()) << got.status();
    EXPECT_EQ(*got, Expected(docs, skip, limit)) << skip << " " << limit;
    EXPECT_EQ(spills, 0);
  }
}

TEST_F(SorterTest, OverTheBoundWithoutSpillingIs292WithItsContext) {
  SorterOptions o;
  o.max_memory_bytes = 1000;
  o.error_context = "PlanExecutor error during aggregation";
  int spills = 0;
  absl::StatusOr<std::vector<int>> got = Run(Docs(100, 2), o, &spills);
  ASSERT_FALSE(got.ok());
  EXPECT_EQ(ErrorCode(got.status()), kQueryExceededMemoryLimitNoDiskUseAllowed);
  EXPECT_EQ(got.status().message(),
            "PlanExecutor error during aggregation :: caused by :: Sort "
            "exceeded memory limit of 1000 bytes, but did not opt in to "
            "external sorting.");
  // With a limit whose documents fit, the top-k heap stays under it.
  o.limit = 3;
  got = Run(Docs(100, 2), o, &spills);
  ASSERT_TRUE(got.ok()) << got.status();
  EXPECT_EQ(got->size(), 3u);
}

TEST_F(SorterTest, SpilledRunsMergeToTheStableSortSlice) {
  const std::vector<Value> docs = Docs(2000, 3);
  for (auto [skip, limit] : {std::pair<int64_t, int64_t>{0, 0},
                             {17, 0},
                             {0, 300},
                             {150, 400},
                             {1990, 50}}) {
    SorterOptions o = Spilling(4000);  // about 40 documents a run
    o.skip = skip;
    o.limit = limit;
    int spills = 0;
    directory_calls_ = 0;
    absl::StatusOr<std::vector<int>> got = Run(docs, o, &spills);
    ASSERT_TRUE(got.ok()) << got.status();
    EXPECT_EQ(*got, Expected(docs, skip, limit)) << skip << " " << limit;
    EXPECT_GT(spills, 1) << skip << " " << limit;
    EXPECT_EQ(directory_calls_, spills);
    // Each run's file is gone with its Sorter.
    EXPECT_TRUE(std::filesystem::is_empty(dir_));
  }
}

TEST_F(SorterTest, SpillDirectoryErrorFailsTheSort) {
  SorterOptions o;
  o.max_memory_bytes = 1000;
  o.spill_directory = []() -> absl::StatusOr<std::string> {
    return absl::InternalError("no temporary area");
  };
  int spills = 0;
  absl::StatusOr<std::vector<int>> got = Run(Docs(100, 4), o, &spills);
  ASSERT_FALSE(got.ok());
  EXPECT_EQ(got.status().message(), "no temporary area");
}

TEST_F(SorterTest, ParallelArraysKeyFailsAdd) {
  absl::StatusOr<SortSpec> sort = SortSpec::Parse(Doc(R"({"a": 1, "b": 1})"));
  ASSERT_TRUE(sort.ok()) << sort.status();
  Sorter sorter(&*sort, SorterOptions());
  EXPECT_TRUE(sorter.Add(Doc(R"({"a": [1, 2], "b": 3})")).ok());
  absl::Status s = sorter.Add(Doc(R"({"a": [1, 2], "b": [3, 4]})"));
  EXPECT_EQ(ErrorCode(s), kBadValue) << s;
}

}  // namespace
}  // namespace ttldb
