// Tokenizer for the mongo shell's object-literal JavaScript subset.
//
// The shell is not a JavaScript interpreter: it reads what people type into
// mongosh (identifiers, member access, calls, object/array literals, strings,
// numbers, regex literals, `new`, `var/let/const`, assignment, arithmetic,
// comparison and logical operators, the conditional `?:`).
// A `/` that does not start a comment is division after a value (a number,
// string, regex, identifier, `)` or `]`: `10 / 4`) and starts a regex
// literal anywhere else (`find({a: /x/})`), as JavaScript tokenizers decide.
#ifndef TTLDB_TOOLS_SHELL_LEXER_H_
#define TTLDB_TOOLS_SHELL_LEXER_H_

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"

namespace ttldb {
namespace shell {

enum class TokenKind {
  kEnd,         // end of input
  kIdentifier,  // [A-Za-z_$][A-Za-z0-9_$]* (keywords too: var, new, true...)
  kNumber,      // text holds the lexeme without sign: "12", "0x1F", "1.5e3"
  kString,      // text holds the decoded value
  kRegex,       // text holds the pattern, flags the flags as written
  kPunct,       // text holds one character: { } [ ] ( ) , : ; . = + - * / %
                // < > ! ? or any other character, which the parser rejects;
                // or one of the operators === !== == != <= >= && ||
};

struct Token {
  TokenKind kind = TokenKind::kEnd;
  std::string text;
  std::string flags;  // kRegex only
  int line = 1;       // 1-based position of the first character
  int column = 1;
  // True when a line break (or a comment holding one) separates this token
  // from the previous one: statements end at such breaks.
  bool newline_before = false;

  bool Is(char punct) const {
    return kind == TokenKind::kPunct && text.size() == 1 && text[0] == punct;
  }
  // An operator or punctuation of any length: IsOp("<=").
  bool IsOp(absl::string_view op) const {
    return kind == TokenKind::kPunct && text == op;
  }
  bool IsWord(absl::string_view word) const {
    return kind == TokenKind::kIdentifier && text == word;
  }
};

// How tokenizing a buffer ended.
enum class LexEnd {
  kComplete,           // every token closed
  kInComment,          // inside an unterminated /* comment
  kInStringContinued,  // inside a string whose line ends with a backslash,
                       // or inside a `template literal`
};

// Tokenizes `source`. The token list always ends with a kEnd token. Errors
// are InvalidArgument "SyntaxError: <what> (line L, column C)": an
// unterminated string or regex, a bad escape, a malformed number. When the
// input ends inside a /* comment or a backslash-continued string, the result
// is OK, `*end` says so, and the tokens up to there are returned.
absl::Status Tokenize(absl::string_view source, std::vector<Token>* tokens,
                      LexEnd* end = nullptr);

// "SyntaxError: <message> (line L, column C)" as an InvalidArgument status.
absl::Status SyntaxError(absl::string_view message, int line, int column);

// How a token reads after "Unexpected " in an error message, as V8 says it:
// "token '}'", "identifier 'foo'", "string", "number", "end of input".
std::string DescribeToken(const Token& token);

}  // namespace shell
}  // namespace ttldb

#endif  // TTLDB_TOOLS_SHELL_LEXER_H_
