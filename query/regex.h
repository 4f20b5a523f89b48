// MongoDB ($regex, /re/) regular expressions evaluated with std::regex.
//
// MongoDB uses PCRE; ttldb uses std::regex's ECMAScript grammar, which covers
// the common subset (classes, anchors, groups, alternation, quantifiers,
// lookahead). Not supported: lookbehind, named groups, \A \z \Z, possessive
// quantifiers, inline flags such as (?i). Options:
//   i  case-insensitive
//   m  ^ and $ match at line breaks
//   s  '.' also matches newlines (emulated: '.' outside a character class is
//      rewritten to [\s\S])
//   x  extended: unescaped whitespace outside a class, and '#' comments to the
//      end of the line, are removed from the pattern before compiling
// Matching is a search: the pattern may match anywhere in the string.
#ifndef TTLDB_QUERY_REGEX_H_
#define TTLDB_QUERY_REGEX_H_

#include <memory>
#include <regex>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace ttldb {

class CompiledRegex {
 public:
  // Fails with BadValue (code 2) on an unknown option letter, or code 51091
  // when the pattern is invalid for std::regex.
  static absl::StatusOr<std::shared_ptr<const CompiledRegex>> Compile(
      absl::string_view pattern, absl::string_view options);

  bool Search(absl::string_view text) const;

 private:
  std::regex re_;
};

}  // namespace ttldb

#endif  // TTLDB_QUERY_REGEX_H_
