// $densify and $fill through Collection::Aggregate. Expected answers come
// from MongoDB's manual pages and document_source_densify.cpp /
// document_source_fill.cpp, cited per test.
#include <string>

#include "gtest/gtest.h"
#include "tests/aggregate_fixture.h"

namespace ttldb {
namespace {

// The manual's $densify "Densify Time Series Data" (weather, hourly steps
// over [00:00, 08:00): the upper bound is exclusive; generated documents
// hold only the field).
TEST_F(AggregateTest, DensifyHourlyDates) {
  Collection& c = coll("weather");
  Insert(
      c,
      {R"({"_id":1,"timestamp":{"$date":"2021-05-18T00:00:00Z"},"temp":12})",
       R"({"_id":2,"timestamp":{"$date":"2021-05-18T04:00:00Z"},"temp":11})",
       R"({"_id":3,"timestamp":{"$date":"2021-05-18T08:00:00Z"},"temp":11})",
       R"({"_id":4,"timestamp":{"$date":"2021-05-18T12:00:00Z"},"temp":12})"});
  EXPECT_EQ(
      Run(c,
          R"([{"$densify":{"field":"timestamp","range":{"step":1,"unit":"hour","bounds":[{"$date":"2021-05-18T00:00:00Z"},{"$date":"2021-05-18T08:00:00Z"}]}}},{"$project":{"_id":1,"timestamp":1}}])"),
      R"([{"_id":1,"timestamp":{"$date":"2021-05-18T00:00:00.000Z"}},)"
      R"({"timestamp":{"$date":"2021-05-18T01:00:00.000Z"}},)"
      R"({"timestamp":{"$date":"2021-05-18T02:00:00.000Z"}},)"
      R"({"timestamp":{"$date":"2021-05-18T03:00:00.000Z"}},)"
      R"({"_id":2,"timestamp":{"$date":"2021-05-18T04:00:00.000Z"}},)"
      R"({"timestamp":{"$date":"2021-05-18T05:00:00.000Z"}},)"
      R"({"timestamp":{"$date":"2021-05-18T06:00:00.000Z"}},)"
      R"({"timestamp":{"$date":"2021-05-18T07:00:00.000Z"}},)"
      R"({"_id":3,"timestamp":{"$date":"2021-05-18T08:00:00.000Z"}},)"
      R"({"_id":4,"timestamp":{"$date":"2021-05-18T12:00:00.000Z"}}])");
}

// Partitions, as document_source_densify.cpp runs them: "full" sorts by
// the field alone, starts every partition at the smallest value and, after
// the input, densifies each partition up to the largest value, included when
// on the step (finishDensifyingPartitionedInput); explicit bounds sort by
// partition then field and finish each partition's range after the input.
TEST_F(AggregateTest, DensifyPartitions) {
  Collection& c = coll("parts");
  Insert(c, {R"({"_id":1,"p":"A","v":0})", R"({"_id":2,"p":"A","v":4})",
             R"({"_id":3,"p":"B","v":2})"});
  EXPECT_EQ(
      Run(c,
          R"([{"$densify":{"field":"v","partitionByFields":["p"],"range":{"step":2,"bounds":"full"}}}])"),
      R"([{"_id":1,"p":"A","v":0},{"p":"B","v":0},{"_id":3,"p":"B","v":2},)"
      R"({"p":"A","v":2},{"_id":2,"p":"A","v":4},{"p":"B","v":4}])");
  EXPECT_EQ(
      Run(c,
          R"([{"$densify":{"field":"v","partitionByFields":["p"],"range":{"step":1,"bounds":"partition"}}}])"),
      R"([{"_id":1,"p":"A","v":0},{"p":"A","v":1},{"p":"A","v":2},)"
      R"({"p":"A","v":3},{"_id":2,"p":"A","v":4},{"_id":3,"p":"B","v":2}])");
  Collection& e = coll("explicit");
  Insert(e, {R"({"_id":1,"p":"A","v":1})", R"({"_id":2,"p":"B","v":3})",
             R"({"_id":3,"p":"B"})"});
  EXPECT_EQ(
      Run(e,
          R"([{"$densify":{"field":"v","partitionByFields":["p"],"range":{"step":1,"bounds":[0,4]}}}])"),
      R"([{"p":"A","v":0},{"_id":1,"p":"A","v":1},{"_id":3,"p":"B"},)"
      R"({"p":"B","v":0},{"p":"B","v":1},{"p":"B","v":2},)"
      R"({"_id":2,"p":"B","v":3},{"p":"A","v":2},{"p":"A","v":3}])");
}

// RangeStatement::parse and the stage's other errors
// (document_source_densify.{h,cpp}).
TEST_F(AggregateTest, DensifyErrors) {
  Collection& c = coll("d");
  Insert(c, {R"({"_id":1,"v":1})", R"({"_id":2,"v":"x"})"});
  auto code = [&](const std::string& stage) {
    return Code(c, "[{\"$densify\":" + stage + "}]");
  };
  EXPECT_EQ(code("1"), 9);
  EXPECT_EQ(code(R"({"range":{"step":1,"bounds":"full"}})"), 40414);
  EXPECT_EQ(code(R"({"field":"v","range":{"step":0,"bounds":"full"}})"),
            5733401);
  EXPECT_EQ(code(R"({"field":"v","range":{"step":1,"bounds":"partition"}})"),
            5733408);
  EXPECT_EQ(code(R"({"field":"v","range":{"step":1,"bounds":[5,1]}})"),
            5733402);
  EXPECT_EQ(code(R"({"field":"v","range":{"step":1.5,"bounds":[0,10]}})"),
            5876900);
  EXPECT_EQ(
      code(
          R"({"field":"v","range":{"step":1,"bounds":[{"$date":"2021-01-01T00:00:00Z"},{"$date":"2021-01-02T00:00:00Z"}]}})"),
      5733410);
  EXPECT_EQ(code(R"({"field":"v","range":{"step":1,"bounds":"middle"}})"),
            5946802);
  // A string value: 5733201 (DensifyValue::getFromValue).
  EXPECT_EQ(code(R"({"field":"v","range":{"step":1,"bounds":"full"}})"),
            5733201);
  // internalQueryMaxAllowedDensifyDocs: 500,000 generated documents.
  EXPECT_EQ(code(R"({"field":"w","range":{"step":1,"bounds":[0,1000000]}})"),
            5897900);
  EXPECT_EQ(code(R"({"field":"w","range":{"step":1,"bounds":[0,500000]}})"), 0);
}

// The manual's $fill examples: "Fill Missing Field Values with a Constant
// Value" (dailySales) and "... with Linear Interpolation" / "... Based on the
// Last Observed Value" (stock prices).
TEST_F(AggregateTest, Fill) {
  Collection& c = coll("dailySales");
  Insert(c, {R"({"_id":1,"bootsSold":10,"sandalsSold":20,"sneakersSold":12})",
             R"({"_id":2,"bootsSold":7,"sneakersSold":18})",
             R"({"_id":3,"sneakersSold":5})"});
  EXPECT_EQ(
      Run(c,
          R"([{"$fill":{"output":{"bootsSold":{"value":0},"sandalsSold":{"value":0},"sneakersSold":{"value":0}}}}])"),
      R"([{"_id":1,"bootsSold":10,"sandalsSold":20,"sneakersSold":12},)"
      R"({"_id":2,"bootsSold":7,"sneakersSold":18,"sandalsSold":0},)"
      R"({"_id":3,"sneakersSold":5,"bootsSold":0,"sandalsSold":0}])");
  Collection& s = coll("stock");
  Insert(s,
         {R"({"_id":1,"time":{"$date":"2021-03-08T09:00:00Z"},"price":500})",
          R"({"_id":2,"time":{"$date":"2021-03-08T10:00:00Z"}})",
          R"({"_id":3,"time":{"$date":"2021-03-08T11:00:00Z"},"price":515})",
          R"({"_id":4,"time":{"$date":"2021-03-08T12:00:00Z"}})",
          R"({"_id":5,"time":{"$date":"2021-03-08T13:00:00Z"}})",
          R"({"_id":6,"time":{"$date":"2021-03-08T14:00:00Z"},"price":560})"});
  EXPECT_EQ(
      Run(s,
          R"([{"$fill":{"sortBy":{"time":1},"output":{"price":{"method":"linear"}}}},{"$project":{"price":1}}])"),
      R"([{"_id":1,"price":500},{"_id":2,"price":507.5},)"
      R"({"_id":3,"price":515},{"_id":4,"price":530.0},)"
      R"({"_id":5,"price":545.0},{"_id":6,"price":560}])");
  EXPECT_EQ(
      Run(s,
          R"([{"$fill":{"sortBy":{"time":1},"output":{"price":{"method":"locf"}}}},{"$project":{"price":1}}])"),
      R"([{"_id":1,"price":500},{"_id":2,"price":500},)"
      R"({"_id":3,"price":515},{"_id":4,"price":515},)"
      R"({"_id":5,"price":515},{"_id":6,"price":560}])");
  // document_source_fill.cpp's errors.
  auto code = [&](const std::string& stage) {
    return Code(s, "[{\"$fill\":" + stage + "}]");
  };
  EXPECT_EQ(code(R"({"output":{}})"), 6050203);
  EXPECT_EQ(code(R"({"output":{"a":1}})"), 6050200);
  EXPECT_EQ(code(R"({"output":{"a":{"method":"locf","value":1}}})"), 6050201);
  EXPECT_EQ(code(R"({"output":{"a":{"method":"mean"}}})"), 6050202);
  EXPECT_EQ(
      code(
          R"({"partitionBy":"$a","partitionByFields":["a"],"sortBy":{"time":1},"output":{"a":{"method":"locf"}}})"),
      6050204);
  EXPECT_EQ(code(R"({"sortBy":{"time":1}})"), 40414);
  // $linearFill needs a one-field sortBy (605001, through $setWindowFields).
  EXPECT_EQ(code(R"({"output":{"a":{"method":"linear"}}})"), 605001);
}

}  // namespace
}  // namespace ttldb
