// String and regex operators. Expected answers from the MongoDB 8.0 manual
// pages (https://www.mongodb.com/docs/manual/reference/operator/
// aggregation/<op>/) and, for errors, src/mongo/db/exec/expression/
// evaluate_string.cpp and evaluate_regex.cpp.
#include "expr/expr_test_util.h"
#include "gtest/gtest.h"

namespace ttldb {
namespace agg {
namespace {

// Manual $concat: "ABC1 - product 1"; a null argument gives null.
TEST(String, Concat) {
  const char* e = R"({"$concat": ["$item", " - ", "$description"]})";
  EXPECT_EQ(Eval(e, R"({"item": "ABC1", "description": "product 1"})"),
            R"("ABC1 - product 1")");
  EXPECT_EQ(Eval(e, R"({"item": "ABC4", "description": null})"), "null");
  EXPECT_EQ(Eval(e, R"({"item": "ABC4"})"), "null");
  EXPECT_EQ(Eval(R"({"$concat": ["a", 1]})"),
            "error 16702: $concat only supports strings, not int");
}

// Manual $substrCP ("13Q1" -> "13" and "Q1"; "éclair" by code points) and
// $substrBytes; evaluate_string.cpp for the errors.
TEST(String, Substr) {
  EXPECT_EQ(
      Eval(R"({"$substrCP": ["$quarter", 0, 2]})", R"({"quarter": "13Q1"})"),
      R"("13")");
  EXPECT_EQ(Eval(R"({"$substrCP": ["$quarter", 2,
                   {"$subtract": [{"$strLenCP": "$quarter"}, 2]}]})",
                 R"({"quarter": "13Q1"})"),
            R"("Q1")");
  EXPECT_EQ(Eval(R"({"$substrCP": ["éclair", 0, 3]})"), R"("écl")");
  EXPECT_EQ(Eval(R"({"$substrBytes": ["éclair", 0, 3]})"), R"("éc")");
  EXPECT_EQ(Eval(R"({"$substr": ["abcde", 1, 2]})"), R"("bc")");
  EXPECT_EQ(Eval(R"({"$substrBytes": ["abcde", 1, -1]})"), R"("bcde")");
  EXPECT_EQ(Eval(R"({"$substrBytes": ["éclair", 1, 2]})"),
            "error 28656: $substrBytes:  Invalid range, starting index is a "
            "UTF-8 continuation byte.");
  EXPECT_EQ(Eval(R"({"$substrBytes": ["éclair", 0, 1]})"),
            "error 28657: $substrBytes:  Invalid range, ending index is in the "
            "middle of a UTF-8 character.");
  EXPECT_EQ(Eval(R"({"$substrCP": ["abc", -1, 1]})"),
            "error 34455: $substrCP: the starting index must be nonnegative "
            "integer.");
  EXPECT_EQ(Eval(R"({"$substrCP": ["abc", "x", 1]})"),
            "error 34450: $substrCP: starting index must be a numeric type (is "
            "BSON type string)");
  EXPECT_EQ(Eval(R"({"$substrCP": [null, 0, 1]})"), R"("")");
}

// Manual $toUpper / $toLower (ASCII only), $strcasecmp ("13Q1" vs "13q4").
TEST(String, CaseAndCompare) {
  EXPECT_EQ(Eval(R"({"$toUpper": "product 1"})"), R"("PRODUCT 1")");
  EXPECT_EQ(Eval(R"({"$toLower": "PRODUCT 1"})"), R"("product 1")");
  EXPECT_EQ(Eval(R"({"$toLower": "ÉCLAIR"})"), R"("Éclair")");
  EXPECT_EQ(Eval(R"({"$toUpper": null})"), R"("")");
  EXPECT_EQ(Eval(R"({"$toUpper": 5})"), R"("5")");
  EXPECT_EQ(Eval(R"({"$toUpper": [[1]]})"),
            "error 16007: can't convert from BSON type array to String");
  EXPECT_EQ(Eval(R"({"$strcasecmp": ["13Q1", "13q4"]})"), "-1");
  EXPECT_EQ(Eval(R"({"$strcasecmp": ["13Q4", "13q4"]})"), "0");
  EXPECT_EQ(Eval(R"({"$strcasecmp": ["14Q2", "13q4"]})"), "1");
}

// Manual $split examples.
TEST(String, Split) {
  EXPECT_EQ(Eval(R"({"$split": ["June-15-2013", "-"]})"),
            R"(["June","15","2013"])");
  EXPECT_EQ(Eval(R"({"$split": ["banana split", "a"]})"),
            R"(["b","n","n"," split"])");
  EXPECT_EQ(Eval(R"({"$split": ["astronomical", "astro"]})"),
            R"(["","nomical"])");
  EXPECT_EQ(Eval(R"({"$split": ["pea green boat", "owl"]})"),
            R"(["pea green boat"])");
  EXPECT_EQ(Eval(R"({"$split": ["headphone jack", 7]})"),
            "error 40086: $split requires an expression that evaluates to a "
            "string as a second argument, found: int");
  EXPECT_EQ(Eval(R"({"$split": ["a", ""]})"),
            "error 40087: $split requires a non-empty separator");
  EXPECT_EQ(Eval(R"({"$split": [null, "-"]})"), "null");
}

// Manual $strLenCP / $strLenBytes ("cafétéria": 9 code points, 11 bytes;
// "寿司": 2 and 6).
TEST(String, Lengths) {
  EXPECT_EQ(Eval(R"({"$strLenCP": "cafétéria"})"), "9");
  EXPECT_EQ(Eval(R"({"$strLenBytes": "cafétéria"})"), "11");
  EXPECT_EQ(Eval(R"({"$strLenCP": "寿司"})"), "2");
  EXPECT_EQ(Eval(R"({"$strLenBytes": "寿司"})"), "6");
  EXPECT_EQ(Eval(R"({"$strLenCP": null})"),
            "error 34471: $strLenCP requires a string argument, found: null");
}

// Manual $trim/$ltrim/$rtrim.
TEST(String, Trim) {
  EXPECT_EQ(Eval(R"({"$trim": {"input": " \n good  bye \t "}})"),
            R"("good  bye")");
  EXPECT_EQ(Eval(R"({"$ltrim": {"input": " \n good  bye \t "}})"),
            R"("good  bye \t ")");
  EXPECT_EQ(Eval(R"({"$rtrim": {"input": " \n good  bye \t "}})"),
            R"(" \n good  bye")");
  EXPECT_EQ(Eval(R"({"$trim": {"input": "  ggggoodbyeeeee", "chars": "ge "}})"),
            R"("oodby")");
  EXPECT_EQ(Eval(R"({"$trim": {"input": "\u00a0x\u3000"}})"), R"("x")");
  EXPECT_EQ(Eval(R"({"$trim": {"input": null}})"), "null");
  EXPECT_EQ(Eval(R"({"$trim": {"input": 1}})"),
            "error 50699: $trim requires its input to be a string, got 1 (of "
            "type int) instead.");
  EXPECT_EQ(Eval(R"({"$trim": {"chars": "a"}})"),
            "error 50695: $trim requires an 'input' field");
}

// Manual $indexOfCP and $indexOfBytes examples.
TEST(String, IndexOf) {
  EXPECT_EQ(Eval(R"({"$indexOfCP": ["cafeteria", "e"]})"), "3");
  EXPECT_EQ(Eval(R"({"$indexOfCP": ["cafétéria", "é"]})"), "3");
  EXPECT_EQ(Eval(R"({"$indexOfBytes": ["cafétéria", "é"]})"), "3");
  EXPECT_EQ(Eval(R"({"$indexOfCP": ["cafétéria", "t"]})"), "4");
  EXPECT_EQ(Eval(R"({"$indexOfBytes": ["cafétéria", "t"]})"), "5");
  EXPECT_EQ(Eval(R"({"$indexOfCP": ["foo.bar.fi", ".", 5]})"), "7");
  EXPECT_EQ(Eval(R"({"$indexOfCP": ["vanilla", "ll", 0, 2]})"), "-1");
  EXPECT_EQ(Eval(R"({"$indexOfCP": ["vanilla", "ll", 12]})"), "-1");
  EXPECT_EQ(Eval(R"({"$indexOfCP": ["vanilla", "ll", 5, 2]})"), "-1");
  EXPECT_EQ(Eval(R"({"$indexOfCP": [null, "foo"]})"), "null");
  EXPECT_EQ(Eval(R"({"$indexOfCP": ["vanilla", "ll", -1]})"),
            "error 40097: $indexOfCP requires a nonnegative starting index, "
            "found: -1");
  EXPECT_EQ(Eval(R"({"$indexOfCP": ["", ""]})"), "0");
}

// Manual $regexMatch / $regexFind / $regexFindAll ("Single LINE
// description." with /line/i: match "LINE" at idx 7).
TEST(String, Regex) {
  const char* doc = R"({"d": "Single LINE description."})";
  EXPECT_EQ(Eval(R"({"$regexMatch": {"input": "$d", "regex": "line"}})", doc),
            "false");
  EXPECT_EQ(Eval(R"({"$regexMatch": {"input": "$d",
                   "regex": {"$regularExpression": {"pattern": "line",
                                                    "options": "i"}}}})",
                 doc),
            "true");
  EXPECT_EQ(Eval(R"({"$regexFind": {"input": "$d", "regex": "line",
                                    "options": "i"}})",
                 doc),
            R"({"match":"LINE","idx":7,"captures":[]})");
  EXPECT_EQ(Eval(R"({"$regexFind": {"input": "$d", "regex": "xyz"}})", doc),
            "null");
  EXPECT_EQ(
      Eval(R"({"$regexFind": {"input": "café 12", "regex": "(\\d)(x)?"}})"),
      R"({"match":"1","idx":5,"captures":["1",null]})");
  EXPECT_EQ(Eval(R"({"$regexFindAll": {"input": "a1b22", "regex": "[0-9]+"}})"),
            R"([{"match":"1","idx":1,"captures":[]},)"
            R"({"match":"22","idx":3,"captures":[]}])");
  EXPECT_EQ(Eval(R"({"$regexFindAll": {"input": "ab", "regex": "x*"}})"),
            R"([{"match":"","idx":0,"captures":[]},)"
            R"({"match":"","idx":1,"captures":[]}])");
  EXPECT_EQ(Eval(R"({"$regexFindAll": {"input": null, "regex": "a"}})"), "[]");
  EXPECT_EQ(Eval(R"({"$regexMatch": {"input": 5, "regex": "a"}})"),
            "error 51104: $regexMatch needs 'input' to be of type string");
  EXPECT_EQ(Eval(R"({"$regexMatch": {"input": "a",
                   "regex": {"$regularExpression": {"pattern": "a",
                                                    "options": "i"}},
                   "options": "m"}})"),
            "error 51107: $regexMatch: found regex option(s) specified in both "
            "'regex' and 'option' fields");
  EXPECT_EQ(
      Eval(R"({"$regexMatch": {"input": "a", "regex": "("}})").substr(0, 50),
      "error 51111: Invalid Regex in $regexMatch: missing");
  EXPECT_EQ(Eval(R"({"$regexMatch": {"regex": "a"}})"),
            "error 31022: $regexMatch requires 'input' parameter");
  EXPECT_EQ(Eval(R"({"$regexMatch": "a"})"),
            "error 51103: $regexMatch expects an object of named arguments but "
            "found: string");
}

}  // namespace
}  // namespace agg
}  // namespace ttldb
