// The parsed-document cache (storage/doc_cache.h): unit behaviour, and
// coherence under concurrent writers, readers and TTL deletions.
#include "storage/doc_cache.h"

#include <malloc.h>

#include <atomic>
#include <cmath>
#include <limits>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/base/config.h"
#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "tests/test_util.h"
#include "ttldb/clock.h"
#include "ttldb/database.h"
#include "ttldb/json.h"
#include "ttldb/testing/ttldb_testing.h"

namespace ttldb {
namespace {

const absl::Time kStart = kTestStart;

std::shared_ptr<const Value> Doc(int v) {
  return std::make_shared<const Value>(
      Value::MakeObject({Field("v", Value::Int32(v))}));
}

TEST(DocCacheTest, TicketRefusesValuesReadBeforeAWrite) {
  DocCache cache(1 << 20);
  uint64_t t = cache.Ticket("k");
  cache.BeginWrite("k");
  cache.Insert("k", Doc(1), 10, t);  // in flight: refused
  EXPECT_EQ(cache.Lookup("k"), nullptr);
  uint64_t during = cache.Ticket("k");
  cache.EndWrite("k");
  cache.Insert("k", Doc(1), 10, t);       // stale ticket
  cache.Insert("k", Doc(1), 10, during);  // ticket taken mid-write
  EXPECT_EQ(cache.Lookup("k"), nullptr);
  uint64_t after = cache.Ticket("k");
  cache.Insert("k", Doc(2), 10, after);
  ASSERT_NE(cache.Lookup("k"), nullptr);
  EXPECT_EQ(cache.Lookup("k")->Get("v")->int32_value(), 2);
  cache.BeginWrite("k");  // erases
  EXPECT_EQ(cache.Lookup("k"), nullptr);
  cache.EndWrite("k");
}

TEST(DocCacheTest, AMissGivesTheTicketUnderTheSameLock) {
  DocCache cache(1 << 20);
  uint64_t t = 12345;
  EXPECT_EQ(cache.Lookup("k", &t), nullptr);
  EXPECT_EQ(t, cache.Ticket("k"));
  cache.BeginWrite("k");
  cache.EndWrite("k");
  cache.Insert("k", Doc(1), 10, t);  // a write ended since: refused
  EXPECT_EQ(cache.Lookup("k", &t), nullptr);
  cache.Insert("k", Doc(2), 10, t);
  uint64_t untouched = 99;
  ASSERT_NE(cache.Lookup("k", &untouched), nullptr);
  EXPECT_EQ(untouched, 99u);  // a hit leaves it alone
  EXPECT_EQ(cache.Lookup("k")->Get("v")->int32_value(), 2);
}

TEST(DocCacheTest, BatchedWritesActLikeOneWriteOfEachKey) {
  DocCache cache(1 << 20);
  std::vector<std::string> keys, others;
  for (int i = 0; i < 200; ++i) {  // spread over every shard
    keys.push_back(absl::StrCat("k", i));
    others.push_back(absl::StrCat("o", i));
  }
  std::vector<uint64_t> before;
  for (const std::string& k : keys) {
    cache.Insert(k, Doc(1), 10, cache.Ticket(k));
    before.push_back(cache.Ticket(k));
  }
  for (const std::string& o : others) {
    cache.Insert(o, Doc(5), 10, cache.Ticket(o));
  }
  cache.BeginWrites(keys);
  for (size_t i = 0; i < keys.size(); ++i) {
    EXPECT_EQ(cache.Lookup(keys[i]), nullptr);                 // erased
    cache.Insert(keys[i], Doc(2), 10, cache.Ticket(keys[i]));  // in flight
    EXPECT_EQ(cache.Lookup(keys[i]), nullptr);
  }
  cache.EndWrites(keys);
  for (size_t i = 0; i < keys.size(); ++i) {
    cache.Insert(keys[i], Doc(3), 10, before[i]);  // read before: refused
    EXPECT_EQ(cache.Lookup(keys[i]), nullptr);
    cache.Insert(keys[i], Doc(4), 10, cache.Ticket(keys[i]));  // after: kept
    ASSERT_NE(cache.Lookup(keys[i]), nullptr);
    EXPECT_EQ(cache.Lookup(keys[i])->Get("v")->int32_value(), 4);
  }
  // Keys not in the batch keep their entries (in any shard).
  for (const std::string& o : others) {
    ASSERT_NE(cache.Lookup(o), nullptr) << o;
    EXPECT_EQ(cache.Lookup(o)->Get("v")->int32_value(), 5);
  }
  cache.BeginWrites({});  // no keys: no effect
  cache.EndWrites({});
}

TEST(DocCacheTest, EndWriteWithCachesTheWrittenVersion) {
  DocCache cache(1 << 20);
  uint64_t stale = cache.Ticket("k");
  cache.BeginWrite("k");
  cache.EndWriteWith("k", Doc(7), 10);
  cache.Insert("k", Doc(1), 10, stale);  // a reader of the old bytes: refused
  ASSERT_NE(cache.Lookup("k"), nullptr);
  EXPECT_EQ(cache.Lookup("k")->Get("v")->int32_value(), 7);
}

TEST(DocCacheTest, AdmitsEveryMissWhileRoomThenOneInEight) {
  DocCache cache(16 * 1000);  // 1000 per shard
  DocCache::Miss miss;
  EXPECT_EQ(cache.Lookup("a", &miss), nullptr);
  EXPECT_TRUE(miss.admit);  // empty: room
  for (int i = 0; i < 1000; ++i) {
    std::string k = absl::StrCat("key", i);
    cache.Insert(k, Doc(i), 400, cache.Ticket(k));  // every shard full
  }
  int admitted = 0;
  for (int i = 0; i < 64; ++i) {
    miss.admit = false;
    EXPECT_EQ(cache.Lookup("x", &miss), nullptr);
    admitted += miss.admit ? 1 : 0;
  }
  EXPECT_EQ(admitted, 8);
  // A hit leaves the miss alone; a lookup for a ticket counts no miss.
  miss.admit = false;
  ASSERT_NE(cache.Lookup("key999", &miss), nullptr);
  EXPECT_FALSE(miss.admit);
  uint64_t ticket;
  for (int i = 0; i < 7; ++i) EXPECT_EQ(cache.Lookup("x", &ticket), nullptr);
  EXPECT_EQ(cache.Lookup("x", &miss), nullptr);
  EXPECT_FALSE(miss.admit);  // the 65th counted miss, not the 72nd
}

TEST(DocCacheTest, BoundedByCharge) {
  DocCache cache(16 * 1000);  // 1000 per shard
  for (int i = 0; i < 1000; ++i) {
    std::string k = absl::StrCat("key", i);
    cache.Insert(k, Doc(i), 100, cache.Ticket(k));
  }
  EXPECT_LE(cache.size(), 16u * 10u);
  EXPECT_GT(cache.size(), 0u);
  cache.Insert("big", Doc(0), 5000, cache.Ticket("big"));  // > a shard
  EXPECT_EQ(cache.Lookup("big"), nullptr);
}

// Writers update documents with increasing values and publish what they
// had acknowledged; readers must never see less than what was acknowledged
// before their read began (a stale cache entry would show an older value).
// Deleters remove and re-insert; a TTL pass deletes expired documents.
TEST(DocCacheTest, ConcurrentWritesReadsAndSweepsStayCoherent) {
  TempDir dir;
  FakeClock clock(kStart);
  Options options;
  options.clock = &clock;
  options.ttl_monitor_enabled = false;
  options.hide_expired = false;        // hiding would mask a stale entry
  options.doc_cache_bytes = 64 << 10;  // small: evictions happen too
  auto opened = Database::Open(dir.path(), options);
  ASSERT_TRUE(opened.ok()) << opened.status();
  std::unique_ptr<Database> db = std::move(*opened);
  Collection& c = db->collection("c");
  ASSERT_TRUE(
      c.CreateIndex(R"({"at": 1})", R"({"expireAfterSeconds": 60})").ok());
  constexpr int kKeys = 64;
  constexpr int kWriters = 2;
  const std::string live =
      absl::StrCat(R"({"$date": {"$numberLong": ")",
                   absl::ToUnixMillis(kStart + absl::Hours(10)), R"("}})");
  for (int k = 0; k < kKeys; ++k) {
    ASSERT_TRUE(c.InsertOne(absl::StrCat(R"({"_id": )", k,
                                         R"(, "v": 0, "at": )", live, "}"))
                    .ok());
  }
  std::atomic<int64_t> acked[kKeys];
  for (auto& a : acked) a = 0;
  std::atomic<bool> stop{false};
  std::atomic<int64_t> reads{0}, failures{0};
  std::vector<std::thread> threads;
  for (int w = 0; w < kWriters; ++w) {
    threads.emplace_back([&, w] {
      // Writer w owns keys k with k % kWriters == w.
      for (int round = 1; round <= 300; ++round) {
        for (int k = w; k < kKeys; k += kWriters) {
          auto r = c.UpdateOne(absl::StrCat(R"({"_id": )", k, "}"),
                               absl::StrCat(R"({"$set": {"v": )", round, "}}"));
          if (!r.ok() || r->modified_count != 1) ++failures;
          acked[k] = round;
        }
      }
    });
  }
  for (int r = 0; r < 3; ++r) {
    threads.emplace_back([&, r] {
      uint32_t x = 12345 + r;
      while (!stop) {
        x = x * 1103515245 + 12345;
        const int k = (x >> 8) % kKeys;
        const int64_t floor = acked[k];
        auto doc = c.FindById(Value::Int32(k));
        if (!doc.ok()) {
          ++failures;
          continue;
        }
        if (doc->Get("v")->int32_value() < floor) ++failures;
        ++reads;
      }
    });
  }
  // A third writer: documents 1000.. are inserted, read, deleted, read.
  threads.emplace_back([&] {
    for (int i = 0; i < 300; ++i) {
      const int id = 1000 + i % 5;
      if (!c.InsertOne(absl::StrCat(R"({"_id": )", id, "}")).ok()) ++failures;
      if (!c.FindById(Value::Int32(id)).ok()) ++failures;
      if (c.DeleteOne(absl::StrCat(R"({"_id": )", id, "}")).value_or(0) != 1) {
        ++failures;
      }
      if (c.FindById(Value::Int32(id)).ok()) ++failures;  // must be gone
    }
  });
  threads[0].join();
  threads[1].join();
  threads.back().join();
  stop = true;
  for (size_t i = 2; i + 1 < threads.size(); ++i) threads[i].join();
  EXPECT_EQ(failures.load(), 0);
  EXPECT_GT(reads.load(), 0);
  for (int k = 0; k < kKeys; ++k) {
    auto doc = c.FindById(Value::Int32(k));
    ASSERT_TRUE(doc.ok()) << doc.status();
    EXPECT_EQ(doc->Get("v")->int32_value(), 300) << k;
  }

  // TTL deletions invalidate too: cache every document, expire half of
  // them, sweep while readers read, then every expired one must be gone.
  const std::string old =
      absl::StrCat(R"({"$date": {"$numberLong": ")",
                   absl::ToUnixMillis(kStart - absl::Hours(1)), R"("}})");
  for (int k = 0; k < kKeys; k += 2) {
    ASSERT_TRUE(c.UpdateOne(absl::StrCat(R"({"_id": )", k, "}"),
                            absl::StrCat(R"({"$set": {"at": )", old, "}}"))
                    .ok());
  }
  for (int k = 0; k < kKeys; ++k) ASSERT_TRUE(c.FindById(Value::Int32(k)).ok());
  std::atomic<bool> swept{false};
  std::thread reader([&] {
    while (!swept) {
      for (int k = 0; k < kKeys; ++k) c.FindById(Value::Int32(k)).IgnoreError();
    }
  });
  TtlPassStats stats = ttldb_testing::RunTtlPass(*db, kStart);
  swept = true;
  reader.join();
  EXPECT_EQ(stats.deleted_documents, kKeys / 2);
  for (int k = 0; k < kKeys; ++k) {
    EXPECT_EQ(c.FindById(Value::Int32(k)).ok(), k % 2 == 1) << k;
  }
}

// Same type and contents at every level (a plain object {"$date": 5} and a
// date print alike in some formats: compare the types too).
bool ExactlyEqual(const Value& a, const Value& b) {
  if (a.type() != b.type()) return false;
  if (a.is_object()) {
    const auto& fa = a.object_fields();
    const auto& fb = b.object_fields();
    if (fa.size() != fb.size()) return false;
    for (size_t i = 0; i < fa.size(); ++i) {
      if (fa[i].first != fb[i].first) return false;
      if (!ExactlyEqual(fa[i].second, fb[i].second)) return false;
    }
    return true;
  }
  if (a.is_array()) {
    const auto& ia = a.array_items();
    const auto& ib = b.array_items();
    if (ia.size() != ib.size()) return false;
    for (size_t i = 0; i < ia.size(); ++i) {
      if (!ExactlyEqual(ia[i], ib[i])) return false;
    }
    return true;
  }
  return ToJson(a, JsonFormat::kCanonical) == ToJson(b, JsonFormat::kCanonical);
}

Value Re(const std::string& pattern, const std::string& options) {
  Regex re;
  re.pattern = pattern;
  re.options = options;
  return Value::Re(std::move(re));
}

Value Nested(int depth) {
  Value v = Value::Int32(1);
  for (int i = 0; i < depth; ++i) v = Value::MakeObject({Field("a", v)});
  return v;
}

// Documents given as Values (not parsed JSON): some are not in the form a
// re-read of their stored JSON gives back.
std::vector<Value> TrickyDocs() {
  auto doc = [](Value v) {
    return Value::MakeObject({Field("_id", Value::Int32(1)), Field("x", v)});
  };
  return {
      doc(Re("a", "mi")),  // stored sorted: "im"
      doc(Re("a", "im")),
      doc(Re("\xc3\xa9", "")),
      doc(Value::MakeObject({Field("$date", Value::Int32(5))})),  // a date
      doc(Value::MakeObject(
          {Field("$oid", Value::String("5f0000000000000000000000"))})),
      doc(Value::MakeObject({Field("$regex", Value::String("a")),
                             Field("$options", Value::String("i"))})),
      doc(Value::MakeObject({Field("$gt", Value::Int32(5))})),
      doc(Value::Double(std::nan(""))),
      doc(Value::Double(-0.0)),
      doc(Value::Double(1e300)),
      doc(Value::Double(std::numeric_limits<double>::infinity())),
      doc(Value::Int64(5)),
      doc(Value::Date(-5)),
      doc(Value::String("caf\xc3\xa9 \xf0\x9f\x98\x80")),
      doc(Value::String("bad \xff")),
      doc(Value::String(std::string("nul\0byte", 8))),
      doc(Value::MakeArray({Value::Int32(1), Value::MakeArray()})),
      doc(Nested(95)),
      doc(Nested(120)),
  };
}

// The write-through guard never claims an exact round trip that is not.
TEST(DocCacheTest, ReparsesIdenticallyOnlyWhenItDoes) {
  int exact = 0;
  for (const Value& doc : TrickyDocs()) {
    const std::string json = ToJson(doc, JsonFormat::kStorage);
    if (!ReparsesIdentically(doc)) continue;
    ++exact;
    auto back = ParseDocument(json);
    ASSERT_TRUE(back.ok()) << json << ": " << back.status();
    EXPECT_TRUE(ExactlyEqual(doc, *back)) << json;
  }
  EXPECT_GE(exact, 9);  // ordinary documents are still written through
  EXPECT_FALSE(ReparsesIdentically(TrickyDocs()[0]));  // "mi"
  EXPECT_FALSE(ReparsesIdentically(TrickyDocs()[3]));  // {"$date": 5}
  EXPECT_TRUE(ReparsesIdentically(TrickyDocs()[1]));   // "im"
  EXPECT_TRUE(ReparsesIdentically(TrickyDocs()[13]));  // UTF-8 text
}

// Regression: inserts and updates wrote their in-memory Value through to the
// cache, so FindById served {"re": /a/mi} or a plain object {"$date": 5}
// while LevelDB (and every query, and FindById after an eviction) gave
// /a/im and a date. With the cache, point reads must give exactly what they
// give without it.
TEST(DocCacheTest, WriteThroughServesWhatAReReadGives) {
  TempDir on_dir, off_dir;
  Options options;
  options.ttl_monitor_enabled = false;
  auto on = Database::Open(on_dir.path(), options);
  ASSERT_TRUE(on.ok());
  options.doc_cache_bytes = 0;
  auto off = Database::Open(off_dir.path(), options);
  ASSERT_TRUE(off.ok());
  Collection* with = &(*on)->collection("c");
  Collection* without = &(*off)->collection("c");
  auto expect_same_read = [&](int id) {
    auto a = with->FindById(Value::Int32(id));
    auto b = without->FindById(Value::Int32(id));
    ASSERT_EQ(a.status().code(), b.status().code()) << a.status();
    if (a.ok()) {
      EXPECT_TRUE(ExactlyEqual(*a, *b))
          << ToJson(*a, JsonFormat::kCanonical) << " vs "
          << ToJson(*b, JsonFormat::kCanonical);
    }
  };
  int n = 0;
  for (Value doc : TrickyDocs()) {
    const int id = n++;
    SCOPED_TRACE(absl::StrCat("document ", id));
    doc.mutable_object_fields()[0].second = Value::Int32(id);
    // Insert (written through).
    absl::Status sa = with->InsertOne(doc).status();
    absl::Status sb = without->InsertOne(doc).status();
    ASSERT_EQ(sa.code(), sb.code()) << sa << " / " << sb;
    expect_same_read(id);
    // Replace with the same document (written through from the update).
    Value with_y = doc;
    with_y.mutable_object_fields().push_back(Field("y", Value::Int32(2)));
    const Value filter = Value::MakeObject({Field("_id", Value::Int32(id))});
    sa = with->ReplaceOne(filter, with_y).status();
    sb = without->ReplaceOne(filter, with_y).status();
    ASSERT_EQ(sa.code(), sb.code()) << sa << " / " << sb;
    expect_same_read(id);
  }
}

// FindById decodes a document the cache does not take straight into the
// Value it returns, and copies a hit or an admitted miss out of the cache
// (storage/document_reader.h). Every path gives exactly the stored document,
// ParseDocument of its stored text, and the caller's copy is its own: with
// the cache off, tiny (most misses not admitted) and large (a miss
// admitted, then hits), over reads of a freshly opened store.
TEST(DocCacheTest, EveryReadPathGivesTheStoredDocumentAndAnOwnCopy) {
  TempDir dir;
  Options options;
  options.ttl_monitor_enabled = false;
  std::vector<Value> docs = TrickyDocs();
  for (size_t len : {size_t{15}, size_t{16}, size_t{180}}) {
    docs.push_back(Value::MakeObject(
        {Field("_id", Value::Int32(0)), Field(std::string(len, 'k'), Value()),
         Field("s", Value::String(std::string(len, 's')))}));
  }
  Value::Object many;
  many.emplace_back("_id", Value::Int32(0));
  for (int i = 0; i < 40; ++i) {
    many.emplace_back(absl::StrCat("f", i), Value::String(std::string(i, 'v')));
  }
  docs.push_back(Value::MakeObject(std::move(many)));
  int stored = 0;
  {
    auto db = Database::Open(dir.path(), options);
    ASSERT_TRUE(db.ok()) << db.status();
    Collection& c = (*db)->collection("c");
    for (size_t i = 0; i < docs.size(); ++i) {
      Value doc = docs[i];
      doc.mutable_object_fields()[0].second = Value::Int32(i);
      if (c.InsertOne(doc).ok()) ++stored;
    }
  }
  ASSERT_GE(stored, 15);  // some tricky ones are refused (bad UTF-8, depth)
  for (size_t cache_bytes : {size_t{0}, size_t{2} << 10, size_t{8} << 20}) {
    SCOPED_TRACE(absl::StrCat("doc_cache_bytes ", cache_bytes));
    options.doc_cache_bytes = cache_bytes;
    auto db = Database::Open(dir.path(), options);
    ASSERT_TRUE(db.ok()) << db.status();
    Collection& c = (*db)->collection("c");
    int found = 0;
    for (size_t i = 0; i < docs.size(); ++i) {
      SCOPED_TRACE(absl::StrCat("document ", i));
      auto json = c.FindByIdJson(Value::Int32(i));
      if (!json.ok()) continue;
      ++found;
      auto want = ParseDocument(*json, StoredJsonParseOptions());
      ASSERT_TRUE(want.ok()) << want.status();
      for (int round = 0; round < 4; ++round) {
        auto got = c.FindById(Value::Int32(i));
        ASSERT_TRUE(got.ok()) << got.status();
        ASSERT_TRUE(ExactlyEqual(*got, *want))
            << "round " << round << ": " << ToJson(*got, JsonFormat::kCanonical)
            << " vs " << *json;
        // The caller's copy is its own: changing it changes no later read.
        got->mutable_object_fields().back().second = Value::Int32(-1);
        got->mutable_object_fields().emplace_back("added", Value::Null());
      }
    }
    EXPECT_EQ(found, stored);
    auto absent = c.FindById(Value::Int32(100000));
    EXPECT_EQ(absent.status().code(), absl::StatusCode::kNotFound);
  }
}

TEST(DocCacheTest, DisabledWithZeroBytes) {
  TempDir dir;
  Options options;
  options.ttl_monitor_enabled = false;
  options.doc_cache_bytes = 0;
  auto db = Database::Open(dir.path(), options);
  ASSERT_TRUE(db.ok());
  Collection& c = (*db)->collection("c");
  ASSERT_TRUE(c.InsertOne(R"({"_id": 1, "v": 1})").ok());
  ASSERT_TRUE(c.UpdateOne(R"({"_id": 1})", R"({"$set": {"v": 2}})").ok());
  auto doc = c.FindById(Value::Int32(1));
  ASSERT_TRUE(doc.ok());
  EXPECT_EQ(doc->Get("v")->int32_value(), 2);
}

}  // namespace
}  // namespace ttldb

namespace ttldb {
namespace {

// The cache's capacity bounds the heap its entries hold (CacheCharge), not
// the size of their JSON: a parsed 256 B document takes ~3x that. Until
// issue 19 the charge was the JSON size + 64 B, and a full 4 MiB cache held
// 17.3 MB of heap in this test.
TEST(DocCacheTest, CapacityBoundsTheHeapItHolds) {
  constexpr size_t kCapacity = 4 << 20;
  const int64_t heap0 = static_cast<int64_t>(mallinfo2().uordblks);
  {
    DocCache cache(kCapacity);
    for (int i = 0; i < 60'000; ++i) {
      const std::string key = absl::StrCat("doc-key-", i);
      auto doc = ParseDocument(absl::StrCat(
          R"({"_id":"k)", i, R"(","accessTime":{"$date":{"$numberLong":"1"}},)",
          R"("userId":"user-)", i, R"(","group":)", i / 10, R"(,"payload":")",
          std::string(150, 'x'), R"("})"));
      ASSERT_TRUE(doc.ok());
      auto shared = std::make_shared<const Value>(std::move(*doc));
      const size_t charge = CacheCharge(key, *shared);
      EXPECT_GT(charge, 400u);  // a 256 B document's tree, key and entry
      cache.Insert(key, std::move(shared), charge, cache.Ticket(key));
    }
    EXPECT_LE(cache.charged_bytes(), kCapacity);
    EXPECT_GT(cache.charged_bytes(), kCapacity * 9 / 10);  // full
#if !defined(ABSL_HAVE_ADDRESS_SANITIZER) && \
    !defined(ABSL_HAVE_THREAD_SANITIZER)
    // (The sanitizers' allocators do not report through mallinfo2; Abseil
    // detects them under both gcc and clang, __SANITIZE_ADDRESS__ only gcc.)
    const int64_t held = static_cast<int64_t>(mallinfo2().uordblks) - heap0;
    EXPECT_LE(held, static_cast<int64_t>(kCapacity) * 5 / 4) << held;
    EXPECT_GE(held, static_cast<int64_t>(kCapacity) * 3 / 4) << held;
#else
    (void)heap0;
#endif
  }
}

TEST(DocCacheTest, DatabaseMemoryReportsTheCache) {
  TempDir dir;
  Options options;
  options.ttl_monitor_enabled = false;
  options.doc_cache_bytes = 1 << 20;
  auto db = Database::Open(dir.path(), options);
  ASSERT_TRUE(db.ok()) << db.status();
  Collection& c = (*db)->collection("c");
  for (int i = 0; i < 5'000; ++i) {
    ASSERT_TRUE(c.InsertOne(absl::StrCat(R"({"_id":)", i, R"(,"p":")",
                                         std::string(200, 'y'), R"("})"))
                    .ok());
  }
  auto m = (*db)->Memory();
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_EQ(m->doc_cache_capacity, 1 << 20);
  EXPECT_LE(m->doc_cache_bytes, 1 << 20);
  EXPECT_GT(m->doc_cache_bytes, (1 << 20) * 9 / 10);
  EXPECT_GT(m->doc_cache_entries, 1000);
  EXPECT_LT(m->doc_cache_entries, 5000);
  EXPECT_GT(m->leveldb_bytes, 0);
  ASSERT_TRUE((*db)->Close().ok());
  EXPECT_FALSE((*db)->Memory().ok());
}

}  // namespace
}  // namespace ttldb
