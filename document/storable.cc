#include "document/storable.h"

#include <cstdint>
#include <cstring>
#include <string>

#include "absl/strings/str_cat.h"
#include "base/status.h"
#include "ttldb/json.h"

namespace ttldb {

size_t Utf8SequenceLength(const char* p, const char* end) {
  const unsigned char c = static_cast<unsigned char>(p[0]);
  size_t len;
  unsigned char lo = 0x80, hi = 0xBF;  // bounds of the second byte
  if (c >= 0xC2 && c <= 0xDF) {
    len = 2;
  } else if (c >= 0xE0 && c <= 0xEF) {
    len = 3;
    if (c == 0xE0) lo = 0xA0;
    if (c == 0xED) hi = 0x9F;
  } else if (c >= 0xF0 && c <= 0xF4) {
    len = 4;
    if (c == 0xF0) lo = 0x90;
    if (c == 0xF4) hi = 0x8F;
  } else {
    return 0;
  }
  if (static_cast<size_t>(end - p) < len) return 0;
  const unsigned char c1 = static_cast<unsigned char>(p[1]);
  if (c1 < lo || c1 > hi) return 0;
  for (size_t k = 2; k < len; ++k) {
    const unsigned char ck = static_cast<unsigned char>(p[k]);
    if (ck < 0x80 || ck > 0xBF) return 0;
  }
  return len;
}

bool IsValidUtf8(absl::string_view s) {
  const char* p = s.data();
  const char* const end = p + s.size();
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
    if (static_cast<unsigned char>(*p) < 0x80) {
      ++p;
      continue;
    }
    const size_t n = Utf8SequenceLength(p, end);
    if (n == 0) return false;
    p += n;
  }
  return true;
}

namespace {

// The keys that make an object an Extended JSON type wrapper when read
// back (ttldb/json.h).
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

// BadValue (2), as mongod's storage validation answers what it cannot
// store.
absl::Status Bad(const std::string& path, absl::string_view why) {
  return MongoError(absl::StatusCode::kInvalidArgument, kBadValue,
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
        // Overflow (15), storage_validation.cpp scanDocument's message.
        return MongoError(absl::StatusCode::kInvalidArgument, kOverflow,
                          absl::StrCat("Document exceeds maximum nesting depth "
                                       "of ",
                                       kMaxNestingDepth, " (at '",
                                       path->empty() ? "." : *path, "')"));
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
        if (!f.first.empty() && f.first[0] == '$' && depth == 0) {
          // insert.cpp fixDocumentForInsert's BadValue.
          return MongoError(
              absl::StatusCode::kInvalidArgument, kBadValue,
              absl::StrCat("Document can't have $ prefixed field names: ",
                           f.first));
        }
        if (IsWrapperKeyword(f.first)) {
          return Bad(*path, absl::StrCat("'", f.first,
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

// Check's verdict without its message: no path is built (Check appends
// every field name to it), so a storable document, the write path's usual
// case, costs one walk without string work; Check then runs only to name
// what fails.
bool Storable(const Value& v, int depth) {
  switch (v.type()) {
    case ValueType::kString:
      return IsValidUtf8(v.string_value());
    case ValueType::kRegex:
      return IsValidUtf8(v.regex_value().pattern) &&
             IsValidUtf8(v.regex_value().options);
    case ValueType::kArray:
      if (depth + 1 > kMaxNestingDepth) return false;
      for (const Value& item : v.array_items()) {
        if (!Storable(item, depth + 1)) return false;
      }
      return true;
    case ValueType::kObject:
      if (depth + 1 > kMaxNestingDepth) return false;
      for (const Field& f : v.object_fields()) {
        if (!IsValidUtf8(f.first) || f.first.find('\0') != std::string::npos) {
          return false;
        }
        if (!f.first.empty() && f.first[0] == '$' &&
            (depth == 0 || IsWrapperKeyword(f.first))) {
          return false;
        }
        if (!Storable(f.second, depth + 1)) return false;
      }
      return true;
    default:
      return true;
  }
}

}  // namespace

bool IsExtendedJsonKeyword(absl::string_view name) {
  return IsWrapperKeyword(name);
}

absl::Status CheckStorable(const Value& doc) {
  if (Storable(doc, 0)) return absl::OkStatus();
  std::string path;
  return Check(doc, 0, &path);
}

}  // namespace ttldb
