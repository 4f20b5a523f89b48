// Accumulators: each result, and the partial/merge form $group's spilling
// relies on: folding values split across two accumulators and merging the
// partials gives the single accumulator's result.
#include "pipeline/accumulator.h"

#include <cmath>
#include <string>
#include <vector>

#include "base/status.h"
#include "gtest/gtest.h"
#include "ttldb/json.h"

namespace ttldb {
namespace agg {
namespace {

Value J(const std::string& json) {
  auto v = ParseValue(json);
  EXPECT_TRUE(v.ok()) << v.status() << json;
  return *v;
}

struct Fold {
  std::string whole;   // Final() over every document
  std::string merged;  // two halves, the second's Partial merged into the first
};

// Folds `docs` ({v: ...} documents; the argument is the accumulator spec's
// expression evaluated against each).
Fold FoldAll(const std::string& spec, const std::vector<std::string>& docs) {
  ParseContext pctx;
  auto a = AccumulatorSpec::Parse("f", J(spec), &pctx);
  EXPECT_TRUE(a.ok()) << a.status();
  std::vector<Value> values;
  for (const std::string& d : docs) values.push_back(J(d));
  Value first = values.empty() ? Value::MakeObject() : values[0];
  Variables vars(&first, 0);
  auto make = [&]() { return std::move(*a->Make(first, &vars)); };
  auto feed = [&](Accumulator* acc, size_t from, size_t to) {
    for (size_t i = from; i < to; ++i) {
      vars.set_root(&values[i]);
      std::optional<Value> v = Value::Int32(1);
      if (a->argument() != nullptr) {
        v = *a->argument()->Evaluate(values[i], &vars);
      }
      EXPECT_TRUE(acc->Process(v, values[i]).ok());
    }
  };
  auto whole = make();
  feed(whole.get(), 0, values.size());
  auto left = make();
  auto right = make();
  size_t half = values.size() / 2;
  feed(left.get(), 0, half);
  feed(right.get(), half, values.size());
  EXPECT_TRUE(left->Merge(right->Partial()).ok());
  return {ToJson(whole->Final()), ToJson(left->Final())};
}

TEST(AccumulatorTest, ResultsAndMergedPartials) {
  const std::vector<std::string> docs = {
      R"({"v":3,"s":"b","k":2})", R"({"v":1.5,"s":"a","k":9})",
      R"({"s":null,"k":4})", R"({"v":{"$numberLong":"10"},"s":"c","k":1})",
      R"({"v":"x","s":"a","k":7})"};
  struct Case {
    const char* spec;
    const char* want;
  } cases[] = {
      {R"({"$sum":"$v"})", "14.5"},
      {R"({"$sum":1})", "5"},
      {R"({"$count":{}})", "5"},
      {R"({"$avg":"$v"})", "4.833333333333333"},
      {R"({"$min":"$s"})", R"("a")"},
      {R"({"$max":"$v"})", R"("x")"},  // strings sort above numbers
      {R"({"$first":"$v"})", "3"},
      {R"({"$last":"$v"})", R"("x")"},
      {R"({"$push":"$v"})", R"([3,1.5,10,"x"])"},
      {R"({"$addToSet":"$s"})", R"(["b","a",null,"c"])"},
      {R"({"$mergeObjects":{"$literal":{"a":1}}})", R"({"a":1})"},
      {R"({"$top":{"output":"$s","sortBy":{"k":1}}})", R"("c")"},
      {R"({"$bottom":{"output":"$s","sortBy":{"k":1}}})", R"("a")"},
      {R"({"$topN":{"output":"$k","sortBy":{"k":-1},"n":2}})", "[9,7]"},
      {R"({"$bottomN":{"output":"$k","sortBy":{"k":-1},"n":2}})", "[2,1]"},
      {R"({"$firstN":{"input":"$k","n":2}})", "[2,9]"},
      {R"({"$lastN":{"input":"$k","n":2}})", "[1,7]"},
      {R"({"$minN":{"input":"$s","n":2}})", R"(["a","a"])"},
      {R"({"$maxN":{"input":"$k","n":3}})", "[9,7,4]"},
  };
  for (const Case& c : cases) {
    Fold f = FoldAll(c.spec, docs);
    EXPECT_EQ(f.whole, c.want) << c.spec;
    EXPECT_EQ(f.merged, c.want) << c.spec << " (merged partials)";
  }
  // $stdDevPop over 3, 1.5, 10: merged partials agree to rounding.
  Fold sd = FoldAll(R"({"$stdDevPop":"$v"})", docs);
  double mean = (3 + 1.5 + 10) / 3.0;
  double var = ((3 - mean) * (3 - mean) + (1.5 - mean) * (1.5 - mean) +
                (10 - mean) * (10 - mean)) /
               3;
  EXPECT_NEAR(std::stod(sd.whole), std::sqrt(var), 1e-12);
  EXPECT_NEAR(std::stod(sd.merged), std::stod(sd.whole), 1e-12);
}

TEST(AccumulatorTest, ParseErrors) {
  ParseContext pctx;
  auto code = [&](const std::string& spec) {
    auto a = AccumulatorSpec::Parse("f", J(spec), &pctx);
    return a.ok() ? 0 : ErrorCode(a.status());
  };
  EXPECT_EQ(code("1"), 40234);
  EXPECT_EQ(code(R"({"$sum":1,"$avg":1})"), 40238);
  EXPECT_EQ(code(R"({"$nope":1})"), 15952);
  EXPECT_EQ(code(R"({"$push":[1,2]})"), 40237);
  EXPECT_EQ(code(R"({"$count":1})"), 14);
  EXPECT_EQ(code(R"({"$topN":{"output":"$a","sortBy":{"a":1}}})"), 5787906);
  EXPECT_EQ(code(R"({"$top":{"output":"$a"}})"), 5788004);
}

}  // namespace
}  // namespace agg
}  // namespace ttldb
