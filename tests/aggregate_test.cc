// Collection::Aggregate through the public API on real databases. Expected
// answers come from MongoDB's manual pages and jstests, cited per test.
#include <cmath>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include "base/status.h"
#include "expr/expression.h"
#include "gtest/gtest.h"
#include "tests/aggregate_fixture.h"
#include "ttldb/database.h"
#include "ttldb/json.h"

namespace ttldb {
namespace {

// ---- $match / $sort / $limit / $skip ----------------------------------------

TEST_F(AggregateTest, MatchSortSkipLimit) {
  // https://www.mongodb.com/docs/manual/reference/operator/aggregation/match/
  // (articles collection).
  Collection& c = coll("articles");
  Insert(c, {R"({"_id":1,"author":"dave","score":80,"views":100})",
             R"({"_id":2,"author":"dave","score":85,"views":521})",
             R"({"_id":3,"author":"ahn","score":60,"views":1000})",
             R"({"_id":4,"author":"li","score":55,"views":5000})",
             R"({"_id":5,"author":"annT","score":60,"views":50})",
             R"({"_id":6,"author":"li","score":94,"views":999})",
             R"({"_id":7,"author":"ty","score":95,"views":1000})"});
  EXPECT_EQ(Run(c, R"([{"$match":{"author":"dave"}}])"),
            R"([{"_id":1,"author":"dave","score":80,"views":100},)"
            R"({"_id":2,"author":"dave","score":85,"views":521}])");
  EXPECT_EQ(Run(c, R"([{"$match":{"views":{"$gte":1000}}},)"
                   R"({"$sort":{"score":-1}},{"$project":{"_id":1}}])"),
            R"([{"_id":7},{"_id":3},{"_id":4}])");
  EXPECT_EQ(Run(c, R"([{"$sort":{"views":1,"_id":1}},{"$skip":2},)"
                   R"({"$limit":3},{"$project":{"_id":1}}])"),
            R"([{"_id":2},{"_id":6},{"_id":3}])");
  // $limit then $skip: the skip applies to the limited stream.
  EXPECT_EQ(Run(c, R"([{"$sort":{"_id":1}},{"$limit":3},{"$skip":1},)"
                   R"({"$project":{"_id":1}}])"),
            R"([{"_id":2},{"_id":3}])");
  EXPECT_EQ(Run(c, R"([{"$sort":{"_id":1}},{"$limit":2},{"$skip":5}])"), "[]");
  // $sort after a $group (not pushed down), with a top-k $limit.
  EXPECT_EQ(Run(c, R"([{"$project":{"score":1}},{"$sort":{"score":-1}},)"
                   R"({"$limit":2}])"),
            R"([{"_id":7,"score":95},{"_id":6,"score":94}])");
}

TEST_F(AggregateTest, EmptyPipelineAndMissingCollection) {
  Collection& c = coll("c");
  Insert(c, {R"({"_id":1})", R"({"_id":2})"});
  EXPECT_EQ(Run(c, "[]"), R"([{"_id":1},{"_id":2}])");
  EXPECT_EQ(Run(coll("nothing"), R"([{"$match":{}}])"), "[]");
}

// ---- $project / $addFields / $unset ----------------------------------------

TEST_F(AggregateTest, ProjectInclusionAndExclusion) {
  // https://www.mongodb.com/docs/manual/reference/operator/aggregation/project/
  Collection& c = coll("books");
  Insert(c, {R"({"_id":1,"title":"abc123","isbn":"0001122223334",)"
             R"("author":{"last":"zzz","first":"aaa"},"copies":5,)"
             R"("lastModified":"2016-07-28"})"});
  EXPECT_EQ(
      Run(c, R"([{"$project":{"title":1,"author":1}}])"),
      R"([{"_id":1,"title":"abc123","author":{"last":"zzz","first":"aaa"}}])");
  EXPECT_EQ(Run(c, R"([{"$project":{"_id":0,"title":1,"author":1}}])"),
            R"([{"title":"abc123","author":{"last":"zzz","first":"aaa"}}])");
  EXPECT_EQ(Run(c, R"([{"$project":{"lastModified":0}}])"),
            R"([{"_id":1,"title":"abc123","isbn":"0001122223334",)"
            R"("author":{"last":"zzz","first":"aaa"},"copies":5}])");
  EXPECT_EQ(Run(c, R"([{"$project":{"author.first":0,"lastModified":0}}])"),
            R"([{"_id":1,"title":"abc123","isbn":"0001122223334",)"
            R"("author":{"last":"zzz"},"copies":5}])");
  EXPECT_EQ(Run(c, R"([{"$project":{"author":{"first":0},"lastModified":0}}])"),
            R"([{"_id":1,"title":"abc123","isbn":"0001122223334",)"
            R"("author":{"last":"zzz"},"copies":5}])");
  // Computed fields: field paths and literals; placed after the included
  // fields in spec order.
  EXPECT_EQ(Run(c, R"([{"$project":{"who":"$author.last","title":1,)"
                   R"("n":{"$literal":1},"_id":0}}])"),
            R"([{"title":"abc123","who":"zzz","n":1}])");
  // "author.first": 1 keeps only that subfield.
  EXPECT_EQ(Run(c, R"([{"$project":{"author.first":1}}])"),
            R"([{"_id":1,"author":{"first":"aaa"}}])");
}

TEST_F(AggregateTest, ProjectThroughArrays) {
  // jstests/aggregation/sources/project/ and the $project manual: an
  // inclusion through an array keeps each element's subfield and drops
  // scalars; a computed subfield replaces scalars by documents.
  Collection& c = coll("c");
  Insert(c, {R"({"_id":1,"a":[{"b":1,"c":2},3,{"c":4},[{"b":5}]]})"});
  EXPECT_EQ(Run(c, R"([{"$project":{"a.b":1}}])"),
            R"([{"_id":1,"a":[{"b":1},{},[{"b":5}]]}])");
  EXPECT_EQ(Run(c, R"([{"$project":{"a.b":0}}])"),
            R"([{"_id":1,"a":[{"c":2},3,{"c":4},[{}]]}])");
  EXPECT_EQ(Run(c, R"([{"$addFields":{"a.x":{"$literal":7}}}])"),
            R"([{"_id":1,"a":[{"b":1,"c":2,"x":7},{"x":7},{"c":4,"x":7},)"
            R"([{"b":5,"x":7}]]}])");
}

TEST_F(AggregateTest, ProjectErrors) {
  // projection_parser.cpp / document_source_project.cpp codes.
  Collection& c = coll("c");
  Insert(c, {R"({"_id":1,"a":1,"b":2})"});
  EXPECT_EQ(Code(c, R"([{"$project":{"a":1,"b":0}}])"), 31254);
  EXPECT_EQ(Code(c, R"([{"$project":{"a":0,"b":1}}])"), 31253);
  EXPECT_EQ(Code(c, R"([{"$project":{"a":0,"b":"$a"}}])"), 31252);
  EXPECT_EQ(Code(c, R"([{"$project":{"a":1,"a.b":1}}])"), 31250);
  EXPECT_EQ(Code(c, R"([{"$project":{}}])"), 51272);
  EXPECT_EQ(Code(c, R"([{"$project":5}])"), 15969);
  EXPECT_EQ(Code(c, R"([{"$project":{"a":{}}}])"), 51270);
  EXPECT_EQ(Code(c, R"([{"$project":{"$a":1}}])"), 16410);
  // _id: 0 alone is an exclusion projection; _id: 0 with inclusions works.
  EXPECT_EQ(Run(c, R"([{"$project":{"_id":0}}])"), R"([{"a":1,"b":2}])");
  EXPECT_EQ(Run(c, R"([{"$project":{"_id":0,"b":1}}])"), R"([{"b":2}])");
  EXPECT_EQ(Run(c, R"([{"$project":{"_id":1,"a":0}}])"),
            R"([{"_id":1,"b":2}])");
}

TEST_F(AggregateTest, AddFieldsSetUnset) {
  // https://www.mongodb.com/docs/manual/reference/operator/aggregation/addFields/
  // ("Adding Fields to an Embedded Document", "Overwriting an existing
  // field") and .../unset/.
  Collection& c = coll("vehicles");
  Insert(c, {R"({"_id":1,"type":"car","specs":{"doors":4,"wheels":4}})",
             R"({"_id":2,"type":"motorcycle","specs":{"doors":0,"wheels":2}})",
             R"({"_id":3,"type":"jet ski"})"});
  EXPECT_EQ(
      Run(c, R"([{"$addFields":{"specs.fuel_type":"unleaded"}}])"),
      R"([{"_id":1,"type":"car","specs":{"doors":4,"wheels":4,"fuel_type":"unleaded"}},)"
      R"({"_id":2,"type":"motorcycle","specs":{"doors":0,"wheels":2,"fuel_type":"unleaded"}},)"
      R"({"_id":3,"type":"jet ski","specs":{"fuel_type":"unleaded"}}])");
  EXPECT_EQ(Run(c, R"([{"$match":{"_id":1}},{"$set":{"type":"$specs.doors",)"
                   R"("specs":{"doors":{"$literal":5}}}}])"),
            R"([{"_id":1,"type":4,"specs":{"doors":5,"wheels":4}}])");
  // A missing result removes the field.
  EXPECT_EQ(Run(c, R"([{"$match":{"_id":3}},{"$addFields":{"type":"$nope"}}])"),
            R"([{"_id":3}])");
  EXPECT_EQ(
      Run(c, R"([{"$match":{"_id":1}},{"$unset":["type","specs.doors"]}])"),
      R"([{"_id":1,"specs":{"wheels":4}}])");
  EXPECT_EQ(Run(c, R"([{"$match":{"_id":1}},{"$unset":"specs"}])"),
            R"([{"_id":1,"type":"car"}])");
  EXPECT_EQ(Code(c, R"([{"$unset":[]}])"), 31119);
  EXPECT_EQ(Code(c, R"([{"$unset":[1]}])"), 31120);
  EXPECT_EQ(Code(c, R"([{"$unset":1}])"), 31002);
}

// ---- $group and accumulators ------------------------------------------------

TEST_F(AggregateTest, GroupAccumulators) {
  // https://www.mongodb.com/docs/manual/reference/operator/aggregation/group/
  // (sales collection; totals over quantity instead of price * quantity).
  Collection& c = coll("sales");
  Insert(c, {R"({"_id":1,"item":"abc","price":10,"quantity":2,"d":1})",
             R"({"_id":2,"item":"jkl","price":20,"quantity":1,"d":2})",
             R"({"_id":3,"item":"xyz","price":5,"quantity":10,"d":3})",
             R"({"_id":4,"item":"xyz","price":5,"quantity":20,"d":4})",
             R"({"_id":5,"item":"abc","price":10,"quantity":10,"d":5})",
             R"({"_id":6,"item":"def","price":7.5,"quantity":5,"d":6})",
             R"({"_id":7,"item":"def","price":7.5,"quantity":10,"d":7})",
             R"({"_id":8,"item":"abc","price":10,"quantity":5,"d":8})"});
  EXPECT_EQ(
      Run(c, R"([{"$group":{"_id":"$item","n":{"$sum":1},)"
             R"("q":{"$sum":"$quantity"},"avg":{"$avg":"$quantity"},)"
             R"("min":{"$min":"$price"},"max":{"$max":"$quantity"},)"
             R"("first":{"$first":"$d"},"last":{"$last":"$d"},)"
             R"("all":{"$push":"$quantity"},"c":{"$count":{}}}},)"
             R"({"$sort":{"_id":1}}])"),
      R"([{"_id":"abc","n":3,"q":17,"avg":5.666666666666667,"min":10,"max":10,"first":1,"last":8,"all":[2,10,5],"c":3},)"
      R"({"_id":"def","n":2,"q":15,"avg":7.5,"min":7.5,"max":10,"first":6,"last":7,"all":[5,10],"c":2},)"
      R"({"_id":"jkl","n":1,"q":1,"avg":1.0,"min":20,"max":1,"first":2,"last":2,"all":[1],"c":1},)"
      R"({"_id":"xyz","n":2,"q":30,"avg":15.0,"min":5,"max":20,"first":3,"last":4,"all":[10,20],"c":2}])");
  // _id null: one group over everything ("Count the number of documents").
  EXPECT_EQ(Run(c, R"([{"$group":{"_id":null,"count":{"$count":{}},)"
                   R"("avgQ":{"$avg":"$quantity"}}}])"),
            R"([{"_id":null,"count":8,"avgQ":7.875}])");
  // "Retrieve distinct values": group by item.
  EXPECT_EQ(Run(c, R"([{"$group":{"_id":"$item"}},{"$sort":{"_id":-1}}])"),
            R"([{"_id":"xyz"},{"_id":"jkl"},{"_id":"def"},{"_id":"abc"}])");
  // A compound key as an object expression.
  EXPECT_EQ(Run(c, R"([{"$match":{"item":"xyz"}},{"$group":{"_id":)"
                   R"({"i":"$item","p":"$price"},"n":{"$sum":1}}}])"),
            R"([{"_id":{"i":"xyz","p":5},"n":2}])");
  // No input documents: no groups.
  EXPECT_EQ(Run(c, R"([{"$match":{"item":"none"}},)"
                   R"({"$group":{"_id":null,"n":{"$sum":1}}}])"),
            "[]");
}

TEST_F(AggregateTest, GroupNumericAndNullRules) {
  // accumulator_sum.cpp / accumulator_min_max.cpp: $sum ignores
  // non-numbers and widens int -> long -> double; 1 and 1.0 are one group;
  // $min/$max ignore null and missing; $first of a missing field is null.
  Collection& c = coll("c");
  Insert(c, {R"({"_id":1,"k":1,"v":2147483647,"s":"x"})",
             R"({"_id":2,"k":1.0,"v":1,"s":null})",
             R"({"_id":3,"k":{"$numberLong":"1"},"v":"str"})"});
  EXPECT_EQ(Run(c, R"([{"$group":{"_id":"$k","sum":{"$sum":"$v"},)"
                   R"("n":{"$sum":1},"min":{"$min":"$s"},"max":{"$max":"$s"},)"
                   R"("f":{"$first":"$missing"},"set":{"$addToSet":"$s"}}}])"),
            R"([{"_id":1,"sum":2147483648,"n":3,"min":"x",)"
            R"("max":"x","f":null,"set":["x",null]}])");
  // The int sum overflowed into a long (canonical JSON shows the type).
  auto r = c.Aggregate(
      R"([{"$group":{"_id":null,"s":{"$sum":"$v"},"i":{"$sum":1}}}])");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(
      ToJson(Value::MakeArray(*(*r)->ToVector()), JsonFormat::kCanonical),
      R"([{"_id":null,"s":{"$numberLong":"2147483648"},"i":{"$numberInt":"3"}}])");
  EXPECT_EQ(Run(c, R"([{"$group":{"_id":null,"d":{"$sum":1.5},)"
                   R"("none":{"$avg":"$s"},"mn":{"$min":"$nope"}}}])"),
            R"([{"_id":null,"d":4.5,"none":null,"mn":null}])");
}

TEST_F(AggregateTest, GroupTopBottomNAndMergeObjects) {
  // https://www.mongodb.com/docs/manual/reference/operator/aggregation/top/
  // and .../bottomN/, .../firstN/, .../mergeObjects/ (gamescores).
  Collection& c = coll("gamescores");
  Insert(c, {R"({"playerId":"PlayerA","gameId":"G1","score":31})",
             R"({"playerId":"PlayerB","gameId":"G1","score":33})",
             R"({"playerId":"PlayerC","gameId":"G1","score":99})",
             R"({"playerId":"PlayerD","gameId":"G1","score":1})",
             R"({"playerId":"PlayerA","gameId":"G2","score":10})",
             R"({"playerId":"PlayerB","gameId":"G2","score":14})",
             R"({"playerId":"PlayerC","gameId":"G2","score":66})",
             R"({"playerId":"PlayerD","gameId":"G2","score":80})"});
  EXPECT_EQ(Run(c, R"([{"$match":{"gameId":"G1"}},{"$group":{"_id":"$gameId",)"
                   R"("playerId":{"$top":{"output":["$playerId","$score"],)"
                   R"("sortBy":{"score":-1}}}}}])"),
            R"([{"_id":"G1","playerId":["PlayerC",99]}])");
  EXPECT_EQ(
      Run(c,
          R"([{"$group":{"_id":"$gameId",)"
          R"("b":{"$bottomN":{"output":"$playerId","sortBy":{"score":-1},"n":3}},)"
          R"("f":{"$firstN":{"input":"$score","n":2}},)"
          R"("l":{"$lastN":{"input":"$score","n":2}},)"
          R"("bot":{"$bottom":{"output":"$score","sortBy":{"score":-1}}}}},)"
          R"({"$sort":{"_id":1}}])"),
      R"([{"_id":"G1","b":["PlayerB","PlayerA","PlayerD"],"f":[31,33],"l":[99,1],"bot":1},)"
      R"({"_id":"G2","b":["PlayerC","PlayerB","PlayerA"],"f":[10,14],"l":[66,80],"bot":10}])");
  EXPECT_EQ(
      Run(c, R"([{"$match":{"playerId":"PlayerA"}},{"$group":{"_id":null,)"
             R"("m":{"$mergeObjects":{"g":"$gameId","s":"$score"}}}}])"),
      R"([{"_id":null,"m":{"g":"G2","s":10}}])");
  // $stdDevPop / $stdDevSamp over G1's scores (31, 33, 99, 1).
  auto r = c.Aggregate(
      R"([{"$match":{"gameId":"G1"}},{"$group":{"_id":null,)"
      R"("p":{"$stdDevPop":"$score"},"s":{"$stdDevSamp":"$score"}}}])");
  ASSERT_TRUE(r.ok()) << r.status();
  auto docs = (*r)->ToVector();
  ASSERT_TRUE(docs.ok());
  ASSERT_EQ(docs->size(), 1u);
  // Mean 41, squared deviations 100 + 64 + 3364 + 1600 = 5128.
  EXPECT_NEAR((*docs)[0].Get("p")->double_value(), std::sqrt(5128.0 / 4), 1e-9);
  EXPECT_NEAR((*docs)[0].Get("s")->double_value(), std::sqrt(5128.0 / 3), 1e-9);
}

TEST_F(AggregateTest, GroupErrors) {
  Collection& c = coll("c");
  Insert(c, {R"({"_id":1})"});
  EXPECT_EQ(Code(c, R"([{"$group":{"n":{"$sum":1}}}])"), 15955);
  EXPECT_EQ(Code(c, R"([{"$group":1}])"), 15947);
  EXPECT_EQ(Code(c, R"([{"$group":{"_id":null,"n":{"$foo":1}}}])"), 15952);
  EXPECT_EQ(Code(c, R"([{"$group":{"_id":null,"n":1}}])"), 40234);
  EXPECT_EQ(Code(c, R"([{"$group":{"_id":null,"n":{"$sum":1,"$avg":1}}}])"),
            40238);
  EXPECT_EQ(Code(c, R"([{"$group":{"_id":null,"n":{"$sum":[1,2]}}}])"), 40237);
  EXPECT_EQ(Code(c, R"([{"$group":{"_id":null,"a.b":{"$sum":1}}}])"), 40235);
  EXPECT_EQ(
      Code(c, R"([{"$group":{"_id":null,"m":{"$mergeObjects":"$_id"}}}])"),
      40400);
}

// ---- $unwind
// ------------------------------------------------------------------

TEST_F(AggregateTest, Unwind) {
  // https://www.mongodb.com/docs/manual/reference/operator/aggregation/unwind/
  Collection& c = coll("clothing");
  Insert(c, {R"({"_id":1,"item":"Shirt","sizes":["S","M","L"]})",
             R"({"_id":2,"item":"Shorts","sizes":[]})",
             R"({"_id":3,"item":"Hat","sizes":"M"})",
             R"({"_id":4,"item":"Gloves"})",
             R"({"_id":5,"item":"Scarf","sizes":null})"});
  EXPECT_EQ(
      Run(c, R"([{"$unwind":"$sizes"}])"),
      R"([{"_id":1,"item":"Shirt","sizes":"S"},{"_id":1,"item":"Shirt","sizes":"M"},)"
      R"({"_id":1,"item":"Shirt","sizes":"L"},{"_id":3,"item":"Hat","sizes":"M"}])");
  EXPECT_EQ(
      Run(c,
          R"([{"$unwind":{"path":"$sizes","preserveNullAndEmptyArrays":true}}])"),
      R"([{"_id":1,"item":"Shirt","sizes":"S"},{"_id":1,"item":"Shirt","sizes":"M"},)"
      R"({"_id":1,"item":"Shirt","sizes":"L"},{"_id":2,"item":"Shorts"},)"
      R"({"_id":3,"item":"Hat","sizes":"M"},{"_id":4,"item":"Gloves"},)"
      R"({"_id":5,"item":"Scarf","sizes":null}])");
  EXPECT_EQ(
      Run(c,
          R"([{"$unwind":{"path":"$sizes","includeArrayIndex":"arrayIndex"}}])"),
      R"([{"_id":1,"item":"Shirt","sizes":"S","arrayIndex":0},)"
      R"({"_id":1,"item":"Shirt","sizes":"M","arrayIndex":1},)"
      R"({"_id":1,"item":"Shirt","sizes":"L","arrayIndex":2},)"
      R"({"_id":3,"item":"Hat","sizes":"M","arrayIndex":null}])");
  // The index is a long (NumberLong in the manual's output).
  auto r = c.Aggregate(
      R"([{"$unwind":{"path":"$sizes","includeArrayIndex":"i"}},{"$limit":1}])");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ((*(*r)->ToVector())[0].Get("i")->type(), ValueType::kInt64);
  EXPECT_EQ(Code(c, R"([{"$unwind":"sizes"}])"), 28818);
  EXPECT_EQ(Code(c, R"([{"$unwind":1}])"), 15981);
  EXPECT_EQ(Code(c, R"([{"$unwind":{}}])"), 28812);
  EXPECT_EQ(Code(c, R"([{"$unwind":{"path":1}}])"), 28808);
  EXPECT_EQ(
      Code(c, R"([{"$unwind":{"path":"$a","preserveNullAndEmptyArrays":1}}])"),
      28809);
  EXPECT_EQ(Code(c, R"([{"$unwind":{"path":"$a","includeArrayIndex":"$i"}}])"),
            28822);
  EXPECT_EQ(Code(c, R"([{"$unwind":{"path":"$a","x":1}}])"), 28811);
}

// ---- $count / $sortByCount / $replaceRoot / $sample
// -------------------------------

TEST_F(AggregateTest, CountAndSortByCount) {
  // https://www.mongodb.com/docs/manual/reference/operator/aggregation/count/
  Collection& c = coll("scores");
  Insert(c, {R"({"_id":1,"subject":"History","score":88})",
             R"({"_id":2,"subject":"History","score":92})",
             R"({"_id":3,"subject":"History","score":97})",
             R"({"_id":4,"subject":"History","score":71})",
             R"({"_id":5,"subject":"History","score":79})",
             R"({"_id":6,"subject":"History","score":83})"});
  EXPECT_EQ(
      Run(c,
          R"([{"$match":{"score":{"$gt":80}}},{"$count":"passing_scores"}])"),
      R"([{"passing_scores":4}])");
  EXPECT_EQ(Run(c, R"([{"$match":{"score":{"$gt":100}}},{"$count":"n"}])"),
            "[]");
  EXPECT_EQ(Code(c, R"([{"$count":""}])"), 40157);
  EXPECT_EQ(Code(c, R"([{"$count":"$x"}])"), 40158);
  EXPECT_EQ(Code(c, R"([{"$count":"a.b"}])"), 40160);
  EXPECT_EQ(Code(c, R"([{"$count":1}])"), 40156);

  // https://www.mongodb.com/docs/manual/reference/operator/aggregation/sortByCount/
  Collection& e = coll("exhibits");
  Insert(
      e,
      {R"({"_id":1,"tags":["painting","satire","Expressionism","caricature"]})",
       R"({"_id":2,"tags":["woodcut","Expressionism"]})",
       R"({"_id":3,"tags":["oil","Surrealism","painting"]})",
       R"({"_id":4,"tags":["painting","oil","Expressionism"]})",
       R"({"_id":5,"tags":["Surrealism","painting","oil"]})",
       R"({"_id":6,"tags":["oil","painting","Expressionism"]})"});
  EXPECT_EQ(
      Run(e, R"([{"$unwind":"$tags"},{"$sortByCount":"$tags"},{"$limit":3}])"),
      R"([{"_id":"painting","count":5},{"_id":"Expressionism","count":4},)"
      R"({"_id":"oil","count":4}])");
  EXPECT_EQ(Code(e, R"([{"$sortByCount":"tags"}])"), 40148);
  EXPECT_EQ(Code(e, R"([{"$sortByCount":{"a":1}}])"), 40147);
}

TEST_F(AggregateTest, ReplaceRootAndReplaceWith) {
  // https://www.mongodb.com/docs/manual/reference/operator/aggregation/replaceRoot/
  Collection& c = coll("people");
  Insert(c, {R"({"_id":1,"name":"Arlene","age":34,"pets":{"dogs":2,"cats":1}})",
             R"({"_id":2,"name":"Sam","age":41,"pets":{"cats":1,"fish":3}})",
             R"({"_id":3,"name":"Maria","age":25})"});
  EXPECT_EQ(Run(c, R"([{"$match":{"pets":{"$exists":true}}},)"
                   R"({"$replaceRoot":{"newRoot":"$pets"}}])"),
            R"([{"dogs":2,"cats":1},{"cats":1,"fish":3}])");
  EXPECT_EQ(Run(c, R"([{"$match":{"_id":2}},{"$replaceWith":"$pets"}])"),
            R"([{"cats":1,"fish":3}])");
  EXPECT_EQ(Code(c, R"([{"$replaceRoot":{"newRoot":"$pets"}}])"), 40228);
  EXPECT_EQ(Code(c, R"([{"$replaceRoot":{}}])"), 40414);
  EXPECT_EQ(Code(c, R"([{"$replaceRoot":{"newRoot":"$a","x":1}}])"), 40415);
  EXPECT_EQ(Code(c, R"([{"$replaceRoot":1}])"), 40229);
  EXPECT_NE(Msg(c, R"([{"$match":{"_id":3}},{"$replaceWith":"$name"}])")
                .find("'replacement document' must evaluate to an object, "
                      "but resulting value was: \"Maria\". Type of resulting "
                      "value: 'string'."),
            std::string::npos);
}

TEST_F(AggregateTest, Sample) {
  Collection& c = coll("c");
  for (int i = 0; i < 50; ++i) {
    ASSERT_TRUE(
        c.InsertOne(Value::MakeObject({Field("_id", Value::Int32(i))})).ok());
  }
  auto r = c.Aggregate(R"([{"$sample":{"size":10}}])");
  ASSERT_TRUE(r.ok());
  auto docs = (*r)->ToVector();
  ASSERT_TRUE(docs.ok());
  EXPECT_EQ(docs->size(), 10u);
  std::set<int> ids;
  for (const Value& d : *docs) ids.insert(d.Get("_id")->int32_value());
  EXPECT_EQ(ids.size(), 10u);
  EXPECT_EQ(Run(c, R"([{"$sample":{"size":100}},{"$count":"n"}])"),
            R"([{"n":50}])");
  EXPECT_EQ(Code(c, R"([{"$sample":{"size":-1}}])"), 28747);
  EXPECT_EQ(Code(c, R"([{"$sample":{}}])"), 28749);
  EXPECT_EQ(Code(c, R"([{"$sample":{"size":"a"}}])"), 28746);
  EXPECT_EQ(Code(c, R"([{"$sample":{"size":1,"x":1}}])"), 28748);
}

// ---- Pipeline-level errors
// ---------------------------------------------------------

TEST_F(AggregateTest, PipelineErrors) {
  // pipeline.cpp / document_source.cpp / document_source_limit.cpp,
  // document_source_skip.cpp.
  Collection& c = coll("c");
  Insert(c, {R"({"_id":1})"});
  EXPECT_EQ(Code(c, R"([{"$foo":{}}])"), 40324);
  EXPECT_EQ(Msg(c, R"([{"$foo":{}}])"),
            "Unrecognized pipeline stage name: '$foo'");
  EXPECT_EQ(Code(c, R"([{"$match":{},"$limit":1}])"), 40323);
  EXPECT_EQ(Code(c, R"([1])"), 14);
  EXPECT_EQ(Code(c, R"({"$match":{}})"), 14);
  EXPECT_EQ(Code(c, R"([{"$limit":0}])"), 15958);
  EXPECT_EQ(Code(c, R"([{"$limit":-1}])"), 5107201);
  EXPECT_EQ(Code(c, R"([{"$limit":"a"}])"), 5107201);
  EXPECT_EQ(Code(c, R"([{"$skip":-1}])"), 5107200);
  EXPECT_EQ(Code(c, R"([{"$skip":1.5}])"), 5107200);
  EXPECT_EQ(Code(c, R"([{"$sort":{}}])"), 15976);
  EXPECT_EQ(Code(c, R"([{"$sort":1}])"), 15973);
  EXPECT_EQ(Code(c, R"([{"$sort":{"a":2}}])"), 15975);
  EXPECT_EQ(Code(c, R"([{"$match":1}])"), 15959);
  EXPECT_EQ(Code(c, R"([{"$out":"x"},{"$match":{}}])"), 40601);
  // $skip 0 and a float limit that is integral are accepted.
  EXPECT_EQ(Run(c, R"([{"$skip":0},{"$limit":2.0}])"), R"([{"_id":1}])");
}

// ---- $lookup
// ----------------------------------------------------------------------

TEST_F(AggregateTest, LookupEquality) {
  // https://www.mongodb.com/docs/manual/reference/operator/aggregation/lookup/
  // ("Perform a Single Equality Join with $lookup").
  Collection& orders = coll("orders");
  Collection& inventory = coll("inventory");
  Insert(orders, {R"({"_id":1,"item":"almonds","price":12,"quantity":2})",
                  R"({"_id":2,"item":"pecans","price":20,"quantity":1})",
                  R"({"_id":3})"});
  Insert(
      inventory,
      {R"({"_id":1,"sku":"almonds","description":"product 1","instock":120})",
       R"({"_id":2,"sku":"bread","description":"product 2","instock":80})",
       R"({"_id":3,"sku":"cashews","description":"product 3","instock":60})",
       R"({"_id":4,"sku":"pecans","description":"product 4","instock":70})",
       R"({"_id":5,"sku":null,"description":"Incomplete"})", R"({"_id":6})"});
  EXPECT_EQ(
      Run(orders, R"([{"$lookup":{"from":"inventory","localField":"item",)"
                  R"("foreignField":"sku","as":"inventory_docs"}}])"),
      R"([{"_id":1,"item":"almonds","price":12,"quantity":2,"inventory_docs":[)"
      R"({"_id":1,"sku":"almonds","description":"product 1","instock":120}]},)"
      R"({"_id":2,"item":"pecans","price":20,"quantity":1,"inventory_docs":[)"
      R"({"_id":4,"sku":"pecans","description":"product 4","instock":70}]},)"
      R"({"_id":3,"inventory_docs":[{"_id":5,"sku":null,"description":"Incomplete"},)"
      R"({"_id":6}]}])");
}

TEST_F(AggregateTest, LookupArrayLocalFieldAndPipeline) {
  // .../lookup/ ("Use $lookup with an Array"; "Perform an Uncorrelated
  // Subquery with $lookup").
  Collection& classes = coll("classes");
  Collection& members = coll("members");
  Insert(
      classes,
      {R"({"_id":1,"title":"Reading is ...","enrollmentlist":["giraffe2","pandabear","artie"]})",
       R"({"_id":2,"title":"But Writing ...","enrollmentlist":["giraffe1","artie"]})"});
  Insert(members,
         {R"({"_id":1,"name":"artie"})", R"({"_id":2,"name":"giraffe"})",
          R"({"_id":3,"name":"giraffe1"})", R"({"_id":4,"name":"panda"})",
          R"({"_id":5,"name":"pandabear"})", R"({"_id":6,"name":"giraffe2"})"});
  EXPECT_EQ(
      Run(classes,
          R"([{"$lookup":{"from":"members","localField":"enrollmentlist",)"
          R"("foreignField":"name","as":"m"}},)"
          R"({"$project":{"m._id":1}}])"),
      R"([{"_id":1,"m":[{"_id":1},{"_id":5},{"_id":6}]},)"
      R"({"_id":2,"m":[{"_id":1},{"_id":3}]}])");
  // Pipeline form with let (the variable is readable in later stages).
  EXPECT_EQ(
      Run(classes,
          R"([{"$match":{"_id":1}},{"$lookup":{"from":"members",)"
          R"("let":{"t":"$title"},"pipeline":[{"$match":{"_id":{"$lte":2}}},)"
          R"({"$project":{"_id":0,"name":1,"cls":"$$t"}}],"as":"m"}},)"
          R"({"$project":{"m":1}}])"),
      R"([{"_id":1,"m":[{"name":"artie","cls":"Reading is ..."},)"
      R"({"name":"giraffe","cls":"Reading is ..."}]}])");
  // Both forms together (MongoDB 5.0+): equality, then the pipeline.
  EXPECT_EQ(
      Run(classes, R"([{"$match":{"_id":2}},{"$lookup":{"from":"members",)"
                   R"("localField":"enrollmentlist","foreignField":"name",)"
                   R"("pipeline":[{"$project":{"_id":0,"name":1}}],"as":"m"}},)"
                   R"({"$project":{"m":1}}])"),
      R"([{"_id":2,"m":[{"name":"artie"},{"name":"giraffe1"}]}])");
  EXPECT_EQ(
      Code(classes, R"([{"$lookup":{"from":"members","localField":"a"}}])"), 9);
  EXPECT_EQ(Code(classes, R"([{"$lookup":{"from":"members","as":"x"}}])"), 9);
  EXPECT_EQ(
      Code(classes,
           R"([{"$lookup":{"from":"m","as":"x","pipeline":[],"bad":1}}])"),
      9);
  EXPECT_EQ(
      Code(classes,
           R"([{"$lookup":{"from":"m","as":"x","pipeline":[{"$out":"y"}]}}])"),
      51047);
  EXPECT_EQ(Code(classes, R"([{"$lookup":{"from":"m","as":"x","pipeline":[],)"
                          R"("let":{"Bad":1}}}])"),
            ErrorCode(agg::ValidateVariableName("Bad")));
}

// ---- $facet / $bucket
// ----------------------------------------------------------------

TEST_F(AggregateTest, BucketAndFacet) {
  // https://www.mongodb.com/docs/manual/reference/operator/aggregation/bucket/
  // ("Bucket by Year and Filter by Bucket Results" inputs) and .../facet/.
  Collection& c = coll("artists");
  Insert(
      c,
      {R"({"_id":1,"last_name":"Bernard","first_name":"Emil","year_born":1868,"year_died":1941,"nationality":"France"})",
       R"({"_id":2,"last_name":"Rippl-Ronai","first_name":"Joszef","year_born":1861,"year_died":1927,"nationality":"Hungary"})",
       R"({"_id":3,"last_name":"Ostroumova","first_name":"Anna","year_born":1871,"year_died":1955,"nationality":"Russia"})",
       R"({"_id":4,"last_name":"Van Gogh","first_name":"Vincent","year_born":1853,"year_died":1890,"nationality":"Holland"})",
       R"({"_id":5,"last_name":"Maurer","first_name":"Alfred","year_born":1868,"year_died":1932,"nationality":"USA"})",
       R"({"_id":6,"last_name":"Munch","first_name":"Edvard","year_born":1863,"year_died":1944,"nationality":"Norway"})",
       R"({"_id":7,"last_name":"Redon","first_name":"Odilon","year_born":1840,"year_died":1916,"nationality":"France"})",
       R"({"_id":8,"last_name":"Diriks","first_name":"Edvard","year_born":1855,"year_died":1930,"nationality":"Norway"})"});
  EXPECT_EQ(
      Run(c,
          R"([{"$bucket":{"groupBy":"$year_born","boundaries":[1840,1850,1860,1870,1880],)"
          R"("default":"Other","output":{"count":{"$sum":1},"artists":{"$push":"$last_name"}}}}])"),
      R"([{"_id":1840,"count":1,"artists":["Redon"]},)"
      R"({"_id":1850,"count":2,"artists":["Van Gogh","Diriks"]},)"
      R"({"_id":1860,"count":4,"artists":["Bernard","Rippl-Ronai","Maurer","Munch"]},)"
      R"({"_id":1870,"count":1,"artists":["Ostroumova"]}])");
  // Without output: a count per bucket; values outside go to default.
  EXPECT_EQ(
      Run(c,
          R"([{"$bucket":{"groupBy":"$year_died","boundaries":[1900,1930],"default":"later"}}])"),
      R"([{"_id":1900,"count":2},{"_id":"later","count":6}])");
  EXPECT_EQ(
      Code(
          c,
          R"([{"$bucket":{"groupBy":"$year_died","boundaries":[1900,1930]}}])"),
      40066);
  EXPECT_EQ(Code(c, R"([{"$bucket":{"groupBy":"$x","boundaries":[1]}}])"),
            40192);
  EXPECT_EQ(Code(c, R"([{"$bucket":{"groupBy":"$x","boundaries":[2,1]}}])"),
            40194);
  EXPECT_EQ(Code(c, R"([{"$bucket":{"groupBy":"$x","boundaries":[1,"a"]}}])"),
            40193);
  EXPECT_EQ(
      Code(c,
           R"([{"$bucket":{"groupBy":"$x","boundaries":[1,5],"default":3}}])"),
      40199);
  EXPECT_EQ(Code(c, R"([{"$bucket":{"groupBy":"x","boundaries":[1,5]}}])"),
            40202);
  EXPECT_EQ(Code(c, R"([{"$bucket":{"boundaries":[1,5]}}])"), 40198);
  EXPECT_EQ(
      Code(c, R"([{"$bucket":{"groupBy":"$x","boundaries":[1,5],"y":1}}])"),
      40197);

  EXPECT_EQ(
      Run(c,
          R"([{"$facet":{"byNation":[{"$sortByCount":"$nationality"},{"$limit":2}],)"
          R"("n":[{"$count":"total"}],"none":[{"$match":{"x":1}}]}}])"),
      R"([{"byNation":[{"_id":"France","count":2},{"_id":"Norway","count":2}],)"
      R"("n":[{"total":8}],"none":[]}])");
  EXPECT_EQ(Code(c, R"([{"$facet":{}}])"), 40169);
  EXPECT_EQ(Code(c, R"([{"$facet":{"a":1}}])"), 40170);
  EXPECT_EQ(Code(c, R"([{"$facet":{"a":[{"$out":"x"}]}}])"), 40600);
}

// ---- $out / $merge / $documents
// ------------------------------------------------------

TEST_F(AggregateTest, OutReplacesTargetKeepingItsIndexes) {
  // https://www.mongodb.com/docs/manual/reference/operator/aggregation/out/
  Collection& books = coll("books");
  Insert(books,
         {R"({"_id":8751,"title":"The Banquet","author":"Dante","copies":2})",
          R"({"_id":8752,"title":"Divine Comedy","author":"Dante","copies":1})",
          R"({"_id":8645,"title":"Eclogues","author":"Dante","copies":2})",
          R"({"_id":7000,"title":"The Odyssey","author":"Homer","copies":10})",
          R"({"_id":7020,"title":"Iliad","author":"Homer","copies":10})"});
  Collection& authors = coll("authors");
  Insert(authors, {R"({"_id":"old"})"});
  ASSERT_TRUE(authors.CreateIndex(R"({"n":1})").ok());
  EXPECT_EQ(
      Run(books, R"([{"$group":{"_id":"$author","books":{"$push":"$title"}}},)"
                 R"({"$out":"authors"}])"),
      "[]");
  EXPECT_EQ(
      Run(authors, R"([{"$sort":{"_id":1}}])"),
      R"([{"_id":"Dante","books":["Eclogues","The Banquet","Divine Comedy"]},)"
      R"({"_id":"Homer","books":["The Odyssey","Iliad"]}])");
  auto idx = authors.ListIndexes();
  ASSERT_TRUE(idx.ok());
  EXPECT_EQ(idx->size(), 2u);
  // A failing $out (duplicate _id) leaves the target unchanged.
  EXPECT_EQ(
      Code(books, R"([{"$project":{"_id":"$author"}},{"$out":"authors"}])"),
      11000);
  EXPECT_EQ(Run(authors, R"([{"$count":"n"}])"), R"([{"n":2}])");
  auto names = db_->ListCollectionNames();
  ASSERT_TRUE(names.ok());
  EXPECT_EQ(names->size(), 2u);
  // An empty result leaves an empty target collection.
  EXPECT_EQ(Run(books, R"([{"$match":{"x":1}},{"$out":"empty"}])"), "[]");
  names = db_->ListCollectionNames();
  ASSERT_TRUE(names.ok());
  EXPECT_EQ(names->size(), 3u);
}

// $out / $merge into {db, coll} of another database need
// AggregateOptions::database_named, which `ttldb serve` gives (commands/
// crud_commands_test.cc OutAndMergeWriteTheNamedDatabase): a Database used
// alone refuses rather than write its own collection of that name.
TEST_F(AggregateTest, OutToAnotherDatabaseNeedsDatabaseNamed) {
  Collection& c = coll("c");
  Insert(c, {R"({"_id":1})"});
  EXPECT_EQ(Code(c, R"([{"$out":{"db":"other","coll":"x"}}])"), 238);
  EXPECT_EQ(Code(c, R"([{"$merge":{"into":{"db":"other","coll":"x"}}}])"), 238);
  auto names = db_->ListCollectionNames();
  ASSERT_TRUE(names.ok());
  EXPECT_EQ(names->size(), 1u);
}

TEST_F(AggregateTest, Merge) {
  // https://www.mongodb.com/docs/manual/reference/operator/aggregation/merge/
  Collection& src = coll("src");
  Collection& dst = coll("dst");
  Insert(src,
         {R"({"_id":1,"a":10})", R"({"_id":2,"a":20})", R"({"_id":3,"a":30})"});
  Insert(dst, {R"({"_id":1,"a":0,"b":1})", R"({"_id":2,"a":0,"b":2})"});
  EXPECT_EQ(
      Run(src, R"([{"$match":{"_id":{"$lte":2}}},{"$merge":{"into":"dst"}}])"),
      "[]");
  EXPECT_EQ(Run(dst, "[]"),
            R"([{"_id":1,"a":10,"b":1},{"_id":2,"a":20,"b":2}])");
  EXPECT_EQ(Run(src, R"([{"$merge":{"into":"dst","whenMatched":"replace"}}])"),
            "[]");
  EXPECT_EQ(Run(dst, "[]"),
            R"([{"_id":1,"a":10},{"_id":2,"a":20},{"_id":3,"a":30}])");
  Insert(src, {R"({"_id":4,"a":40})"});
  EXPECT_EQ(Run(src, R"([{"$merge":{"into":"dst","whenMatched":"keepExisting",)"
                     R"("whenNotMatched":"discard"}}])"),
            "[]");
  EXPECT_EQ(Run(dst, R"([{"$count":"n"}])"), R"([{"n":3}])");
  EXPECT_EQ(Code(src, R"([{"$merge":{"into":"dst","whenMatched":"fail"}}])"),
            11000);
  EXPECT_EQ(Code(src, R"([{"$merge":{"into":"dst","whenNotMatched":"fail"}}])"),
            13113);
  EXPECT_EQ(Code(src, R"([{"$merge":{"into":"dst","whenMatched":"bad"}}])"), 2);
  EXPECT_EQ(Code(src, R"([{"$merge":{}}])"), 40414);
}

TEST_F(AggregateTest, Documents) {
  // https://www.mongodb.com/docs/manual/reference/operator/aggregation/documents/
  Collection& c = coll("unused");
  EXPECT_EQ(
      Run(c,
          R"([{"$documents":[{"x":10},{"x":2},{"x":5}]},{"$sort":{"x":1}}])"),
      R"([{"x":2},{"x":5},{"x":10}])");
}

TEST_F(AggregateTest, LetVariables) {
  // The aggregate command's `let` (MongoDB 5.0+): "$$name" in any stage.
  Collection& c = coll("c");
  Insert(c, {R"({"_id":1})"});
  AggregateOptions o;
  auto let = ParseDocument(R"({"target":"x","n":{"$literal":3}})");
  ASSERT_TRUE(let.ok());
  o.let = *let;
  EXPECT_EQ(Run(c, R"([{"$project":{"t":"$$target","n":"$$n"}}])", o),
            R"([{"_id":1,"t":"x","n":3}])");
  EXPECT_EQ(Code(c, R"([{"$project":{"t":"$$undefinedVar"}}])"), 17276);
}

// ---- Pipelines with expression operators (expr/ops_*.cc)
// -----------------------

TEST_F(AggregateTest, LookupCorrelatedSubqueryWithExpr) {
  // https://www.mongodb.com/docs/manual/reference/operator/aggregation/lookup/
  // ("Perform Multiple Joins and a Correlated Subquery with $lookup").
  Collection& orders = coll("orders");
  Collection& warehouses = coll("warehouses");
  Insert(orders, {R"({"_id":1,"item":"almonds","price":12,"ordered":2})",
                  R"({"_id":2,"item":"pecans","price":20,"ordered":1})",
                  R"({"_id":3,"item":"cookies","price":10,"ordered":60})"});
  Insert(warehouses,
         {R"({"_id":1,"stock_item":"almonds","warehouse":"A","instock":120})",
          R"({"_id":2,"stock_item":"pecans","warehouse":"A","instock":80})",
          R"({"_id":3,"stock_item":"almonds","warehouse":"B","instock":60})",
          R"({"_id":4,"stock_item":"cookies","warehouse":"B","instock":40})",
          R"({"_id":5,"stock_item":"cookies","warehouse":"A","instock":80})"});
  ASSERT_TRUE(warehouses.CreateIndex(R"({"stock_item":1})").ok());
  EXPECT_EQ(
      Run(orders,
          R"([{"$lookup":{"from":"warehouses","let":{"order_item":"$item","order_qty":"$ordered"},)"
          R"("pipeline":[{"$match":{"$expr":{"$and":[{"$eq":["$stock_item","$$order_item"]},)"
          R"({"$gte":["$instock","$$order_qty"]}]}}},{"$project":{"stock_item":0,"_id":0}}],)"
          R"("as":"stockdata"}}])"),
      R"([{"_id":1,"item":"almonds","price":12,"ordered":2,"stockdata":[)"
      R"({"warehouse":"A","instock":120},{"warehouse":"B","instock":60}]},)"
      R"({"_id":2,"item":"pecans","price":20,"ordered":1,"stockdata":[{"warehouse":"A","instock":80}]},)"
      R"({"_id":3,"item":"cookies","price":10,"ordered":60,"stockdata":[{"warehouse":"A","instock":80}]}])");
  // A variable that no let binds: 17276 at parse time.
  EXPECT_EQ(
      Code(orders, R"([{"$lookup":{"from":"warehouses","pipeline":[{"$match":)"
                   R"({"$expr":{"$eq":["$x","$$nope"]}}}],"as":"s"}}])"),
      17276);
}

TEST_F(AggregateTest, GroupAndAddFieldsWithOperators) {
  // https://www.mongodb.com/docs/manual/reference/operator/aggregation/addFields/
  // ("Using Two $addFields Stages").
  Collection& c = coll("scores");
  Insert(
      c,
      {R"({"_id":1,"student":"Maya","homework":[10,5,10],"quiz":[10,8],"extraCredit":0})",
       R"({"_id":2,"student":"Ryan","homework":[5,6,5],"quiz":[8,8],"extraCredit":8})"});
  EXPECT_EQ(
      Run(c,
          R"([{"$addFields":{"totalHomework":{"$sum":"$homework"},"totalQuiz":{"$sum":"$quiz"}}},)"
          R"({"$addFields":{"totalScore":{"$add":["$totalHomework","$totalQuiz","$extraCredit"]}}},)"
          R"({"$project":{"student":1,"totalHomework":1,"totalQuiz":1,"totalScore":1,"_id":0}}])"),
      R"([{"student":"Maya","totalHomework":25,"totalQuiz":18,"totalScore":43},)"
      R"({"student":"Ryan","totalHomework":16,"totalQuiz":16,"totalScore":40}])");
  // .../group/ ("Group by Item Having"): $sum of $multiply, then $match.
  Collection& s = coll("sales");
  Insert(s, {R"({"_id":1,"item":"abc","price":10,"quantity":2})",
             R"({"_id":2,"item":"jkl","price":20,"quantity":1})",
             R"({"_id":3,"item":"xyz","price":5,"quantity":10})",
             R"({"_id":4,"item":"xyz","price":5,"quantity":20})",
             R"({"_id":5,"item":"abc","price":10,"quantity":10})",
             R"({"_id":6,"item":"def","price":7.5,"quantity":5})",
             R"({"_id":7,"item":"def","price":7.5,"quantity":10})",
             R"({"_id":8,"item":"abc","price":10,"quantity":5})"});
  EXPECT_EQ(
      Run(s,
          R"([{"$group":{"_id":"$item","totalSaleAmount":{"$sum":{"$multiply":["$price","$quantity"]}}}},)"
          R"({"$match":{"totalSaleAmount":{"$gte":100}}},{"$sort":{"_id":1}}])"),
      R"([{"_id":"abc","totalSaleAmount":170},{"_id":"def","totalSaleAmount":112.5},)"
      R"({"_id":"xyz","totalSaleAmount":150}])");
  // A run-time expression error fails the pipeline with the operator's
  // code (MongoDB 8.0's $add: 14 TypeMismatch).
  EXPECT_EQ(Code(s, R"([{"$project":{"x":{"$add":["$item",1]}}}])"), 14);
  EXPECT_EQ(Msg(s, R"([{"$project":{"x":{"$add":["$item",1]}}}])"),
            "$add only supports numeric or date types, not string");
  // $$REMOVE in $project removes the field.
  EXPECT_EQ(
      Run(s, R"([{"$match":{"_id":1}},{"$project":{"item":1,"price":)"
             R"({"$cond":[{"$gt":["$price",5]},"$$REMOVE","$price"]}}}])"),
      R"([{"_id":1,"item":"abc"}])");
}

TEST_F(AggregateTest, BucketOutputAndReplaceRootWithOperators) {
  // .../bucket/ ("Bucket by Year and Filter by Bucket Results": the
  // $concat output) and .../replaceRoot/ ("$replaceRoot with
  // $mergeObjects").
  Collection& c = coll("artists");
  Insert(
      c,
      {R"({"_id":1,"last_name":"Bernard","first_name":"Emil","year_born":1868})",
       R"({"_id":4,"last_name":"Van Gogh","first_name":"Vincent","year_born":1853})",
       R"({"_id":8,"last_name":"Diriks","first_name":"Edvard","year_born":1855})"});
  EXPECT_EQ(
      Run(c,
          R"([{"$bucket":{"groupBy":"$year_born","boundaries":[1840,1850,1860,1870,1880],)"
          R"("output":{"count":{"$sum":1},"artists":{"$push":{"name":{"$concat":)"
          R"(["$first_name"," ","$last_name"]},"year_born":"$year_born"}}}}},)"
          R"({"$match":{"count":{"$gt":1}}}])"),
      R"([{"_id":1850,"count":2,"artists":[{"name":"Vincent Van Gogh","year_born":1853},)"
      R"({"name":"Edvard Diriks","year_born":1855}]}])");
  Collection& p = coll("people");
  Insert(p, {R"({"_id":1,"name":"Arlene","age":34,"pets":{"dogs":2,"cats":1}})",
             R"({"_id":2,"name":"Sam","age":41,"pets":{"cats":1,"fish":3}})",
             R"({"_id":3,"name":"Maria","age":25})"});
  EXPECT_EQ(
      Run(p, R"([{"$replaceRoot":{"newRoot":{"$mergeObjects":)"
             R"([{"dogs":0,"cats":0,"birds":0,"fish":0},"$pets"]}}}])"),
      R"([{"dogs":2,"cats":1,"birds":0,"fish":0},{"dogs":0,"cats":1,"birds":0,"fish":3},)"
      R"({"dogs":0,"cats":0,"birds":0,"fish":0}])");
}

// ---- Pushdown and explain
// -------------------------------------------------------------

TEST_F(AggregateTest, LeadingMatchAndSortUseTheIndex) {
  Collection& c = coll("events");
  ASSERT_TRUE(c.CreateIndex(R"({"page":1})").ok());
  ASSERT_TRUE(c.CreateIndex(R"({"t":1})").ok());
  Insert(c, {R"({"_id":1,"page":"a","t":3})", R"({"_id":2,"page":"b","t":1})",
             R"({"_id":3,"page":"a","t":2})"});
  auto e = c.ExplainAggregate(
      R"([{"$match":{"page":"a"}},{"$sort":{"t":1}},)"
      R"({"$limit":5},{"$group":{"_id":"$page","n":{"$sum":1}}}])");
  ASSERT_TRUE(e.ok()) << e.status();
  std::string json = ToJson(*e);
  EXPECT_NE(json.find(R"("stage":"IXSCAN")"), std::string::npos) << json;
  // The {page: 1} index answers the $match but not the sort: the $sort
  // stays in the pipeline (its memory bound and allowDiskUse apply), with
  // the $limit after it.
  EXPECT_NE(
      json.find(
          R"("pushedDown":[{"$match":{"page":"a"}}]}},{"$sort":{"t":1}},{"$limit":5},)"),
      std::string::npos)
      << json;
  EXPECT_NE(json.find(R"({"$group":{"_id":"$page","n":{"$sum":1}}})"),
            std::string::npos)
      << json;
  // With {page: 1, t: 1} the find provides the order: all three go down.
  ASSERT_TRUE(c.CreateIndex(R"({"page":1,"t":1})").ok());
  e = c.ExplainAggregate(
      R"([{"$match":{"page":"a"}},{"$sort":{"t":1}},)"
      R"({"$limit":5},{"$group":{"_id":"$page","n":{"$sum":1}}}])");
  ASSERT_TRUE(e.ok()) << e.status();
  json = ToJson(*e);
  EXPECT_NE(
      json.find(
          R"("pushedDown":[{"$match":{"page":"a"}},{"$sort":{"t":1}},{"$limit":5}])"),
      std::string::npos)
      << json;
  // A leading $sort alone is answered by the {t: 1} index.
  auto e2 = c.ExplainAggregate(R"([{"$sort":{"t":1}},{"$project":{"t":1}}])");
  ASSERT_TRUE(e2.ok());
  EXPECT_NE(ToJson(*e2).find(R"("indexName":"t_1")"), std::string::npos)
      << ToJson(*e2);
  EXPECT_EQ(
      Run(c,
          R"([{"$match":{"page":"a"}},{"$sort":{"t":1}},{"$project":{"t":1}}])"),
      R"([{"_id":3,"t":2},{"_id":1,"t":3}])");
  // A $match after a $group is not pushed down.
  auto e3 = c.ExplainAggregate(
      R"([{"$group":{"_id":"$page"}},{"$match":{"_id":"a"}}])");
  ASSERT_TRUE(e3.ok());
  EXPECT_NE(ToJson(*e3).find(R"("pushedDown":[])"), std::string::npos);
  EXPECT_NE(ToJson(*e3).find(R"("COLLSCAN")"), std::string::npos);
}

// A leading $sort that an index or the _id order gives backward goes into
// the find like a forward one: [$sort {_id: -1}, $limit 1] reads one
// document (a backward scan: planner_analysis.cpp analyzeSort), and
// {t: -1} is the {t: 1} index scanned backward.
TEST_F(AggregateTest, LeadingSortServedBackward) {
  Collection& c = coll("events");
  ASSERT_TRUE(c.CreateIndex(R"({"t":1})").ok());
  std::vector<std::string> docs;
  for (int i = 0; i < 20; ++i) {
    docs.push_back(
        absl::StrCat(R"({"_id":)", i, R"(,"t":)", (i * 7) % 20, "}"));
  }
  Insert(c, docs);
  EXPECT_EQ(Run(c, R"([{"$sort":{"_id":-1}},{"$limit":2}])"),
            R"([{"_id":19,"t":13},{"_id":18,"t":6}])");
  auto e = c.ExplainAggregate(R"([{"$sort":{"_id":-1}},{"$limit":1}])");
  ASSERT_TRUE(e.ok()) << e.status();
  std::string json = ToJson(*e);
  EXPECT_NE(
      json.find(R"("winningPlan":{"stage":"COLLSCAN","direction":"backward"})"),
      std::string::npos)
      << json;
  EXPECT_NE(json.find(R"("totalDocsExamined":1})"), std::string::npos) << json;
  EXPECT_NE(json.find(R"("pushedDown":[{"$sort":{"_id":-1}},{"$limit":1}])"),
            std::string::npos)
      << json;
  EXPECT_EQ(Run(c, R"([{"$sort":{"t":-1}},{"$limit":3},{"$project":{"t":1}}])"),
            R"([{"_id":17,"t":19},{"_id":14,"t":18},{"_id":11,"t":17}])");
  e = c.ExplainAggregate(R"([{"$sort":{"t":-1}},{"$limit":3}])");
  ASSERT_TRUE(e.ok()) << e.status();
  json = ToJson(*e);
  EXPECT_NE(json.find(R"("indexName":"t_1")"), std::string::npos) << json;
  EXPECT_NE(json.find(R"("direction":"backward")"), std::string::npos) << json;
  EXPECT_NE(json.find(R"("totalKeysExamined":3,)"), std::string::npos) << json;
}

// ---- TTL: expired documents are invisible
// ----------------------------------------------

TEST_F(AggregateTest, ExpiredDocumentsAreInvisibleToEveryStage) {
  Collection& s = coll("sessions");
  Collection& u = coll("users");
  ASSERT_TRUE(
      s.CreateIndex(R"({"at":1})", R"({"expireAfterSeconds":60})").ok());
  Insert(s, {R"({"_id":1,"user":"a","at":)" + DateJson(kTestStart) + "}",
             R"({"_id":2,"user":"a","at":)" +
                 DateJson(kTestStart + absl::Seconds(50)) + "}"});
  Insert(u, {R"({"_id":"a"})"});
  clock_.Advance(absl::Seconds(90));  // session 1 expired, 2 not
  EXPECT_EQ(Run(s, R"([{"$group":{"_id":"$user","n":{"$sum":1}}}])"),
            R"([{"_id":"a","n":1}])");
  EXPECT_EQ(
      Run(u, R"([{"$lookup":{"from":"sessions","localField":"_id",)"
             R"("foreignField":"user","as":"s"}},{"$project":{"s._id":1}}])"),
      R"([{"_id":"a","s":[{"_id":2}]}])");
  EXPECT_EQ(
      Run(u,
          R"([{"$lookup":{"from":"sessions","pipeline":[{"$count":"n"}],"as":"s"}}])"),
      R"([{"_id":"a","s":[{"n":1}]}])");
}

// ---- Memory bound and spilling
// -------------------------------------------------------------

class AggregateSpillTest : public AggregateTest {
 protected:
  void Fill(Collection& c, int n) {
    for (int i = 0; i < n; ++i) {
      // Keys in a scrambled order, with a payload.
      int k = (i * 7919) % n;
      Value d = Value::MakeObject(
          {Field("_id", Value::Int32(i)), Field("k", Value::Int32(k)),
           Field("g", Value::Int32(k % 37)),
           Field("pad", Value::String(std::string(200, 'x')))});
      ASSERT_TRUE(c.InsertOne(d).ok());
    }
  }
  bool TempAreaEmpty() {
    std::string dir = dir_.path() + "/_tmp";
    if (!std::filesystem::exists(dir)) return true;
    return std::filesystem::is_empty(dir);
  }
};

TEST_F(AggregateSpillTest, SortBeyondTheBoundFailsOrSpills) {
  Collection& c = coll("c");
  Fill(c, 2000);
  AggregateOptions small;
  small.max_memory_bytes = 64 << 10;  // 64 KiB: ~250 documents
  const std::string p =
      R"([{"$project":{"k":1,"pad":1}},{"$sort":{"k":-1}},{"$project":{"k":1,"_id":0}}])";
  EXPECT_EQ(Code(c, p, small), 292);
  small.allow_disk_use = true;
  auto cursor = c.Aggregate(p, small);
  ASSERT_TRUE(cursor.ok()) << cursor.status();
  // Spill files exist while the cursor is open, and are gone after.
  auto first = (*cursor)->Next();
  ASSERT_TRUE(first.ok());
  EXPECT_FALSE(TempAreaEmpty());
  std::vector<Value> rest = *(*cursor)->ToVector();
  rest.insert(rest.begin(), **first);
  ASSERT_EQ(rest.size(), 2000u);
  for (int i = 0; i < 2000; ++i) {
    ASSERT_EQ(rest[i].Get("k")->int32_value(), 1999 - i) << i;
  }
  EXPECT_TRUE(TempAreaEmpty());
}

TEST_F(AggregateSpillTest, GroupBeyondTheBoundFailsOrSpills) {
  Collection& c = coll("c");
  Fill(c, 2000);
  const std::string p =
      R"([{"$group":{"_id":"$k","n":{"$sum":1},"first":{"$first":"$_id"},)"
      R"("all":{"$push":"$g"},"pad":{"$last":"$pad"}}},{"$sort":{"_id":1}}])";
  auto expected_cursor = c.Aggregate(p);
  ASSERT_TRUE(expected_cursor.ok());
  auto expected = (*expected_cursor)->ToVector();
  ASSERT_TRUE(expected.ok());
  AggregateOptions small;
  small.max_memory_bytes = 64 << 10;
  EXPECT_EQ(Code(c, p, small), 292);
  small.allow_disk_use = true;
  EXPECT_EQ(Run(c, p, small), ToJson(Value::MakeArray(*expected)));
  // Group keys collide across spills: 37 groups over 2000 documents, with
  // a bound smaller than one group's $push.
  const std::string q =
      R"([{"$group":{"_id":"$g","n":{"$sum":1},"ids":{"$push":"$_id"},)"
      R"("f":{"$first":"$_id"},"l":{"$last":"$_id"}}},{"$sort":{"_id":1}}])";
  auto q_expected = c.Aggregate(q);
  ASSERT_TRUE(q_expected.ok());
  std::string want = ToJson(Value::MakeArray(*(*q_expected)->ToVector()));
  small.max_memory_bytes = 4 << 10;
  EXPECT_EQ(Run(c, q, small), want);
  EXPECT_TRUE(TempAreaEmpty());
}

TEST_F(AggregateSpillTest, TempAreaRemovedAtOpen) {
  // A crash leaves spill files behind (the database is closed here, as
  // after a crash): the next Open removes them.
  db_.reset();
  std::filesystem::create_directories(dir_.path() + "/_tmp");
  { std::ofstream(dir_.path() + "/_tmp/spill-99.jsonl") << "{}\n"; }
  Open();
  EXPECT_FALSE(std::filesystem::exists(dir_.path() + "/_tmp"));
}

class AggregateInMemoryTest : public AggregateSpillTest {
 protected:
  void AdjustOptions(Options* options) override { options->in_memory = true; }
};

TEST_F(AggregateInMemoryTest, NoSpillingAndNoFiles) {
  // An in-memory database writes no file: allowDiskUse cannot spill.
  Collection& c = coll("c");
  Fill(c, 500);
  AggregateOptions small;
  small.max_memory_bytes = 16 << 10;
  small.allow_disk_use = true;
  EXPECT_EQ(Code(c, R"([{"$sort":{"k":1}}])", small), 292);
  EXPECT_FALSE(std::filesystem::exists(dir_.path() + "/_tmp"));
  EXPECT_EQ(Run(c, R"([{"$sort":{"k":1}},{"$limit":1},{"$project":{"k":1}}])"),
            R"([{"_id":0,"k":0}])");
}

}  // namespace
}  // namespace ttldb
