// Group commit (issue 29 item 1, storage/commit_queue.h): concurrent
// writers' batches share LevelDB writes, and a writer's checks (the _id,
// unique keys, the old version it updates) still see every earlier
// writer's result, committed or queued. Threads insert, upsert, update and
// touch the same and different documents, with unique indexes; the final
// state must be exact: no lost write, no duplicate, indexes and documents
// in agreement.
#include <algorithm>
#include <atomic>
#include <map>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "base/status.h"
#include "gtest/gtest.h"
#include "tests/db_fixture.h"
#include "tests/test_util.h"
#include "ttldb/database.h"
#include "ttldb/json.h"

namespace ttldb {
namespace {

constexpr int kThreads = 8;

class GroupCommitTest : public DbTest {
 protected:
  template <typename Op>
  void Parallel(Op op) {
    std::atomic<bool> go{false};
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t) {
      threads.emplace_back([&, t] {
        while (!go.load()) std::this_thread::yield();
        op(t);
      });
    }
    go.store(true);
    for (std::thread& t : threads) t.join();
  }

  std::vector<Value> All(Collection& c, const std::string& filter = "{}") {
    auto cursor = c.Find(filter);
    EXPECT_TRUE(cursor.ok()) << cursor.status();
    if (!cursor.ok()) return {};
    auto docs = (*cursor)->ToVector();
    EXPECT_TRUE(docs.ok()) << docs.status();
    return docs.ok() ? *docs : std::vector<Value>{};
  }
};

TEST_F(GroupCommitTest, InsertsOfDifferentKeysAllLand) {
  Collection& c = db_->collection("c");
  ASSERT_TRUE(c.CreateIndex(R"({"u": 1})", R"({"unique": true})").ok());
  constexpr int kPer = 150;
  Parallel([&](int t) {
    for (int i = 0; i < kPer; ++i) {
      const int n = t * kPer + i;
      auto r = c.InsertOne(absl::StrCat(R"({"_id": )", n, R"(, "u": )", n,
                                        R"(, "t": )", t, "}"));
      EXPECT_TRUE(r.ok()) << r.status();
    }
  });
  std::vector<Value> docs = All(c);
  ASSERT_EQ(docs.size(), size_t{kThreads * kPer});
  for (int n = 0; n < kThreads * kPer; n += 97) {
    EXPECT_EQ(All(c, absl::StrCat(R"({"u": )", n, "}")).size(), 1u) << n;
  }
}

TEST_F(GroupCommitTest, InsertsOfTheSameIdsOneWinsEach) {
  Collection& c = db_->collection("c");
  ASSERT_TRUE(c.InsertOne(R"({"_id": "seed"})").ok());
  constexpr int kIds = 100;
  std::vector<std::atomic<int>> wins(kIds);
  std::atomic<int> other_errors{0};
  Parallel([&](int t) {
    for (int i = 0; i < kIds; ++i) {
      auto r =
          c.InsertOne(absl::StrCat(R"({"_id": "k)", i, R"(", "by": )", t, "}"));
      if (r.ok()) {
        wins[i].fetch_add(1);
      } else if (ErrorCode(r.status()) != kDuplicateKey) {
        other_errors.fetch_add(1);
      }
    }
  });
  EXPECT_EQ(other_errors.load(), 0);
  for (int i = 0; i < kIds; ++i) EXPECT_EQ(wins[i].load(), 1) << i;
  EXPECT_EQ(All(c).size(), size_t{kIds + 1});
}

TEST_F(GroupCommitTest, UniqueValuesRacedByInsertsOneWinsEach) {
  Collection& c = db_->collection("c");
  ASSERT_TRUE(c.CreateIndex(R"({"u": 1})", R"({"unique": true})").ok());
  constexpr int kValues = 40;
  std::atomic<int> wins{0};
  Parallel([&](int t) {
    for (int v = 0; v < kValues; ++v) {
      auto r = c.InsertOne(
          absl::StrCat(R"({"_id": "t)", t, "-", v, R"(", "u": )", v, "}"));
      if (r.ok()) {
        wins.fetch_add(1);
      } else {
        EXPECT_EQ(ErrorCode(r.status()), kDuplicateKey) << r.status();
      }
    }
  });
  EXPECT_EQ(wins.load(), kValues);
  std::vector<Value> docs = All(c);
  ASSERT_EQ(docs.size(), size_t{kValues});
  std::set<std::string> values;
  for (const Value& d : docs) values.insert(ToJson(*d.Get("u")));
  EXPECT_EQ(values.size(), size_t{kValues});
}

// Each thread moves its own document's unique value around a small shared
// set: a queued update that frees a value must not let another take it
// before it is committed, nor leave a value held twice.
TEST_F(GroupCommitTest, UniqueValuesMovedByUpdatesStayUnique) {
  Collection& c = db_->collection("c");
  ASSERT_TRUE(c.CreateIndex(R"({"u": 1})", R"({"unique": true})").ok());
  for (int t = 0; t < kThreads; ++t) {
    ASSERT_TRUE(
        c.InsertOne(absl::StrCat(R"({"_id": )", t, R"(, "u": )", 100 + t, "}"))
            .ok());
  }
  constexpr int kValues = 12;
  std::atomic<int> other_errors{0};
  Parallel([&](int t) {
    for (int i = 0; i < 200; ++i) {
      const int v = (t * 7 + i * 5) % kValues;
      auto r = c.UpdateOne(absl::StrCat(R"({"_id": )", t, "}"),
                           absl::StrCat(R"({"$set": {"u": )", v, "}}"));
      if (!r.ok() && ErrorCode(r.status()) != kDuplicateKey) {
        other_errors.fetch_add(1);
      }
    }
  });
  EXPECT_EQ(other_errors.load(), 0);
  std::vector<Value> docs = All(c);
  ASSERT_EQ(docs.size(), size_t{kThreads});
  std::set<std::string> values;
  for (const Value& d : docs) {
    const std::string u = ToJson(*d.Get("u"));
    values.insert(u);
    // The index agrees with the document.
    std::vector<Value> by_u = All(c, absl::StrCat(R"({"u": )", u, "}"));
    ASSERT_EQ(by_u.size(), 1u) << u;
    EXPECT_EQ(ToJson(by_u[0]), ToJson(d));
  }
  EXPECT_EQ(values.size(), size_t{kThreads});
}

TEST_F(GroupCommitTest, IncrementsOfOneAndManyDocumentsAreNotLost) {
  Collection& c = db_->collection("c");
  constexpr int kPer = 150;
  Parallel([&](int t) {
    for (int i = 0; i < kPer; ++i) {
      // One document every thread increments, and one per thread.
      UpdateOptions upsert;
      upsert.upsert = true;
      auto shared =
          c.UpdateOne(R"({"_id": "shared"})", R"({"$inc": {"n": 1}})", upsert);
      EXPECT_TRUE(shared.ok()) << shared.status();
      auto own = c.UpdateOne(absl::StrCat(R"({"_id": "own)", t, R"("})"),
                             R"({"$inc": {"n": 1}})", upsert);
      EXPECT_TRUE(own.ok()) << own.status();
    }
  });
  auto shared = c.FindOne(R"({"_id": "shared"})");
  ASSERT_TRUE(shared.ok() && shared->has_value());
  EXPECT_EQ(ToJson(*(*shared)->Get("n")), std::to_string(kThreads * kPer));
  for (int t = 0; t < kThreads; ++t) {
    auto own = c.FindOne(absl::StrCat(R"({"_id": "own)", t, R"("})"));
    ASSERT_TRUE(own.ok() && own->has_value());
    EXPECT_EQ(ToJson(*(*own)->Get("n")), std::to_string(kPer));
  }
}

// Touches (the text path) and synced inserts at once, with a TTL index:
// every touch finds its document, every synced insert lands, and the TTL
// index holds exactly one entry per document.
TEST_F(GroupCommitTest, TouchesAndSyncedInsertsTogether) {
  Collection& c = db_->collection("c");
  ASSERT_TRUE(
      c.CreateIndex(R"({"at": 1})", R"({"expireAfterSeconds": 3600})").ok());
  constexpr int kDocs = 40;
  const int64_t now = absl::ToUnixMillis(clock_.WallNow());
  for (int i = 0; i < kDocs; ++i) {
    ASSERT_TRUE(c.InsertOne(absl::StrCat(R"({"_id": )", i,
                                         R"(, "at": {"$date": )", now, "}}"))
                    .ok());
  }
  WriteOptions synced;
  synced.sync = true;
  Parallel([&](int t) {
    for (int i = 0; i < 100; ++i) {
      if (t % 2 == 0) {
        clock_.Advance(absl::Milliseconds(1));
        auto r = c.Touch(absl::StrCat(R"({"_id": )", (t * 13 + i) % kDocs, "}"),
                         "at");
        ASSERT_TRUE(r.ok()) << r.status();
        EXPECT_EQ(r->matched_count, 1);
      } else {
        auto r = c.InsertOne(absl::StrCat(R"({"_id": "s)", t, "-", i,
                                          R"(", "at": {"$date": )", now, "}}"),
                             synced);
        ASSERT_TRUE(r.ok()) << r.status();
      }
    }
  });
  const size_t total = kDocs + (kThreads / 2) * 100;
  EXPECT_EQ(All(c).size(), total);
  // Through the TTL index: every document once.
  auto hinted = c.Find(R"({"at": {"$gte": {"$date": 0}}})");
  ASSERT_TRUE(hinted.ok());
  auto docs = (*hinted)->ToVector();
  ASSERT_TRUE(docs.ok());
  EXPECT_EQ(docs->size(), total);
  std::set<std::string> ids;
  for (const Value& d : *docs) ids.insert(ToJson(*d.Get("_id")));
  EXPECT_EQ(ids.size(), total);
}

}  // namespace
}  // namespace ttldb
