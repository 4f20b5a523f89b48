#include "storage/json_field_scan.h"

#include <cstddef>

namespace ttldb {
namespace {

bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

void SkipSpace(absl::string_view s, size_t* i) {
  while (*i < s.size() && IsSpace(s[*i])) ++*i;
}

// At a '"': moves past the closing quote. False if the string is unclosed.
bool SkipString(absl::string_view s, size_t* i) {
  for (size_t k = *i + 1; k < s.size(); ++k) {
    if (s[k] == '\\') {
      ++k;  // the escaped character (a \u's hex digits need no care)
    } else if (s[k] == '"') {
      *i = k + 1;
      return true;
    }
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

FieldScan FindTopLevelField(absl::string_view json, absl::string_view name,
                            absl::string_view* value) {
  size_t i = 0;
  SkipSpace(json, &i);
  if (i >= json.size() || json[i] != '{') return FieldScan::kUnsure;
  ++i;
  SkipSpace(json, &i);
  if (i < json.size() && json[i] == '}') {
    ++i;
    SkipSpace(json, &i);
    return i == json.size() ? FieldScan::kAbsent : FieldScan::kUnsure;
  }
  while (true) {
    if (i >= json.size() || json[i] != '"') return FieldScan::kUnsure;
    const size_t key_begin = i + 1;
    size_t k = key_begin;
    while (k < json.size() && json[k] != '"') {
      if (json[k] == '\\') return FieldScan::kUnsure;  // escaped: parse it
      ++k;
    }
    if (k >= json.size()) return FieldScan::kUnsure;
    const absl::string_view key = json.substr(key_begin, k - key_begin);
    i = k + 1;
    SkipSpace(json, &i);
    if (i >= json.size() || json[i] != ':') return FieldScan::kUnsure;
    ++i;
    SkipSpace(json, &i);
    const size_t value_begin = i;
    if (!SkipValue(json, &i)) return FieldScan::kUnsure;
    if (key == name) {
      *value = json.substr(value_begin, i - value_begin);
      return FieldScan::kFound;
    }
    SkipSpace(json, &i);
    if (i >= json.size()) return FieldScan::kUnsure;
    if (json[i] == ',') {
      ++i;
      SkipSpace(json, &i);
      continue;
    }
    if (json[i] != '}') return FieldScan::kUnsure;
    ++i;
    SkipSpace(json, &i);
    return i == json.size() ? FieldScan::kAbsent : FieldScan::kUnsure;
  }
}

}  // namespace ttldb
