// Extended JSON text -> Value, with simdjson's DOM parser (error-code API).
//
// The only file of document/ that includes simdjson.h (it is slow to
// compile). Each thread reuses one parser and one padded input buffer, so
// steady-state parsing does not allocate for the JSON tape.
#include <simdjson.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "base/status.h"
#include "document/json_fast_parse.h"
#include "document/json_syntax.h"
#include "ttldb/json.h"

namespace ttldb {
namespace {

using simdjson::dom::element;
using simdjson::dom::element_type;

absl::string_view ToAbsl(std::string_view s) {
  return absl::string_view(s.data(), s.size());
}

// The byte offset of the first invalid UTF-8 sequence in `s`, or s.size().
size_t FirstInvalidUtf8(absl::string_view s) {
  const auto* p = reinterpret_cast<const unsigned char*>(s.data());
  size_t n = s.size(), i = 0;
  while (i < n) {
    unsigned char c = p[i];
    if (c < 0x80) {
      ++i;
      continue;
    }
    int len;
    uint32_t cp;
    if ((c & 0xE0) == 0xC0) {
      len = 2, cp = c & 0x1F;
    } else if ((c & 0xF0) == 0xE0) {
      len = 3, cp = c & 0x0F;
    } else if ((c & 0xF8) == 0xF0) {
      len = 4, cp = c & 0x07;
    } else {
      return i;
    }
    if (i + len > n) return i;
    for (int k = 1; k < len; ++k) {
      if ((p[i + k] & 0xC0) != 0x80) return i;
      cp = cp << 6 | (p[i + k] & 0x3F);
    }
    static constexpr uint32_t kMin[] = {0, 0, 0x80, 0x800, 0x10000};
    if (cp < kMin[len] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
      return i;
    }
    i += len;
  }
  return n;
}

// simdjson 3.0 rejects integers beyond 64 bits; JSON (and MongoDB's shell)
// reads them as doubles. Rewrites every such integer token outside strings
// as a floating-point token by appending ".0". Only called after simdjson
// reported a number error.
bool WidenBigIntegers(absl::string_view in, std::string* out) {
  bool changed = false;
  size_t i = 0, n = in.size();
  out->clear();
  out->reserve(n + 16);
  while (i < n) {
    char c = in[i];
    if (c == '"') {
      size_t j = i + 1;
      while (j < n && in[j] != '"') j += in[j] == '\\' ? 2 : 1;
      j = std::min(j + 1, n);
      out->append(in.data() + i, j - i);
      i = j;
    } else if (c == '-' || (c >= '0' && c <= '9')) {
      size_t j = i + (c == '-');
      bool is_float = false;
      while (j < n &&
             (std::isdigit(static_cast<unsigned char>(in[j])) || in[j] == '.' ||
              in[j] == 'e' || in[j] == 'E' || in[j] == '+' || in[j] == '-')) {
        if (!std::isdigit(static_cast<unsigned char>(in[j]))) is_float = true;
        ++j;
      }
      out->append(in.data() + i, j - i);
      size_t digits = j - i - (c == '-');
      if (!is_float && digits >= 19) {
        int64_t i64;
        uint64_t u64;
        const char* b = in.data() + i;
        const char* e = in.data() + j;
        auto whole = [e](std::from_chars_result r) {
          return r.ec == std::errc() && r.ptr == e;
        };
        bool fits = whole(std::from_chars(b, e, i64)) ||
                    (c != '-' && whole(std::from_chars(b, e, u64)));
        if (!fits) {
          out->append(".0");
          changed = true;
        }
      }
      i = j;
    } else {
      out->push_back(c);
      ++i;
    }
  }
  return changed;
}

// The wrappers that stand for a whole value: they must be the object's only
// field (legacy $binary may come with $type).
enum class Wrapper {
  kNone,
  kOid,
  kDate,
  kNumberLong,
  kNumberInt,
  kNumberDouble,
  kNumberDecimal,
  kTimestamp,
  kRegularExpression,
  kMinKey,
  kMaxKey,
  kBinary,
};

Wrapper WrapperOf(std::string_view key) {
  if (key.empty() || key[0] != '$') return Wrapper::kNone;
  if (key == "$oid") return Wrapper::kOid;
  if (key == "$date") return Wrapper::kDate;
  if (key == "$numberLong") return Wrapper::kNumberLong;
  if (key == "$numberInt") return Wrapper::kNumberInt;
  if (key == "$numberDouble") return Wrapper::kNumberDouble;
  if (key == "$numberDecimal") return Wrapper::kNumberDecimal;
  if (key == "$timestamp") return Wrapper::kTimestamp;
  if (key == "$regularExpression") return Wrapper::kRegularExpression;
  if (key == "$minKey") return Wrapper::kMinKey;
  if (key == "$maxKey") return Wrapper::kMaxKey;
  if (key == "$binary") return Wrapper::kBinary;
  return Wrapper::kNone;
}

template <typename Int>
bool ParseIntString(std::string_view s, Int* out) {
  if (s.empty()) return false;
  auto r = std::from_chars(s.data(), s.data() + s.size(), *out);
  return r.ec == std::errc() && r.ptr == s.data() + s.size();
}

bool ParseDoubleString(std::string_view s, double* out) {
  if (s == "NaN") {
    *out = std::numeric_limits<double>::quiet_NaN();
    return true;
  }
  if (s == "Infinity" || s == "-Infinity") {
    *out = s[0] == '-' ? -std::numeric_limits<double>::infinity()
                       : std::numeric_limits<double>::infinity();
    return true;
  }
  if (s.empty()) return false;
  // from_chars would also take "inf"/"nan"; EJSON spells only the above.
  for (char c : s) {
    if (!(std::isdigit(static_cast<unsigned char>(c)) || c == '-' || c == '+' ||
          c == '.' || c == 'e' || c == 'E')) {
      return false;
    }
  }
  auto r = std::from_chars(s.data(), s.data() + s.size(), *out);
  return r.ec == std::errc() && r.ptr == s.data() + s.size();
}

// Reads an element whose type the caller has already checked.
template <typename T>
void Take(element e, T* out) {
  if (e.get(*out) != simdjson::SUCCESS) *out = T();
}

// An integral JSON number as int64 (a double only if exactly integral).
bool ElementToInt64(element e, int64_t* out) {
  switch (e.type()) {
    case element_type::INT64:
      return e.get(*out) == simdjson::SUCCESS;
    case element_type::DOUBLE: {
      double d;
      if (e.get(d) != simdjson::SUCCESS) return false;
      if (!(d >= -9223372036854775808.0 && d < 9223372036854775808.0) ||
          std::trunc(d) != d) {
        return false;
      }
      *out = static_cast<int64_t>(d);
      return true;
    }
    default:
      return false;
  }
}

bool ElementToUint32(element e, uint32_t* out) {
  int64_t v;
  if (!ElementToInt64(e, &v) || v < 0 || v > 0xFFFFFFFFll) return false;
  *out = static_cast<uint32_t>(v);
  return true;
}

class Converter {
 public:
  explicit Converter(const ParseOptions& options) : options_(options) {}

  // Converts `e`; `depth` is the nesting depth `e` has if it is an object or
  // array (the top-level container is depth 1).
  absl::Status Convert(element e, int depth, Value* out) {
    switch (e.type()) {
      case element_type::NULL_VALUE:
        *out = Value::Null();
        return absl::OkStatus();
      case element_type::BOOL: {
        bool b = false;
        Take(e, &b);
        *out = Value::Bool(b);
        return absl::OkStatus();
      }
      case element_type::INT64: {
        int64_t v = 0;
        Take(e, &v);
        *out = v >= std::numeric_limits<int32_t>::min() &&
                       v <= std::numeric_limits<int32_t>::max()
                   ? Value::Int32(static_cast<int32_t>(v))
                   : Value::Int64(v);
        return absl::OkStatus();
      }
      case element_type::UINT64: {  // above int64's range
        uint64_t v = 0;
        Take(e, &v);
        *out = Value::Double(static_cast<double>(v));
        return absl::OkStatus();
      }
      case element_type::DOUBLE: {
        double d = 0;
        Take(e, &d);
        *out = Value::Double(d);
        return absl::OkStatus();
      }
      case element_type::STRING: {
        std::string_view s;
        Take(e, &s);
        *out = Value::String(std::string(s));
        return absl::OkStatus();
      }
      case element_type::ARRAY: {
        RETURN_IF_ERROR(CheckDepth(depth));
        simdjson::dom::array arr;
        Take(e, &arr);
        Value::Array items;
        items.reserve(arr.size());
        size_t index = 0;
        for (element item : arr) {
          path_.push_back({{}, index++, true});
          items.emplace_back();
          RETURN_IF_ERROR(Convert(item, depth + 1, &items.back()));
          path_.pop_back();
        }
        *out = Value::MakeArray(std::move(items));
        return absl::OkStatus();
      }
      case element_type::OBJECT: {
        simdjson::dom::object obj;
        Take(e, &obj);
        bool handled = false;
        RETURN_IF_ERROR(TryWrapper(obj, &handled, out));
        if (handled) return absl::OkStatus();
        RETURN_IF_ERROR(CheckDepth(depth));
        Value::Object fields;
        fields.reserve(obj.size());
        for (simdjson::dom::key_value_pair field : obj) {
          path_.push_back({field.key, 0, false});
          fields.emplace_back(std::string(field.key), Value());
          RETURN_IF_ERROR(
              Convert(field.value, depth + 1, &fields.back().second));
          path_.pop_back();
        }
        *out = Value::MakeObject(std::move(fields));
        return absl::OkStatus();
      }
    }
    return Error("unsupported JSON value");
  }

 private:
  struct PathPart {
    std::string_view key;
    size_t index;
    bool is_index;
  };

  absl::Status CheckDepth(int depth) const {
    if (depth <= options_.max_depth) return absl::OkStatus();
    return Error(absl::StrCat("document nesting is deeper than the maximum of ",
                              options_.max_depth));
  }

  // "what (at field 'a.0.b')", or "(at top level)" for the outermost value.
  absl::Status Error(absl::string_view what) const {
    if (path_.empty()) {
      return absl::InvalidArgumentError(absl::StrCat(what, " (at top level)"));
    }
    std::string path;
    for (const PathPart& p : path_) {
      if (!path.empty()) path.push_back('.');
      if (p.is_index) {
        absl::StrAppend(&path, p.index);
      } else {
        path.append(p.key.data(), p.key.size());
      }
    }
    return absl::InvalidArgumentError(
        absl::StrCat(what, " (at field '", path, "')"));
  }

  // If `obj` is an Extended JSON wrapper, converts it into *out and sets
  // *handled. Objects with other '$' keys ({"$gt": 5}) are left alone: the
  // query languages are written with them.
  absl::Status TryWrapper(simdjson::dom::object obj, bool* handled,
                          Value* out) {
    std::string_view k1, k2;
    element v1, v2;
    size_t n = 0;
    Wrapper exclusive = Wrapper::kNone;
    std::string_view exclusive_key;
    for (simdjson::dom::key_value_pair field : obj) {
      if (n == 0) k1 = field.key, v1 = field.value;
      if (n == 1) k2 = field.key, v2 = field.value;
      ++n;
      Wrapper w = WrapperOf(field.key);
      if (w != Wrapper::kNone && exclusive == Wrapper::kNone) {
        exclusive = w, exclusive_key = field.key;
      }
    }
    if (n == 0 || k1.empty() || k1[0] != '$') {
      if (exclusive == Wrapper::kNone) return absl::OkStatus();
    }
    if (n == 2) {
      // Legacy forms: {"$regex": "p", "$options": "o"} and
      // {"$binary": "base64", "$type": "hex"}, in either key order.
      if (k1 == "$options" || k1 == "$type")
        std::swap(k1, k2), std::swap(v1, v2);
      if (k1 == "$regex" && k2 == "$options" && v1.is_string() &&
          v2.is_string()) {
        std::string_view pattern, options;
        Take(v1, &pattern);
        Take(v2, &options);
        *out = MakeRegex(pattern, options);
        *handled = true;
        return absl::OkStatus();
      }
      if (k1 == "$binary" && k2 == "$type") {
        RETURN_IF_ERROR(ParseBinary(v1, &v2, out));
        *handled = true;
        return absl::OkStatus();
      }
    }
    if (exclusive == Wrapper::kNone) return absl::OkStatus();
    if (n != 1) {
      return Error(absl::StrCat("extended JSON ", ToAbsl(exclusive_key),
                                " must be the only field of its object"));
    }
    *handled = true;
    return ParseWrapper(exclusive, v1, out);
  }

  static Value MakeRegex(std::string_view pattern, std::string_view options) {
    Regex re;
    re.pattern = std::string(pattern);
    re.options = std::string(options);
    // Sort ASCII flags only: sorting the bytes of a multi-byte UTF-8
    // character made invalid UTF-8 that no longer re-parsed once stored
    // (found by fuzz/json_fuzz.cc).
    if (std::all_of(re.options.begin(), re.options.end(), [](char c) {
          return static_cast<unsigned char>(c) < 0x80;
        })) {
      std::sort(re.options.begin(), re.options.end());
    }
    return Value::Re(std::move(re));
  }

  absl::Status ParseWrapper(Wrapper w, element v, Value* out) {
    std::string_view s;
    switch (w) {
      case Wrapper::kOid: {
        ObjectId id;
        if (v.get(s) != simdjson::SUCCESS ||
            !ObjectId::FromHex(ToAbsl(s), &id)) {
          return Error("invalid $oid: expected a string of 24 hex digits");
        }
        *out = Value::Oid(id);
        return absl::OkStatus();
      }
      case Wrapper::kDate: {
        int64_t ms;
        if (v.get(s) == simdjson::SUCCESS) {
          if (!ParseIsoDate(ToAbsl(s), &ms)) {
            return Error(absl::StrCat(
                "invalid $date: '", ToAbsl(s),
                "' is not an ISO-8601 date such as 2026-11-21T10:00:00Z"));
          }
        } else if (v.is_object()) {
          simdjson::dom::object o;
          Take(v, &o);
          element inner;
          if (o.size() != 1 ||
              o.at_key("$numberLong").get(inner) != simdjson::SUCCESS ||
              inner.get(s) != simdjson::SUCCESS || !ParseIntString(s, &ms)) {
            return Error(
                "invalid $date: expected {\"$numberLong\": "
                "\"<milliseconds>\"}");
          }
        } else if (!ElementToInt64(v, &ms)) {
          return Error(
              "invalid $date: expected an ISO-8601 string, "
              "{\"$numberLong\": \"<milliseconds>\"} or integral milliseconds");
        }
        *out = Value::Date(ms);
        return absl::OkStatus();
      }
      case Wrapper::kNumberLong: {
        int64_t x;
        if (v.get(s) != simdjson::SUCCESS || !ParseIntString(s, &x)) {
          return Error(
              "invalid $numberLong: expected a string of a 64-bit integer");
        }
        *out = Value::Int64(x);
        return absl::OkStatus();
      }
      case Wrapper::kNumberInt: {
        int32_t x;
        if (v.get(s) != simdjson::SUCCESS || !ParseIntString(s, &x)) {
          return Error(
              "invalid $numberInt: expected a string of a 32-bit integer");
        }
        *out = Value::Int32(x);
        return absl::OkStatus();
      }
      case Wrapper::kNumberDouble: {
        double d;
        if (v.get(s) != simdjson::SUCCESS || !ParseDoubleString(s, &d)) {
          return Error(
              "invalid $numberDouble: expected a string of a number, \"NaN\", "
              "\"Infinity\" or \"-Infinity\"");
        }
        *out = Value::Double(d);
        return absl::OkStatus();
      }
      case Wrapper::kNumberDecimal: {
        if (v.get(s) != simdjson::SUCCESS) {
          return Error(
              "invalid $numberDecimal: expected a string of a decimal number");
        }
        absl::StatusOr<Decimal128> d = Decimal128::FromString(ToAbsl(s));
        if (!d.ok()) {
          return Error(
              absl::StrCat("invalid $numberDecimal: ", d.status().message()));
        }
        *out = Value::Decimal(*d);
        return absl::OkStatus();
      }
      case Wrapper::kTimestamp: {
        simdjson::dom::object o;
        element t, i;
        Timestamp ts;
        if (v.get(o) != simdjson::SUCCESS || o.size() != 2 ||
            o.at_key("t").get(t) != simdjson::SUCCESS ||
            o.at_key("i").get(i) != simdjson::SUCCESS ||
            !ElementToUint32(t, &ts.t) || !ElementToUint32(i, &ts.i)) {
          return Error(
              "invalid $timestamp: expected {\"t\": <uint32>, \"i\": "
              "<uint32>}");
        }
        *out = Value::Ts(ts);
        return absl::OkStatus();
      }
      case Wrapper::kRegularExpression: {
        simdjson::dom::object o;
        std::string_view pattern, options;
        if (v.get(o) != simdjson::SUCCESS || o.size() != 2 ||
            o.at_key("pattern").get(pattern) != simdjson::SUCCESS ||
            o.at_key("options").get(options) != simdjson::SUCCESS) {
          return Error(
              "invalid $regularExpression: expected {\"pattern\": <string>, "
              "\"options\": <string>}");
        }
        *out = MakeRegex(pattern, options);
        return absl::OkStatus();
      }
      case Wrapper::kMinKey:
      case Wrapper::kMaxKey: {
        int64_t one;
        if (!ElementToInt64(v, &one) || one != 1) {
          return Error(absl::StrCat(
              "invalid ", w == Wrapper::kMinKey ? "$minKey" : "$maxKey",
              ": expected the value 1"));
        }
        *out = w == Wrapper::kMinKey ? Value::MinKey() : Value::MaxKey();
        return absl::OkStatus();
      }
      case Wrapper::kBinary:
        return ParseBinary(v, nullptr, out);
      case Wrapper::kNone:
        break;
    }
    return Error("unsupported extended JSON wrapper");
  }

  // Canonical {"$binary": {"base64": .., "subType": "hh"}} when legacy_type
  // is null, else legacy {"$binary": "base64", "$type": "hh"}.
  absl::Status ParseBinary(element v, const element* legacy_type, Value* out) {
    std::string_view b64, subtype;
    bool ok;
    if (legacy_type == nullptr) {
      simdjson::dom::object o;
      ok = v.get(o) == simdjson::SUCCESS && o.size() == 2 &&
           o.at_key("base64").get(b64) == simdjson::SUCCESS &&
           o.at_key("subType").get(subtype) == simdjson::SUCCESS;
    } else {
      ok = v.get(b64) == simdjson::SUCCESS &&
           legacy_type->get(subtype) == simdjson::SUCCESS;
    }
    Binary bin;
    uint8_t sub = 0;
    if (ok) {
      ok = !subtype.empty() && subtype.size() <= 2;
      for (char c : subtype) {
        int d = (c >= '0' && c <= '9')   ? c - '0'
                : (c >= 'a' && c <= 'f') ? c - 'a' + 10
                : (c >= 'A' && c <= 'F') ? c - 'A' + 10
                                         : -1;
        if (d < 0) ok = false;
        sub = static_cast<uint8_t>(sub << 4 | (d & 0xF));
      }
    }
    if (ok) ok = absl::Base64Unescape(ToAbsl(b64), &bin.data);
    if (!ok) {
      return Error(
          legacy_type == nullptr
              ? "invalid $binary: expected {\"base64\": <base64 string>, "
                "\"subType\": <1-2 hex digits>}"
              : "invalid $binary: expected a base64 string with \"$type\": "
                "<1-2 hex digits>");
    }
    bin.subtype = sub;
    *out = Value::Bin(std::move(bin));
    return absl::OkStatus();
  }

  const ParseOptions& options_;
  std::vector<PathPart> path_;
};

struct ThreadParser {
  simdjson::dom::parser parser;
  std::string buffer;  // input copy with SIMDJSON_PADDING bytes of slack
};

absl::Status SyntaxError(simdjson::error_code err, absl::string_view json,
                         const ParseOptions& options) {
  switch (err) {
    case simdjson::UTF8_ERROR:
      return absl::InvalidArgumentError(absl::StrCat(
          "invalid UTF-8 at byte offset ", FirstInvalidUtf8(json)));
    case simdjson::DEPTH_ERROR:
      return absl::InvalidArgumentError(
          absl::StrCat("document nesting is deeper than the maximum of ",
                       options.max_depth));
    case simdjson::EMPTY:
      return absl::InvalidArgumentError("invalid JSON: the input is empty");
    case simdjson::CAPACITY:
      return absl::InvalidArgumentError(
          absl::StrCat("document is ", json.size(),
                       " bytes, over the maximum of ", options.max_bytes));
    default: {
      JsonSyntaxError where;
      if (!CheckJsonSyntax(json, &where)) {
        return absl::InvalidArgumentError(
            absl::StrCat("invalid JSON at byte offset ", where.offset, ": ",
                         where.expected));
      }
      if (err == simdjson::NUMBER_ERROR) {
        return absl::InvalidArgumentError(
            "invalid JSON: a number is out of the range of a double");
      }
      return absl::InvalidArgumentError(
          absl::StrCat("invalid JSON: ", simdjson::error_message(err)));
    }
  }
}

absl::Status CheckSize(absl::string_view json, const ParseOptions& options) {
  if (json.size() > options.max_bytes) {
    return absl::InvalidArgumentError(absl::StrCat(
        "document is ", json.size(), " bytes, over the maximum of ",
        options.max_bytes, " bytes"));
  }
  if (json.empty()) {
    return absl::InvalidArgumentError("invalid JSON: the input is empty");
  }
  return absl::OkStatus();
}

// The simdjson DOM path: decides every input and words every error.
absl::StatusOr<Value> ParseFull(absl::string_view json,
                                const ParseOptions& options) {
  RETURN_IF_ERROR(CheckSize(json, options));
  thread_local ThreadParser tp;
  // simdjson counts every container; leave room for wrapper objects, which
  // we do not count because they become scalars.
  size_t want_depth =
      std::max<size_t>(simdjson::DEFAULT_MAX_DEPTH,
                       static_cast<size_t>(std::max(options.max_depth, 0)) + 2);
  if (tp.parser.max_depth() < want_depth ||
      tp.parser.capacity() < json.size()) {
    size_t cap = std::max(json.size(), tp.parser.capacity());
    if (tp.parser.allocate(cap, std::max(want_depth, tp.parser.max_depth())) !=
        simdjson::SUCCESS) {
      return absl::ResourceExhaustedError("cannot allocate the JSON parser");
    }
  }
  auto parse = [&](absl::string_view text) {
    size_t need = text.size() + simdjson::SIMDJSON_PADDING;
    if (tp.buffer.size() < need) tp.buffer.resize(need);
    std::memcpy(&tp.buffer[0], text.data(), text.size());
    element root;
    simdjson::error_code err =
        tp.parser.parse(tp.buffer.data(), text.size(), false).get(root);
    return std::make_pair(err, root);
  };
  auto [err, root] = parse(json);
  std::string widened;
  if (err == simdjson::NUMBER_ERROR && WidenBigIntegers(json, &widened)) {
    std::tie(err, root) = parse(widened);
  }
  if (err != simdjson::SUCCESS) return SyntaxError(err, json, options);
  Value out;
  Converter converter(options);
  RETURN_IF_ERROR(converter.Convert(root, 1, &out));
  return out;
}

absl::StatusOr<Value> Parse(absl::string_view json, const ParseOptions& options,
                            bool* storage_form = nullptr) {
  RETURN_IF_ERROR(CheckSize(json, options));
  // The common case without simdjson (json_fast_parse.h); whatever the
  // fast path does not accept, the full path decides.
  Value out;
  if (json_internal::FastParseValue(json, options, &out, storage_form)) {
    return out;
  }
  if (storage_form != nullptr) *storage_form = false;
  return ParseFull(json, options);
}

}  // namespace

namespace json_internal {

absl::StatusOr<Value> ParseValueFullPath(absl::string_view json,
                                         const ParseOptions& options) {
  return ParseFull(json, options);
}

}  // namespace json_internal

absl::StatusOr<Value> ParseValue(absl::string_view json,
                                 const ParseOptions& options) {
  return Parse(json, options);
}

absl::Status ParseDocumentInto(absl::string_view json,
                               const ParseOptions& options, Value* out) {
  RETURN_IF_ERROR(CheckSize(json, options));
  // As Parse, but the fast path builds the tree in *out itself.
  if (!json_internal::FastParseValue(json, options, out)) {
    ASSIGN_OR_RETURN(*out, ParseFull(json, options));
  }
  if (!out->is_object()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "a document must be a JSON object, not ", TypeName(out->type())));
  }
  return absl::OkStatus();
}

absl::StatusOr<Value> ParseDocument(absl::string_view json,
                                    const ParseOptions& options) {
  Value v;
  RETURN_IF_ERROR(ParseDocumentInto(json, options, &v));
  return v;
}

absl::StatusOr<Value> ParseDocumentNotingForm(absl::string_view json,
                                              bool* storage_form) {
  *storage_form = false;
  bool form = false;
  ASSIGN_OR_RETURN(Value v, Parse(json, ParseOptions(), &form));
  if (!v.is_object()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "a document must be a JSON object, not ", TypeName(v.type())));
  }
  *storage_form = form;
  return v;
}

}  // namespace ttldb
