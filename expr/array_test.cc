// Array, set and object operators. Expected answers from the MongoDB 8.0
// manual pages (https://www.mongodb.com/docs/manual/reference/operator/
// aggregation/<op>/) and, for errors, src/mongo/db/exec/expression/
// evaluate_array.cpp and src/mongo/db/pipeline/expression.cpp.
#include "absl/strings/str_cat.h"
#include "expr/expr_test_util.h"
#include "gtest/gtest.h"

namespace ttldb {
namespace agg {
namespace {

// Manual $size, $arrayElemAt, $first, $last.
TEST(Array, SizeAndElements) {
  EXPECT_EQ(Eval(R"({"$size": "$colors"})", R"({"colors": ["blue", "black"]})"),
            "2");
  EXPECT_EQ(Eval(R"({"$size": "$colors"})"),
            "error 17124: The argument to $size must be an array, but was of "
            "type: missing");
  const char* fav = R"({"f": ["chocolate", "cake", "butter", "apples"]})";
  EXPECT_EQ(Eval(R"({"$arrayElemAt": ["$f", 0]})", fav), R"("chocolate")");
  EXPECT_EQ(Eval(R"({"$arrayElemAt": ["$f", -1]})", fav), R"("apples")");
  EXPECT_EQ(Eval(R"({"$arrayElemAt": [[1, 2, 3], 15]})"), "MISSING");
  EXPECT_EQ(Eval(R"({"$arrayElemAt": [[1, 2, 3], -4]})"), "MISSING");
  EXPECT_EQ(Eval(R"({"$arrayElemAt": [[1, 2, 3], 1.5]})"),
            "error 28691: $arrayElemAt's second argument must be representable "
            "as a 32-bit integer: 1.5");
  EXPECT_EQ(Eval(R"({"$arrayElemAt": ["x", 0]})"),
            "error 28689: $arrayElemAt's first argument must be an array, but "
            "is string");
  EXPECT_EQ(Eval(R"({"$first": [[1, 2, 3]]})"), "1");
  EXPECT_EQ(Eval(R"({"$last": [[1, 2, 3]]})"), "3");
  EXPECT_EQ(Eval(R"({"$first": [[]]})"), "MISSING");
  EXPECT_EQ(Eval(R"({"$first": "$nothing"})"), "null");
  EXPECT_EQ(Eval(R"({"$last": "x"})"),
            "error 28689: $last's argument must be an array, but is string");
}

// Manual $isArray, $in, $slice, $concatArrays, $reverseArray.
TEST(Array, Basics) {
  EXPECT_EQ(Eval(R"({"$isArray": [[1]]})"), "true");
  EXPECT_EQ(Eval(R"({"$isArray": "$x"})"), "false");
  EXPECT_EQ(Eval(R"({"$in": ["bananas", "$in_stock"]})",
                 R"({"in_stock": ["apples", "bananas"]})"),
            "true");
  EXPECT_EQ(Eval(R"({"$in": [1, [1.0, 2]]})"), "true");
  EXPECT_EQ(Eval(R"({"$in": ["a", "$x"]})"),
            "error 40081: $in requires an array as a second argument, found: "
            "missing");
  EXPECT_EQ(Eval(R"({"$slice": [[1, 2, 3], 1, 1]})"), "[2]");
  EXPECT_EQ(Eval(R"({"$slice": [[1, 2, 3], -2]})"), "[2,3]");
  EXPECT_EQ(Eval(R"({"$slice": [[1, 2, 3], 15, 2]})"), "[]");
  EXPECT_EQ(Eval(R"({"$slice": [[1, 2, 3], -15, 2]})"), "[1,2]");
  EXPECT_EQ(Eval(R"({"$slice": [[1, 2, 3], 0, 0]})"),
            "error 28729: Third argument to $slice must be positive: 0");
  EXPECT_EQ(
      Eval(R"({"$concatArrays": [["hello", " "], [["world"], "again"]]})"),
      R"(["hello"," ",["world"],"again"])");
  EXPECT_EQ(Eval(R"({"$concatArrays": [[1], null]})"), "null");
  EXPECT_EQ(Eval(R"({"$reverseArray": [[[1, 2, 3], [4, 5, 6]]]})"),
            "[[4,5,6],[1,2,3]]");
  EXPECT_EQ(Eval(R"({"$reverseArray": null})"), "null");
}

// Manual $range and $indexOfArray examples.
TEST(Array, RangeAndIndexOf) {
  EXPECT_EQ(Eval(R"({"$range": [0, 10, 2]})"), "[0,2,4,6,8]");
  EXPECT_EQ(Eval(R"({"$range": [10, 0, -2]})"), "[10,8,6,4,2]");
  EXPECT_EQ(Eval(R"({"$range": [0, 10, -2]})"), "[]");
  EXPECT_EQ(Eval(R"({"$range": [0, 5]})"), "[0,1,2,3,4]");
  EXPECT_EQ(Eval(R"({"$range": [0, 5, 0]})"),
            "error 34449: $range requires a non-zero step value");
  EXPECT_EQ(Eval(R"({"$indexOfArray": [["a", "abc"], "a"]})"), "0");
  EXPECT_EQ(Eval(R"({"$indexOfArray": [["a", "abc", "de", ["de"]], ["de"]]})"),
            "3");
  EXPECT_EQ(Eval(R"({"$indexOfArray": [[1, 2], 2.0]})"), "1");
  EXPECT_EQ(Eval(R"({"$indexOfArray": [[1, 2, 3], 2, 2]})"), "-1");
  EXPECT_EQ(Eval(R"({"$indexOfArray": [[null], null]})"), "0");
  EXPECT_EQ(Eval(R"({"$indexOfArray": [null, 3]})"), "null");
  EXPECT_EQ(Eval(R"({"$indexOfArray": [3, 3]})"),
            "error 40090: $indexOfArray requires an array as a first argument, "
            "found: int");
}

// Manual $filter (cond, as, limit), $map and $reduce examples.
TEST(Array, FilterMapReduce) {
  const char* items = R"({"items": [{"id": 2, "price": 110},
                                    {"id": 3, "price": 50},
                                    {"id": 4, "price": 150}]})";
  EXPECT_EQ(Eval(R"({"$filter": {"input": "$items", "as": "item",
                   "cond": {"$gte": ["$$item.price", 100]}}})",
                 items),
            R"([{"id":2,"price":110},{"id":4,"price":150}])");
  EXPECT_EQ(Eval(R"({"$filter": {"input": "$items",
                   "cond": {"$gte": ["$$this.price", 100]}, "limit": 1}})",
                 items),
            R"([{"id":2,"price":110}])");
  EXPECT_EQ(Eval(R"({"$filter": {"input": null, "cond": true}})"), "null");
  EXPECT_EQ(Eval(R"({"$filter": {"input": 1, "cond": true}})"),
            "error 28651: input to $filter must be an array not int");
  EXPECT_EQ(Eval(R"({"$filter": {"cond": true}})"),
            "error 28648: Missing 'input' parameter to $filter");
  EXPECT_EQ(Eval(R"({"$map": {"input": "$quizzes", "as": "grade",
                   "in": {"$add": ["$$grade", 2]}}})",
                 R"({"quizzes": [5, 6, 7]})"),
            "[7,8,9]");
  EXPECT_EQ(Eval(R"({"$map": {"input": [1, 2], "in": "$$this.x"}})"),
            "[null,null]");
  EXPECT_EQ(Eval(R"({"$map": {"input": [1], "in": "$$grade"}})"),
            "error 17276: Use of undefined variable: grade");
  EXPECT_EQ(Eval(R"({"$reduce": {"input": ["a", "b", "c"], "initialValue": "",
                   "in": {"$concat": ["$$value", "$$this"]}}})"),
            R"("abc")");
  EXPECT_EQ(Eval(R"({"$reduce": {"input": [1, 2, 3, 4],
                   "initialValue": {"sum": 5, "product": 2},
                   "in": {"sum": {"$add": ["$$value.sum", "$$this"]},
                          "product": {"$multiply": ["$$value.product",
                                                    "$$this"]}}}})"),
            R"({"sum":15,"product":48})");
  EXPECT_EQ(Eval(R"({"$reduce": {"input": [[3, 4], [5, 6]],
                   "initialValue": [1, 2],
                   "in": {"$concatArrays": ["$$value", "$$this"]}}})"),
            "[1,2,3,4,5,6]");
  EXPECT_EQ(Eval(R"({"$reduce": {"input": [1], "in": 1}})"),
            "error 40078: $reduce requires 'initialValue' to be specified");
}

// Manual $anyElementTrue / $allElementsTrue ("Behavior" tables).
TEST(Array, ElementsTrue) {
  EXPECT_EQ(Eval(R"({"$anyElementTrue": [[true, false]]})"), "true");
  EXPECT_EQ(Eval(R"({"$anyElementTrue": [[[false]]]})"), "true");
  EXPECT_EQ(Eval(R"({"$anyElementTrue": [[null, false, 0]]})"), "false");
  EXPECT_EQ(Eval(R"({"$anyElementTrue": [[]]})"), "false");
  EXPECT_EQ(Eval(R"({"$allElementsTrue": [[true, 1, "someString"]]})"), "true");
  EXPECT_EQ(Eval(R"({"$allElementsTrue": [[]]})"), "true");
  EXPECT_EQ(Eval(R"({"$allElementsTrue": [[null, false, 0]]})"), "false");
  EXPECT_EQ(Eval(R"({"$allElementsTrue": 1})"),
            "error 17040: $allElementsTrue's argument must be an array, but is "
            "int");
}

// Manual $sum/$avg/$min/$max "Use in $project Stage": quizzes [10, 6, 7].
TEST(Array, AccumulatorExpressions) {
  const char* doc = R"({"quizzes": [10, 6, 7], "final": 80, "midterm": 75})";
  EXPECT_EQ(Eval(R"({"$sum": "$quizzes"})", doc), "23");
  EXPECT_EQ(Eval(R"({"$avg": "$quizzes"})", doc), "7.666666666666667");
  EXPECT_EQ(Eval(R"({"$min": "$quizzes"})", doc), "6");
  EXPECT_EQ(Eval(R"({"$max": "$quizzes"})", doc), "10");
  EXPECT_EQ(Eval(R"({"$max": ["$final", "$midterm"]})", doc), "80");
  EXPECT_EQ(Eval(R"({"$sum": ["$final", "$midterm"]})", doc), "155");
  EXPECT_EQ(Eval(R"({"$sum": [1, "a", {"$numberLong": "2"}]})"),
            R"({"$numberLong":"3"})");
  EXPECT_EQ(Eval(R"({"$sum": "$none"})"), "0");
  EXPECT_EQ(Eval(R"({"$avg": ["a"]})"), "null");
  EXPECT_EQ(Eval(R"({"$min": [[]]})"), "null");
  EXPECT_EQ(Eval(R"({"$min": [null, 2, 1]})"), "1");
}

// Manual $setUnion/$setIntersection/$setDifference/$setEquals/$setIsSubset
// (the flowers examples: ["a","b","a"] against ["b","a"] and [["a","b"]]).
TEST(Set, Operators) {
  EXPECT_EQ(Eval(R"({"$setUnion": [["a", "b", "a"], ["b", "a"]]})"),
            R"(["a","b"])");
  EXPECT_EQ(Eval(R"({"$setUnion": [["a", "b"], [["a", "b"]]]})"),
            R"(["a","b",["a","b"]])");
  EXPECT_EQ(Eval(R"({"$setIntersection": [["a", "b"], [["a", "b"]]]})"), "[]");
  EXPECT_EQ(Eval(R"({"$setIntersection": [["a", "b", "c"], ["c", "a"]]})"),
            R"(["a","c"])");
  EXPECT_EQ(Eval(R"({"$setDifference": [["a", "b", "a"], ["b", "a"]]})"), "[]");
  EXPECT_EQ(Eval(R"({"$setDifference": [["c", "a", "c", "b"], ["b"]]})"),
            R"(["c","a"])");
  EXPECT_EQ(Eval(R"({"$setEquals": [["a", "b", "a"], ["b", "a"]]})"), "true");
  EXPECT_EQ(Eval(R"({"$setEquals": [["a", "b"], [["a", "b"]]]})"), "false");
  EXPECT_EQ(Eval(R"({"$setEquals": [[1], [1.0], [{"$numberLong": "1"}]]})"),
            "true");
  EXPECT_EQ(Eval(R"({"$setIsSubset": [["a", "b", "a"], ["b", "a"]]})"), "true");
  EXPECT_EQ(Eval(R"({"$setIsSubset": [["a", "b"], [["a", "b"]]]})"), "false");
  EXPECT_EQ(Eval(R"({"$setUnion": [["a"], null]})"), "null");
  EXPECT_EQ(Eval(R"({"$setEquals": [[1]]})"),
            "error 17045: $setEquals needs at least two arguments had: 1");
  EXPECT_EQ(Eval(R"({"$setIsSubset": [null, [1]]})"),
            "error 17046: both operands of $setIsSubset must be arrays. First "
            "argument is of type: null");
}

// Manual $mergeObjects, $objectToArray, $arrayToObject, $getField,
// $setField.
TEST(Object, Operators) {
  EXPECT_EQ(Eval(R"({"$mergeObjects": [{"a": 1, "b": 1}, null, {"a": 2}]})"),
            R"({"a":2,"b":1})");
  EXPECT_EQ(Eval(R"({"$mergeObjects": [1]})"),
            "error 40400: $mergeObjects requires object inputs, but input 1 is "
            "of type int");
  EXPECT_EQ(Eval(R"({"$objectToArray": "$d"})",
                 R"({"d": {"item": "foo", "qty": 25}})"),
            R"([{"k":"item","v":"foo"},{"k":"qty","v":25}])");
  EXPECT_EQ(Eval(R"({"$arrayToObject": [[["item", "abc123"], ["qty", 25]]]})"),
            R"({"item":"abc123","qty":25})");
  EXPECT_EQ(Eval(R"({"$arrayToObject": [[{"k": "item", "v": "abc123"},
                                         {"k": "qty", "v": 25}]]})"),
            R"({"item":"abc123","qty":25})");
  EXPECT_EQ(Eval(R"({"$arrayToObject": [[["price", 24], ["item", "apple"],
                                         ["price", 15]]]})"),
            R"({"price":15,"item":"apple"})");
  EXPECT_EQ(Eval(R"({"$arrayToObject": [[1]]})"),
            "error 40398: Unrecognised input type format for $arrayToObject: "
            "int");
  EXPECT_EQ(Eval(R"({"$getField": "price.usd"})", R"({"price.usd": 45})"),
            "45");
  EXPECT_EQ(Eval(R"({"$getField": {"field": "$x", "input": {"$x": 1}}})")
                .substr(0, 13),
            "error 3041704");
  EXPECT_EQ(Eval(R"({"$getField": {"field": {"$literal": "$price"},
                                   "input": "$$ROOT"}})",
                 R"({"$price": 7})"),
            "7");
  EXPECT_EQ(Eval(R"({"$setField": {"field": "price.usd", "input": "$$ROOT",
                                   "value": 45}})",
                 R"({"a": 1})"),
            R"({"a":1,"price.usd":45})");
  EXPECT_EQ(Eval(R"({"$setField": {"field": "a", "input": "$$ROOT",
                                   "value": "$$REMOVE"}})",
                 R"({"a": 1, "b": 2})"),
            R"({"b":2})");
  // $unsetField (the manual's example: a field with a dot in its name).
  EXPECT_EQ(
      Eval(R"({"$unsetField": {"field": "price.usd", "input": "$$ROOT"}})",
           R"({"_id": 1, "item": "sweatshirt", "qty": 300,
                     "price.usd": 45.99})"),
      R"({"_id":1,"item":"sweatshirt","qty":300})");
  EXPECT_EQ(Eval(R"({"$unsetField": {"field": "a", "input": null}})"), "null");
  EXPECT_EQ(Eval(R"({"$unsetField": 5})"),
            "error 4161100: $unsetField only supports an object as its "
            "argument");
  EXPECT_EQ(Eval(R"({"$unsetField": {"field": "a", "input": {}, "value": 1}})"),
            "error 4161101: $unsetField found an unknown argument: value");
  EXPECT_EQ(Eval(R"({"$unsetField": {"input": {}}})"),
            "error 4161102: $unsetField requires 'field' to be specified");
}

// The manual's $maxN / $minN (array operator) example: null elements are
// left out, strings sort above numbers.
TEST(Array, MaxNMinN) {
  const std::pair<const char*, std::pair<const char*, const char*>> cases[] = {
      {"[1, 2, 3]", {"[3,2]", "[1,2]"}},
      {"[12, 90, 7, 89, 8]", {"[90,89]", "[7,8]"}},
      {"[null]", {"[]", "[]"}},
      {"[]", {"[]", "[]"}},
      {R"([1293, "2", 3489, 9])", {R"(["2",3489])", "[9,1293]"}},
  };
  for (const auto& [score, expected] : cases) {
    const std::string doc = absl::StrCat(R"({"score": )", score, "}");
    EXPECT_EQ(Eval(R"({"$maxN": {"n": 2, "input": "$score"}})", doc),
              expected.first)
        << score;
    EXPECT_EQ(Eval(R"({"$minN": {"n": 2, "input": "$score"}})", doc),
              expected.second)
        << score;
  }
  EXPECT_EQ(Eval(R"({"$maxN": {"n": 0, "input": [1]}})"),
            "error 5787908: 'n' must be greater than 0, found 0");
  EXPECT_EQ(Eval(R"({"$minN": {"n": 1, "input": 1}})"),
            "error 5788200: Input to $minN must be an array, but found int");
  EXPECT_EQ(Eval(R"({"$minN": {"input": [1]}})"),
            "error 5787906: Missing value for 'n' in $minN");
}

// The manual's $sortArray examples (reference/operator/aggregation/
// sortArray/) and expression.cpp's errors.
TEST(Array, SortArray) {
  const char* team = R"({"team": [
      {"name": "pat", "age": 30, "address": {"city": "London"}},
      {"name": "dallas", "age": 36, "address": {"city": "Palo Alto"}},
      {"name": "charlie", "age": 42, "address": {"city": "New Brunswick"}}]})";
  EXPECT_EQ(Eval(R"({"$map": {"input": {"$sortArray": {"input": "$team",
                   "sortBy": {"name": 1}}}, "in": "$$this.name"}})",
                 team),
            R"(["charlie","dallas","pat"])");
  EXPECT_EQ(Eval(R"({"$map": {"input": {"$sortArray": {"input": "$team",
                   "sortBy": {"address.city": -1}}}, "in": "$$this.name"}})",
                 team),
            R"(["dallas","charlie","pat"])");
  EXPECT_EQ(Eval(R"({"$map": {"input": {"$sortArray": {"input": "$team",
                   "sortBy": {"age": -1, "name": 1}}}, "in": "$$this.age"}})",
                 team),
            "[42,36,30]");
  EXPECT_EQ(Eval(R"({"$sortArray": {"input": [1, 4, 1, 6, 12, 5],
                                    "sortBy": 1}})"),
            "[1,1,4,5,6,12]");
  EXPECT_EQ(Eval(R"({"$sortArray": {"input": [1, 4, 1, 6, 12, 5],
                                    "sortBy": -1}})"),
            "[12,6,5,4,1,1]");
  // Mixed types in MongoDB's comparison order.
  EXPECT_EQ(Eval(R"({"$sortArray": {"input": [20, 4, {"a": "Free"}, 6, 21, 5,
                   "Gratis", {"a": null}, {"a": {"sale": true, "price": 19}},
                   {"$numberDecimal": "10.23"}, {"a": "On sale"}],
                   "sortBy": 1}})"),
            R"([4,5,6,{"$numberDecimal":"10.23"},20,21,"Gratis",{"a":null},)"
            R"({"a":"Free"},{"a":"On sale"},{"a":{"sale":true,"price":19}}])");
  // By a field: elements without it, and non-objects, count as null; ties
  // keep their order.
  EXPECT_EQ(Eval(R"({"$sortArray": {"input": [{"a": 2}, 7, {"b": 1}, {"a": 1}],
                                    "sortBy": {"a": 1}}})"),
            R"([7,{"b":1},{"a":1},{"a":2}])");
  EXPECT_EQ(Eval(R"({"$sortArray": {"input": null, "sortBy": 1}})"), "null");
  EXPECT_EQ(Eval(R"({"$sortArray": {"input": "$missing", "sortBy": 1}})"),
            "null");
  EXPECT_EQ(Eval(R"({"$sortArray": {"input": 1, "sortBy": 1}})"),
            "error 2942504: The input argument to $sortArray must be an array, "
            "but was of type: int");
  EXPECT_EQ(Eval(R"({"$sortArray": [1]})"),
            "error 2942500: $sortArray requires an object as an argument, "
            "found: array");
  EXPECT_EQ(Eval(R"({"$sortArray": {"input": [], "sortBy": 1, "x": 1}})"),
            "error 2942501: $sortArray found an unknown argument: x");
  EXPECT_EQ(Eval(R"({"$sortArray": {"sortBy": 1}})"),
            "error 2942502: $sortArray requires 'input' to be specified");
  EXPECT_EQ(Eval(R"({"$sortArray": {"input": []}})"),
            "error 2942503: $sortArray requires 'sortBy' to be specified");
  EXPECT_EQ(Eval(R"({"$sortArray": {"input": [], "sortBy": 2}})"),
            "error 2942506: The $sort element value must be either 1 or -1");
  EXPECT_EQ(Eval(R"({"$sortArray": {"input": [], "sortBy": {"a": "x"}}})"),
            "error 2942506: The $sort element value must be either 1 or -1");
  EXPECT_EQ(Eval(R"({"$sortArray": {"input": [], "sortBy": {}}})"),
            "error 2: The $sort pattern is empty when it should be a set of "
            "fields.");
}

// $concatArrays reads its operands in place (Expression::Peek) and is
// evaluated left to right as evaluate_array.cpp (here rather than in
// concat_arrays_cost_test so that it runs under ASan).
TEST(ConcatArraysTest, SemanticsAsEvaluateArrayCpp) {
  // Field paths read in place through objects; through an array ($d.e) the
  // path builds its array.
  EXPECT_EQ(
      Eval(R"({"$concatArrays": ["$a", "$b.c", "$d.e", [9]]})",
           R"({"a": [1], "b": {"c": [2, 3]}, "d": [{"e": 4}, {"e": 5}]})"),
      "[1,2,3,4,5,9]");
  // The first nullish operand makes it null, before later ones are looked
  // at (28664 is not raised for them, as evaluate_array.cpp's loop).
  EXPECT_EQ(
      Eval(R"({"$concatArrays": ["$a", "$missing", 5]})", R"({"a": [1]})"),
      "null");
  EXPECT_EQ(Eval(R"({"$concatArrays": ["$a", null, 5]})", R"({"a": [1]})"),
            "null");
  EXPECT_EQ(
      Eval(R"({"$concatArrays": ["$a", "$s"]})", R"({"a": [1], "s": "x"})"),
      "error 28664: $concatArrays only supports arrays, not string");
  EXPECT_EQ(Eval(R"({"$concatArrays": []})"), "[]");
  // An operand that binds variables after another was read in place
  // ($map's $$x, $let's $$y): the value read first stays as it was.
  EXPECT_EQ(
      Eval(R"({"$let": {"vars": {"v": [1, 2]}, "in": {"$concatArrays": [)"
           R"("$$v", {"$map": {"input": [3, 4], "as": "x", "in": )"
           R"({"$let": {"vars": {"y": "$$x"}, "in": {"$add": ["$$y", 1]}}}}},)"
           R"( "$$v"]}}})"),
      "[1,2,4,5,1,2]");
  // $reduce's $$value, $$this and $$ROOT.
  EXPECT_EQ(
      Eval(R"({"$reduce": {"input": [[1], [2, 3]], "initialValue": [0],)"
           R"( "in": {"$concatArrays": ["$$value", "$$this", "$$ROOT.a"]}}})",
           R"({"a": [7]})"),
      "[0,1,7,2,3,7]");
}

}  // namespace
}  // namespace agg
}  // namespace ttldb
