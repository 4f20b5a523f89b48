// $setWindowFields through Collection::Aggregate. Expected answers come from
// MongoDB's manual pages, jstests and sources, cited per test.
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tests/aggregate_fixture.h"

namespace ttldb {
namespace {

class WindowTest : public AggregateTest {
 protected:
  // The manual's cakeSales collection
  // (https://www.mongodb.com/docs/manual/reference/operator/aggregation/setWindowFields/).
  Collection& CakeSales() {
    Collection& c = coll("cakeSales");
    Insert(
        c,
        {R"({"_id":0,"type":"chocolate","orderDate":{"$date":"2020-05-18T14:10:30Z"},"state":"CA","price":13,"quantity":120})",
         R"({"_id":1,"type":"chocolate","orderDate":{"$date":"2021-03-20T11:30:05Z"},"state":"WA","price":14,"quantity":140})",
         R"({"_id":2,"type":"vanilla","orderDate":{"$date":"2021-01-11T06:31:15Z"},"state":"CA","price":12,"quantity":145})",
         R"({"_id":3,"type":"vanilla","orderDate":{"$date":"2020-02-08T13:13:23Z"},"state":"WA","price":13,"quantity":104})",
         R"({"_id":4,"type":"strawberry","orderDate":{"$date":"2019-05-18T16:09:01Z"},"state":"CA","price":41,"quantity":162})",
         R"({"_id":5,"type":"strawberry","orderDate":{"$date":"2019-01-08T06:12:03Z"},"state":"WA","price":43,"quantity":134})"});
    return c;
  }
  // `pipeline` with a trailing projection of _id and `field`.
  std::string Out(Collection& c, const std::string& stage,
                  const std::string& field) {
    return Run(
        c, "[" + stage + R"(,{"$project":{"_id":1,")" + field + R"(":1}}])");
  }
};

// The manual's "Use Documents Window to Obtain Cumulative Quantity for Each
// State" and "... Moving Average Quantity for Each Year".
TEST_F(WindowTest, CumulativeSumAndMovingAverage) {
  Collection& c = CakeSales();
  EXPECT_EQ(
      Out(c,
          R"({"$setWindowFields":{"partitionBy":"$state","sortBy":{"orderDate":1},"output":{"cumulativeQuantityForState":{"$sum":"$quantity","window":{"documents":["unbounded","current"]}}}}})",
          "cumulativeQuantityForState"),
      R"([{"_id":4,"cumulativeQuantityForState":162},)"
      R"({"_id":0,"cumulativeQuantityForState":282},)"
      R"({"_id":2,"cumulativeQuantityForState":427},)"
      R"({"_id":5,"cumulativeQuantityForState":134},)"
      R"({"_id":3,"cumulativeQuantityForState":238},)"
      R"({"_id":1,"cumulativeQuantityForState":378}])");
  EXPECT_EQ(
      Out(c,
          R"({"$setWindowFields":{"partitionBy":{"$year":"$orderDate"},"sortBy":{"orderDate":1},"output":{"averageQuantity":{"$avg":"$quantity","window":{"documents":[-1,0]}}}}})",
          "averageQuantity"),
      R"([{"_id":5,"averageQuantity":134.0},)"
      R"({"_id":4,"averageQuantity":148.0},)"
      R"({"_id":3,"averageQuantity":104.0},)"
      R"({"_id":0,"averageQuantity":112.0},)"
      R"({"_id":2,"averageQuantity":145.0},)"
      R"({"_id":1,"averageQuantity":142.5}])");
  // The partition key's temporary field never shows.
  EXPECT_EQ(
      Run(c,
          R"([{"$match":{"_id":4}},{"$setWindowFields":{"partitionBy":{"$year":"$orderDate"},"output":{"n":{"$count":{}}}}},{"$project":{"orderDate":0,"type":0,"price":0}}])"),
      R"([{"_id":4,"state":"CA","quantity":162,"n":1}])");
}

// The manual's "Use a Time Range Window with a Positive Upper Bound" and
// "... with a Negative Upper Bound" ($push of orderDate, unit "month").
TEST_F(WindowTest, TimeRangeWindows) {
  Collection& c = CakeSales();
  EXPECT_EQ(
      Out(c,
          R"({"$setWindowFields":{"partitionBy":"$state","sortBy":{"orderDate":1},"output":{"recentOrders":{"$push":"$_id","window":{"range":["unbounded",10],"unit":"month"}}}}})",
          "recentOrders"),
      R"([{"_id":4,"recentOrders":[4]},{"_id":0,"recentOrders":[4,0,2]},)"
      R"({"_id":2,"recentOrders":[4,0,2]},{"_id":5,"recentOrders":[5]},)"
      R"({"_id":3,"recentOrders":[5,3]},{"_id":1,"recentOrders":[5,3,1]}])");
  EXPECT_EQ(
      Out(c,
          R"({"$setWindowFields":{"partitionBy":"$state","sortBy":{"orderDate":1},"output":{"recentOrders":{"$push":"$_id","window":{"range":["unbounded",-10],"unit":"month"}}}}})",
          "recentOrders"),
      R"([{"_id":4,"recentOrders":[]},{"_id":0,"recentOrders":[4]},)"
      R"({"_id":2,"recentOrders":[4]},{"_id":5,"recentOrders":[]},)"
      R"({"_id":3,"recentOrders":[5]},{"_id":1,"recentOrders":[5,3]}])");
  // A date sortBy without a unit, and a unit over numbers:
  // partition_iterator.cpp getEndpointsRangeBased (5429413, 5429513).
  EXPECT_EQ(
      Code(
          c,
          R"([{"$setWindowFields":{"sortBy":{"orderDate":1},"output":{"x":{"$sum":1,"window":{"range":[-1,0]}}}}}])"),
      5429413);
  EXPECT_EQ(
      Code(
          c,
          R"([{"$setWindowFields":{"sortBy":{"price":1},"output":{"x":{"$sum":1,"window":{"range":[-1,0],"unit":"day"}}}}}])"),
      5429513);
}

// The manual's $rank, $denseRank, $documentNumber and $shift pages
// (cakeSales partitioned by state, sorted by quantity descending).
TEST_F(WindowTest, RankAndShift) {
  Collection& c = CakeSales();
  EXPECT_EQ(
      Out(c,
          R"({"$setWindowFields":{"partitionBy":"$state","sortBy":{"quantity":-1},"output":{"r":{"$rank":{}}}}})",
          "r"),
      R"([{"_id":4,"r":1},{"_id":2,"r":2},{"_id":0,"r":3},)"
      R"({"_id":1,"r":1},{"_id":5,"r":2},{"_id":3,"r":3}])");
  EXPECT_EQ(
      Out(c,
          R"({"$setWindowFields":{"partitionBy":"$state","sortBy":{"quantity":-1},"output":{"s":{"$shift":{"output":"$quantity","by":1,"default":"Not available"}}}}})",
          "s"),
      R"([{"_id":4,"s":145},{"_id":2,"s":120},{"_id":0,"s":"Not available"},)"
      R"({"_id":1,"s":134},{"_id":5,"s":104},{"_id":3,"s":"Not available"}])");
  // Ties: $rank skips, $denseRank does not, $documentNumber counts
  // (the $denseRank page's "Dense Rank Duplicate, Null, and Missing
  // Values" example ranks ties the same).
  Collection& t = coll("ties");
  Insert(t, {R"({"_id":1,"q":5})", R"({"_id":2,"q":7})", R"({"_id":3,"q":5})",
             R"({"_id":4,"q":9})"});
  EXPECT_EQ(
      Run(t,
          R"([{"$setWindowFields":{"sortBy":{"q":1},"output":{"r":{"$rank":{}},"d":{"$denseRank":{}},"n":{"$documentNumber":{}}}}},{"$project":{"q":0}}])"),
      R"([{"_id":1,"r":1,"d":1,"n":1},{"_id":3,"r":1,"d":1,"n":2},)"
      R"({"_id":2,"r":3,"d":2,"n":3},{"_id":4,"r":4,"d":3,"n":4}])");
}

// The manual's $linearFill and $locf pages (stock prices by the hour).
TEST_F(WindowTest, LinearFillAndLocf) {
  Collection& c = coll("stock");
  Insert(c,
         {R"({"_id":1,"time":{"$date":"2021-03-08T09:00:00Z"},"price":500})",
          R"({"_id":2,"time":{"$date":"2021-03-08T10:00:00Z"}})",
          R"({"_id":3,"time":{"$date":"2021-03-08T11:00:00Z"},"price":515})",
          R"({"_id":4,"time":{"$date":"2021-03-08T12:00:00Z"}})",
          R"({"_id":5,"time":{"$date":"2021-03-08T13:00:00Z"}})",
          R"({"_id":6,"time":{"$date":"2021-03-08T14:00:00Z"},"price":560})"});
  EXPECT_EQ(
      Out(c,
          R"({"$setWindowFields":{"sortBy":{"time":1},"output":{"price":{"$linearFill":"$price"}}}})",
          "price"),
      R"([{"_id":1,"price":500},{"_id":2,"price":507.5},)"
      R"({"_id":3,"price":515},{"_id":4,"price":530.0},)"
      R"({"_id":5,"price":545.0},{"_id":6,"price":560}])");
  EXPECT_EQ(
      Out(c,
          R"({"$setWindowFields":{"sortBy":{"time":1},"output":{"price":{"$locf":"$price"}}}})",
          "price"),
      R"([{"_id":1,"price":500},{"_id":2,"price":500},)"
      R"({"_id":3,"price":515},{"_id":4,"price":515},)"
      R"({"_id":5,"price":515},{"_id":6,"price":560}])");
  // window_function_exec_linear_fill.cpp: repeated sort values (6050106).
  Insert(c, {R"({"_id":7,"time":{"$date":"2021-03-08T14:00:00Z"},"price":1})"});
  EXPECT_EQ(
      Code(
          c,
          R"([{"$setWindowFields":{"sortBy":{"time":1},"output":{"p":{"$linearFill":"$price"}}}}])"),
      6050106);
}

// The manual's $expMovingAvg page (stockPrices, N: 2 and alpha: 0.75).
TEST_F(WindowTest, ExpMovingAvg) {
  Collection& c = coll("stockPrices");
  Insert(
      c,
      {R"({"_id":1,"stock":"ABC","date":{"$date":"2020-05-18T20:00:00Z"},"price":13})",
       R"({"_id":2,"stock":"ABC","date":{"$date":"2020-05-19T20:00:00Z"},"price":15.4})",
       R"({"_id":3,"stock":"ABC","date":{"$date":"2020-05-20T20:00:00Z"},"price":12})",
       R"({"_id":4,"stock":"ABC","date":{"$date":"2020-05-21T20:00:00Z"},"price":11.7})",
       R"({"_id":5,"stock":"DEF","date":{"$date":"2020-05-18T20:00:00Z"},"price":82})",
       R"({"_id":6,"stock":"DEF","date":{"$date":"2020-05-19T20:00:00Z"},"price":94})",
       R"({"_id":7,"stock":"DEF","date":{"$date":"2020-05-20T20:00:00Z"},"price":112})",
       R"({"_id":8,"stock":"DEF","date":{"$date":"2020-05-21T20:00:00Z"},"price":97.3})"});
  EXPECT_EQ(
      Out(c,
          R"({"$setWindowFields":{"partitionBy":"$stock","sortBy":{"date":1},"output":{"e":{"$expMovingAvg":{"input":"$price","N":2}}}}})",
          "e"),
      R"([{"_id":1,"e":13.0},{"_id":2,"e":14.6},)"
      R"({"_id":3,"e":12.866666666666667},{"_id":4,"e":12.088888888888889},)"
      R"({"_id":5,"e":82.0},{"_id":6,"e":90.0},)"
      R"({"_id":7,"e":104.66666666666667},{"_id":8,"e":99.75555555555556}])");
  EXPECT_EQ(
      Out(c,
          R"({"$setWindowFields":{"partitionBy":"$stock","sortBy":{"date":1},"output":{"e":{"$expMovingAvg":{"input":"$price","alpha":0.75}}}}})",
          "e"),
      R"([{"_id":1,"e":13.0},{"_id":2,"e":14.8},)"
      R"({"_id":3,"e":12.7},{"_id":4,"e":11.95},)"
      R"({"_id":5,"e":82.0},{"_id":6,"e":91.0},)"
      R"({"_id":7,"e":106.75},{"_id":8,"e":99.6625}])");
}

// $derivative and $integral over numbers whose answers are exact
// (window_function_exec_derivative.cpp: rise / run between the window's
// endpoints, null for a one-document window; window_function_integral.cpp:
// the trapezoidal rule, 0 for one point).
TEST_F(WindowTest, DerivativeAndIntegral) {
  Collection& c = coll("pts");
  Insert(c, {R"({"_id":1,"t":0,"y":0})", R"({"_id":2,"t":2,"y":4})",
             R"({"_id":3,"t":4,"y":12})"});
  EXPECT_EQ(
      Run(c,
          R"([{"$setWindowFields":{"sortBy":{"t":1},"output":{"d":{"$derivative":{"input":"$y"},"window":{"documents":[-1,0]}},"i":{"$integral":{"input":"$y"},"window":{"documents":["unbounded","current"]}}}}},{"$project":{"d":1,"i":1}}])"),
      R"([{"_id":1,"d":null,"i":0},{"_id":2,"d":2.0,"i":4.0},)"
      R"({"_id":3,"d":4.0,"i":20.0}])");
  // With unit "hour" over dates one hour apart.
  Collection& h = coll("hours");
  Insert(h, {R"({"_id":1,"t":{"$date":"2021-01-01T00:00:00Z"},"y":10})",
             R"({"_id":2,"t":{"$date":"2021-01-01T01:00:00Z"},"y":30})"});
  EXPECT_EQ(
      Run(h,
          R"([{"$setWindowFields":{"sortBy":{"t":1},"output":{"d":{"$derivative":{"input":"$y","unit":"hour"},"window":{"documents":[-1,0]}},"i":{"$integral":{"input":"$y","unit":"hour"}}}}},{"$project":{"d":1,"i":1}}])"),
      R"([{"_id":1,"d":null,"i":20.0},{"_id":2,"d":20.0,"i":20.0}])");
  // 5624900: a unit over numbers; 5490710: a calendar unit;
  // "$derivative requires explicit window bounds" (9).
  EXPECT_EQ(
      Code(
          c,
          R"([{"$setWindowFields":{"sortBy":{"t":1},"output":{"d":{"$derivative":{"input":"$y","unit":"hour"},"window":{"documents":[-1,0]}}}}}])"),
      5624900);
  EXPECT_EQ(
      Code(
          c,
          R"([{"$setWindowFields":{"sortBy":{"t":1},"output":{"d":{"$derivative":{"input":"$y","unit":"month"},"window":{"documents":[-1,0]}}}}}])"),
      5490710);
  EXPECT_EQ(
      Code(
          c,
          R"([{"$setWindowFields":{"sortBy":{"t":1},"output":{"d":{"$derivative":{"input":"$y"}}}}}])"),
      9);
}

// Numeric range windows: jstests/aggregation/sources/setWindowFields/range.js
// (its collection x: 0, 1, 1.5, 2, 3, 100, 100, 101 and $push of x).
TEST_F(WindowTest, NumericRangeWindows) {
  Collection& c = coll("range");
  int id = 0;
  for (const char* x : {"0", "1", "1.5", "2", "3", "100", "100", "101"}) {
    Insert(c, {std::string(R"({"_id":)") + std::to_string(++id) + R"(,"x":)" +
               x + "}"});
  }
  EXPECT_EQ(
      Run(c,
          R"([{"$setWindowFields":{"sortBy":{"x":1},"output":{"y":{"$push":"$x","window":{"range":[-1,1]}}}}},{"$project":{"_id":0}}])"),
      R"([{"x":0,"y":[0,1]},{"x":1,"y":[0,1,1.5,2]},)"
      R"({"x":1.5,"y":[1,1.5,2]},{"x":2,"y":[1,1.5,2,3]},)"
      R"({"x":3,"y":[2,3]},{"x":100,"y":[100,100,101]},)"
      R"({"x":100,"y":[100,100,101]},{"x":101,"y":[100,100,101]}])");
  EXPECT_EQ(
      Run(c,
          R"([{"$setWindowFields":{"sortBy":{"x":1},"output":{"y":{"$push":"$x","window":{"range":[999,999]}}}}},{"$project":{"_id":0,"y":1}},{"$limit":1}])"),
      R"([{"y":[]}])");
  // "current" is the current document, "0" its value and its ties.
  EXPECT_EQ(
      Run(c,
          R"([{"$match":{"x":100}},{"$setWindowFields":{"sortBy":{"x":1},"output":{"c":{"$push":"$_id","window":{"range":["current","current"]}},"z":{"$push":"$_id","window":{"range":[0,0]}}}}},{"$project":{"x":0}}])"),
      R"([{"_id":6,"c":[6],"z":[6,7]},{"_id":7,"c":[7],"z":[6,7]}])");
  // A non-numeric sortBy value in the partition: 5429414.
  Insert(c, {R"({"_id":9,"x":""})"});
  EXPECT_EQ(
      Code(
          c,
          R"([{"$setWindowFields":{"sortBy":{"x":1},"output":{"y":{"$push":"$x","window":{"range":["unbounded","unbounded"]}}}}}])"),
      5429414);
}

// Accumulators over windows, with the empty window's value
// (window_function_*.cpp defaults: $sum 0, $avg / $min / $first null,
// $push []), $count, $topN and the default whole-partition window.
TEST_F(WindowTest, AccumulatorsOverWindows) {
  Collection& c = coll("acc");
  Insert(c, {R"({"_id":1,"v":3})", R"({"_id":2,"v":1})", R"({"_id":3,"v":2})"});
  EXPECT_EQ(
      Run(c,
          R"([{"$setWindowFields":{"sortBy":{"_id":1},"output":{"s":{"$sum":"$v","window":{"documents":[1,2]}},"a":{"$avg":"$v","window":{"documents":[1,2]}},"mn":{"$min":"$v","window":{"documents":[1,2]}},"f":{"$first":"$v","window":{"documents":[1,2]}},"p":{"$push":"$v","window":{"documents":[1,2]}},"n":{"$count":{}},"mx":{"$max":"$v"},"t":{"$topN":{"n":2,"sortBy":{"v":-1},"output":"$_id"}}}}},{"$project":{"v":0}}])"),
      R"([{"_id":1,"s":3,"a":1.5,"mn":1,"f":1,"p":[1,2],"n":3,"mx":3,"t":[1,3]},)"
      R"({"_id":2,"s":2,"a":2.0,"mn":2,"f":2,"p":[2],"n":3,"mx":3,"t":[1,3]},)"
      R"({"_id":3,"s":0,"a":null,"mn":null,"f":null,"p":[],"n":3,"mx":3,"t":[1,3]}])");
  // $stdDevPop, $covariancePop / $covarianceSamp over the whole partition.
  EXPECT_EQ(
      Run(c,
          R"([{"$setWindowFields":{"output":{"sd":{"$stdDevPop":"$v"},"cp":{"$covariancePop":["$v","$v"]},"cs":{"$covarianceSamp":["$_id","$v"]}}}},{"$limit":1},{"$project":{"v":0}}])"),
      R"([{"_id":1,"sd":0.816496580927726,"cp":0.6666666666666666,"cs":-0.5}])");
  // A lower bound past the partition's start folds incrementally and gives
  // the same sums as [unbounded, 1].
  EXPECT_EQ(
      Run(c,
          R"([{"$setWindowFields":{"sortBy":{"_id":1},"output":{"s":{"$sum":"$v","window":{"documents":[-1000000,1]}}}}},{"$project":{"v":0}}])"),
      R"([{"_id":1,"s":4},{"_id":2,"s":6},{"_id":3,"s":6}])");
  // $first / $last read the window's endpoint: a missing value leaves the
  // field unset (window_function_exec_first_last.h getFirst / getLast).
  EXPECT_EQ(
      Run(c,
          R"([{"$setWindowFields":{"sortBy":{"_id":1},"output":{"f":{"$first":"$w"},"l":{"$last":"$v","window":{"documents":[-1,-1]}}}}},{"$project":{"v":0}}])"),
      R"([{"_id":1,"l":null},{"_id":2,"l":3},{"_id":3,"l":1}])");
  // Dotted output paths are set as $addFields sets them.
  EXPECT_EQ(
      Run(c,
          R"([{"$match":{"_id":1}},{"$setWindowFields":{"output":{"a.b":{"$sum":"$v"}}}}])"),
      R"([{"_id":1,"v":3,"a":{"b":3}}])");
}

// Parse errors, with MongoDB's codes (document_source_set_window_fields.cpp,
// window_bounds.cpp, window_function_expression.{h,cpp}, the IDL).
TEST_F(WindowTest, Errors) {
  Collection& c = coll("e");
  Insert(c, {R"({"_id":1,"a":[1]})"});
  auto code = [&](const std::string& stage) {
    return Code(c, "[{\"$setWindowFields\":" + stage + "}]");
  };
  EXPECT_EQ(code("1"), 9);                           // must be an object
  EXPECT_EQ(code(R"({})"), 40414);                   // output is required
  EXPECT_EQ(code(R"({"output":{},"x":1})"), 40415);  // unknown field
  EXPECT_EQ(code(R"({"sortBy":1,"output":{}})"), 14);
  EXPECT_EQ(code(R"({"output":{"a":{"$summ":1}}})"), 9);
  EXPECT_EQ(code(R"({"output":{"a":1}})"), 9);
  EXPECT_EQ(code(R"({"output":{"a":{"$sum":1},"a.b":{"$sum":1}}})"), 6307900);
  EXPECT_EQ(code(R"({"output":{"a":{"$rank":{}}}})"), 5371602);
  EXPECT_EQ(code(R"({"sortBy":{"a":1,"b":1},"output":{"a":{"$rank":{}}}})"),
            5371602);
  EXPECT_EQ(code(R"({"sortBy":{"a":1},"output":{"a":{"$rank":1}}})"), 5371603);
  EXPECT_EQ(
      code(R"({"output":{"a":{"$sum":1,"window":{"documents":[-1,0]}}}})"),
      5339901);
  EXPECT_EQ(
      code(
          R"({"sortBy":{"a":1},"output":{"a":{"$sum":1,"window":{"documents":[1,0]}}}})"),
      5339900);
  EXPECT_EQ(
      code(
          R"({"sortBy":{"a":1,"b":1},"output":{"a":{"$sum":1,"window":{"range":[1,2]}}}})"),
      5339902);
  EXPECT_EQ(
      code(
          R"({"sortBy":{"a":1},"output":{"a":{"$sum":1,"window":{"documents":[0.5,1]}}}})"),
      9);
  EXPECT_EQ(
      code(
          R"({"sortBy":{"a":1},"output":{"a":{"$sum":1,"window":{"range":[1,2],"unit":"fortnight"}}}})"),
      9);
  EXPECT_EQ(code(R"({"output":{"a":{"$shift":{"output":1,"by":1}}}})"), 9);
  EXPECT_EQ(
      code(
          R"({"sortBy":{"a":1},"output":{"a":{"$shift":{"output":1,"by":1},"window":{}}}})"),
      9);
  EXPECT_EQ(code(R"({"output":{"a":{"$linearFill":"$a"}}})"), 605001);
  EXPECT_EQ(
      code(
          R"({"sortBy":{"a":1},"output":{"a":{"$expMovingAvg":{"input":1,"N":0}}}})"),
      9);
  // An array partition key: 14 TypeMismatch (partition_key_comparator.h).
  EXPECT_EQ(code(R"({"partitionBy":"$a","output":{"n":{"$count":{}}}})"), 14);
  EXPECT_EQ(code(R"({"partitionBy":[1],"output":{"n":{"$count":{}}}})"), 14);
}

// The partition's memory bound (5414201), and the sort before it (292
// without allowDiskUse, as $sort).
TEST_F(WindowTest, MemoryBound) {
  Collection& c = coll("big");
  std::string pad(1000, 'x');
  for (int i = 0; i < 50; ++i) {
    Insert(c, {"{\"_id\":" + std::to_string(i) + ",\"p\":\"" + pad + "\"}"});
  }
  AggregateOptions small;
  small.max_memory_bytes = 20000;
  EXPECT_EQ(Code(c, R"([{"$setWindowFields":{"output":{"n":{"$count":{}}}}}])",
                 small),
            5414201);
  EXPECT_EQ(
      Code(
          c,
          R"([{"$setWindowFields":{"sortBy":{"p":1},"output":{"n":{"$count":{}}}}}])",
          small),
      292);
  // The results count too: $push over the whole partition builds one array
  // per document (50 x 50 copies of the pad here).
  AggregateOptions medium;
  medium.max_memory_bytes = 200000;
  EXPECT_EQ(
      Code(c, R"([{"$setWindowFields":{"output":{"all":{"$push":"$p"}}}}])",
           medium),
      5414201);
  small.allow_disk_use = true;
  EXPECT_EQ(
      Code(
          c,
          R"([{"$setWindowFields":{"partitionBy":"$_id","sortBy":{"p":1},"output":{"n":{"$count":{}}}}}])",
          small),
      0);
}

}  // namespace
}  // namespace ttldb
