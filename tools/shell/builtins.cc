#include "tools/shell/builtins.h"

#include <cctype>
#include <cmath>
#include <cstdlib>

#include "absl/strings/ascii.h"
#include "absl/strings/escaping.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "tools/shell/value_format.h"

namespace ttldb {
namespace shell {
namespace {

// +-8.64e15 ms: the range of a JavaScript Date.
constexpr double kMaxJsDateMillis = 8.64e15;

bool IsNumeric(const Value& v) {
  return v.type() == ValueType::kInt32 || v.type() == ValueType::kInt64 ||
         v.type() == ValueType::kDouble;
}

// A number converted to uint32 (Timestamp fields, ObjectId seconds): false
// unless it is finite and in 0..2^32-1, so the cast below is defined.
bool ToUint32(const Value& v, uint32_t* out) {
  if (!IsNumeric(v)) return false;
  double d = v.type() == ValueType::kDouble
                 ? v.double_value()
                 : static_cast<double>(v.int64_value());
  if (!(d >= 0 && d <= 4294967295.0)) return false;
  *out = static_cast<uint32_t>(d);
  return true;
}

double NumberOf(const Value& v) {
  if (v.type() == ValueType::kDouble) return v.double_value();
  return static_cast<double>(v.int64_value());
}

absl::Status Invalid(absl::string_view message) {
  return absl::InvalidArgumentError(message);
}

int64_t CivilToMillis(const absl::CivilSecond& cs, int millis,
                      absl::TimeZone zone) {
  return absl::ToUnixMillis(absl::FromCivil(cs, zone)) + millis;
}

// A small cursor over a string.
struct Scanner {
  absl::string_view s;
  size_t pos = 0;
  bool Done() const { return pos >= s.size(); }
  char Peek() const { return pos < s.size() ? s[pos] : '\0'; }
  bool Eat(char c) {
    if (Peek() != c) return false;
    ++pos;
    return true;
  }
  // Reads exactly n digits (n > 0) or, with n == 0, one or more.
  bool Digits(int n, int64_t* out, int* count = nullptr) {
    int64_t v = 0;
    int k = 0;
    while (pos < s.size() && std::isdigit(static_cast<unsigned char>(s[pos])) &&
           (n == 0 || k < n) && k < 18) {
      v = v * 10 + (s[pos] - '0');
      ++pos;
      ++k;
    }
    if (count != nullptr) *count = k;
    if (k == 0 || (n > 0 && k != n)) return false;
    *out = v;
    return true;
  }
};

// ISO-8601 as JavaScript and mongosh's ISODate accept it:
// YYYY[-MM[-DD]] or +-YYYYYY..., then [T| ]HH:MM[:SS[.fff]], then
// [Z | +-HH[:]MM | +-HH]. `utc_when_no_offset` picks ISODate's rule over
// Date's (local time for a date-time without offset).
bool ParseIso(absl::string_view text, bool utc_when_no_offset,
              absl::TimeZone local, int64_t* millis) {
  Scanner sc{absl::StripAsciiWhitespace(text)};
  int64_t year = 0, month = 1, day = 1, hour = 0, minute = 0, second = 0;
  int64_t ms = 0;
  if (sc.Peek() == '+' || sc.Peek() == '-') {
    bool neg = sc.Peek() == '-';
    ++sc.pos;
    if (!sc.Digits(6, &year)) return false;
    if (neg) year = -year;
  } else if (!sc.Digits(4, &year)) {
    return false;
  }
  bool has_time = false, has_offset = false;
  int64_t offset_minutes = 0;
  if (sc.Eat('-')) {
    if (!sc.Digits(2, &month)) return false;
    if (sc.Eat('-') && !sc.Digits(2, &day)) return false;
  }
  if (sc.Peek() == 'T' || sc.Peek() == 't' || sc.Peek() == ' ') {
    ++sc.pos;
    has_time = true;
    if (!sc.Digits(2, &hour) || !sc.Eat(':') || !sc.Digits(2, &minute)) {
      return false;
    }
    if (sc.Eat(':')) {
      if (!sc.Digits(2, &second)) return false;
      if (sc.Eat('.') || sc.Eat(',')) {
        int count = 0;
        int64_t frac = 0;
        if (!sc.Digits(0, &frac, &count)) return false;
        while (count > 3) {
          frac /= 10;
          --count;
        }
        while (count < 3) {
          frac *= 10;
          ++count;
        }
        ms = frac;
      }
    }
  }
  if (sc.Eat('Z') || sc.Eat('z')) {
    has_offset = true;
  } else if (sc.Peek() == '+' || sc.Peek() == '-') {
    bool neg = sc.Peek() == '-';
    ++sc.pos;
    int64_t oh = 0, om = 0;
    if (!sc.Digits(2, &oh)) return false;
    if (sc.Eat(':')) {
      if (!sc.Digits(2, &om)) return false;
    } else if (!sc.Done()) {
      if (!sc.Digits(2, &om)) return false;
    }
    if (oh > 23 || om > 59) return false;
    offset_minutes = (neg ? -1 : 1) * (oh * 60 + om);
    has_offset = true;
  }
  if (!sc.Done()) return false;
  if (month < 1 || month > 12 || day < 1 || hour > 24 || minute > 59 ||
      second > 59 || (hour == 24 && (minute || second || ms))) {
    return false;
  }
  const absl::CivilSecond cs(year, month, day, hour, minute, second);
  if (cs.day() != day && hour != 24) return false;  // Feb 30 and the like
  absl::TimeZone zone = absl::UTCTimeZone();
  if (!has_offset && has_time && !utc_when_no_offset) zone = local;
  *millis = CivilToMillis(cs, static_cast<int>(ms), zone) -
            offset_minutes * 60 * 1000;
  return std::fabs(static_cast<double>(*millis)) <= kMaxJsDateMillis;
}

int MonthFromName(absl::string_view word) {
  static const char* const kMonths[] = {
      "january", "february", "march",     "april",   "may",      "june",
      "july",    "august",   "september", "october", "november", "december"};
  if (word.size() < 3) return 0;
  for (int i = 0; i < 12; ++i) {
    if (absl::string_view(kMonths[i]).substr(0, word.size()) == word) {
      return i + 1;
    }
  }
  return 0;
}

bool IsWeekday(absl::string_view word) {
  static const char* const kDays[] = {"sunday",    "monday",   "tuesday",
                                      "wednesday", "thursday", "friday",
                                      "saturday"};
  if (word.size() < 3) return false;
  for (const char* d : kDays) {
    if (absl::string_view(d).substr(0, word.size()) == word) return true;
  }
  return false;
}

// V8's lenient legacy date parser, for the forms people actually type.
bool ParseLegacyDate(absl::string_view text, absl::TimeZone local,
                     int64_t* millis) {
  Scanner sc{text};
  int month = 0;
  int64_t hour = -1, minute = 0, second = 0, ms = 0;
  bool pm = false, am = false, has_offset = false, utc_marker = false;
  int64_t offset_minutes = 0;
  std::vector<std::pair<int64_t, int>> numbers;  // value, digit count
  int64_t slash_parts[3] = {0, 0, 0};
  int slash_count = 0;
  while (!sc.Done()) {
    char c = sc.Peek();
    if (std::isalpha(static_cast<unsigned char>(c))) {
      std::string word;
      while (std::isalpha(static_cast<unsigned char>(sc.Peek()))) {
        word.push_back(absl::ascii_tolower(sc.Peek()));
        ++sc.pos;
      }
      if (word == "am") {
        am = true;
      } else if (word == "pm") {
        pm = true;
      } else if (word == "gmt" || word == "utc" || word == "ut" ||
                 word == "z") {
        utc_marker = true;
        has_offset = true;
      } else if (int m = MonthFromName(word); m != 0) {
        if (month != 0) return false;
        month = m;
      } else if (!IsWeekday(word)) {
        return false;
      }
    } else if (c == '(') {
      while (!sc.Done() && sc.Peek() != ')') ++sc.pos;
      sc.Eat(')');
    } else if ((c == '+' || c == '-') && (utc_marker || hour >= 0) &&
               std::isdigit(static_cast<unsigned char>(
                   sc.pos + 1 < sc.s.size() ? sc.s[sc.pos + 1] : 'x'))) {
      ++sc.pos;
      int64_t v = 0;
      int count = 0;
      if (!sc.Digits(0, &v, &count)) return false;
      int64_t oh = v, om = 0;
      if (sc.Eat(':')) {
        if (!sc.Digits(2, &om)) return false;
      } else if (count > 2) {
        oh = v / 100;
        om = v % 100;
      }
      offset_minutes = (c == '-' ? -1 : 1) * (oh * 60 + om);
      has_offset = true;
    } else if (std::isdigit(static_cast<unsigned char>(c))) {
      int64_t v = 0;
      int count = 0;
      sc.Digits(0, &v, &count);
      if (sc.Peek() == ':') {
        if (hour >= 0) return false;
        hour = v;
        ++sc.pos;
        if (!sc.Digits(0, &minute)) return false;
        if (sc.Eat(':')) {
          if (!sc.Digits(0, &second)) return false;
          if (sc.Eat('.')) {
            int n = 0;
            if (!sc.Digits(0, &ms, &n)) return false;
            while (n > 3) {
              ms /= 10;
              --n;
            }
            while (n < 3) {
              ms *= 10;
              ++n;
            }
          }
        }
      } else if (sc.Peek() == '/') {
        if (slash_count != 0) return false;
        slash_parts[slash_count++] = v;
        while (sc.Eat('/')) {
          if (slash_count == 3 || !sc.Digits(0, &v)) return false;
          slash_parts[slash_count++] = v;
        }
      } else {
        numbers.emplace_back(v, count);
      }
    } else if (c == ' ' || c == ',' || c == '-' || c == '.' || c == '\t' ||
               c == '/') {
      ++sc.pos;
    } else {
      return false;
    }
  }
  int64_t year = -1, day = -1;
  if (slash_count == 3) {  // M/D/Y
    if (month != 0) return false;
    month = static_cast<int>(slash_parts[0]);
    day = slash_parts[1];
    year = slash_parts[2];
  } else if (slash_count != 0) {
    return false;
  }
  for (const auto& [v, count] : numbers) {
    if (day < 0 && count <= 2 && v >= 1 && v <= 31) {
      day = v;
    } else if (year < 0) {
      year = v;
      if (count <= 2) year += v < 50 ? 2000 : 1900;
    } else {
      return false;
    }
  }
  if (month == 0 || year < 0) return false;
  if (day < 0) day = 1;
  if (hour < 0) hour = 0;
  if (pm && hour < 12) hour += 12;
  if (am && hour == 12) hour = 0;
  if (month > 12 || day > 31 || hour > 24 || minute > 59 || second > 59) {
    return false;
  }
  const absl::CivilSecond cs(year, month, day, hour, minute, second);
  *millis = CivilToMillis(cs, static_cast<int>(ms),
                          has_offset ? absl::UTCTimeZone() : local) -
            offset_minutes * 60 * 1000;
  return std::fabs(static_cast<double>(*millis)) <= kMaxJsDateMillis;
}

bool HexToBytes(absl::string_view hex, std::string* out) {
  if (hex.size() % 2 != 0) return false;
  for (char c : hex) {
    if (!std::isxdigit(static_cast<unsigned char>(c))) return false;
  }
  *out = absl::HexStringToBytes(hex);
  return true;
}

absl::StatusOr<Value> MakeDate(bool is_new, const std::vector<Value>& args,
                               const BuiltinContext& ctx) {
  if (!is_new)
    return Value::String(JsDateString(ctx.now_millis, ctx.time_zone));
  if (args.empty()) return Value::Date(ctx.now_millis);
  if (args.size() == 1) {
    const Value& a = args[0];
    if (a.is_date()) return a;
    if (IsNumeric(a)) {
      double d = NumberOf(a);
      if (!std::isfinite(d) || std::fabs(d) > kMaxJsDateMillis) {
        return Invalid("Invalid Date: the time value is out of range");
      }
      return Value::Date(static_cast<int64_t>(std::trunc(d)));
    }
    if (a.is_string()) {
      int64_t ms = 0;
      if (!ParseJsDate(a.string_value(), ctx.time_zone, &ms)) {
        return Invalid(absl::StrCat("Invalid Date: cannot parse \"",
                                    a.string_value(), "\""));
      }
      return Value::Date(ms);
    }
    return Invalid("Invalid Date: expected a number or a string");
  }
  // new Date(year, monthIndex[, day, hours, minutes, seconds, ms]), local.
  int64_t parts[7] = {0, 0, 1, 0, 0, 0, 0};
  for (size_t i = 0; i < args.size() && i < 7; ++i) {
    if (!IsNumeric(args[i]) || !std::isfinite(NumberOf(args[i]))) {
      return Invalid("Invalid Date: date parts must be numbers");
    }
    const double part = NumberOf(args[i]);
    // 1e9: far beyond any date part a valid Date can hold; keeps the
    // integer arithmetic below defined.
    if (std::fabs(part) > 1e9 && i != 6) {
      return Invalid("Invalid Date: the time value is out of range");
    }
    if (std::fabs(part) > kMaxJsDateMillis) {
      return Invalid("Invalid Date: the time value is out of range");
    }
    parts[i] = static_cast<int64_t>(std::trunc(part));
  }
  if (parts[0] >= 0 && parts[0] <= 99) parts[0] += 1900;
  // CivilSecond normalizes overflow (month 12 is January next year), as
  // JavaScript does.
  const absl::CivilSecond cs(parts[0], parts[1] + 1, parts[2], parts[3],
                             parts[4], parts[5]);
  return Value::Date(CivilToMillis(cs, 0, ctx.time_zone) + parts[6]);
}

absl::StatusOr<Value> MakeObjectId(const std::vector<Value>& args,
                                   const BuiltinContext& ctx) {
  if (args.empty()) {
    if (ctx.new_object_id) return Value::Oid(ctx.new_object_id());
    return Value::Oid(ObjectId::Generate());
  }
  const Value& a = args[0];
  if (a.is_string() && a.string_value().size() == 24) {
    std::string bytes;
    if (HexToBytes(a.string_value(), &bytes)) {
      ObjectId id;
      std::copy(bytes.begin(), bytes.end(), id.bytes.begin());
      return Value::Oid(id);
    }
  }
  if (IsNumeric(a)) {
    uint32_t seconds = 0;
    if (ToUint32(a, &seconds)) return Value::Oid(ObjectId::GenerateAt(seconds));
  }
  if (a.type() == ValueType::kObjectId) return a;
  return Invalid(
      "BSONError: input must be a 24 character hex string, 12 byte "
      "Uint8Array, or an integer");
}

absl::StatusOr<int64_t> IntegerArg(absl::string_view fn, const Value& a) {
  if (IsNumeric(a)) {
    if (a.type() != ValueType::kDouble) return a.int64_value();
    double d = a.double_value();
    if (!std::isfinite(d) || std::fabs(d) >= 9.2233720368547758e18) {
      return Invalid(absl::StrCat(fn, ": number out of range"));
    }
    return static_cast<int64_t>(std::trunc(d));
  }
  if (a.is_string()) {
    int64_t v = 0;
    if (absl::SimpleAtoi(a.string_value(), &v)) return v;
    return Invalid(
        absl::StrCat(fn, ": invalid number string \"", a.string_value(), "\""));
  }
  return Invalid(absl::StrCat(fn, ": expected a number or a string"));
}

}  // namespace

bool IsBuiltinConstructor(absl::string_view name) {
  static const char* const kNames[] = {
      "Date",          "ISODate",    "ObjectId",  "NumberLong", "NumberInt",
      "NumberDecimal", "Decimal128", "Timestamp", "MinKey",     "MaxKey",
      "BinData",       "UUID",       "Long",      "Int32",      "Double"};
  for (const char* n : kNames) {
    if (name == n) return true;
  }
  return false;
}

absl::StatusOr<Value> CallBuiltin(absl::string_view name, bool is_new,
                                  const std::vector<Value>& args,
                                  const BuiltinContext& ctx) {
  if (name == "Date") return MakeDate(is_new, args, ctx);
  if (name == "ISODate") {
    if (args.empty()) return Value::Date(ctx.now_millis);
    if (args[0].is_date()) return args[0];
    if (IsNumeric(args[0])) return MakeDate(true, args, ctx);
    int64_t ms = 0;
    if (!args[0].is_string() || !ParseIsoDateUtc(args[0].string_value(), &ms)) {
      return Invalid(absl::StrCat(
          "Invalid ISODate: ",
          args[0].is_string() ? absl::StrCat("\"", args[0].string_value(), "\"")
                              : std::string("expected a string")));
    }
    return Value::Date(ms);
  }
  if (name == "ObjectId") return MakeObjectId(args, ctx);
  if (name == "NumberLong" || name == "Long") {
    if (args.empty()) return Value::Int64(0);
    absl::StatusOr<int64_t> v = IntegerArg(name, args[0]);
    if (!v.ok()) return v.status();
    return Value::Int64(*v);
  }
  if (name == "NumberInt" || name == "Int32") {
    if (args.empty()) return Value::Int32(0);
    absl::StatusOr<int64_t> v = IntegerArg(name, args[0]);
    if (!v.ok()) return v.status();
    return Value::Int32(static_cast<int32_t>(*v));
  }
  if (name == "Double") {
    if (args.empty() || !IsNumeric(args[0])) {
      return Invalid("Double: expected a number");
    }
    return Value::Double(NumberOf(args[0]));
  }
  if (name == "NumberDecimal" || name == "Decimal128") {
    // mongosh: Decimal128.fromString(`${s}`), "0" without an argument; a
    // number argument goes through its JavaScript string (mongosh warns that
    // it may lose precision).
    if (args.empty()) return Value::Decimal(Decimal128());
    const Value& a = args[0];
    std::string text;
    if (a.is_string()) {
      text = a.string_value();
    } else if (a.type() == ValueType::kDecimal) {
      return a;
    } else if (a.type() == ValueType::kDouble) {
      text = FormatJsNumber(a.double_value());
    } else if (a.type() == ValueType::kInt32 || a.type() == ValueType::kInt64) {
      text = absl::StrCat(a.int64_value());
    } else {
      return Invalid(absl::StrCat(name, ": expected a string"));
    }
    absl::StatusOr<Decimal128> d = Decimal128::FromString(text);
    if (!d.ok()) {
      return Invalid(absl::StrCat("BSONError: ", d.status().message()));
    }
    return Value::Decimal(*d);
  }
  if (name == "Timestamp") {
    Timestamp ts;
    if (args.size() == 1 && args[0].is_object()) {
      // mongosh 2's Timestamp({t, i}).
      const Value* t = nullptr;
      const Value* i = nullptr;
      for (const Field& f : args[0].object_fields()) {
        if (f.first == "t") t = &f.second;
        if (f.first == "i") i = &f.second;
      }
      if (t == nullptr || i == nullptr || !ToUint32(*t, &ts.t) ||
          !ToUint32(*i, &ts.i)) {
        return Invalid(
            "Timestamp: expected { t: <number>, i: <number> } in 0..2^32-1");
      }
    } else if (args.size() == 2 && IsNumeric(args[0]) && IsNumeric(args[1])) {
      if (!ToUint32(args[0], &ts.t) || !ToUint32(args[1], &ts.i)) {
        return Invalid("Timestamp: t and i must be in 0..2^32-1");
      }
    } else if (!args.empty()) {
      return Invalid("Timestamp: expected (t, i) or ({ t, i })");
    }
    return Value::Ts(ts);
  }
  if (name == "MinKey") return Value::MinKey();
  if (name == "MaxKey") return Value::MaxKey();
  if (name == "BinData") {
    if (args.size() != 2 || !IsNumeric(args[0]) || !args[1].is_string()) {
      return Invalid("BinData: expected (subtype, base64 string)");
    }
    double subtype = NumberOf(args[0]);
    if (subtype < 0 || subtype > 255) {
      return Invalid("BinData: subtype must be 0..255");
    }
    Binary b;
    b.subtype = static_cast<uint8_t>(subtype);
    if (!absl::Base64Unescape(args[1].string_value(), &b.data)) {
      return Invalid("BinData: invalid base64 string");
    }
    return Value::Bin(std::move(b));
  }
  if (name == "UUID") {
    Binary b;
    b.subtype = 4;
    if (args.empty()) {
      b.data = ctx.random_bytes ? ctx.random_bytes(16) : std::string(16, '\0');
      b.data.resize(16);
      b.data[6] = static_cast<char>((b.data[6] & 0x0F) | 0x40);  // version 4
      b.data[8] = static_cast<char>((b.data[8] & 0x3F) | 0x80);  // variant
      return Value::Bin(std::move(b));
    }
    std::string hex;
    if (args[0].is_string()) {
      for (char c : args[0].string_value()) {
        if (c != '-') hex.push_back(c);
      }
    }
    if (hex.size() != 32 || !HexToBytes(hex, &b.data)) {
      return Invalid("UUID: expected 32 hex digits, dashes allowed");
    }
    return Value::Bin(std::move(b));
  }
  return absl::NotFoundError(
      absl::StrCat("ReferenceError: ", name, " is not defined"));
}

bool ParseJsDate(absl::string_view text, absl::TimeZone local,
                 int64_t* millis) {
  if (ParseIso(text, /*utc_when_no_offset=*/false, local, millis)) return true;
  return ParseLegacyDate(text, local, millis);
}

bool ParseIsoDateUtc(absl::string_view text, int64_t* millis) {
  return ParseIso(text, /*utc_when_no_offset=*/true, absl::UTCTimeZone(),
                  millis);
}

std::string JsDateString(int64_t millis, absl::TimeZone zone) {
  return absl::FormatTime("%a %b %d %Y %H:%M:%S GMT%z (%Z)",
                          absl::FromUnixMillis(millis), zone);
}

}  // namespace shell
}  // namespace ttldb
