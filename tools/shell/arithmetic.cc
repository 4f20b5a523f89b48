#include "tools/shell/arithmetic.h"

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "tools/shell/builtins.h"
#include "tools/shell/value_format.h"

namespace ttldb {
namespace shell {
namespace {

// A computed number as mongosh sends it (js-bson serializeNumber): Int32
// when integral, in range and not -0, else Double.
Value NumberValue(double d) {
  if (std::trunc(d) == d && d >= INT32_MIN && d <= INT32_MAX &&
      !(d == 0 && std::signbit(d))) {
    return Value::Int32(static_cast<int32_t>(d));
  }
  return Value::Double(d);
}

bool IsJsNumber(const Value& v) {
  return v.type() == ValueType::kInt32 || v.type() == ValueType::kInt64 ||
         v.type() == ValueType::kDouble;
}

double NumberOfValue(const Value& v) {
  return v.type() == ValueType::kDouble ? v.double_value()
                                        : static_cast<double>(v.int64_value());
}

bool AllDigits(absl::string_view s, int base) {
  if (s.empty()) return false;
  for (char c : s) {
    int d = c >= '0' && c <= '9'   ? c - '0'
            : c >= 'a' && c <= 'z' ? c - 'a' + 10
            : c >= 'A' && c <= 'Z' ? c - 'A' + 10
                                   : 99;
    if (d >= base) return false;
  }
  return true;
}

// ECMA-262 StringToNumber.
double StringToNumber(absl::string_view text) {
  absl::string_view s = absl::StripAsciiWhitespace(text);
  if (s.empty()) return 0;
  if (s.size() > 2 && s[0] == '0') {
    const char kind = s[1] | 0x20;
    const int base = kind == 'x' ? 16 : kind == 'o' ? 8 : kind == 'b' ? 2 : 0;
    if (base != 0) {
      if (!AllDigits(s.substr(2), base)) return std::nan("");
      double d = 0;
      for (char c : s.substr(2)) {
        int digit = c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10;
        d = d * base + digit;
      }
      return d;
    }
  }
  absl::string_view body = s;
  bool negative = false;
  if (body[0] == '+' || body[0] == '-') {
    negative = body[0] == '-';
    body.remove_prefix(1);
  }
  if (body == "Infinity") return negative ? -INFINITY : INFINITY;
  // StrUnsignedDecimalLiteral: digits [. digits] [e[+-]digits], or
  // . digits [e...]; at least one digit before the exponent.
  size_t i = 0, mantissa_digits = 0;
  while (i < body.size() && body[i] >= '0' && body[i] <= '9') ++i;
  mantissa_digits = i;
  if (i < body.size() && body[i] == '.') {
    ++i;
    size_t start = i;
    while (i < body.size() && body[i] >= '0' && body[i] <= '9') ++i;
    mantissa_digits += i - start;
  }
  if (mantissa_digits == 0) return std::nan("");
  if (i < body.size() && (body[i] == 'e' || body[i] == 'E')) {
    ++i;
    if (i < body.size() && (body[i] == '+' || body[i] == '-')) ++i;
    size_t start = i;
    while (i < body.size() && body[i] >= '0' && body[i] <= '9') ++i;
    if (i == start) return std::nan("");
  }
  if (i != body.size()) return std::nan("");
  const std::string copy(s);
  return std::strtod(copy.c_str(), nullptr);
}

// The primitive `+` sees: a number (true) or a string (false, in *text).
bool ToPrimitiveForAdd(const JsOperand& v, absl::TimeZone zone, double* number,
                       std::string* text) {
  if (!v.has_value()) {
    *number = std::nan("");
    return true;
  }
  switch (v->type()) {
    case ValueType::kInt32:
    case ValueType::kInt64:
    case ValueType::kDouble:
    case ValueType::kBool:
    case ValueType::kNull:
      *number = JsToNumber(v);
      return true;
    default:
      // Strings, and objects whose ToPrimitive (default hint) is a string:
      // a Date (hint string), arrays, plain objects, BSON wrappers.
      *text = JsToString(v, zone);
      return false;
  }
}

}  // namespace

double JsToNumber(const JsOperand& v) {
  if (!v.has_value()) return std::nan("");
  switch (v->type()) {
    case ValueType::kInt32:
    case ValueType::kInt64:
    case ValueType::kDouble:
      return NumberOfValue(*v);
    case ValueType::kBool:
      return v->bool_value() ? 1 : 0;
    case ValueType::kNull:
      return 0;
    case ValueType::kDate:
      return static_cast<double>(v->date_millis());
    case ValueType::kString:
      return StringToNumber(v->string_value());
    default:
      // Objects: ToPrimitive gives their string ("" for [], "5" for [5]).
      return StringToNumber(JsToString(v, absl::UTCTimeZone()));
  }
}

std::string JsToString(const JsOperand& v, absl::TimeZone zone) {
  if (!v.has_value()) return "undefined";
  switch (v->type()) {
    case ValueType::kNull:
      return "null";
    case ValueType::kBool:
      return v->bool_value() ? "true" : "false";
    case ValueType::kInt32:
    case ValueType::kInt64:
      return absl::StrCat(v->int64_value());
    case ValueType::kDouble: {
      const double d = v->double_value();
      return d == 0 ? "0" : FormatJsNumber(d);  // String(-0) is "0"
    }
    case ValueType::kString:
      return v->string_value();
    case ValueType::kDate:
      return JsDateString(v->date_millis(), zone);
    case ValueType::kDecimal:
      return v->decimal_value().ToString();
    case ValueType::kObjectId:
      return v->oid_value().ToHex();
    case ValueType::kRegex:
      return absl::StrCat("/", v->regex_value().pattern, "/",
                          v->regex_value().options);
    case ValueType::kArray: {
      std::string out;
      bool first = true;
      for (const Value& item : v->array_items()) {
        if (!first) out.push_back(',');
        first = false;
        if (!item.is_null()) absl::StrAppend(&out, JsToString(item, zone));
      }
      return out;
    }
    default:
      return "[object Object]";
  }
}

Value JsBinary(char op, const JsOperand& a, const JsOperand& b,
               absl::TimeZone zone) {
  if (op == '+') {
    double x = 0, y = 0;
    std::string sx, sy;
    const bool a_number = ToPrimitiveForAdd(a, zone, &x, &sx);
    const bool b_number = ToPrimitiveForAdd(b, zone, &y, &sy);
    if (a_number && b_number) return NumberValue(x + y);
    // String concatenation: the number side converts with ToString.
    if (a_number) sx = JsToString(a, zone);  // null stays "null"
    if (b_number) sy = JsToString(b, zone);
    return Value::String(absl::StrCat(sx, sy));
  }
  const double x = JsToNumber(a);
  const double y = JsToNumber(b);
  switch (op) {
    case '-':
      return NumberValue(x - y);
    case '*':
      return NumberValue(x * y);
    case '/':
      return NumberValue(x / y);
    case '%':
      return NumberValue(std::fmod(x, y));
  }
  return Value::Double(std::nan(""));
}

bool JsIsObject(const Value& v) {
  switch (v.type()) {
    case ValueType::kNull:
    case ValueType::kBool:
    case ValueType::kInt32:
    case ValueType::kDouble:
    case ValueType::kString:
      return false;
    default:
      return true;
  }
}

bool JsTruthy(const JsOperand& v) {
  if (!v.has_value()) return false;
  switch (v->type()) {
    case ValueType::kNull:
      return false;
    case ValueType::kBool:
      return v->bool_value();
    case ValueType::kInt32:
      return v->int64_value() != 0;
    case ValueType::kDouble:
      return v->double_value() != 0 && !std::isnan(v->double_value());
    case ValueType::kString:
      return !v->string_value().empty();
    default:
      return true;  // objects
  }
}

namespace {

// ToPrimitive of an object: hint number (`number_hint`) or default. A Long
// gives its number (valueOf), a Date its milliseconds with hint number and
// its toString() otherwise, every other object its string.
JsOperand ToPrimitive(const JsOperand& v, bool number_hint,
                      absl::TimeZone zone) {
  if (!v.has_value() || !JsIsObject(*v)) return v;
  if (v->type() == ValueType::kInt64) {
    return Value::Double(static_cast<double>(v->int64_value()));
  }
  if (v->type() == ValueType::kDate && number_hint) {
    return Value::Double(static_cast<double>(v->date_millis()));
  }
  return Value::String(JsToString(v, zone));
}

// UTF-16 code units of UTF-8 text, as JavaScript compares strings.
std::u16string Utf16(absl::string_view s) {
  std::u16string out;
  for (size_t i = 0; i < s.size();) {
    const uint8_t c = static_cast<uint8_t>(s[i]);
    uint32_t cp = c;
    size_t n = 1;
    if (c >= 0xF0) {
      n = 4;
      cp = c & 0x07;
    } else if (c >= 0xE0) {
      n = 3;
      cp = c & 0x0F;
    } else if (c >= 0xC0) {
      n = 2;
      cp = c & 0x1F;
    }
    if (i + n > s.size()) {  // truncated: the byte alone
      n = 1;
      cp = c;
    }
    for (size_t k = 1; k < n; ++k) {
      cp = (cp << 6) | (static_cast<uint8_t>(s[i + k]) & 0x3F);
    }
    i += n;
    if (cp >= 0x10000) {
      cp -= 0x10000;
      out.push_back(static_cast<char16_t>(0xD800 + (cp >> 10)));
      out.push_back(static_cast<char16_t>(0xDC00 + (cp & 0x3FF)));
    } else {
      out.push_back(static_cast<char16_t>(cp));
    }
  }
  return out;
}

enum class JsType { kUndefined, kNull, kBoolean, kNumber, kString, kObject };

JsType TypeOf(const JsOperand& v) {
  if (!v.has_value()) return JsType::kUndefined;
  switch (v->type()) {
    case ValueType::kNull:
      return JsType::kNull;
    case ValueType::kBool:
      return JsType::kBoolean;
    case ValueType::kInt32:
    case ValueType::kDouble:
      return JsType::kNumber;
    case ValueType::kString:
      return JsType::kString;
    default:
      return JsType::kObject;
  }
}

bool StrictlyEqual(const JsOperand& a, const JsOperand& b) {
  const JsType t = TypeOf(a);
  if (t != TypeOf(b)) return false;
  switch (t) {
    case JsType::kUndefined:
    case JsType::kNull:
      return true;
    case JsType::kBoolean:
      return a->bool_value() == b->bool_value();
    case JsType::kNumber:
      return JsToNumber(a) == JsToNumber(b);  // NaN != NaN, 0 == -0
    case JsType::kString:
      return a->string_value() == b->string_value();
    case JsType::kObject:
      return false;  // distinct objects
  }
  return false;
}

bool LooselyEqual(const JsOperand& a, const JsOperand& b, absl::TimeZone zone,
                  int depth = 0) {
  const JsType ta = TypeOf(a), tb = TypeOf(b);
  if (ta == tb) return StrictlyEqual(a, b);
  const auto nullish = [](JsType t) {
    return t == JsType::kUndefined || t == JsType::kNull;
  };
  if (nullish(ta) || nullish(tb)) return nullish(ta) && nullish(tb);
  if (depth > 3) return false;
  if ((ta == JsType::kNumber && tb == JsType::kString) ||
      (ta == JsType::kString && tb == JsType::kNumber)) {
    return JsToNumber(a) == JsToNumber(b);
  }
  if (ta == JsType::kBoolean) {
    return LooselyEqual(Value::Double(JsToNumber(a)), b, zone, depth + 1);
  }
  if (tb == JsType::kBoolean) {
    return LooselyEqual(a, Value::Double(JsToNumber(b)), zone, depth + 1);
  }
  if (ta == JsType::kObject) {
    return LooselyEqual(ToPrimitive(a, false, zone), b, zone, depth + 1);
  }
  if (tb == JsType::kObject) {
    return LooselyEqual(a, ToPrimitive(b, false, zone), zone, depth + 1);
  }
  return false;
}

}  // namespace

bool JsCompare(char op, const JsOperand& a, const JsOperand& b,
               absl::TimeZone zone) {
  switch (op) {
    case 'E':
      return StrictlyEqual(a, b);
    case 'N':
      return !StrictlyEqual(a, b);
    case 'e':
      return LooselyEqual(a, b, zone);
    case 'n':
      return !LooselyEqual(a, b, zone);
  }
  const JsOperand pa = ToPrimitive(a, true, zone);
  const JsOperand pb = ToPrimitive(b, true, zone);
  if (TypeOf(pa) == JsType::kString && TypeOf(pb) == JsType::kString) {
    const std::u16string x = Utf16(pa->string_value());
    const std::u16string y = Utf16(pb->string_value());
    switch (op) {
      case '<':
        return x < y;
      case '>':
        return x > y;
      case 'l':
        return x <= y;
      case 'g':
        return x >= y;
    }
    return false;
  }
  const double x = JsToNumber(pa), y = JsToNumber(pb);
  switch (op) {  // NaN makes each false
    case '<':
      return x < y;
    case '>':
      return x > y;
    case 'l':
      return x <= y;
    case 'g':
      return x >= y;
  }
  return false;
}

Value JsNegate(const JsOperand& v) {
  if (v.has_value() && v->type() == ValueType::kInt64 &&
      v->int64_value() != INT64_MIN) {
    return Value::Int64(-v->int64_value());  // -NumberLong(5) stays a Long
  }
  return NumberValue(-JsToNumber(v));
}

Value JsUnaryPlus(const JsOperand& v) {
  if (v.has_value() && IsJsNumber(*v)) return *v;
  return NumberValue(JsToNumber(v));
}

}  // namespace shell
}  // namespace ttldb
