#include "tools/shell/lexer.h"

#include <cstdint>

#include "absl/strings/str_cat.h"

namespace ttldb {
namespace shell {
namespace {

bool IsIdentStart(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
         c == '$';
}
bool IsIdentPart(char c) { return IsIdentStart(c) || (c >= '0' && c <= '9'); }
bool IsDigit(char c) { return c >= '0' && c <= '9'; }
bool IsHexDigit(char c) {
  return IsDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}
int HexValue(char c) {
  if (IsDigit(c)) return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return c - 'A' + 10;
}

void AppendUtf8(uint32_t cp, std::string* out) {
  if (cp < 0x80) {
    out->push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out->push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out->push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out->push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

// Whether a '/' after these tokens starts a regex literal rather than
// being the division operator. JavaScript decides by grammar; the rule
// every tokenizer that does not parse uses (and that agrees with it for the
// shell's language) looks at the previous token: after a value (a number,
// string, regex, identifier other than an operator keyword, or ')' or ']')
// a '/' divides; at the start, after an operator or an opening bracket it
// starts a regex. After '}' it starts one too, as after a block statement.
bool RegexAllowedAfter(const std::vector<Token>& tokens) {
  if (tokens.empty()) return true;
  const Token& prev = tokens.back();
  switch (prev.kind) {
    case TokenKind::kNumber:
    case TokenKind::kString:
    case TokenKind::kRegex:
      return false;
    case TokenKind::kIdentifier:
      return prev.text == "return" || prev.text == "typeof" ||
             prev.text == "instanceof" || prev.text == "in" ||
             prev.text == "of" || prev.text == "new" || prev.text == "delete" ||
             prev.text == "void" || prev.text == "throw" ||
             prev.text == "case" || prev.text == "do" || prev.text == "else" ||
             prev.text == "yield" || prev.text == "await";
    case TokenKind::kPunct:
      return !(prev.Is(')') || prev.Is(']'));
    case TokenKind::kEnd:
      return true;
  }
  return true;
}

class Lexer {
 public:
  explicit Lexer(absl::string_view src) : src_(src) {}

  absl::Status Run(std::vector<Token>* tokens, LexEnd* end) {
    *end = LexEnd::kComplete;
    bool newline = false;
    while (true) {
      // Skip blanks and comments, noting line breaks.
      while (pos_ < src_.size()) {
        char c = src_[pos_];
        if (c == '\n') {
          newline = true;
          Advance();
        } else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' ||
                   c == '\v') {
          Advance();
        } else if (c == '/' && Peek(1) == '/') {
          while (pos_ < src_.size() && src_[pos_] != '\n') Advance();
        } else if (c == '/' && Peek(1) == '*') {
          Advance();
          Advance();
          bool closed = false;
          while (pos_ < src_.size()) {
            if (src_[pos_] == '*' && Peek(1) == '/') {
              Advance();
              Advance();
              closed = true;
              break;
            }
            if (src_[pos_] == '\n') newline = true;
            Advance();
          }
          if (!closed) {
            *end = LexEnd::kInComment;
            tokens->push_back(MakeToken(TokenKind::kEnd, newline));
            return absl::OkStatus();
          }
        } else {
          break;
        }
      }
      Token token = MakeToken(TokenKind::kEnd, newline);
      newline = false;
      if (pos_ >= src_.size()) {
        tokens->push_back(std::move(token));
        return absl::OkStatus();
      }
      char c = src_[pos_];
      if (IsIdentStart(c)) {
        token.kind = TokenKind::kIdentifier;
        while (pos_ < src_.size() && IsIdentPart(src_[pos_])) {
          token.text.push_back(src_[pos_]);
          Advance();
        }
      } else if (IsDigit(c) || (c == '.' && IsDigit(Peek(1)))) {
        token.kind = TokenKind::kNumber;
        absl::Status s = LexNumber(&token);
        if (!s.ok()) return s;
      } else if (c == '"' || c == '\'' || c == '`') {
        token.kind = TokenKind::kString;
        bool continued = false;
        absl::Status s = LexString(&token, &continued);
        if (!s.ok()) return s;
        if (continued) {
          *end = LexEnd::kInStringContinued;
          tokens->push_back(MakeToken(TokenKind::kEnd, false));
          return absl::OkStatus();
        }
      } else if (c == '/' && RegexAllowedAfter(*tokens)) {
        token.kind = TokenKind::kRegex;
        absl::Status s = LexRegex(&token);
        if (!s.ok()) return s;
      } else {
        token.kind = TokenKind::kPunct;
        // The operators of two or three characters, longest first ('=>'
        // stays '=' '>': the parser reads an arrow from the two).
        for (absl::string_view op :
             {"===", "!==", "==", "!=", "<=", ">=", "&&", "||"}) {
          if (src_.substr(pos_, op.size()) == op) {
            token.text = std::string(op);
            for (size_t i = 0; i < op.size(); ++i) Advance();
            break;
          }
        }
        if (!token.text.empty()) {
          tokens->push_back(std::move(token));
          continue;
        }
        // Keep a whole UTF-8 sequence together so errors quote it whole.
        token.text.push_back(c);
        Advance();
        if (static_cast<unsigned char>(c) >= 0xC0) {
          while (pos_ < src_.size() &&
                 (static_cast<unsigned char>(src_[pos_]) & 0xC0) == 0x80) {
            token.text.push_back(src_[pos_]);
            Advance();
          }
        }
      }
      tokens->push_back(std::move(token));
    }
  }

 private:
  char Peek(size_t ahead) const {
    return pos_ + ahead < src_.size() ? src_[pos_ + ahead] : '\0';
  }
  void Advance() {
    if (src_[pos_] == '\n') {
      ++line_;
      column_ = 1;
    } else {
      ++column_;
    }
    ++pos_;
  }
  Token MakeToken(TokenKind kind, bool newline) const {
    Token t;
    t.kind = kind;
    t.line = line_;
    t.column = column_;
    t.newline_before = newline;
    return t;
  }

  absl::Status LexNumber(Token* token) {
    if (src_[pos_] == '0' && (Peek(1) == 'x' || Peek(1) == 'X')) {
      token->text = "0x";
      Advance();
      Advance();
      while (pos_ < src_.size() && IsHexDigit(src_[pos_])) {
        token->text.push_back(src_[pos_]);
        Advance();
      }
      if (token->text.size() == 2) {
        return SyntaxError("Invalid or unexpected token", token->line,
                           token->column);
      }
    } else {
      while (pos_ < src_.size() && IsDigit(src_[pos_])) {
        token->text.push_back(src_[pos_]);
        Advance();
      }
      if (pos_ < src_.size() && src_[pos_] == '.') {
        token->text.push_back('.');
        Advance();
        while (pos_ < src_.size() && IsDigit(src_[pos_])) {
          token->text.push_back(src_[pos_]);
          Advance();
        }
      }
      if (pos_ < src_.size() && (src_[pos_] == 'e' || src_[pos_] == 'E')) {
        size_t digits_at = 1;
        if (Peek(1) == '+' || Peek(1) == '-') digits_at = 2;
        if (!IsDigit(Peek(digits_at))) {
          return SyntaxError("Invalid or unexpected token", line_, column_);
        }
        for (size_t i = 0; i < digits_at; ++i) {
          token->text.push_back(src_[pos_]);
          Advance();
        }
        while (pos_ < src_.size() && IsDigit(src_[pos_])) {
          token->text.push_back(src_[pos_]);
          Advance();
        }
      }
    }
    // JavaScript forbids an identifier right after a number ("3in").
    if (pos_ < src_.size() && IsIdentPart(src_[pos_])) {
      return SyntaxError("Invalid or unexpected token", line_, column_);
    }
    return absl::OkStatus();
  }

  absl::Status LexString(Token* token, bool* continued) {
    const char quote = src_[pos_];
    // A template literal (`...`) may span lines; ${} is not supported.
    const bool is_template = quote == '`';
    Advance();
    while (true) {
      if (is_template && pos_ >= src_.size()) {
        *continued = true;  // the REPL waits for the closing backtick
        return absl::OkStatus();
      }
      if (pos_ >= src_.size() || (src_[pos_] == '\n' && !is_template)) {
        return SyntaxError("Unterminated string constant", token->line,
                           token->column);
      }
      char c = src_[pos_];
      if (c == quote) {
        Advance();
        return absl::OkStatus();
      }
      if (is_template && c == '$' && Peek(1) == '{') {
        return SyntaxError("Template substitutions ${...} are not supported",
                           line_, column_);
      }
      if (c != '\\') {
        token->text.push_back(c);
        Advance();
        continue;
      }
      const int esc_line = line_, esc_column = column_;
      Advance();
      if (pos_ >= src_.size()) {
        *continued = true;  // backslash at the end: the string goes on
        return absl::OkStatus();
      }
      char e = src_[pos_];
      Advance();
      switch (e) {
        case 'n':
          token->text.push_back('\n');
          break;
        case 't':
          token->text.push_back('\t');
          break;
        case 'r':
          token->text.push_back('\r');
          break;
        case 'b':
          token->text.push_back('\b');
          break;
        case 'f':
          token->text.push_back('\f');
          break;
        case 'v':
          token->text.push_back('\v');
          break;
        case '0':
          if (IsDigit(Peek(0))) {
            return SyntaxError("Octal escape sequences are not allowed",
                               esc_line, esc_column);
          }
          token->text.push_back('\0');
          break;
        case '\n':
          break;  // line continuation
        case '\r':
          if (Peek(0) == '\n') Advance();
          break;
        case 'x': {
          if (!IsHexDigit(Peek(0)) || !IsHexDigit(Peek(1))) {
            return SyntaxError("Invalid hexadecimal escape sequence", esc_line,
                               esc_column);
          }
          uint32_t cp = HexValue(Peek(0)) * 16 + HexValue(Peek(1));
          Advance();
          Advance();
          AppendUtf8(cp, &token->text);
          break;
        }
        case 'u': {
          uint32_t cp = 0;
          absl::Status s = ReadUnicodeEscape(esc_line, esc_column, &cp);
          if (!s.ok()) return s;
          // Join a UTF-16 surrogate pair written as two escapes.
          if (cp >= 0xD800 && cp <= 0xDBFF && Peek(0) == '\\' &&
              Peek(1) == 'u') {
            size_t save_pos = pos_;
            int save_line = line_, save_col = column_;
            Advance();
            Advance();
            uint32_t low = 0;
            s = ReadUnicodeEscape(esc_line, esc_column, &low);
            if (!s.ok()) return s;
            if (low >= 0xDC00 && low <= 0xDFFF) {
              cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
            } else {
              pos_ = save_pos;
              line_ = save_line;
              column_ = save_col;
            }
          }
          // A lone surrogate cannot be encoded as UTF-8: use U+FFFD.
          if (cp >= 0xD800 && cp <= 0xDFFF) cp = 0xFFFD;
          AppendUtf8(cp, &token->text);
          break;
        }
        default:
          // \' \" \\ and any other character stand for themselves.
          token->text.push_back(e);
          break;
      }
    }
  }

  // Reads the part after "\u": XXXX or {X...}.
  absl::Status ReadUnicodeEscape(int line, int column, uint32_t* cp) {
    *cp = 0;
    if (Peek(0) == '{') {
      Advance();
      int n = 0;
      while (IsHexDigit(Peek(0))) {
        *cp = *cp * 16 + HexValue(Peek(0));
        Advance();
        if (++n > 6 || *cp > 0x10FFFF) break;
      }
      if (n == 0 || Peek(0) != '}' || *cp > 0x10FFFF) {
        return SyntaxError("Invalid Unicode escape sequence", line, column);
      }
      Advance();
      return absl::OkStatus();
    }
    for (int i = 0; i < 4; ++i) {
      if (!IsHexDigit(Peek(0))) {
        return SyntaxError("Invalid Unicode escape sequence", line, column);
      }
      *cp = *cp * 16 + HexValue(Peek(0));
      Advance();
    }
    return absl::OkStatus();
  }

  absl::Status LexRegex(Token* token) {
    Advance();  // the opening slash
    bool in_class = false;
    while (true) {
      if (pos_ >= src_.size() || src_[pos_] == '\n') {
        return SyntaxError("Invalid regular expression: missing /", token->line,
                           token->column);
      }
      char c = src_[pos_];
      if (c == '/' && !in_class) {
        Advance();
        break;
      }
      if (c == '[') in_class = true;
      if (c == ']') in_class = false;
      token->text.push_back(c);
      Advance();
      if (c == '\\') {
        if (pos_ >= src_.size() || src_[pos_] == '\n') continue;
        token->text.push_back(src_[pos_]);
        Advance();
      }
    }
    while (pos_ < src_.size() && IsIdentPart(src_[pos_])) {
      char f = src_[pos_];
      if (absl::string_view("dgimsuy").find(f) == absl::string_view::npos ||
          token->flags.find(f) != std::string::npos) {
        return SyntaxError(absl::StrCat("Invalid regular expression flags '",
                                        token->flags, std::string(1, f), "'"),
                           token->line, token->column);
      }
      token->flags.push_back(f);
      Advance();
    }
    return absl::OkStatus();
  }

  absl::string_view src_;
  size_t pos_ = 0;
  int line_ = 1;
  int column_ = 1;
};

}  // namespace

absl::Status SyntaxError(absl::string_view message, int line, int column) {
  return absl::InvalidArgumentError(absl::StrCat(
      "SyntaxError: ", message, " (line ", line, ", column ", column, ")"));
}

std::string DescribeToken(const Token& token) {
  switch (token.kind) {
    case TokenKind::kEnd:
      return "end of input";
    case TokenKind::kString:
      return "string";
    case TokenKind::kNumber:
      return "number";
    case TokenKind::kRegex:
      return "regular expression";
    case TokenKind::kIdentifier:
      return absl::StrCat("identifier '", token.text, "'");
    default:
      return absl::StrCat("token '", token.text, "'");
  }
}

absl::Status Tokenize(absl::string_view source, std::vector<Token>* tokens,
                      LexEnd* end) {
  LexEnd ignored;
  return Lexer(source).Run(tokens, end != nullptr ? end : &ignored);
}

}  // namespace shell
}  // namespace ttldb
