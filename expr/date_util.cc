#include "expr/date_util.h"

#include <cstdlib>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/time/civil_time.h"
#include "base/status.h"

namespace ttldb {
namespace agg {
namespace {

absl::Status DateError(int code, absl::string_view msg) {
  return MongoError(absl::StatusCode::kInvalidArgument, code, msg);
}

int64_t DateFloorDiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}

// "+hh:mm", "+hhmm", "+hh" (and '-'); false otherwise.
bool ParseOffset(absl::string_view s, int* seconds) {
  if (s.size() < 3 || (s[0] != '+' && s[0] != '-')) return false;
  absl::string_view rest = s.substr(1);
  int h = 0, m = 0;
  auto digits = [](absl::string_view d, int* out) {
    if (d.size() != 2 || !absl::ascii_isdigit(d[0]) ||
        !absl::ascii_isdigit(d[1])) {
      return false;
    }
    *out = (d[0] - '0') * 10 + (d[1] - '0');
    return true;
  };
  if (rest.size() == 2) {
    if (!digits(rest, &h)) return false;
  } else if (rest.size() == 4) {
    if (!digits(rest.substr(0, 2), &h) || !digits(rest.substr(2), &m)) {
      return false;
    }
  } else if (rest.size() == 5 && rest[2] == ':') {
    if (!digits(rest.substr(0, 2), &h) || !digits(rest.substr(3), &m)) {
      return false;
    }
  } else {
    return false;
  }
  *seconds = (s[0] == '-' ? -1 : 1) * (h * 3600 + m * 60);
  return true;
}

}  // namespace

absl::StatusOr<ZoneInfo> LoadZone(absl::string_view name) {
  int offset = 0;
  if (ParseOffset(name, &offset)) {
    return ZoneInfo{absl::FixedTimeZone(offset), offset == 0};
  }
  if (name == "UTC" || name == "GMT" || name == "Z") {
    return ZoneInfo{absl::UTCTimeZone(), true};
  }
  absl::TimeZone tz;
  // absl accepts "Fixed/UTC+hh:mm:ss" names and "" too; MongoDB does not.
  if (!name.empty() && !absl::StartsWith(name, "Fixed/") &&
      absl::LoadTimeZone(name, &tz)) {
    return ZoneInfo{tz, false};
  }
  return DateError(
      40485, absl::StrCat("unrecognized time zone identifier: \"", name, "\""));
}

DateParts ToParts(int64_t millis, absl::TimeZone tz) {
  const int64_t secs = DateFloorDiv(millis, 1000);
  const int ms = static_cast<int>(millis - secs * 1000);
  absl::TimeZone::CivilInfo ci = tz.At(absl::FromUnixSeconds(secs));
  const absl::CivilSecond cs = ci.cs;
  DateParts p;
  p.year = cs.year();
  p.month = cs.month();
  p.day = cs.day();
  p.hour = cs.hour();
  p.minute = cs.minute();
  p.second = cs.second();
  p.millisecond = ms;
  p.utc_offset_seconds = ci.offset;
  const absl::CivilDay day(cs);
  const absl::Weekday wd = absl::GetWeekday(day);
  // absl: Monday = 0 .. Sunday = 6.
  const int mon0 = static_cast<int>(wd);
  p.iso_day_of_week = mon0 + 1;
  p.day_of_week = (mon0 + 1) % 7 + 1;  // Sunday 1
  p.day_of_year = absl::GetYearDay(day);
  // %U: the first Sunday starts week 1; days before it are week 0.
  const int sun0 = p.day_of_week - 1;  // Sunday 0
  p.week = (p.day_of_year - 1 - sun0 + 7) / 7;
  // ISO week: the week (Mon..Sun) holding the year's first Thursday is 1.
  const absl::CivilDay thursday = day + (3 - mon0);
  p.iso_week_year = thursday.year();
  p.iso_week = (absl::GetYearDay(thursday) - 1) / 7 + 1;
  return p;
}

absl::Status ValidateDateFormat(absl::string_view format) {
  for (size_t i = 0; i < format.size(); ++i) {
    if (format[i] != '%') continue;
    if (i + 1 >= format.size()) {
      return DateError(18535, "Unmatched '%' at end of format string");
    }
    char c = format[++i];
    if (std::string("dGHjLmMSuUVwYzZ%").find(c) == std::string::npos) {
      return DateError(
          18536, absl::StrCat("Invalid format character '%", std::string(1, c),
                              "' in format string"));
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<std::string> FormatDate(absl::string_view format, int64_t millis,
                                       absl::TimeZone tz) {
  RETURN_IF_ERROR(ValidateDateFormat(format));
  const DateParts p = ToParts(millis, tz);
  std::string out;
  for (size_t i = 0; i < format.size(); ++i) {
    if (format[i] != '%') {
      out.push_back(format[i]);
      continue;
    }
    const char c = format[++i];
    switch (c) {
      case 'Y':
      case 'G': {
        int64_t y = c == 'Y' ? p.year : p.iso_week_year;
        if (y < 0 || y > 9999) {
          return DateError(18537,
                           "$dateToString is only defined on year 0-9999, "
                           "tried to use year " +
                               std::to_string(y));
        }
        absl::StrAppendFormat(&out, "%04d", y);
        break;
      }
      case 'm':
        absl::StrAppendFormat(&out, "%02d", p.month);
        break;
      case 'd':
        absl::StrAppendFormat(&out, "%02d", p.day);
        break;
      case 'H':
        absl::StrAppendFormat(&out, "%02d", p.hour);
        break;
      case 'M':
        absl::StrAppendFormat(&out, "%02d", p.minute);
        break;
      case 'S':
        absl::StrAppendFormat(&out, "%02d", p.second);
        break;
      case 'L':
        absl::StrAppendFormat(&out, "%03d", p.millisecond);
        break;
      case 'j':
        absl::StrAppendFormat(&out, "%03d", p.day_of_year);
        break;
      case 'w':
        absl::StrAppend(&out, p.day_of_week);
        break;
      case 'u':
        absl::StrAppend(&out, p.iso_day_of_week);
        break;
      case 'U':
        absl::StrAppendFormat(&out, "%02d", p.week);
        break;
      case 'V':
        absl::StrAppendFormat(&out, "%02d", p.iso_week);
        break;
      case 'z': {
        int off = p.utc_offset_seconds;
        char sign = off < 0 ? '-' : '+';
        off = std::abs(off);
        absl::StrAppendFormat(&out, "%c%02d%02d", sign, off / 3600,
                              (off % 3600) / 60);
        break;
      }
      case 'Z': {
        int minutes = p.utc_offset_seconds / 60;
        absl::StrAppendFormat(&out, "%c%03d", minutes < 0 ? '-' : '+',
                              std::abs(minutes));
        break;
      }
      case '%':
        out.push_back('%');
        break;
    }
  }
  return out;
}

namespace {

absl::Status DateParseError(absl::string_view s, absl::string_view why) {
  return DateError(241,
                   absl::StrCat("Error parsing date string '", s, "'; ", why));
}

// Reads exactly `n` digits (n > 0), or up to `n` when `up_to`.
bool ReadDigits(absl::string_view s, size_t* i, size_t n, bool up_to,
                int64_t* out) {
  size_t start = *i;
  int64_t v = 0;
  while (*i < s.size() && *i - start < n && absl::ascii_isdigit(s[*i])) {
    v = v * 10 + (s[*i] - '0');
    ++*i;
  }
  size_t got = *i - start;
  if (got == 0 || (!up_to && got != n)) return false;
  *out = v;
  return true;
}

}  // namespace

absl::StatusOr<int64_t> ParseDateString(
    absl::string_view s, absl::TimeZone tz,
    const std::optional<std::string>& format) {
  int64_t year = 1970, month = 1, day = 1, hour = 0, minute = 0, second = 0,
          millis = 0;
  std::optional<int> offset;
  size_t i = 0;
  if (format.has_value()) {
    const std::string& f = *format;
    std::optional<int64_t> iso_year, iso_week, iso_dow, yday;
    for (size_t k = 0; k < f.size(); ++k) {
      if (f[k] != '%') {
        if (i >= s.size() || s[i] != f[k]) {
          return DateParseError(s, "Format literal not found");
        }
        ++i;
        continue;
      }
      if (k + 1 >= f.size()) {
        return DateError(18535, "Unmatched '%' at end of format string");
      }
      const char c = f[++k];
      int64_t v = 0;
      bool ok = true;
      switch (c) {
        case 'Y':
          ok = ReadDigits(s, &i, 4, false, &year);
          break;
        case 'G':
          ok = ReadDigits(s, &i, 4, false, &v);
          iso_year = v;
          break;
        case 'm':
          ok = ReadDigits(s, &i, 2, true, &month);
          break;
        case 'd':
          ok = ReadDigits(s, &i, 2, true, &day);
          break;
        case 'H':
          ok = ReadDigits(s, &i, 2, true, &hour);
          break;
        case 'M':
          ok = ReadDigits(s, &i, 2, true, &minute);
          break;
        case 'S':
          ok = ReadDigits(s, &i, 2, true, &second);
          break;
        case 'L': {
          size_t start = i;
          ok = ReadDigits(s, &i, 3, true, &millis);
          for (size_t n = i - start; ok && n < 3; ++n) millis *= 10;
          break;
        }
        case 'j':
          ok = ReadDigits(s, &i, 3, true, &v);
          yday = v;
          break;
        case 'V':
          ok = ReadDigits(s, &i, 2, true, &v);
          iso_week = v;
          break;
        case 'u':
          ok = ReadDigits(s, &i, 1, false, &v);
          iso_dow = v;
          break;
        case 'z': {
          size_t start = i;
          while (i < s.size() && (s[i] == '+' || s[i] == '-' || s[i] == ':' ||
                                  absl::ascii_isdigit(s[i]))) {
            ++i;
          }
          int off = 0;
          ok = ParseOffset(s.substr(start, i - start), &off);
          offset = off;
          break;
        }
        case 'Z': {
          if (i < s.size() && (s[i] == '+' || s[i] == '-')) {
            bool neg = s[i] == '-';
            ++i;
            ok = ReadDigits(s, &i, 4, true, &v);
            offset = static_cast<int>((neg ? -v : v) * 60);
          } else {
            ok = false;
          }
          break;
        }
        case '%':
          ok = i < s.size() && s[i] == '%';
          ++i;
          break;
        default:
          return DateError(
              18536, absl::StrCat("Invalid format character '%",
                                  std::string(1, c), "' in format string"));
      }
      if (!ok) return DateParseError(s, "Unexpected data found");
    }
    if (i != s.size()) return DateParseError(s, "Trailing data");
    if (iso_year.has_value()) {
      // Monday of ISO week 1 is the Monday on or before January 4th.
      absl::CivilDay jan4(*iso_year, 1, 4);
      absl::CivilDay monday = jan4 - static_cast<int>(absl::GetWeekday(jan4));
      absl::CivilDay d =
          monday + (iso_week.value_or(1) - 1) * 7 + (iso_dow.value_or(1) - 1);
      year = d.year();
      month = d.month();
      day = d.day();
    } else if (yday.has_value()) {
      absl::CivilDay d = absl::CivilDay(year, 1, 1) + (*yday - 1);
      month = d.month();
      day = d.day();
    }
  } else {
    // ISO-8601: YYYY-MM-DD[(T| )HH:MM[:SS[.fff]]][Z|offset]
    if (!ReadDigits(s, &i, 4, false, &year) || i >= s.size() || s[i] != '-') {
      return DateParseError(s,
                            "an incomplete date/time string has been found, "
                            "with elements missing");
    }
    ++i;
    if (!ReadDigits(s, &i, 2, false, &month) || i >= s.size() || s[i] != '-') {
      return DateParseError(s,
                            "an incomplete date/time string has been found, "
                            "with elements missing");
    }
    ++i;
    if (!ReadDigits(s, &i, 2, false, &day)) {
      return DateParseError(s,
                            "an incomplete date/time string has been found, "
                            "with elements missing");
    }
    if (i < s.size() && (s[i] == 'T' || s[i] == ' ')) {
      ++i;
      if (!ReadDigits(s, &i, 2, false, &hour) || i >= s.size() || s[i] != ':' ||
          (++i, !ReadDigits(s, &i, 2, false, &minute))) {
        return DateParseError(s, "Unexpected data found");
      }
      if (i < s.size() && s[i] == ':') {
        ++i;
        if (!ReadDigits(s, &i, 2, false, &second)) {
          return DateParseError(s, "Unexpected data found");
        }
        if (i < s.size() && s[i] == '.') {
          ++i;
          size_t start = i;
          int64_t frac = 0;
          while (i < s.size() && absl::ascii_isdigit(s[i])) {
            if (i - start < 3) frac = frac * 10 + (s[i] - '0');
            ++i;
          }
          if (i == start) return DateParseError(s, "Unexpected data found");
          for (size_t n = i - start; n < 3; ++n) frac *= 10;
          millis = frac;
        }
      }
    }
    if (i < s.size() && s[i] == ' ' && i + 1 < s.size() &&
        (s[i + 1] == '+' || s[i + 1] == '-' || s[i + 1] == 'Z')) {
      ++i;  // "2018-03-20 11:00:06 +0500"
    }
    if (i < s.size()) {
      if (s[i] == 'Z' && i + 1 == s.size()) {
        offset = 0;
        ++i;
      } else {
        int off = 0;
        if (!ParseOffset(s.substr(i), &off)) {
          return DateParseError(s, "Trailing data");
        }
        offset = off;
        i = s.size();
      }
    }
  }
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 24 ||
      minute > 59 || second > 60) {
    return DateParseError(s, "The parsed date was invalid");
  }
  const absl::CivilSecond cs(year, month, day, hour, minute, second);
  if (cs.day() != day) return DateParseError(s, "The parsed date was invalid");
  int64_t secs;
  if (offset.has_value()) {
    secs =
        absl::ToUnixSeconds(absl::FromCivil(cs, absl::UTCTimeZone())) - *offset;
  } else {
    secs = absl::ToUnixSeconds(absl::FromCivil(cs, tz));
  }
  return secs * 1000 + millis;
}

}  // namespace agg
}  // namespace ttldb
