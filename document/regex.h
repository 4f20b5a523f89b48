// MongoDB ($regex, /re/) regular expressions, evaluated with PCRE2 as
// MongoDB does (src/mongo/util/pcre.cpp, pcre_util.cpp, 8.0).
//
// Every pattern is compiled in UTF mode (PCRE2_UTF: '.' is one code point,
// case-insensitive matching uses Unicode case folding), without UCP (so \w,
// \d, \b and [[:alpha:]] stay ASCII, as in MongoDB) and without
// DOLLAR_ENDONLY ('$' also matches before a final newline). The full PCRE2
// syntax is available: (?i) and other inline options, look-behind, named
// groups, \A \z \Z, possessive quantifiers, back-references. Options:
//   i  PCRE2_CASELESS
//   m  PCRE2_MULTILINE: ^ and $ match at line breaks
//   s  PCRE2_DOTALL: '.' also matches newlines
//   x  PCRE2_EXTENDED: unescaped whitespace and '#' comments are ignored
//   u  accepted and ignored (UTF is always on)
// Matching is a search: the pattern may match anywhere in the string.
//
// Like MongoDB, a subject string that is not valid UTF-8 never matches, and
// a match that exceeds PCRE2's match limit (10,000,000 backtracking steps,
// the library default MongoDB 8.0 runs with) or its heap limit counts as no
// match rather than an error; MongoDB's RegexMatchExpression does the same
// (`return !!_re->matchView(...)`). A pathological pattern therefore costs a
// bounded amount of work per document and never hangs a query.
#ifndef TTLDB_DOCUMENT_REGEX_H_
#define TTLDB_DOCUMENT_REGEX_H_

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace ttldb {

class CompiledRegex {
 public:
  // Fails with code 51108 " invalid flag in regex options: <c>" on an option
  // letter other than i m s x u, BadValue (2) "Regular expression cannot
  // contain an embedded null byte", or code 51091 "Regular expression is
  // invalid: <PCRE2's message>" when PCRE2 rejects the pattern (including
  // invalid UTF-8 and patterns longer than MongoDB's 32764 bytes).
  static absl::StatusOr<std::shared_ptr<const CompiledRegex>> Compile(
      absl::string_view pattern, absl::string_view options);

  // True if the pattern matches somewhere in `text`. Thread-safe: the match
  // data is per thread.
  bool Search(absl::string_view text) const;

  // One match as $regexFind reports it: byte offsets into the subject of
  // the whole match and of each capture group (std::nullopt for a group
  // that did not participate).
  struct Match {
    size_t begin = 0;
    size_t end = 0;
    std::vector<std::optional<std::pair<size_t, size_t>>> groups;
  };
  // The first match in `text` starting at byte `start` (a code point
  // boundary), or std::nullopt when there is none (or on a PCRE2 error,
  // which counts as no match). `not_empty_at_start`: refuse an empty match
  // at `start` (how $regexFindAll steps past an empty match). Thread-safe.
  std::optional<Match> Find(absl::string_view text, size_t start,
                            bool not_empty_at_start = false) const;
  // The number of capture groups in the pattern.
  int CaptureCount() const;

  ~CompiledRegex();
  CompiledRegex(const CompiledRegex&) = delete;
  CompiledRegex& operator=(const CompiledRegex&) = delete;

 private:
  struct Code;  // pcre2_code and pcre2_match_context, hidden from includers
  explicit CompiledRegex(std::unique_ptr<Code> code);
  std::unique_ptr<Code> code_;
};

}  // namespace ttldb

#endif  // TTLDB_DOCUMENT_REGEX_H_
