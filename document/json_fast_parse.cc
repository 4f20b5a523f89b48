// A hand-written recursive-descent parser for the common subset of JSON
// that ttldb stores (see json_fast_parse.h for the contract). It scans the
// input once and builds the Value tree directly: no copy of the input into a
// padded buffer, no simdjson tape, strings copied once into their Value.
// Anything it does not handle returns false, and json_parse.cc runs the
// full simdjson path instead.
#include "document/json_fast_parse.h"

#include <charconv>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <limits>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include "document/storable.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace ttldb {
namespace json_internal {
namespace {

// Recursion bound of the fast path whatever options.max_depth says (deeper
// input goes to the full path, which is not recursive on the JSON text).
constexpr int kMaxFastDepth = 128;

bool IsWs(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }
bool IsDigit(char c) { return c >= '0' && c <= '9'; }

// The first byte at or after p that is '"', '\\', a control character
// (< 0x20) or not ASCII (>= 0x80); `end` if none.
const char* ScanPlain(const char* p, const char* end) {
#if defined(__SSE2__)
  const __m128i quote = _mm_set1_epi8('"');
  const __m128i backslash = _mm_set1_epi8('\\');
  // Signed compare: bytes >= 0x80 are negative, so "< 0x20" also catches
  // them.
  const __m128i space = _mm_set1_epi8(0x20);
  while (end - p >= 16) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    const __m128i hit = _mm_or_si128(
        _mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, backslash)),
        _mm_cmplt_epi8(v, space));
    const int mask = _mm_movemask_epi8(hit);
    if (mask != 0) return p + __builtin_ctz(static_cast<unsigned>(mask));
    p += 16;
  }
#endif
  while (p < end) {
    const unsigned char c = static_cast<unsigned char>(*p);
    if (c == '"' || c == '\\' || c < 0x20 || c >= 0x80) return p;
    ++p;
  }
  return end;
}

int HexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// As json_parse.cc reads the strings of $numberLong wrappers.
bool ParseInt64String(const std::string& s, int64_t* out) {
  if (s.empty()) return false;
  auto r = std::from_chars(s.data(), s.data() + s.size(), *out);
  return r.ec == std::errc() && r.ptr == s.data() + s.size();
}

// Per thread, per nesting level: the fields (items) of the object (array)
// being parsed at that level, so that each container's vector is allocated
// once at its exact size instead of growing by doubling (a 5-field document
// allocated room for 4 fields, then for 8, and moved the first 4).
struct Scratch {
  std::vector<Field> fields[kMaxFastDepth + 1];
  std::vector<Value> items[kMaxFastDepth + 1];
};

// Moves `scratch`'s elements into a vector of exactly their number, and
// empties `scratch` (keeping its capacity unless it grew large).
template <typename T>
std::vector<T> TakeExact(std::vector<T>& scratch) {
  std::vector<T> out(std::make_move_iterator(scratch.begin()),
                     std::make_move_iterator(scratch.end()));
  scratch.clear();
  if (scratch.capacity() > 1024) std::vector<T>().swap(scratch);
  return out;
}

class FastParser {
 public:
  FastParser(absl::string_view json, int max_depth, bool note_form)
      : p_(json.data()),
        end_(json.data() + json.size()),
        scratch_(ThreadScratch()),
        max_depth_(max_depth < kMaxFastDepth ? max_depth : kMaxFastDepth),
        note_form_(note_form) {}

  // After a successful ParseRoot with note_form: whether the input is byte
  // for byte what AppendJson(*out, JsonFormat::kStorage) writes (see
  // FastParseValue). Each construct that json_write.cc would write
  // differently clears it where it is parsed.
  bool storage_form() const { return storage_form_; }

  bool ParseRoot(Value* out) {
    SkipWs();
    if (!ParseValue(0, out)) return false;
    SkipWs();
    return p_ == end_;
  }

 private:
  static Scratch& ThreadScratch() {
    thread_local Scratch scratch;
    return scratch;
  }

  void SkipWs() {
    if (p_ < end_ && IsWs(*p_)) {
      storage_form_ = false;  // the storage form has no whitespace
      do {
        ++p_;
      } while (p_ < end_ && IsWs(*p_));
    }
  }

  // Consumes `c` (after optional whitespace).
  bool Expect(char c) {
    SkipWs();
    if (p_ == end_ || *p_ != c) return false;
    ++p_;
    return true;
  }

  // `depth`: the containers enclosing this value.
  bool ParseValue(int depth, Value* out) {
    if (p_ == end_) return false;
    switch (*p_) {
      case '{':
        return ParseObject(depth + 1, out);
      case '[':
        return ParseArray(depth + 1, out);
      case '"':
        // Unescaped straight into the Value's own string.
        *out = Value::String(std::string());
        return ParseString(&out->mutable_string_value());
      case 't':
        if (!ParseWord("true")) return false;
        *out = Value::Bool(true);
        return true;
      case 'f':
        if (!ParseWord("false")) return false;
        *out = Value::Bool(false);
        return true;
      case 'n':
        if (!ParseWord("null")) return false;
        *out = Value::Null();
        return true;
      default:
        return ParseNumber(out);
    }
  }

  bool ParseWord(const char* word) {
    const size_t n = std::strlen(word);
    if (static_cast<size_t>(end_ - p_) < n || std::memcmp(p_, word, n) != 0) {
      return false;
    }
    p_ += n;
    return true;
  }

  // `depth`: this object's own depth (the top-level container is 1).
  bool ParseObject(int depth, Value* out) {
    if (depth > max_depth_) return false;
    ++p_;  // '{'
    SkipWs();
    if (p_ != end_ && *p_ == '}') {
      ++p_;
      *out = Value::MakeObject();
      return true;
    }
    std::string key;
    if (!ParseKey(&key)) return false;
    if (!key.empty() && key[0] == '$') return ParseWrapper(key, depth, out);
    // Left over from an earlier parse that failed at this depth.
    std::vector<Field>& fields = scratch_.fields[depth];
    fields.clear();
    fields.emplace_back(std::move(key), Value());
    while (true) {
      SkipWs();
      if (!ParseValue(depth, &fields.back().second)) return false;
      SkipWs();
      if (p_ == end_) return false;
      if (*p_ == '}') {
        ++p_;
        break;
      }
      if (*p_ != ',') return false;
      ++p_;
      SkipWs();
      // The key parsed in place (no move of its bytes). Any '$' key after
      // the first: a misplaced wrapper (an error) or an operator-like key;
      // the full path decides.
      fields.emplace_back();
      const std::string& next = fields.back().first;
      if (!ParseKey(&fields.back().first) ||
          (!next.empty() && next[0] == '$')) {
        return false;
      }
    }
    *out = Value::MakeObject(TakeExact(fields));
    return true;
  }

  bool ParseArray(int depth, Value* out) {
    if (depth > max_depth_) return false;
    ++p_;  // '['
    SkipWs();
    if (p_ != end_ && *p_ == ']') {
      ++p_;
      *out = Value::MakeArray();
      return true;
    }
    std::vector<Value>& items = scratch_.items[depth];
    items.clear();
    while (true) {
      items.emplace_back();
      if (!ParseValue(depth, &items.back())) return false;
      SkipWs();
      if (p_ == end_) return false;
      if (*p_ == ']') {
        ++p_;
        break;
      }
      if (*p_ != ',') return false;
      ++p_;
      SkipWs();
    }
    *out = Value::MakeArray(TakeExact(items));
    return true;
  }

  // A key and its ':' (p_ at the key's opening quote, or fail).
  bool ParseKey(std::string* key) {
    if (p_ == end_ || *p_ != '"') return false;
    return ParseString(key) && Expect(':');
  }

  // The object whose first key, `key`, starts with '$' (already followed by
  // its ':'): only the single-field wrappers of the storage form.
  bool ParseWrapper(const std::string& key, int depth, Value* out) {
    SkipWs();
    std::string s;
    if (key == "$date") {
      // {"$date": {"$numberLong": "<ms>"}}: the inner object counts as a
      // container here (the full path does not count wrappers at all).
      if (depth + 1 > max_depth_) return false;
      if (ParseCompactDate(out)) return true;
      storage_form_ = false;  // written as the compact form
      if (!Expect('{')) return false;
      SkipWs();
      std::string inner;
      if (!ParseKey(&inner) || inner != "$numberLong") return false;
      SkipWs();
      int64_t ms;
      if (p_ == end_ || *p_ != '"' || !ParseString(&s) || !Expect('}') ||
          !Expect('}') || !ParseInt64String(s, &ms)) {
        return false;
      }
      *out = Value::Date(ms);
      return true;
    }
    if (key == "$numberLong") {
      int64_t v;
      if (p_ == end_ || *p_ != '"' || !ParseString(&s) || !Expect('}') ||
          !ParseInt64String(s, &v)) {
        return false;
      }
      if (!IsCanonicalInteger(s.data(), s.data() + s.size())) {
        storage_form_ = false;  // written as absl::StrCat(v)
      }
      *out = Value::Int64(v);
      return true;
    }
    if (key == "$numberDecimal") {
      if (p_ == end_ || *p_ != '"' || !ParseString(&s) || !Expect('}')) {
        return false;
      }
      absl::StatusOr<Decimal128> d = Decimal128::FromString(s);
      if (!d.ok()) return false;
      if (note_form_ && d->ToString() != s) storage_form_ = false;
      *out = Value::Decimal(*d);
      return true;
    }
    if (key == "$oid") {
      ObjectId id;
      if (p_ == end_ || *p_ != '"' || !ParseString(&s) || !Expect('}') ||
          !ObjectId::FromHex(s, &id)) {
        return false;
      }
      for (char c : s) {
        if (c >= 'A' && c <= 'F') storage_form_ = false;  // ToHex: lowercase
      }
      *out = Value::Oid(id);
      return true;
    }
    return false;
  }

  // The storage form's date as written, without whitespace:
  // {"$numberLong":"<ms>"}} from p_ (after "$date":), the digits read in
  // place. False (p_ unmoved) for anything else, which the general code
  // reads.
  bool ParseCompactDate(Value* out) {
    static constexpr char kHead[] = "{\"$numberLong\":\"";
    constexpr size_t kHeadLen = sizeof(kHead) - 1;
    if (static_cast<size_t>(end_ - p_) < kHeadLen + 4 ||
        std::memcmp(p_, kHead, kHeadLen) != 0) {
      return false;
    }
    const char* digits = p_ + kHeadLen;
    const char* p = digits;
    if (*p == '-') ++p;
    while (p != end_ && IsDigit(*p)) ++p;
    if (end_ - p < 3 || p[0] != '"' || p[1] != '}' || p[2] != '}') {
      return false;
    }
    int64_t ms;
    auto r = std::from_chars(digits, p, ms);
    if (r.ec != std::errc() || r.ptr != p) return false;
    if (!IsCanonicalInteger(digits, p)) storage_form_ = false;
    *out = Value::Date(ms);
    p_ = p + 3;
    return true;
  }

  // p_ at the opening quote. Unescapes into *out (cleared first).
  bool ParseString(std::string* out) {
    out->clear();
    const char* p = p_ + 1;
    const char* segment = p;  // start of the bytes not yet appended
    while (true) {
      p = ScanPlain(p, end_);
      if (p == end_) return false;
      const unsigned char c = static_cast<unsigned char>(*p);
      if (c == '"') {
        out->append(segment, p - segment);
        p_ = p + 1;
        return true;
      }
      if (c >= 0x80) {
        const size_t n = Utf8SequenceLength(p, end_);
        if (n == 0) return false;
        p += n;
        continue;
      }
      if (c != '\\') return false;  // an unescaped control character
      out->append(segment, p - segment);
      if (end_ - p < 2) return false;
      switch (p[1]) {
        case '"':
        case '\\':
          out->push_back(p[1]);
          break;
        case '/':
          storage_form_ = false;  // written unescaped
          out->push_back(p[1]);
          break;
        case 'b':
          out->push_back('\b');
          break;
        case 'f':
          out->push_back('\f');
          break;
        case 'n':
          out->push_back('\n');
          break;
        case 'r':
          out->push_back('\r');
          break;
        case 't':
          out->push_back('\t');
          break;
        case 'u': {
          if (end_ - p < 6) return false;
          uint32_t cp = 0;
          for (int k = 2; k < 6; ++k) {
            const int d = HexDigit(p[k]);
            if (d < 0) return false;
            cp = cp << 4 | static_cast<uint32_t>(d);
          }
          if (cp >= 0xD800 && cp <= 0xDFFF) return false;  // surrogates
          if (!IsStorageEscape(p, cp)) storage_form_ = false;
          AppendUtf8(cp, out);
          p += 4;
          break;
        }
        default:
          return false;
      }
      p += 2;
      segment = p;
    }
  }

  static void AppendUtf8(uint32_t cp, std::string* out) {
    if (cp < 0x80) {
      out->push_back(static_cast<char>(cp));
    } else if (cp < 0x800) {
      out->push_back(static_cast<char>(0xC0 | cp >> 6));
      out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else {
      out->push_back(static_cast<char>(0xE0 | cp >> 12));
      out->push_back(static_cast<char>(0x80 | (cp >> 6 & 0x3F)));
      out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    }
  }

  // RFC 8259: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
  bool ParseNumber(Value* out) {
    const char* start = p_;
    const char* p = p_;
    const bool negative = p != end_ && *p == '-';
    if (negative) ++p;
    if (p == end_ || !IsDigit(*p)) return false;
    const char* digits = p;
    if (*p == '0') {
      ++p;
    } else {
      while (p != end_ && IsDigit(*p)) ++p;
    }
    const size_t int_digits = static_cast<size_t>(p - digits);
    bool is_double = false;
    if (p != end_ && *p == '.') {
      ++p;
      if (p == end_ || !IsDigit(*p)) return false;
      while (p != end_ && IsDigit(*p)) ++p;
      is_double = true;
    }
    if (p != end_ && (*p == 'e' || *p == 'E')) {
      ++p;
      if (p != end_ && (*p == '+' || *p == '-')) ++p;
      if (p == end_ || !IsDigit(*p)) return false;
      while (p != end_ && IsDigit(*p)) ++p;
      is_double = true;
    }
    if (!is_double) {
      // 18 digits always fit in an int64; longer integers (uint64, or
      // beyond 64 bits: read as doubles) are the full path's.
      if (int_digits > 18) return false;
      int64_t v = 0;
      for (const char* d = digits; d != p; ++d) v = v * 10 + (*d - '0');
      if (negative) v = -v;
      if (v >= std::numeric_limits<int32_t>::min() &&
          v <= std::numeric_limits<int32_t>::max()) {
        // "-0" is written "0"; JSON has no other second spelling of an
        // integer (no leading zeros, no '+').
        if (negative && v == 0) storage_form_ = false;
        *out = Value::Int32(static_cast<int32_t>(v));
      } else {
        storage_form_ = false;  // written as {"$numberLong": "v"}
        *out = Value::Int64(v);
      }
    } else {
      // Correctly rounded, as simdjson is; out of range (overflow or
      // underflow) is left to the full path.
      double d;
      auto r = std::from_chars(start, p, d);
      if (r.ec != std::errc() || r.ptr != p) return false;
      if (note_form_ && !IsStorageDouble(d, start, p)) storage_form_ = false;
      *out = Value::Double(d);
    }
    p_ = p;
    return true;
  }

  // Whether [begin, end), the digits of an integer that parsed, is how
  // absl::StrCat writes it: no leading zero, no "-0".
  static bool IsCanonicalInteger(const char* begin, const char* end) {
    const bool negative = begin != end && *begin == '-';
    if (negative) ++begin;
    if (begin == end) return false;
    if (*begin != '0') return true;
    return end - begin == 1 && !negative;
  }

  // Whether the \u escape at p (of code point cp) is what json_write.cc's
  // AppendString writes: \u00xx in lowercase hex for a control character
  // without a short escape, and never \u0000 (a NUL in a field name is not
  // storable: CheckStorable must name it).
  static bool IsStorageEscape(const char* p, uint32_t cp) {
    if (cp == 0 || cp >= 0x20) return false;
    if (cp == '\b' || cp == '\f' || cp == '\n' || cp == '\r' || cp == '\t') {
      return false;
    }
    for (int k = 2; k < 6; ++k) {
      if (p[k] >= 'A' && p[k] <= 'F') return false;
    }
    return true;
  }

  // Whether [begin, end), the text of the finite double d, is what
  // json_write.cc's AppendFiniteDouble writes.
  static bool IsStorageDouble(double d, const char* begin, const char* end) {
    char buf[64];
    auto r = std::to_chars(buf, buf + sizeof(buf), d);
    size_t n = static_cast<size_t>(r.ptr - buf);
    if (std::memchr(buf, '.', n) == nullptr &&
        std::memchr(buf, 'e', n) == nullptr) {
      buf[n++] = '.';
      buf[n++] = '0';
    }
    return static_cast<size_t>(end - begin) == n &&
           std::memcmp(begin, buf, n) == 0;
  }

  const char* p_;
  const char* const end_;
  Scratch& scratch_;
  const int max_depth_;
  const bool note_form_;
  bool storage_form_ = true;
};

}  // namespace

bool FastParseValue(absl::string_view json, const ParseOptions& options,
                    Value* out, bool* storage_form) {
  FastParser parser(json, options.max_depth, storage_form != nullptr);
  if (!parser.ParseRoot(out)) return false;
  if (storage_form != nullptr) *storage_form = parser.storage_form();
  return true;
}

}  // namespace json_internal
}  // namespace ttldb
