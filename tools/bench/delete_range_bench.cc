// DbImpl::DeleteRange over a large range (issue 19): writes --keys index
// entries under an index id no catalog entry names (as an abandoned index
// build leaves them), then times DeleteRange over them, and checks that
// every key of the range is gone and the keys beside it are intact. Each
// batch used to seek from the range's start and step over every tombstone
// written before it (quadratic); docs/BENCHMARKS.md has the results.
//
//   bazel build -c opt //tools/bench:delete_range_bench
//   .bazel/out/k8-opt/bin/tools/bench/delete_range_bench --keys=1000000
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "engine/database_internal.h"
#include "engine/db_impl.h"
#include "index/key_codec.h"
#include "leveldb/db.h"
#include "leveldb/write_batch.h"
#include "storage/keys.h"
#include "tools/bench/bench_util.h"
#include "ttldb/database.h"

namespace ttldb {
namespace bench {
namespace {

void Check(bool ok, const std::string& what) {
  if (!ok) {
    std::fprintf(stderr, "delete_range_bench: %s\n", what.c_str());
    std::exit(1);
  }
}

std::string Key(const std::string& prefix, int64_t i) {
  char buf[16];
  std::snprintf(buf, sizeof(buf), "%012lld", static_cast<long long>(i));
  return prefix + buf;
}

int64_t CountKeys(leveldb::DB* db, const std::string& begin,
                  const std::string& end) {
  std::unique_ptr<leveldb::Iterator> it(
      db->NewIterator(leveldb::ReadOptions()));
  int64_t n = 0;
  for (it->Seek(begin); it->Valid() && it->key().compare(end) < 0; it->Next()) {
    ++n;
  }
  return n;
}

double RunOnce(int64_t keys) {
  char tmpl[] = "/tmp/delete_range_bench_XXXXXX";
  Check(mkdtemp(tmpl) != nullptr, "mkdtemp");
  Options options;
  options.ttl_monitor_enabled = false;
  auto opened = Database::Open(absl::StrCat(tmpl, "/db"), options);
  Check(opened.ok(), opened.status().ToString());
  std::unique_ptr<Database> db = std::move(*opened);
  DbImpl* engine = DatabaseInternal::engine(*db);
  leveldb::DB* ldb = engine->db();
  // Ids 1000/1 to 1000/3: the range deleted is the middle one.
  const std::string before = IndexPrefix(1000, 1);
  const std::string prefix = IndexPrefix(1000, 2);
  const std::string after = IndexPrefix(1000, 3);
  const std::string value(16, 'v');
  for (int64_t i = 0; i < keys; i += 10'000) {
    leveldb::WriteBatch batch;
    for (int64_t j = i; j < std::min(keys, i + 10'000); ++j) {
      batch.Put(Key(prefix, j), value);
    }
    if (i == 0) {
      for (int j = 0; j < 10; ++j) {
        batch.Put(Key(before, j), value);
        batch.Put(Key(after, j), value);
      }
    }
    Check(ldb->Write(leveldb::WriteOptions(), &batch).ok(), "write");
  }
  ldb->CompactRange(nullptr, nullptr);
  const int64_t start = NowNanos();
  absl::Status s = engine->DeleteRange(prefix, KeyPrefixEnd(prefix));
  const double ms = (NowNanos() - start) / 1e6;
  Check(s.ok(), s.ToString());
  Check(CountKeys(ldb, prefix, KeyPrefixEnd(prefix)) == 0, "keys left");
  Check(CountKeys(ldb, before, KeyPrefixEnd(before)) == 10, "before touched");
  Check(CountKeys(ldb, after, KeyPrefixEnd(after)) == 10, "after touched");
  Check(db->Close().ok(), "close");
  db.reset();
  std::system(absl::StrCat("rm -rf ", tmpl).c_str());
  return ms;
}

}  // namespace
}  // namespace bench
}  // namespace ttldb

int main(int argc, char** argv) {
  int64_t keys = 1'000'000;
  int runs = 3;
  for (int i = 1; i < argc; ++i) {
    if (std::strncmp(argv[i], "--keys=", 7) == 0) {
      keys = std::atoll(argv[i] + 7);
    } else if (std::strncmp(argv[i], "--runs=", 7) == 0) {
      runs = std::atoi(argv[i] + 7);
    } else {
      std::fprintf(stderr,
                   "usage: delete_range_bench [--keys=1000000] [--runs=3]\n");
      return 2;
    }
  }
  std::vector<double> ms;
  for (int r = 0; r < runs; ++r) {
    ms.push_back(ttldb::bench::RunOnce(keys));
    std::printf("run %d: DeleteRange of %lld keys: %.0f ms\n", r + 1,
                static_cast<long long>(keys), ms.back());
    std::fflush(stdout);
  }
  std::printf("median %.0f ms (min %.0f, max %.0f)\n", ttldb::bench::Median(ms),
              *std::min_element(ms.begin(), ms.end()), ttldb::bench::Max(ms));
  return 0;
}
