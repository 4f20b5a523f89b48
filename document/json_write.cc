// Value -> Extended JSON text in the three formats of json.h.
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "ttldb/json.h"

namespace ttldb {
namespace {

// 9999-12-31T23:59:59.999Z: relaxed EJSON's limit for ISO-8601 dates.
constexpr int64_t kMaxIsoDateMillis = 253402300799999;

// Whether any of the 8 bytes of `w` is a control character, '"' or '\\'
// (SWAR: the classic has-zero-byte / has-less-than tests; they may report a
// byte above a true hit but never miss one).
inline bool AnyNeedsEscape(uint64_t w) {
  constexpr uint64_t kOnes = 0x0101010101010101ull;
  constexpr uint64_t kHigh = 0x8080808080808080ull;
  const uint64_t q = w ^ (kOnes * '"');
  const uint64_t b = w ^ (kOnes * '\\');
  return (((w - kOnes * 0x20) & ~w) | ((q - kOnes) & ~q) | ((b - kOnes) & ~b)) &
         kHigh;
}

void AppendString(absl::string_view s, std::string* out) {
  static constexpr char kHex[] = "0123456789abcdef";
  out->push_back('"');
  // Runs of characters that need no escape are appended in one piece: the
  // per-character push_back made serialization the largest cost of a write.
  // Clean 8-byte words are skipped whole (the byte loop was 8 % of all
  // instructions of an insert of 256 B, callgrind).
  size_t run = 0;
  const size_t n = s.size();
  for (size_t i = 0; i < n; ++i) {
    while (i + 8 <= n) {
      uint64_t w;
      std::memcpy(&w, s.data() + i, 8);
      if (AnyNeedsEscape(w)) break;
      i += 8;
    }
    if (i >= n) break;
    const char c = s[i];
    const unsigned char u = static_cast<unsigned char>(c);
    if (u >= 0x20 && c != '"' && c != '\\') continue;
    out->append(s.data() + run, i - run);
    run = i + 1;
    switch (c) {
      case '"':
        out->append("\\\"");
        break;
      case '\\':
        out->append("\\\\");
        break;
      case '\n':
        out->append("\\n");
        break;
      case '\r':
        out->append("\\r");
        break;
      case '\t':
        out->append("\\t");
        break;
      case '\b':
        out->append("\\b");
        break;
      case '\f':
        out->append("\\f");
        break;
      default:  // another control character
        out->append("\\u00");
        out->push_back(kHex[u >> 4]);
        out->push_back(kHex[u & 0xF]);
    }
  }
  out->append(s.data() + run, s.size() - run);
  out->push_back('"');
}

// The shortest text that reads back as exactly `d`, always with a decimal
// point or an exponent so that it reads back as a double ("1.0", "1e+300").
// `d` must be finite.
void AppendFiniteDouble(double d, std::string* out) {
  char buf[64];
  auto result = std::to_chars(buf, buf + sizeof(buf), d);
  absl::string_view text(buf, result.ptr - buf);
  out->append(text.data(), text.size());
  if (text.find_first_of(".e") == absl::string_view::npos) out->append(".0");
}

// "NaN", "Infinity", "-Infinity" or the finite form, for $numberDouble.
std::string DoubleString(double d) {
  if (std::isnan(d)) return "NaN";
  if (std::isinf(d)) return d > 0 ? "Infinity" : "-Infinity";
  std::string s;
  AppendFiniteDouble(d, &s);
  return s;
}

void AppendWrapped(absl::string_view key, absl::string_view str,
                   std::string* out) {
  absl::StrAppend(out, "{\"", key, "\":\"", str, "\"}");
}

void AppendValue(const Value& v, JsonFormat format, std::string* out) {
  switch (v.type()) {
    case ValueType::kMinKey:
      out->append("{\"$minKey\":1}");
      return;
    case ValueType::kMaxKey:
      out->append("{\"$maxKey\":1}");
      return;
    case ValueType::kNull:
      out->append("null");
      return;
    case ValueType::kBool:
      out->append(v.bool_value() ? "true" : "false");
      return;
    case ValueType::kInt32:
      if (format == JsonFormat::kCanonical) {
        AppendWrapped("$numberInt", absl::StrCat(v.int32_value()), out);
      } else {
        absl::StrAppend(out, v.int32_value());
      }
      return;
    case ValueType::kInt64:
      if (format == JsonFormat::kRelaxed) {
        absl::StrAppend(out, v.int64_value());
      } else {
        AppendWrapped("$numberLong", absl::StrCat(v.int64_value()), out);
      }
      return;
    case ValueType::kDouble: {
      double d = v.double_value();
      if (format == JsonFormat::kCanonical || !std::isfinite(d)) {
        AppendWrapped("$numberDouble", DoubleString(d), out);
      } else {
        AppendFiniteDouble(d, out);
      }
      return;
    }
    case ValueType::kDecimal:
      // Relaxed and canonical Extended JSON both wrap decimals.
      AppendWrapped("$numberDecimal", v.decimal_value().ToString(), out);
      return;
    case ValueType::kString:
      AppendString(v.string_value(), out);
      return;
    case ValueType::kObject: {
      out->push_back('{');
      bool first = true;
      for (const Field& f : v.object_fields()) {
        if (!first) out->push_back(',');
        first = false;
        AppendString(f.first, out);
        out->push_back(':');
        AppendValue(f.second, format, out);
      }
      out->push_back('}');
      return;
    }
    case ValueType::kArray: {
      out->push_back('[');
      bool first = true;
      for (const Value& item : v.array_items()) {
        if (!first) out->push_back(',');
        first = false;
        AppendValue(item, format, out);
      }
      out->push_back(']');
      return;
    }
    case ValueType::kBinary: {
      static constexpr char kHex[] = "0123456789abcdef";
      const Binary& b = v.binary_value();
      out->append("{\"$binary\":{\"base64\":\"");
      out->append(absl::Base64Escape(b.data));
      out->append("\",\"subType\":\"");
      out->push_back(kHex[b.subtype >> 4]);
      out->push_back(kHex[b.subtype & 0xF]);
      out->append("\"}}");
      return;
    }
    case ValueType::kObjectId:
      AppendWrapped("$oid", v.oid_value().ToHex(), out);
      return;
    case ValueType::kDate: {
      int64_t ms = v.date_millis();
      if ((format == JsonFormat::kRelaxed || format == JsonFormat::kExport) &&
          ms >= 0 && ms <= kMaxIsoDateMillis) {
        absl::StrAppend(out, "{\"$date\":\"", FormatIsoDate(ms), "\"}");
      } else {
        absl::StrAppend(out, "{\"$date\":{\"$numberLong\":\"", ms, "\"}}");
      }
      return;
    }
    case ValueType::kTimestamp:
      absl::StrAppend(out, "{\"$timestamp\":{\"t\":", v.timestamp_value().t,
                      ",\"i\":", v.timestamp_value().i, "}}");
      return;
    case ValueType::kRegex:
      out->append("{\"$regularExpression\":{\"pattern\":");
      AppendString(v.regex_value().pattern, out);
      out->append(",\"options\":");
      AppendString(v.regex_value().options, out);
      out->append("}}");
      return;
  }
}

}  // namespace

void AppendJson(const Value& v, JsonFormat format, std::string* out) {
  AppendValue(v, format, out);
}

std::string ToJson(const Value& v, JsonFormat format) {
  std::string out;
  AppendValue(v, format, &out);
  return out;
}

}  // namespace ttldb
