// What decoding one stored document into a Value tree costs (issue 19):
// the heap allocations per decoded document (this binary counts every
// operator new and malloc-backed allocation it makes through operator new),
// and the CPU time of building the tree apart from freeing it, on the cold
// workload's 256 B documents. Not a test; a measuring aid.
//   decode_cost [--ops=200000] [--bytes=256]
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <new>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "tools/bench/bench_util.h"
#include "ttldb/json.h"
#include "ttldb/value.h"

namespace {
thread_local long long g_news = 0;
thread_local long long g_new_bytes = 0;
}  // namespace

void* operator new(size_t n) {
  ++g_news;
  g_new_bytes += static_cast<long long>(n);
  void* p = std::malloc(n == 0 ? 1 : n);
  if (p == nullptr) throw std::bad_alloc();
  return p;
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, size_t) noexcept { std::free(p); }

namespace ttldb {
namespace bench {
namespace {

int Main(int argc, char** argv) {
  int64_t ops = 200000, bytes = 256;
  for (int i = 1; i < argc; ++i) {
    if (ParsePositiveFlag(argv[i], "ops", &ops) ||
        ParsePositiveFlag(argv[i], "bytes", &bytes)) {
      continue;
    }
    Die(std::string("unknown flag ") + argv[i]);
  }
  constexpr int kDocs = 1024;  // more than L1 holds, as cold reads are
  std::vector<std::string> docs(kDocs);
  for (int i = 0; i < kDocs; ++i) {
    MakeDoc(i * 7919, kNowMillis, static_cast<int>(bytes), &docs[i]);
  }
  // Warm the parser's per-thread scratch.
  for (int i = 0; i < kDocs; ++i) {
    if (!ParseDocument(docs[i], StoredJsonParseOptions()).ok()) Die("parse");
  }
  {
    const long long n0 = g_news, b0 = g_new_bytes;
    Value v = *ParseDocument(docs[0], StoredJsonParseOptions());
    const long long n1 = g_news, b1 = g_new_bytes;
    Value c = v;
    printf(
        "document %zu B: %lld allocations (%lld B) to decode; a copy %lld "
        "(%lld B); sizeof(Value) %zu, sizeof(Field) %zu\n",
        docs[0].size(), n1 - n0, b1 - b0, g_news - n1, g_new_bytes - b1,
        sizeof(Value), sizeof(Field));
  }
  std::vector<Value> kept(kDocs);
  double best_build = 1e18, best_free = 1e18, best_both = 1e18,
         best_copy = 1e18;
  for (int trial = 0; trial < 7; ++trial) {
    int64_t build = 0, freeing = 0;
    for (int64_t done = 0; done < ops; done += kDocs) {
      int64_t t0 = ThreadCpuNanos();
      for (int i = 0; i < kDocs; ++i) {
        kept[i] = *ParseDocument(docs[i], StoredJsonParseOptions());
      }
      int64_t t1 = ThreadCpuNanos();
      for (int i = 0; i < kDocs; ++i) kept[i] = Value();
      int64_t t2 = ThreadCpuNanos();
      build += t1 - t0;
      freeing += t2 - t1;
    }
    const int64_t n = (ops + kDocs - 1) / kDocs * kDocs;
    best_build = std::min(best_build, double(build) / n);
    best_free = std::min(best_free, double(freeing) / n);
    int64_t t0 = ThreadCpuNanos();
    for (int64_t k = 0; k < ops; ++k) {
      auto d = ParseDocument(docs[k % kDocs], StoredJsonParseOptions());
      if (!d.ok()) Die("parse");
    }
    best_both = std::min(best_both, double(ThreadCpuNanos() - t0) / ops);
    Value src = *ParseDocument(docs[1], StoredJsonParseOptions());
    t0 = ThreadCpuNanos();
    for (int64_t k = 0; k < ops; ++k) {
      Value c = src;
      (void)c;
    }
    best_copy = std::min(best_copy, double(ThreadCpuNanos() - t0) / ops);
  }
  // The read path's hand-over of the decoded tree, old and new: session 7's
  // chain (ParseDocument's StatusOr, make_shared, optional,
  // StatusOr<optional>, optional, StatusOr) against ParseDocumentInto into
  // the StatusOr that FindById returns. Both free the tree.
  double best_chain = 1e18, best_direct = 1e18;
  for (int trial = 0; trial < 7; ++trial) {
    int64_t t0 = ThreadCpuNanos();
    for (int64_t k = 0; k < ops; ++k) {
      auto read = [&]() -> absl::StatusOr<std::optional<Value>> {
        auto doc = ParseDocument(docs[k % kDocs], StoredJsonParseOptions());
        if (!doc.ok()) Die("parse");
        auto shared = std::make_shared<Value>(*std::move(doc));
        return std::optional<Value>(std::move(*shared));
      };
      auto find = [&]() -> absl::StatusOr<Value> {
        absl::StatusOr<std::optional<Value>> r = read();
        std::optional<Value> doc = *std::move(r);
        return std::move(*doc);
      };
      absl::StatusOr<Value> v = find();
      if (!v.ok()) Die("find");
    }
    best_chain = std::min(best_chain, double(ThreadCpuNanos() - t0) / ops);
    t0 = ThreadCpuNanos();
    for (int64_t k = 0; k < ops; ++k) {
      auto find = [&]() -> absl::StatusOr<Value> {
        absl::StatusOr<Value> doc(absl::in_place);
        if (!ParseDocumentInto(docs[k % kDocs], StoredJsonParseOptions(), &*doc)
                 .ok()) {
          Die("parse");
        }
        return doc;
      };
      absl::StatusOr<Value> v = find();
      if (!v.ok()) Die("find");
    }
    best_direct = std::min(best_direct, double(ThreadCpuNanos() - t0) / ops);
  }
  printf(
      "read hand-over incl. parse+free, CPU ns/doc, best of 7: session "
      "7's chain %.1f, ParseDocumentInto %.1f\n",
      best_chain, best_direct);
  printf(
      "CPU ns/doc, best of 7: build (parse into a kept Value) %.1f, "
      "free %.1f, parse+free in one %.1f, copy+free %.1f\n",
      best_build, best_free, best_both, best_copy);
  return 0;
}

}  // namespace
}  // namespace bench
}  // namespace ttldb

int main(int argc, char** argv) { return ttldb::bench::Main(argc, argv); }
