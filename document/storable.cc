#include "document/storable.h"

#include <cstdint>
#include <cstring>
#include <string>

#include "absl/strings/str_cat.h"
#include "base/status.h"
#include "document/json.h"

namespace ttldb {

bool IsValidUtf8(absl::string_view s) {
  const auto* p = reinterpret_cast<const unsigned char*>(s.data());
  const auto* end = p + s.size();
  while (p < end) {
    // Runs of ASCII, eight bytes at a time (most stored text is ASCII; this
    // runs on every string of every write, twice with the cache's check).
    while (end - p >= 8) {
      uint64_t word;
      std::memcpy(&word, p, 8);
      if ((word & 0x8080808080808080ULL) != 0) break;
      p += 8;
    }
    if (p == end) break;
    const unsigned char c = *p;
    if (c < 0x80) {
      ++p;
      continue;
    }
    int n;
    uint32_t cp;
    if ((c & 0xE0) == 0xC0) {
      n = 1;
      cp = c & 0x1F;
    } else if ((c & 0xF0) == 0xE0) {
      n = 2;
      cp = c & 0x0F;
    } else if ((c & 0xF8) == 0xF0) {
      n = 3;
      cp = c & 0x07;
    } else {
      return false;
    }
    if (end - p <= n) return false;
    for (int i = 1; i <= n; ++i) {
      if ((p[i] & 0xC0) != 0x80) return false;
      cp = (cp << 6) | (p[i] & 0x3F);
    }
    static constexpr uint32_t kMin[] = {0, 0x80, 0x800, 0x10000};
    if (cp < kMin[n] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
      return false;
    }
    p += n + 1;
  }
  return true;
}

namespace {

// The keys that make an object an Extended JSON type wrapper when read
// back (document/json.h).
bool IsWrapperKeyword(absl::string_view name) {
  static constexpr absl::string_view kKeywords[] = {
      "$oid",          "$date",          "$numberLong", "$numberInt",
      "$numberDouble", "$numberDecimal", "$timestamp",  "$regularExpression",
      "$regex",        "$options",       "$minKey",     "$maxKey",
      "$binary",       "$type",          "$uuid",       "$symbol",
      "$code",         "$scope",         "$undefined",  "$dbPointer"};
  for (absl::string_view k : kKeywords) {
    if (name == k) return true;
  }
  return false;
}

absl::Status Bad(const std::string& path, absl::string_view why) {
  return absl::InvalidArgumentError(
      absl::StrCat("document cannot be stored: ", why, " (at '",
                   path.empty() ? "." : path, "')"));
}

absl::Status Check(const Value& v, int depth, std::string* path) {
  switch (v.type()) {
    case ValueType::kString:
      if (!IsValidUtf8(v.string_value())) {
        return Bad(*path, "string is not valid UTF-8");
      }
      return absl::OkStatus();
    case ValueType::kRegex:
      if (!IsValidUtf8(v.regex_value().pattern) ||
          !IsValidUtf8(v.regex_value().options)) {
        return Bad(*path, "regular expression is not valid UTF-8");
      }
      return absl::OkStatus();
    case ValueType::kObject:
    case ValueType::kArray: {
      if (depth + 1 > kMaxNestingDepth) {
        return Bad(*path, absl::StrCat("nesting deeper than ", kMaxNestingDepth,
                                       " levels"));
      }
      const size_t mark = path->size();
      if (v.is_array()) {
        size_t i = 0;
        for (const Value& item : v.array_items()) {
          absl::StrAppend(path, path->empty() ? "" : ".", i++);
          RETURN_IF_ERROR(Check(item, depth + 1, path));
          path->resize(mark);
        }
        return absl::OkStatus();
      }
      for (const Field& f : v.object_fields()) {
        absl::StrAppend(path, path->empty() ? "" : ".", f.first);
        if (!IsValidUtf8(f.first)) {
          return Bad(*path, "field name is not valid UTF-8");
        }
        if (f.first.find('\0') != std::string::npos) {
          return Bad(*path, "field names cannot contain the null character");
        }
        if (!f.first.empty() && f.first[0] == '$' &&
            (depth == 0 || IsWrapperKeyword(f.first))) {
          return Bad(*path,
                     depth == 0
                         ? absl::StrCat("top-level field names cannot start "
                                        "with '$': ",
                                        f.first)
                         : absl::StrCat("'", f.first,
                                        "' is an Extended JSON type keyword: "
                                        "the document would read back with "
                                        "another type"));
        }
        RETURN_IF_ERROR(Check(f.second, depth + 1, path));
        path->resize(mark);
      }
      return absl::OkStatus();
    }
    default:
      return absl::OkStatus();
  }
}

}  // namespace

absl::Status CheckStorable(const Value& doc) {
  std::string path;
  return Check(doc, 0, &path);
}

}  // namespace ttldb
