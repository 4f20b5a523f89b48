#include "tools/shell/value_format.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/time/time.h"
#include "ttldb/json.h"

namespace ttldb {
namespace shell {
namespace {

// Node's util.inspect `compact: 3`: up to three inner levels share a line.
constexpr int kCompact = 3;
// +-8.64e15 ms: the range of a JavaScript Date.
constexpr int64_t kMaxJsDateMillis = 8640000000000000;

bool IsIdentifierKey(absl::string_view key) {
  if (key.empty()) return false;
  for (size_t i = 0; i < key.size(); ++i) {
    char c = key[i];
    bool alpha = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
    bool digit = c >= '0' && c <= '9';
    if (!(alpha || (i > 0 && digit))) return false;
  }
  return true;
}

std::string HexBytes(absl::string_view bytes) {
  static const char kHex[] = "0123456789abcdef";
  std::string out;
  for (unsigned char c : bytes) {
    out.push_back(kHex[c >> 4]);
    out.push_back(kHex[c & 15]);
  }
  return out;
}

std::string FormatUuid(absl::string_view bytes) {
  std::string hex = HexBytes(bytes);
  if (hex.size() != 32) return hex;
  return absl::StrCat(hex.substr(0, 8), "-", hex.substr(8, 4), "-",
                      hex.substr(12, 4), "-", hex.substr(16, 4), "-",
                      hex.substr(20));
}

// The string of a BSON type's custom inspect, or "" for objects and arrays.
std::string FormatScalar(const Value& v) {
  switch (v.type()) {
    case ValueType::kMinKey:
      return "MinKey()";
    case ValueType::kMaxKey:
      return "MaxKey()";
    case ValueType::kNull:
      return "null";
    case ValueType::kBool:
      return v.bool_value() ? "true" : "false";
    case ValueType::kInt32:
      return absl::StrCat(v.int32_value());
    case ValueType::kInt64:
      return absl::StrCat("Long('", v.int64_value(), "')");
    case ValueType::kDouble:
      return FormatJsNumber(v.double_value());
    case ValueType::kDecimal:
      return absl::StrCat("Decimal128('", v.decimal_value().ToString(), "')");
    case ValueType::kString:
      return QuoteJsString(v.string_value());
    case ValueType::kDate: {
      std::string iso = FormatIsoDateJs(v.date_millis());
      if (iso == "Invalid Date") return iso;
      return absl::StrCat("ISODate('", iso, "')");
    }
    case ValueType::kObjectId: {
      const auto& b = v.oid_value().bytes;
      return absl::StrCat(
          "ObjectId('",
          HexBytes(absl::string_view(reinterpret_cast<const char*>(b.data()),
                                     b.size())),
          "')");
    }
    case ValueType::kTimestamp:
      return absl::StrCat("Timestamp({ t: ", v.timestamp_value().t,
                          ", i: ", v.timestamp_value().i, " })");
    case ValueType::kRegex:
      return absl::StrCat("/", v.regex_value().pattern, "/",
                          v.regex_value().options);
    case ValueType::kBinary: {
      const Binary& b = v.binary_value();
      if (b.subtype == 4 && b.data.size() == 16) {
        return absl::StrCat("UUID('", FormatUuid(b.data), "')");
      }
      return absl::StrCat("Binary.createFromBase64('", Base64Encode(b.data),
                          "', ", b.subtype, ")");
    }
    case ValueType::kObject:
    case ValueType::kArray:
      break;
  }
  return "";
}

// Node's util.inspect formatting state.
class Inspector {
 public:
  explicit Inspector(const FormatOptions& options) : options_(options) {}

  std::string Format(const Value& v, int recurse_times) {
    if (!v.is_object() && !v.is_array()) return FormatScalar(v);
    const bool is_array = v.is_array();
    if (is_array ? v.array_items().empty() : v.object_fields().empty()) {
      return is_array ? "[]" : "{}";
    }
    if (recurse_times > options_.depth) {
      return is_array ? "[Array]" : "[Object]";
    }
    ++recurse_times;
    current_depth_ = recurse_times;
    std::vector<std::string> output;
    if (is_array) {
      const auto& items = v.array_items();
      const size_t shown = std::min(
          items.size(), static_cast<size_t>(options_.max_array_length));
      for (size_t i = 0; i < shown; ++i) {
        indentation_ += 2;
        output.push_back(Format(items[i], recurse_times));
        indentation_ -= 2;
      }
      if (shown < items.size()) {
        size_t more = items.size() - shown;
        output.push_back(
            absl::StrCat("... ", more, " more item", more > 1 ? "s" : ""));
      }
    } else {
      for (const Field& f : v.object_fields()) {
        indentation_ += 2;
        std::string s = Format(f.second, recurse_times);
        indentation_ -= 2;
        output.push_back(absl::StrCat(FormatKey(f.first), ": ", s));
      }
    }
    return Reduce(std::move(output), is_array, recurse_times, v);
  }

 private:
  // Node's reduceToSingleString.
  std::string Reduce(std::vector<std::string> output, bool is_array,
                     int recurse_times, const Value& v) {
    const char* open = is_array ? "[" : "{";
    const char* close = is_array ? "]" : "}";
    const size_t entries = output.size();
    if (is_array && entries > 6) output = GroupArrayElements(output, v);
    if (current_depth_ - recurse_times < kCompact && entries == output.size()) {
      const int start = static_cast<int>(output.size()) + indentation_ + 1 + 10;
      if (IsBelowBreakLength(output, start)) {
        std::string joined = absl::StrJoin(output, ", ");
        if (joined.find('\n') == std::string::npos) {
          return absl::StrCat(open, " ", joined, " ", close);
        }
      }
    }
    const std::string indentation =
        absl::StrCat("\n", std::string(indentation_, ' '));
    return absl::StrCat(
        open, indentation, "  ",
        absl::StrJoin(output, absl::StrCat(",", indentation, "  ")),
        indentation, close);
  }

  bool IsBelowBreakLength(const std::vector<std::string>& output, int start) {
    int total = static_cast<int>(output.size()) + start;
    if (total + static_cast<int>(output.size()) > options_.break_length) {
      return false;
    }
    for (const std::string& s : output) {
      total += Width(s);
      if (total > options_.break_length) return false;
    }
    return true;
  }

  // Display width: UTF-8 code points (Node counts wide characters double;
  // ttldb does not).
  static int Width(absl::string_view s) {
    int n = 0;
    for (unsigned char c : s) {
      if ((c & 0xC0) != 0x80) ++n;
    }
    return n;
  }

  // Node's groupArrayElements: lays out many short items in columns.
  std::vector<std::string> GroupArrayElements(
      const std::vector<std::string>& output, const Value& v) {
    size_t output_length = output.size();
    const bool has_more =
        v.array_items().size() > output.size() ||
        static_cast<size_t>(options_.max_array_length) < v.array_items().size();
    if (has_more) --output_length;
    const int separator_space = 2;  // ", "
    std::vector<int> data_len(output_length);
    int total_length = 0;
    int max_length = 0;
    for (size_t i = 0; i < output_length; ++i) {
      int len = Width(output[i]);
      data_len[i] = len;
      total_length += len + separator_space;
      max_length = std::max(max_length, len);
    }
    const int actual_max = max_length + separator_space;
    if (actual_max * 3 + indentation_ < options_.break_length &&
        (static_cast<double>(total_length) / actual_max > 5 ||
         max_length <= 6)) {
      const double approx_char_heights = 2.5;
      const double average_bias = std::sqrt(
          actual_max - static_cast<double>(total_length) / output.size());
      const double biased_max = std::max(actual_max - 3 - average_bias, 1.0);
      const int columns = static_cast<int>(std::min<double>(
          {std::round(
               std::sqrt(approx_char_heights * biased_max * output_length) /
               biased_max),
           std::floor(
               static_cast<double>(options_.break_length - indentation_) /
               actual_max),
           static_cast<double>(kCompact * 4), 15.0}));
      if (columns <= 1) return output;
      std::vector<int> max_line_length;
      for (int i = 0; i < columns; ++i) {
        int line_length = 0;
        for (size_t j = i; j < output.size(); j += columns) {
          if (j < output_length && data_len[j] > line_length) {
            line_length = data_len[j];
          }
        }
        max_line_length.push_back(line_length + separator_space);
      }
      // Numbers align right, anything else left (Node checks typeof
      // number; a Long is an object in mongosh).
      bool pad_start = true;
      for (const Value& item : v.array_items()) {
        if (item.type() != ValueType::kInt32 &&
            item.type() != ValueType::kDouble) {
          pad_start = false;
          break;
        }
      }
      std::vector<std::string> tmp;
      for (size_t i = 0; i < output_length; i += columns) {
        const size_t max = std::min(i + columns, output_length);
        std::string str;
        size_t j = i;
        for (; j < max - 1; ++j) {
          std::string cell = absl::StrCat(output[j], ", ");
          str += Pad(cell, max_line_length[j - i], pad_start);
        }
        if (pad_start) {
          str += Pad(output[j], max_line_length[j - i] - separator_space, true);
        } else {
          str += output[j];
        }
        tmp.push_back(std::move(str));
      }
      if (has_more) tmp.push_back(output[output_length]);
      return tmp;
    }
    return output;
  }

  static std::string Pad(const std::string& s, int width, bool at_start) {
    int w = Width(s);
    if (w >= width) return s;
    std::string fill(width - w, ' ');
    return at_start ? fill + s : s + fill;
  }

  const FormatOptions& options_;
  int indentation_ = 0;
  int current_depth_ = 0;
};

}  // namespace

std::string FormatValue(const Value& v, const FormatOptions& options) {
  Inspector inspector(options);
  return inspector.Format(v, 0);
}

std::string FormatJson(const Value& v) {
  return ToJson(v, JsonFormat::kRelaxed);
}

std::string FormatJsNumber(double d) {
  if (std::isnan(d)) return "NaN";
  if (std::isinf(d)) return d > 0 ? "Infinity" : "-Infinity";
  if (d == 0) return std::signbit(d) ? "-0" : "0";
  std::string sign = d < 0 ? "-" : "";
  d = std::fabs(d);
  // Shortest round-tripping digits: "d.ddde[+-]x" at increasing precision.
  char buf[64];
  for (int precision = 0; precision <= 17; ++precision) {
    std::snprintf(buf, sizeof(buf), "%.*e", precision, d);
    if (std::strtod(buf, nullptr) == d) break;
  }
  std::string sci(buf);
  size_t e = sci.find('e');
  std::string digits;
  for (size_t i = 0; i < e; ++i) {
    if (sci[i] != '.') digits.push_back(sci[i]);
  }
  while (digits.size() > 1 && digits.back() == '0') digits.pop_back();
  const int k = static_cast<int>(digits.size());
  const int n = std::atoi(sci.c_str() + e + 1) + 1;  // ECMA-262's n
  std::string out;
  if (k <= n && n <= 21) {
    out = digits + std::string(n - k, '0');
  } else if (0 < n && n <= 21) {
    out = absl::StrCat(digits.substr(0, n), ".", digits.substr(n));
  } else if (-6 < n && n <= 0) {
    out = absl::StrCat("0.", std::string(-n, '0'), digits);
  } else {
    const int exp = n - 1;
    out = digits.substr(0, 1);
    if (k > 1) absl::StrAppend(&out, ".", digits.substr(1));
    absl::StrAppend(&out, "e", exp >= 0 ? "+" : "-", std::abs(exp));
  }
  return sign + out;
}

std::string QuoteJsString(absl::string_view s) {
  char quote = '\'';
  if (s.find('\'') != absl::string_view::npos) {
    if (s.find('"') == absl::string_view::npos) {
      quote = '"';
    } else if (s.find('`') == absl::string_view::npos &&
               s.find("${") == absl::string_view::npos) {
      quote = '`';
    }
  }
  std::string out(1, quote);
  for (size_t i = 0; i < s.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    switch (c) {
      case '\b':
        out += "\\b";
        continue;
      case '\t':
        out += "\\t";
        continue;
      case '\n':
        out += "\\n";
        continue;
      case '\f':
        out += "\\f";
        continue;
      case '\r':
        out += "\\r";
        continue;
      case '\\':
        out += "\\\\";
        continue;
      default:
        break;
    }
    if (c == quote) {
      out.push_back('\\');
      out.push_back(static_cast<char>(c));
    } else if (c < 0x20 || c == 0x7F) {
      out += absl::StrFormat("\\x%02X", c);
    } else if (c == 0xC2 && i + 1 < s.size() &&
               static_cast<unsigned char>(s[i + 1]) >= 0x80 &&
               static_cast<unsigned char>(s[i + 1]) <= 0x9F) {
      // C1 control characters U+0080..U+009F.
      out += absl::StrFormat("\\x%02X", static_cast<unsigned char>(s[i + 1]));
      ++i;
    } else {
      out.push_back(static_cast<char>(c));
    }
  }
  out.push_back(quote);
  return out;
}

std::string FormatKey(absl::string_view key) {
  if (IsIdentifierKey(key)) return std::string(key);
  return QuoteJsString(key);
}

std::string FormatIsoDateJs(int64_t millis) {
  if (millis > kMaxJsDateMillis || millis < -kMaxJsDateMillis) {
    return "Invalid Date";
  }
  const absl::Time t = absl::FromUnixMillis(millis);
  const absl::CivilSecond cs = absl::ToCivilSecond(t, absl::UTCTimeZone());
  int64_t ms = millis % 1000;
  if (ms < 0) ms += 1000;
  std::string year;
  if (cs.year() >= 0 && cs.year() <= 9999) {
    year = absl::StrFormat("%04d", cs.year());
  } else {
    year = absl::StrFormat("%c%06d", cs.year() < 0 ? '-' : '+',
                           std::abs(static_cast<int64_t>(cs.year())));
  }
  return absl::StrFormat("%s-%02d-%02dT%02d:%02d:%02d.%03dZ", year, cs.month(),
                         cs.day(), cs.hour(), cs.minute(), cs.second(), ms);
}

std::string Base64Encode(absl::string_view bytes) {
  static const char kChars[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  size_t i = 0;
  for (; i + 3 <= bytes.size(); i += 3) {
    uint32_t n = (static_cast<unsigned char>(bytes[i]) << 16) |
                 (static_cast<unsigned char>(bytes[i + 1]) << 8) |
                 static_cast<unsigned char>(bytes[i + 2]);
    out.push_back(kChars[(n >> 18) & 63]);
    out.push_back(kChars[(n >> 12) & 63]);
    out.push_back(kChars[(n >> 6) & 63]);
    out.push_back(kChars[n & 63]);
  }
  size_t rest = bytes.size() - i;
  if (rest > 0) {
    uint32_t n = static_cast<unsigned char>(bytes[i]) << 16;
    if (rest == 2) n |= static_cast<unsigned char>(bytes[i + 1]) << 8;
    out.push_back(kChars[(n >> 18) & 63]);
    out.push_back(kChars[(n >> 12) & 63]);
    out.push_back(rest == 2 ? kChars[(n >> 6) & 63] : '=');
    out.push_back('=');
  }
  return out;
}

}  // namespace shell
}  // namespace ttldb
