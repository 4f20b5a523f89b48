// ISO-8601 dates <-> milliseconds since the epoch, in the proleptic
// Gregorian calendar, with Howard Hinnant's days-from-civil arithmetic so
// that every int64 millisecond value formats without overflow.
#include <cstdio>
#include <string>

#include "ttldb/json.h"

namespace ttldb {
namespace {

constexpr int64_t kMillisPerDay = 86400000;

int64_t FloorDiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;
}

// Days since 1970-01-01 of y-m-d.
int64_t DaysFromCivil(int64_t y, unsigned m, unsigned d) {
  y -= m <= 2;
  const int64_t era = FloorDiv(y, 400);
  const unsigned yoe = static_cast<unsigned>(y - era * 400);
  const unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + static_cast<int64_t>(doe) - 719468;
}

void CivilFromDays(int64_t z, int64_t* y, unsigned* m, unsigned* d) {
  z += 719468;
  const int64_t era = FloorDiv(z, 146097);
  const unsigned doe = static_cast<unsigned>(z - era * 146097);
  const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const unsigned mp = (5 * doy + 2) / 153;
  *d = doy - (153 * mp + 2) / 5 + 1;
  *m = mp < 10 ? mp + 3 : mp - 9;
  *y = static_cast<int64_t>(yoe) + era * 400 + (*m <= 2);
}

bool IsLeap(int64_t y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }

unsigned DaysInMonth(int64_t y, unsigned m) {
  static constexpr unsigned kDays[] = {31, 28, 31, 30, 31, 30,
                                       31, 31, 30, 31, 30, 31};
  return m == 2 && IsLeap(y) ? 29 : kDays[m - 1];
}

// Reads exactly `n` digits at text[*pos].
bool Digits(absl::string_view text, size_t* pos, int n, int* out) {
  if (*pos + n > text.size()) return false;
  int v = 0;
  for (int i = 0; i < n; ++i) {
    char c = text[*pos + i];
    if (c < '0' || c > '9') return false;
    v = v * 10 + (c - '0');
  }
  *pos += n;
  *out = v;
  return true;
}

bool Expect(absl::string_view text, size_t* pos, char c) {
  if (*pos >= text.size() || text[*pos] != c) return false;
  ++*pos;
  return true;
}

}  // namespace

std::string FormatIsoDate(int64_t millis) {
  int64_t days = FloorDiv(millis, kMillisPerDay);
  int64_t ms_of_day = millis % kMillisPerDay;  // no overflow at the extremes
  if (ms_of_day < 0) ms_of_day += kMillisPerDay;
  int64_t y;
  unsigned m, d;
  CivilFromDays(days, &y, &m, &d);
  int ms = static_cast<int>(ms_of_day % 1000);
  int64_t secs = ms_of_day / 1000;
  char buf[64];
  // Years outside 0..9999 keep all their digits (and a sign if negative).
  int n = std::snprintf(
      buf, sizeof(buf), "%04lld-%02u-%02uT%02d:%02d:%02d.%03dZ",
      static_cast<long long>(y), m, d, static_cast<int>(secs / 3600),
      static_cast<int>(secs / 60 % 60), static_cast<int>(secs % 60), ms);
  return std::string(buf, n);
}

// Grammar: YYYY-MM-DD[Thh:mm[:ss[.f+]](Z|±hh[:]mm)]. A date without a time
// is midnight UTC.
bool ParseIsoDate(absl::string_view text, int64_t* millis) {
  size_t pos = 0;
  int year, month, day, hour = 0, minute = 0, second = 0, ms = 0;
  if (!Digits(text, &pos, 4, &year) || !Expect(text, &pos, '-') ||
      !Digits(text, &pos, 2, &month) || !Expect(text, &pos, '-') ||
      !Digits(text, &pos, 2, &day)) {
    return false;
  }
  if (month < 1 || month > 12 || day < 1 ||
      day > static_cast<int>(DaysInMonth(year, month))) {
    return false;
  }
  int64_t offset_minutes = 0;
  if (pos < text.size()) {
    if (!Expect(text, &pos, 'T') || !Digits(text, &pos, 2, &hour) ||
        !Expect(text, &pos, ':') || !Digits(text, &pos, 2, &minute)) {
      return false;
    }
    if (pos < text.size() && text[pos] == ':') {
      ++pos;
      if (!Digits(text, &pos, 2, &second)) return false;
      if (pos < text.size() && text[pos] == '.') {
        ++pos;
        int digits = 0;
        while (pos < text.size() && text[pos] >= '0' && text[pos] <= '9') {
          if (digits < 3) ms = ms * 10 + (text[pos] - '0');
          ++digits;
          ++pos;
        }
        if (digits == 0) return false;
        for (int i = digits; i < 3; ++i) ms *= 10;
      }
    }
    if (hour > 23 || minute > 59 || second > 59) return false;
    if (pos >= text.size()) return false;  // a time needs a zone
    char zone = text[pos++];
    if (zone == '+' || zone == '-') {
      int oh, om;
      if (!Digits(text, &pos, 2, &oh)) return false;
      Expect(text, &pos, ':');
      if (!Digits(text, &pos, 2, &om) || oh > 23 || om > 59) return false;
      offset_minutes = (zone == '+' ? 1 : -1) * (oh * 60 + om);
    } else if (zone != 'Z') {
      return false;
    }
    if (pos != text.size()) return false;
  }
  int64_t days = DaysFromCivil(year, month, day);
  *millis = days * kMillisPerDay +
            ((hour * 60 + minute - offset_minutes) * 60 + second) * 1000 + ms;
  return true;
}

}  // namespace ttldb
