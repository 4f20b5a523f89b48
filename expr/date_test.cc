// Date operators. Expected answers from the MongoDB 8.0 manual pages
// (https://www.mongodb.com/docs/manual/reference/operator/aggregation/
// <op>/) with their sample documents; time zones from the system tzdata.
#include "expr/expr_test_util.h"
#include "gtest/gtest.h"

namespace ttldb {
namespace agg {
namespace {

std::string Date(const std::string& iso) {
  return R"({"$date":{"$numberLong":")" +
         std::to_string(ParseDocument("{\"d\": {\"$date\": \"" + iso + "\"}}")
                            ->Get("d")
                            ->date_millis()) +
         R"("}})";
}

// Manual $year/$month/... "Example": date 2014-01-01T08:15:39.736Z.
TEST(Date, Parts) {
  const char* doc = R"({"date": {"$date": "2014-01-01T08:15:39.736Z"}})";
  EXPECT_EQ(Eval(R"({"$year": "$date"})", doc), "2014");
  EXPECT_EQ(Eval(R"({"$month": "$date"})", doc), "1");
  EXPECT_EQ(Eval(R"({"$dayOfMonth": "$date"})", doc), "1");
  EXPECT_EQ(Eval(R"({"$hour": "$date"})", doc), "8");
  EXPECT_EQ(Eval(R"({"$minute": "$date"})", doc), "15");
  EXPECT_EQ(Eval(R"({"$second": "$date"})", doc), "39");
  EXPECT_EQ(Eval(R"({"$millisecond": "$date"})", doc), "736");
  EXPECT_EQ(Eval(R"({"$dayOfYear": "$date"})", doc), "1");
  EXPECT_EQ(Eval(R"({"$dayOfWeek": "$date"})", doc), "4");
  EXPECT_EQ(Eval(R"({"$week": "$date"})", doc), "0");
  EXPECT_EQ(Eval(R"({"$hour": {"date": "$date",
                               "timezone": "America/New_York"}})",
                 doc),
            "3");
  EXPECT_EQ(
      Eval(R"({"$minute": {"date": "$date", "timezone": "+05:30"}})", doc),
      "45");
  EXPECT_EQ(Eval(R"({"$year": ["$date"]})", doc), "2014");
  EXPECT_EQ(Eval(R"({"$year": "$nothing"})", doc), "null");
  EXPECT_EQ(Eval(R"({"$year": "x"})"),
            "error 16006: can't convert from BSON type string to Date");
  EXPECT_EQ(
      Eval(R"({"$hour": {"date": "$date", "timezone": "Mars/Base"}})", doc),
      "error 40485: unrecognized time zone identifier: \"Mars/Base\"");
  EXPECT_EQ(Eval(R"({"$year": {"date": "$date", "x": 1}})", doc),
            "error 40535: unrecognized option to $year: \"x\"");
}

// Manual $isoWeek/$isoWeekYear/$isoDayOfWeek: 2016-01-01 is day 5 of
// ISO week 53 of 2015.
TEST(Date, IsoParts) {
  const char* doc = R"({"date": {"$date": "2016-01-01T00:00:00Z"}})";
  EXPECT_EQ(Eval(R"({"$isoWeek": "$date"})", doc), "53");
  EXPECT_EQ(Eval(R"({"$isoWeekYear": "$date"})", doc), "2015");
  EXPECT_EQ(Eval(R"({"$isoDayOfWeek": "$date"})", doc), "5");
}

// Manual $dateToString "Example" (date 2014-01-01T08:15:39.736Z).
TEST(Date, DateToString) {
  const char* doc = R"({"date": {"$date": "2014-01-01T08:15:39.736Z"}})";
  EXPECT_EQ(Eval(R"({"$dateToString": {"format": "%Y-%m-%d",
                                       "date": "$date"}})",
                 doc),
            R"("2014-01-01")");
  EXPECT_EQ(Eval(R"({"$dateToString": {"format": "%H:%M:%S:%L%z",
                   "date": "$date", "timezone": "America/New_York"}})",
                 doc),
            R"("03:15:39:736-0500")");
  EXPECT_EQ(Eval(R"({"$dateToString": {"format": "%H:%M:%S:%L%z",
                   "date": "$date", "timezone": "+04:30"}})",
                 doc),
            R"("12:45:39:736+0430")");
  EXPECT_EQ(Eval(R"({"$dateToString": {"format": "%Z", "date": "$date",
                                       "timezone": "America/New_York"}})",
                 doc),
            R"("-300")");
  EXPECT_EQ(Eval(R"({"$dateToString": {"format": "%Z", "date": "$date",
                                       "timezone": "+04:30"}})",
                 doc),
            R"("+270")");
  EXPECT_EQ(Eval(R"({"$dateToString": {"date": "$date"}})", doc),
            R"("2014-01-01T08:15:39.736Z")");
  EXPECT_EQ(Eval(R"({"$dateToString": {"format": "%j %w %u %U %V %G %%",
                                       "date": "$date"}})",
                 doc),
            R"("001 4 3 00 01 2014 %")");
  EXPECT_EQ(Eval(R"({"$dateToString": {"date": "$nothing",
                                       "onNull": "none"}})"),
            R"("none")");
  EXPECT_EQ(
      Eval(R"({"$dateToString": {"date": "$date", "format": "%Q"}})", doc),
      "error 18536: Invalid format character '%Q' in format string");
  EXPECT_EQ(Eval(R"({"$dateToString": {"format": "%Y"}})"),
            "error 18628: Missing 'date' parameter to $dateToString");
}

// Manual $dateFromString examples.
TEST(Date, DateFromString) {
  EXPECT_EQ(
      Eval(R"({"$dateFromString": {"dateString": "2017-02-08T12:10:40.787",
                   "timezone": "America/New_York"}})"),
      Date("2017-02-08T17:10:40.787Z"));
  EXPECT_EQ(Eval(R"({"$dateFromString": {"dateString": "15-06-2018",
                                         "format": "%d-%m-%Y"}})"),
            Date("2018-06-15T00:00:00Z"));
  EXPECT_EQ(Eval(R"({"$dateFromString": {"dateString": "not a date",
                                         "onError": "bad"}})"),
            R"("bad")");
  EXPECT_EQ(Eval(R"({"$dateFromString": {"dateString": null,
                                         "onNull": "none"}})"),
            R"("none")");
  EXPECT_EQ(Eval(R"({"$dateFromString": {"dateString": "not a date"}})")
                .substr(0, 50),
            "error 241: Error parsing date string 'not a date';");
}

// Manual $dateAdd / $dateSubtract / $dateDiff.
TEST(Date, AddAndDiff) {
  EXPECT_EQ(Eval(R"({"$dateAdd": {"startDate": "$d", "unit": "day",
                                  "amount": 3}})",
                 R"({"d": {"$date": "2020-10-31T12:10:05Z"}})"),
            Date("2020-11-03T12:10:05Z"));
  EXPECT_EQ(Eval(R"({"$dateAdd": {"startDate": "$d", "unit": "month",
                                  "amount": 1}})",
                 R"({"d": {"$date": "2020-01-31T00:00:00Z"}})"),
            Date("2020-02-29T00:00:00Z"));
  EXPECT_EQ(Eval(R"({"$dateSubtract": {"startDate": "$d", "unit": "hour",
                                       "amount": 2}})",
                 R"({"d": {"$date": "2021-01-01T01:00:00Z"}})"),
            Date("2020-12-31T23:00:00Z"));
  EXPECT_EQ(Eval(R"({"$dateAdd": {"startDate": "$d", "unit": "day",
                                  "amount": 1.5}})",
                 R"({"d": {"$date": 0}})"),
            "error 5166405: $dateAdd expects integer amount of time units");
  EXPECT_EQ(Eval(R"({"$dateAdd": {"startDate": "$d", "unit": "day"}})"),
            "error 5166402: $dateAdd requires startDate, unit, and amount to "
            "be present");
  EXPECT_EQ(Eval(R"({"$dateDiff": {"startDate": "$a", "endDate": "$b",
                                   "unit": "day"}})",
                 R"({"a": {"$date": "2020-01-01T00:00:00Z"},
                     "b": {"$date": "2020-03-01T00:00:00Z"}})"),
            R"({"$numberLong":"60"})");
  EXPECT_EQ(Eval(R"({"$dateDiff": {"startDate": "$a", "endDate": "$b",
                                   "unit": "month"}})",
                 R"({"a": {"$date": "2020-01-31T23:59:00Z"},
                     "b": {"$date": "2020-02-01T00:00:00Z"}})"),
            R"({"$numberLong":"1"})");
  EXPECT_EQ(Eval(R"({"$dateDiff": {"startDate": "$a", "endDate": "$b",
                                   "unit": "week", "startOfWeek": "monday"}})",
                 R"({"a": {"$date": "2021-01-03T00:00:00Z"},
                     "b": {"$date": "2021-01-04T00:00:00Z"}})"),
            R"({"$numberLong":"1"})");
}

// Argument errors and null startOfWeek (jstests/aggregation/expressions/
// date_diff.js and date_trunc.js: a non-date startDate/endDate/date is an
// error; a null startOfWeek for unit "week" makes the result null, for other
// units it is not evaluated).
TEST(Date, DiffAndTruncArguments) {
  const char* doc = R"({"d": {"$date": "2021-01-03T00:00:00Z"}, "s": "x"})";
  EXPECT_EQ(Eval(R"({"$dateDiff": {"startDate": "$s", "endDate": "$d",
                                   "unit": "day"}})",
                 doc),
            "error 5166307: $dateDiff requires 'startDate' to be a date, but "
            "got string");
  EXPECT_EQ(Eval(R"({"$dateDiff": {"startDate": "$d", "endDate": "$s",
                                   "unit": "day"}})",
                 doc),
            "error 5166307: $dateDiff requires 'endDate' to be a date, but "
            "got string");
  EXPECT_EQ(Eval(R"({"$dateTrunc": {"date": "$s", "unit": "day"}})", doc),
            "error 5439012: $dateTrunc requires 'date' to be a date, but got "
            "string");
  EXPECT_EQ(Eval(R"({"$dateDiff": {"startDate": "$d", "endDate": "$d",
                                   "unit": "week", "startOfWeek": null}})",
                 doc),
            "null");
  EXPECT_EQ(Eval(R"({"$dateTrunc": {"date": "$d", "unit": "week",
                                    "startOfWeek": "$missing"}})",
                 doc),
            "null");
  EXPECT_EQ(Eval(R"({"$dateTrunc": {"date": "$d", "unit": "day",
                                    "startOfWeek": 5}})",
                 doc),
            Date("2021-01-03T00:00:00Z"));
  EXPECT_EQ(Eval(R"({"$dateDiff": {"startDate": "$d", "endDate": "$d",
                                   "unit": "week", "startOfWeek": 5}})",
                 doc),
            "error 5439015: $dateDiff requires 'startOfWeek' to be a string, "
            "but got int");
}

// Manual $dateTrunc examples (orderDate 2020-05-18T14:10:30Z).
TEST(Date, Trunc) {
  const char* doc = R"({"d": {"$date": "2020-05-18T14:10:30Z"}})";
  EXPECT_EQ(Eval(R"({"$dateTrunc": {"date": "$d", "unit": "month",
                                    "binSize": 6}})",
                 doc),
            Date("2020-01-01T00:00:00Z"));
  EXPECT_EQ(Eval(R"({"$dateTrunc": {"date": "$d", "unit": "week",
                   "binSize": 2, "timezone": "America/Los_Angeles",
                   "startOfWeek": "Monday"}})",
                 doc),
            Date("2020-05-11T07:00:00Z"));
  EXPECT_EQ(Eval(R"({"$dateTrunc": {"date": "$d", "unit": "hour"}})", doc),
            Date("2020-05-18T14:00:00Z"));
  EXPECT_EQ(Eval(R"({"$dateTrunc": {"date": "$d", "unit": "day",
                                    "timezone": "+05:00"}})",
                 doc),
            Date("2020-05-17T19:00:00Z"));  // local midnight, +05:00
}

// Manual $dateToParts / $dateFromParts examples.
TEST(Date, ToAndFromParts) {
  const char* doc = R"({"date": {"$date": "2017-01-01T01:29:09.123Z"}})";
  EXPECT_EQ(Eval(R"({"$dateToParts": {"date": "$date"}})", doc),
            R"({"year":2017,"month":1,"day":1,"hour":1,"minute":29,)"
            R"("second":9,"millisecond":123})");
  EXPECT_EQ(
      Eval(R"({"$dateToParts": {"date": "$date", "iso8601": true}})", doc),
      R"({"isoWeekYear":2016,"isoWeek":52,"isoDayOfWeek":7,"hour":1,)"
      R"("minute":29,"second":9,"millisecond":123})");
  EXPECT_EQ(Eval(R"({"$dateToParts": {"date": "$date",
                                      "timezone": "America/New_York"}})",
                 doc),
            R"({"year":2016,"month":12,"day":31,"hour":20,"minute":29,)"
            R"("second":9,"millisecond":123})");
  EXPECT_EQ(Eval(R"({"$dateFromParts": {"year": 2017, "month": 2, "day": 8,
                                        "hour": 12}})"),
            Date("2017-02-08T12:00:00Z"));
  EXPECT_EQ(Eval(R"({"$dateFromParts": {"isoWeekYear": 2017, "isoWeek": 6,
                                        "isoDayOfWeek": 3, "hour": 12}})"),
            Date("2017-02-08T12:00:00Z"));
  EXPECT_EQ(Eval(R"({"$dateFromParts": {"year": 2016, "month": 12, "day": 31,
                   "hour": 23, "minute": 46, "second": 12,
                   "timezone": "America/New_York"}})"),
            Date("2017-01-01T04:46:12Z"));
  EXPECT_EQ(Eval(R"({"$dateFromParts": {"year": 2017, "month": 14,
                                        "day": 1}})"),
            Date("2018-02-01T00:00:00Z"));
  EXPECT_EQ(Eval(R"({"$dateFromParts": {"year": 2016, "month": 1,
                                        "day": 0}})"),
            Date("2015-12-31T00:00:00Z"));
  EXPECT_EQ(Eval(R"({"$dateFromParts": {"year": 0}})"),
            "error 40523: 'year' must evaluate to an integer in the range 1 "
            "to 9999, found 0");
}

}  // namespace
}  // namespace agg
}  // namespace ttldb
