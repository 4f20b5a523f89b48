#include "query/regex.h"

#include <algorithm>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "base/status.h"

namespace ttldb {
namespace {

// Rewrites the pattern for the 's' and 'x' flags, which std::regex lacks.
std::string Rewrite(absl::string_view p, bool dotall, bool extended) {
  std::string out;
  bool in_class = false;
  for (size_t i = 0; i < p.size(); ++i) {
    const char c = p[i];
    if (c == '\\' && i + 1 < p.size()) {
      out += c;
      out += p[++i];
      continue;
    }
    if (in_class) {
      if (c == ']') in_class = false;
      out += c;
      continue;
    }
    if (c == '[') {
      in_class = true;
      out += c;
      // A ']' right after '[' or '[^' is literal.
      if (i + 1 < p.size() && p[i + 1] == '^') out += p[++i];
      if (i + 1 < p.size() && p[i + 1] == ']') out += p[++i];
      continue;
    }
    if (extended) {
      if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' ||
          c == '\v') {
        continue;
      }
      if (c == '#') {
        while (i + 1 < p.size() && p[i + 1] != '\n') ++i;
        continue;
      }
    }
    if (dotall && c == '.') {
      out += "[\\s\\S]";
      continue;
    }
    out += c;
  }
  return out;
}

// Limits std::regex cannot be trusted with: libstdc++ parses the digits of
// a back-reference or a {n,m} quantifier into a long without an overflow
// check (undefined behaviour, found by fuzz/filter_fuzz), and builds one
// state per repetition, so {1000000} exhausts memory.
constexpr int kMaxBackReferenceDigits = 3;
constexpr int64_t kMaxRepeat = 1000;

absl::Status CheckRegexLimits(absl::string_view p) {
  for (size_t i = 0; i < p.size(); ++i) {
    if (p[i] == '\\' && i + 1 < p.size()) {
      size_t j = i + 1;
      while (j < p.size() && absl::ascii_isdigit(p[j])) ++j;
      if (j - (i + 1) > kMaxBackReferenceDigits) {
        return absl::InvalidArgumentError(absl::StrCat(
            "back-reference \\", p.substr(i + 1, j - i - 1), " is too large"));
      }
      ++i;  // skip the escaped character
      continue;
    }
    if (p[i] != '{') continue;
    // {n}, {n,} or {n,m}: check each number.
    size_t j = i + 1;
    int64_t value = 0;
    for (; j < p.size() && p[j] != '}'; ++j) {
      if (absl::ascii_isdigit(p[j])) {
        value = std::min<int64_t>(value * 10 + (p[j] - '0'), kMaxRepeat + 1);
      } else if (p[j] == ',') {
        value = 0;
      } else {
        break;  // not a quantifier: a literal '{'
      }
      if (value > kMaxRepeat) {
        return absl::InvalidArgumentError(
            absl::StrCat("repetition count in '",
                         p.substr(i, std::min<size_t>(j - i + 1, 24)),
                         "' is above ttldb's limit of ", kMaxRepeat));
      }
    }
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<std::shared_ptr<const CompiledRegex>> CompiledRegex::Compile(
    absl::string_view pattern, absl::string_view options) {
  auto flags = std::regex::ECMAScript;
  bool dotall = false, extended = false;
  for (char o : options) {
    switch (o) {
      case 'i':
        flags |= std::regex::icase;
        break;
      case 'm':
        flags |= std::regex::multiline;
        break;
      case 's':
        dotall = true;
        break;
      case 'x':
        extended = true;
        break;
      case 'u':  // UTF-8 is always on in MongoDB; ignored.
        break;
      default:
        return MongoError(
            absl::StatusCode::kInvalidArgument, kBadValue,
            absl::StrCat("invalid flag in regex options: ", std::string(1, o)));
    }
  }
  if (absl::Status limits = CheckRegexLimits(pattern); !limits.ok()) {
    return MongoError(absl::StatusCode::kInvalidArgument, 51091,
                      absl::StrCat("Regular expression is invalid: ",
                                   limits.message(), " in /", pattern, "/"));
  }
  auto re = std::make_shared<CompiledRegex>();
  const std::string text = Rewrite(pattern, dotall, extended);
  // std::regex reports a bad pattern only by throwing; this is the one place
  // ttldb catches an exception, and it never escapes.
  try {
    re->re_.assign(text, flags);
  } catch (const std::regex_error& e) {
    return MongoError(absl::StatusCode::kInvalidArgument, 51091,
                      absl::StrCat("Regular expression is invalid: ", e.what(),
                                   " in /", pattern, "/"));
  }
  return std::shared_ptr<const CompiledRegex>(std::move(re));
}

bool CompiledRegex::Search(absl::string_view text) const {
  return std::regex_search(text.begin(), text.end(), re_);
}

}  // namespace ttldb
