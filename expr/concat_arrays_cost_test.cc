// What $concatArrays costs (issue 28, review reliability-3 N6): a $reduce
// that doubles $$value with {$concatArrays: ["$$value", "$$value"]} fails
// with 10334 once the array would pass 16 MiB, and on its way there holds
// $$value and the array it builds, not two more copies of $$value; the
// step that would pass the bound builds nothing. The heap is measured by
// this binary's operator new (its peak of live bytes), so the test does
// not depend on the machine's speed.
#include <malloc.h>

#include <atomic>
#include <cstdlib>
#include <new>
#include <string>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "document/bson.h"
#include "expr/expr_test_util.h"
#include "gtest/gtest.h"

namespace {

std::atomic<int64_t> live_bytes{0};
std::atomic<int64_t> peak_bytes{0};

void* Allocate(size_t n) {
  void* p = std::malloc(n == 0 ? 1 : n);
  if (p == nullptr) throw std::bad_alloc();
  int64_t now = live_bytes.fetch_add(malloc_usable_size(p)) +
                static_cast<int64_t>(malloc_usable_size(p));
  int64_t peak = peak_bytes.load();
  while (now > peak && !peak_bytes.compare_exchange_weak(peak, now)) {
  }
  return p;
}

void Free(void* p) {
  if (p == nullptr) return;
  live_bytes.fetch_sub(malloc_usable_size(p));
  std::free(p);
}

}  // namespace

void* operator new(size_t n) { return Allocate(n); }
void* operator new[](size_t n) { return Allocate(n); }
void operator delete(void* p) noexcept { Free(p); }
void operator delete[](void* p) noexcept { Free(p); }
void operator delete(void* p, size_t) noexcept { Free(p); }
void operator delete[](void* p, size_t) noexcept { Free(p); }

namespace ttldb {
namespace agg {
namespace {

// The most bytes live at once while `expr_json` is evaluated, above what
// was live before.
int64_t PeakBytesOf(const std::string& expr_json, std::string* result) {
  const int64_t before = live_bytes.load();
  peak_bytes.store(before);
  *result = Eval(expr_json);
  return peak_bytes.load() - before;
}

constexpr int64_t kMiB = 1 << 20;

TEST(ConcatArraysCostTest, DoublingReduceFailsWithoutCopiesOfValue) {
  // reliability-3 N6's expression. 2^21 int32 elements are 26 MB of BSON:
  // the step from 2^20 to 2^21 fails. The last array built has 2^20
  // elements; the failing step holds it and builds nothing.
  std::string result;
  const int64_t peak = PeakBytesOf(
      R"({"$reduce": {"input": {"$range": [0, 25]}, "initialValue": [1],)"
      R"( "in": {"$concatArrays": ["$$value", "$$value"]}}})",
      &result);
  EXPECT_EQ(result,
            "error 10334: $concatArrays would build a value of 26151871 "
            "bytes, over the 16793600-byte limit of a BSON document");
  // $$value (2^20 Values) and, at the step before, the array of 2^20 built
  // from 2^19: 1.5 * 2^20 Values. Two more copies of $$value and the
  // 2^21-element array built before the check (as before) were 5 * 2^20.
  ::testing::Test::RecordProperty("peak_bytes", std::to_string(peak));
  const int64_t values = int64_t{3} << 19;
  EXPECT_LT(peak, values * static_cast<int64_t>(sizeof(Value)) + 8 * kMiB)
      << "peak " << peak / kMiB << " MiB";
}

TEST(ConcatArraysCostTest, TheBoundIsTheBuiltArraysSize) {
  // The size computed before building is the BSON size of the array that
  // would be built, whatever the operands' lengths.
  EXPECT_EQ(Eval(R"({"$size": {"$concatArrays": [{"$range": [0, 1000]},)"
                 R"( {"$range": [0, 1000000]}, [1, "x", {"a": [2]}]]}})"),
            "1001003");
  // 1,000,000 + 400,000 int32s: over the bound, and 10334 names the size
  // of the array of 1,400,000 (the index names of the second operand's
  // elements change length).
  Value::Array whole;
  for (int i = 0; i < 1000000; ++i) whole.push_back(Value::Int32(i));
  for (int i = 0; i < 400000; ++i) whole.push_back(Value::Int32(i));
  const size_t bytes = BsonValueSize(Value::MakeArray(std::move(whole)));
  EXPECT_EQ(
      Eval(R"({"$concatArrays": [{"$range": [0, 1000000]},)"
           R"( {"$range": [0, 400000]}]})"),
      absl::StrCat("error 10334: $concatArrays would build a value of ", bytes,
                   " bytes, over the 16793600-byte limit of a BSON "
                   "document"));
}

}  // namespace
}  // namespace agg
}  // namespace ttldb
