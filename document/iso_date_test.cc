#include <cstdint>
#include <limits>

#include "gtest/gtest.h"
#include "ttldb/json.h"

namespace ttldb {
namespace {

int64_t Parse(absl::string_view s) {
  int64_t ms = 0;
  EXPECT_TRUE(ParseIsoDate(s, &ms)) << s;
  return ms;
}

TEST(IsoDateTest, FormatKnownDates) {
  EXPECT_EQ(FormatIsoDate(0), "1970-01-01T00:00:00.000Z");
  EXPECT_EQ(FormatIsoDate(-1), "1969-12-31T23:59:59.999Z");
  EXPECT_EQ(FormatIsoDate(951782400000), "2000-02-29T00:00:00.000Z");
  EXPECT_EQ(FormatIsoDate(2147483648000), "2038-01-19T03:14:08.000Z");
  EXPECT_EQ(FormatIsoDate(-62135596800000), "0001-01-01T00:00:00.000Z");
  EXPECT_EQ(FormatIsoDate(253402300799999), "9999-12-31T23:59:59.999Z");
  EXPECT_EQ(FormatIsoDate(253402300800000), "10000-01-01T00:00:00.000Z");
  EXPECT_EQ(FormatIsoDate(-2208988800000), "1900-01-01T00:00:00.000Z");
  // Extremes do not overflow.
  EXPECT_FALSE(FormatIsoDate(std::numeric_limits<int64_t>::max()).empty());
  EXPECT_FALSE(FormatIsoDate(std::numeric_limits<int64_t>::min()).empty());
}

TEST(IsoDateTest, ParseForms) {
  EXPECT_EQ(Parse("1970-01-01T00:00:00Z"), 0);
  EXPECT_EQ(Parse("1970-01-01T00:00:00.000Z"), 0);
  EXPECT_EQ(Parse("1970-01-01"), 0);
  EXPECT_EQ(Parse("1970-01-01T00:01Z"), 60000);
  EXPECT_EQ(Parse("1970-01-01T00:00:00.1Z"), 100);
  EXPECT_EQ(Parse("1970-01-01T00:00:00.123456Z"), 123);
  EXPECT_EQ(Parse("1970-01-01T01:00:00+01:00"), 0);
  EXPECT_EQ(Parse("1970-01-01T00:00:00-0130"), 5400000);
  EXPECT_EQ(Parse("1969-12-31T23:59:59.999Z"), -1);
  EXPECT_EQ(Parse("2000-02-29T00:00:00Z"), 951782400000);
  EXPECT_EQ(Parse("9999-12-31T23:59:59.999Z"), 253402300799999);
  EXPECT_EQ(Parse("0001-01-01T00:00:00Z"), -62135596800000);
}

TEST(IsoDateTest, RejectsBadDates) {
  int64_t ms;
  for (const char* s :
       {"", "garbage", "2026-13-01T00:00:00Z", "2026-00-01T00:00:00Z",
        "2026-02-29T00:00:00Z", "1900-02-29", "2026-01-01T00:00:00",
        "2026-01-01T00:60:00Z", "2026-01-01T00:00:60Z", "2026-01-01T00:00:00.Z",
        "2026-01-01T00:00:00Zx", "2026-01-01T00:00:00+24:00", "26-01-01",
        "2026-1-01", "2026-01-01 00:00:00Z"}) {
    EXPECT_FALSE(ParseIsoDate(s, &ms)) << s;
  }
}

TEST(IsoDateTest, RoundTripAcrossCenturies) {
  for (int64_t ms = -62135596800000; ms <= 253402300799999;
       ms += 86400000LL * 3659 + 3600123) {
    int64_t back;
    ASSERT_TRUE(ParseIsoDate(FormatIsoDate(ms), &back)) << FormatIsoDate(ms);
    EXPECT_EQ(back, ms);
  }
}

}  // namespace
}  // namespace ttldb
