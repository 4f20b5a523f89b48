#include "document/json_syntax.h"

#include <vector>

namespace ttldb {
namespace {

class Checker {
 public:
  explicit Checker(absl::string_view s) : s_(s) {}

  bool Run(JsonSyntaxError* error) {
    enum State { kValue, kFirstKey, kKey, kFirstItem, kCommaOrEnd };
    State state = kValue;
    std::vector<char> stack;  // '{' or '['
    while (true) {
      SkipSpace();
      switch (state) {
        case kFirstKey:
          if (Peek() == '}') {
            ++pos_;
            stack.pop_back();
            break;
          }
          [[fallthrough]];
        case kKey:
          if (Peek() != '"') return Fail("expected a string key", error);
          if (!String(error)) return false;
          SkipSpace();
          if (Peek() != ':') return Fail("expected ':'", error);
          ++pos_;
          state = kValue;
          continue;
        case kFirstItem:
          if (Peek() == ']') {
            ++pos_;
            stack.pop_back();
            break;
          }
          [[fallthrough]];
        case kValue: {
          char c = Peek();
          if (c == '{' || c == '[') {
            stack.push_back(c);
            ++pos_;
            state = c == '{' ? kFirstKey : kFirstItem;
            continue;
          }
          if (c == '"') {
            if (!String(error)) return false;
          } else if (c == '-' || (c >= '0' && c <= '9')) {
            if (!Number(error)) return false;
          } else if (!Literal("true") && !Literal("false") &&
                     !Literal("null")) {
            return Fail("expected a value", error);
          }
          break;
        }
        case kCommaOrEnd: {
          char close = stack.back() == '{' ? '}' : ']';
          if (Peek() == ',') {
            ++pos_;
            state = stack.back() == '{' ? kKey : kValue;
            continue;
          }
          if (Peek() != close) {
            return Fail(
                close == '}' ? "expected ',' or '}'" : "expected ',' or ']'",
                error);
          }
          ++pos_;
          stack.pop_back();
          break;
        }
      }
      // A value (or a whole container) just ended.
      if (stack.empty()) {
        SkipSpace();
        if (pos_ != s_.size()) {
          return Fail("unexpected content after the JSON value", error);
        }
        return true;
      }
      state = kCommaOrEnd;
    }
  }

 private:
  char Peek() const { return pos_ < s_.size() ? s_[pos_] : '\0'; }

  void SkipSpace() {
    while (pos_ < s_.size() && (s_[pos_] == ' ' || s_[pos_] == '\t' ||
                                s_[pos_] == '\n' || s_[pos_] == '\r')) {
      ++pos_;
    }
  }

  bool Fail(const char* what, JsonSyntaxError* error) const {
    error->offset = pos_;
    error->expected = pos_ >= s_.size()
                          ? std::string(what) + ", found the end of the input"
                          : what;
    return false;
  }

  bool Literal(absl::string_view word) {
    if (s_.substr(pos_, word.size()) != word) return false;
    pos_ += word.size();
    return true;
  }

  static bool IsDigit(char c) { return c >= '0' && c <= '9'; }
  static bool IsHex(char c) {
    return IsDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
  }

  bool String(JsonSyntaxError* error) {
    size_t start = pos_++;
    while (true) {
      if (pos_ >= s_.size()) {
        pos_ = start;
        return Fail("unterminated string", error);
      }
      char c = s_[pos_];
      if (c == '"') {
        ++pos_;
        return true;
      }
      if (static_cast<unsigned char>(c) < 0x20) {
        return Fail("control character in a string (escape it)", error);
      }
      if (c == '\\') {
        char e = Peek1();
        if (e == 'u') {
          for (int i = 2; i < 6; ++i) {
            if (pos_ + i >= s_.size() || !IsHex(s_[pos_ + i])) {
              return Fail("invalid \\u escape", error);
            }
          }
          pos_ += 6;
          continue;
        }
        if (absl::string_view("\"\\/bfnrt").find(e) ==
                absl::string_view::npos ||
            e == '\0') {
          return Fail("invalid escape sequence", error);
        }
        pos_ += 2;
        continue;
      }
      ++pos_;
    }
  }

  char Peek1() const { return pos_ + 1 < s_.size() ? s_[pos_ + 1] : '\0'; }

  bool Number(JsonSyntaxError* error) {
    if (Peek() == '-') ++pos_;
    if (Peek() == '0') {
      ++pos_;
    } else if (IsDigit(Peek())) {
      while (IsDigit(Peek())) ++pos_;
    } else {
      return Fail("invalid number", error);
    }
    if (Peek() == '.') {
      ++pos_;
      if (!IsDigit(Peek())) return Fail("invalid number", error);
      while (IsDigit(Peek())) ++pos_;
    }
    if (Peek() == 'e' || Peek() == 'E') {
      ++pos_;
      if (Peek() == '+' || Peek() == '-') ++pos_;
      if (!IsDigit(Peek())) return Fail("invalid number", error);
      while (IsDigit(Peek())) ++pos_;
    }
    return true;
  }

  absl::string_view s_;
  size_t pos_ = 0;
};

}  // namespace

bool CheckJsonSyntax(absl::string_view json, JsonSyntaxError* error) {
  return Checker(json).Run(error);
}

}  // namespace ttldb
