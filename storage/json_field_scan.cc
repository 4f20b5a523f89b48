#include "storage/json_field_scan.h"

#include <cstddef>
#include <cstring>

namespace ttldb {
namespace {

bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

void SkipSpace(absl::string_view s, size_t* i) {
  while (*i < s.size() && IsSpace(s[*i])) ++*i;
}

// At a '"': moves past the closing quote. False if the string is unclosed.
// The quote and the backslashes before it are found with memchr: most of a
// document's bytes are in its strings.
bool SkipString(absl::string_view s, size_t* i) {
  const char* p = s.data() + *i + 1;
  const char* const end = s.data() + s.size();
  while (p < end) {
    const char* quote = static_cast<const char*>(std::memchr(p, '"', end - p));
    if (quote == nullptr) return false;
    const char* escape =
        static_cast<const char*>(std::memchr(p, '\\', quote - p));
    if (escape == nullptr) {
      *i = static_cast<size_t>(quote + 1 - s.data());
      return true;
    }
    // Past the escaped character (a \u's hex digits need no care).
    p = escape + 2;
  }
  return false;
}

// Moves past one JSON value (without validating scalars). False when the
// text ends first or the brackets do not match.
bool SkipValue(absl::string_view s, size_t* i) {
  if (*i >= s.size()) return false;
  const char c = s[*i];
  if (c == '"') return SkipString(s, i);
  if (c == '{' || c == '[') {
    // A stack of the open brackets is not needed for the skip itself, but
    // a mismatch ("[}") must not pass as balanced: track the kinds.
    char stack[128];
    int depth = 0;
    size_t k = *i;
    while (k < s.size()) {
      const char d = s[k];
      if (d == '"') {
        if (!SkipString(s, &k)) return false;
        continue;
      }
      if (d == '{' || d == '[') {
        if (depth == static_cast<int>(sizeof(stack))) return false;
        stack[depth++] = d == '{' ? '}' : ']';
      } else if (d == '}' || d == ']') {
        if (depth == 0 || stack[depth - 1] != d) return false;
        if (--depth == 0) {
          *i = k + 1;
          return true;
        }
      }
      ++k;
    }
    return false;
  }
  // A scalar: up to the next delimiter.
  size_t k = *i;
  while (k < s.size() && s[k] != ',' && s[k] != '}' && s[k] != ']' &&
         !IsSpace(s[k])) {
    if (s[k] == '"' || s[k] == '{' || s[k] == '[' || s[k] == ':') return false;
    ++k;
  }
  if (k == *i) return false;
  *i = k;
  return true;
}

}  // namespace

bool ScanTopLevelFields(
    absl::string_view json,
    absl::FunctionRef<bool(absl::string_view, absl::string_view)> fn) {
  size_t i = 0;
  SkipSpace(json, &i);
  if (i >= json.size() || json[i] != '{') return false;
  ++i;
  SkipSpace(json, &i);
  if (i < json.size() && json[i] == '}') {
    ++i;
    SkipSpace(json, &i);
    return i == json.size();
  }
  while (true) {
    if (i >= json.size() || json[i] != '"') return false;
    const size_t key_begin = i + 1;
    const char* quote = static_cast<const char*>(
        std::memchr(json.data() + key_begin, '"', json.size() - key_begin));
    if (quote == nullptr) return false;
    const size_t k = static_cast<size_t>(quote - json.data());
    if (std::memchr(json.data() + key_begin, '\\', k - key_begin) != nullptr) {
      return false;  // escaped: parse it
    }
    const absl::string_view key = json.substr(key_begin, k - key_begin);
    i = k + 1;
    SkipSpace(json, &i);
    if (i >= json.size() || json[i] != ':') return false;
    ++i;
    SkipSpace(json, &i);
    const size_t value_begin = i;
    if (!SkipValue(json, &i)) return false;
    if (!fn(key, json.substr(value_begin, i - value_begin))) return true;
    SkipSpace(json, &i);
    if (i >= json.size()) return false;
    if (json[i] == ',') {
      ++i;
      SkipSpace(json, &i);
      continue;
    }
    if (json[i] != '}') return false;
    ++i;
    SkipSpace(json, &i);
    return i == json.size();
  }
}

FieldScan FindTopLevelField(absl::string_view json, absl::string_view name,
                            absl::string_view* value) {
  bool found = false;
  const bool read = ScanTopLevelFields(
      json, [&](absl::string_view key, absl::string_view text) {
        if (key != name) return true;
        *value = text;
        found = true;
        return false;
      });
  if (!read) return FieldScan::kUnsure;
  return found ? FieldScan::kFound : FieldScan::kAbsent;
}

}  // namespace ttldb
