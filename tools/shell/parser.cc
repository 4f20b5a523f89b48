#include "tools/shell/parser.h"

#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdlib>

#include "absl/strings/str_cat.h"
#include "tools/shell/lexer.h"

namespace ttldb {
namespace shell {
namespace {

class Parser {
 public:
  explicit Parser(std::vector<Token> tokens) : tokens_(std::move(tokens)) {}

  absl::StatusOr<std::vector<Statement>> Program() {
    std::vector<Statement> out;
    while (Cur().kind != TokenKind::kEnd) {
      if (Cur().Is(';')) {
        Next();
        continue;
      }
      Statement st;
      absl::Status s = ParseStatement(&st);
      if (!s.ok()) return s;
      out.push_back(std::move(st));
      if (Cur().Is(';')) {
        Next();
      } else if (Cur().kind != TokenKind::kEnd && !Cur().newline_before) {
        return Unexpected(Cur());
      }
    }
    return out;
  }

 private:
  const Token& Cur() const { return tokens_[pos_]; }
  const Token& PeekToken(size_t ahead) const {
    size_t i = pos_ + ahead;
    return i < tokens_.size() ? tokens_[i] : tokens_.back();
  }
  void Next() {
    if (pos_ + 1 < tokens_.size()) ++pos_;
  }
  // True when the token ends the statement it follows.
  static bool EndsStatement(const Token& t) {
    return t.kind == TokenKind::kEnd || t.Is(';') || t.newline_before;
  }

  absl::Status Unexpected(const Token& t) {
    return SyntaxError(absl::StrCat("Unexpected ", DescribeToken(t)), t.line,
                       t.column);
  }
  absl::Status Expect(char punct) {
    if (!Cur().Is(punct)) return Unexpected(Cur());
    Next();
    return absl::OkStatus();
  }

  absl::Status ParseStatement(Statement* st) {
    const Token& first = Cur();
    st->line = first.line;
    st->column = first.column;
    if (first.kind == TokenKind::kIdentifier) {
      const Token& second = PeekToken(1);
      const bool arg_follows =
          !EndsStatement(second) && (second.kind == TokenKind::kIdentifier ||
                                     second.kind == TokenKind::kString ||
                                     second.kind == TokenKind::kNumber);
      if ((first.text == "show" || first.text == "use" ||
           first.text == "help") &&
          arg_follows) {
        st->kind = StatementKind::kCommand;
        st->keyword = first.text;
        Next();
        // The argument is the rest of the line, tokens glued back together
        // ("use my-db").
        while (!EndsStatement(Cur())) {
          st->name += Cur().text;
          Next();
        }
        return absl::OkStatus();
      }
      if ((first.text == "help" || first.text == "exit" ||
           first.text == "quit" || first.text == "it" || first.text == "show" ||
           first.text == "use") &&
          EndsStatement(second)) {
        st->kind = StatementKind::kCommand;
        st->keyword = first.text;
        Next();
        return absl::OkStatus();
      }
      if (first.text == "var" || first.text == "let" || first.text == "const") {
        st->kind = StatementKind::kDeclaration;
        st->keyword = first.text;
        Next();
        if (Cur().kind != TokenKind::kIdentifier) return Unexpected(Cur());
        st->name = Cur().text;
        Next();
        if (Cur().Is('=')) {
          Next();
          return ParseExpr(&st->value);
        }
        if (st->keyword == "const") {
          return SyntaxError("Missing initializer in const declaration",
                             Cur().line, Cur().column);
        }
        return absl::OkStatus();
      }
    }
    std::unique_ptr<Node> expr;
    absl::Status s = ParseExpr(&expr);
    if (!s.ok()) return s;
    if (Cur().Is('=')) {
      if (expr->kind != NodeKind::kIdentifier &&
          expr->kind != NodeKind::kMember && expr->kind != NodeKind::kIndex) {
        return SyntaxError("Invalid left-hand side in assignment", st->line,
                           st->column);
      }
      Next();
      st->kind = StatementKind::kAssignment;
      st->target = std::move(expr);
      return ParseExpr(&st->value);
    }
    st->kind = StatementKind::kExpression;
    st->value = std::move(expr);
    return absl::OkStatus();
  }

  std::unique_ptr<Node> MakeNode(NodeKind kind, const Token& at) {
    auto n = std::make_unique<Node>();
    n->kind = kind;
    n->line = at.line;
    n->column = at.column;
    return n;
  }

  absl::Status ParseExpr(std::unique_ptr<Node>* out) {
    if (++depth_ > kMaxDepth) {
      return SyntaxError("Expression nested too deeply", Cur().line,
                         Cur().column);
    }
    absl::Status s = ParseConditional(out);
    --depth_;
    return s;
  }

  // logical-or ['?' expr ':' expr]: right-associative through ParseExpr.
  absl::Status ParseConditional(std::unique_ptr<Node>* out) {
    absl::Status s = ParseLogicalOr(out);
    if (!s.ok() || !Cur().Is('?')) return s;
    auto n = MakeNode(NodeKind::kConditional, Cur());
    Next();
    n->items.push_back(std::move(*out));
    n->items.emplace_back();
    s = ParseExpr(&n->items.back());
    if (!s.ok()) return s;
    s = Expect(':');
    if (!s.ok()) return s;
    n->items.emplace_back();
    s = ParseExpr(&n->items.back());
    if (!s.ok()) return s;
    *out = std::move(n);
    return absl::OkStatus();
  }

  // An operator of a precedence level: its token and its code in
  // Node::name.
  struct Op {
    absl::string_view token;
    char code;
  };

  // One precedence level of left-associative binary operators: `ops` are
  // its operators, `operand` parses the next tighter level. kBinary chains
  // may mix the level's operators; a kLogical chain has one operator.
  absl::Status ParseChain(
      NodeKind kind, std::initializer_list<Op> ops,
      absl::Status (Parser::*operand)(std::unique_ptr<Node>*),
      std::unique_ptr<Node>* out) {
    std::unique_ptr<Node> first;
    absl::Status s = (this->*operand)(&first);
    if (!s.ok()) return s;
    std::unique_ptr<Node> chain;
    while (true) {
      const Op* op = nullptr;
      for (const Op& o : ops) {
        if (Cur().IsOp(o.token)) op = &o;
      }
      if (op == nullptr) break;
      if (chain == nullptr) {
        chain = MakeNode(kind, Cur());
        chain->items.push_back(std::move(first));
      }
      chain->name.push_back(op->code);
      Next();
      std::unique_ptr<Node> next;
      s = (this->*operand)(&next);
      if (!s.ok()) return s;
      chain->items.push_back(std::move(next));
    }
    *out = chain != nullptr ? std::move(chain) : std::move(first);
    return absl::OkStatus();
  }

  absl::Status ParseLogicalOr(std::unique_ptr<Node>* out) {
    return ParseChain(NodeKind::kLogical, {{"||", '|'}},
                      &Parser::ParseLogicalAnd, out);
  }

  absl::Status ParseLogicalAnd(std::unique_ptr<Node>* out) {
    return ParseChain(NodeKind::kLogical, {{"&&", '&'}}, &Parser::ParseEquality,
                      out);
  }

  absl::Status ParseEquality(std::unique_ptr<Node>* out) {
    return ParseChain(NodeKind::kBinary,
                      {{"==", 'e'}, {"!=", 'n'}, {"===", 'E'}, {"!==", 'N'}},
                      &Parser::ParseRelational, out);
  }

  absl::Status ParseRelational(std::unique_ptr<Node>* out) {
    return ParseChain(NodeKind::kBinary,
                      {{"<", '<'}, {">", '>'}, {"<=", 'l'}, {">=", 'g'}},
                      &Parser::ParseAdditive, out);
  }

  absl::Status ParseAdditive(std::unique_ptr<Node>* out) {
    return ParseChain(NodeKind::kBinary, {{"+", '+'}, {"-", '-'}},
                      &Parser::ParseMultiplicative, out);
  }

  absl::Status ParseMultiplicative(std::unique_ptr<Node>* out) {
    return ParseChain(NodeKind::kBinary, {{"*", '*'}, {"/", '/'}, {"%", '%'}},
                      &Parser::ParseUnary, out);
  }

  absl::Status ParseUnary(std::unique_ptr<Node>* out) {
    if (Cur().Is('!')) {
      Token bang = Cur();
      Next();
      if (++depth_ > kMaxDepth) {
        return SyntaxError("Expression nested too deeply", Cur().line,
                           Cur().column);
      }
      auto n = MakeNode(NodeKind::kNot, bang);
      absl::Status s = ParseUnary(&n->target);
      --depth_;
      if (!s.ok()) return s;
      *out = std::move(n);
      return absl::OkStatus();
    }
    if (Cur().Is('-') || Cur().Is('+')) {
      Token sign = Cur();
      Next();
      if (sign.Is('-') && Cur().kind == TokenKind::kNumber) {
        auto n = MakeNode(NodeKind::kLiteral, sign);
        absl::StatusOr<Value> v = NumberLiteral(Cur().text, true);
        if (!v.ok())
          return SyntaxError("Invalid number", sign.line, sign.column);
        n->literal = *std::move(v);
        Next();
        *out = std::move(n);
        return ParsePostfix(out);
      }
      if (++depth_ > kMaxDepth) {
        return SyntaxError("Expression nested too deeply", Cur().line,
                           Cur().column);
      }
      auto n =
          MakeNode(sign.Is('-') ? NodeKind::kNegate : NodeKind::kPlus, sign);
      absl::Status s = ParseUnary(&n->target);
      --depth_;
      if (!s.ok()) return s;
      *out = std::move(n);
      return absl::OkStatus();
    }
    absl::Status s = ParsePrimary(out);
    if (!s.ok()) return s;
    return ParsePostfix(out);
  }

  absl::Status ParsePostfix(std::unique_ptr<Node>* out) {
    while (true) {
      const Token& t = Cur();
      if (t.Is('.')) {
        Next();
        if (Cur().kind != TokenKind::kIdentifier) return Unexpected(Cur());
        auto n = MakeNode(NodeKind::kMember, Cur());
        n->name = Cur().text;
        n->target = std::move(*out);
        Next();
        *out = std::move(n);
      } else if (t.Is('[')) {
        auto n = MakeNode(NodeKind::kIndex, t);
        Next();
        absl::Status s = ParseExpr(&n->index);
        if (!s.ok()) return s;
        s = Expect(']');
        if (!s.ok()) return s;
        n->target = std::move(*out);
        *out = std::move(n);
      } else if (t.Is('(')) {
        auto n = MakeNode(NodeKind::kCall, t);
        absl::Status s = ParseArgs(&n->items);
        if (!s.ok()) return s;
        n->target = std::move(*out);
        *out = std::move(n);
      } else {
        return absl::OkStatus();
      }
    }
  }

  // '(' [expr {',' expr} [',']] ')'
  absl::Status ParseArgs(std::vector<std::unique_ptr<Node>>* items) {
    absl::Status s = Expect('(');
    if (!s.ok()) return s;
    return ParseList(')', items);
  }

  // Items up to and including `close`, trailing comma allowed.
  absl::Status ParseList(char close,
                         std::vector<std::unique_ptr<Node>>* items) {
    while (!Cur().Is(close)) {
      std::unique_ptr<Node> item;
      absl::Status s = ParseExpr(&item);
      if (!s.ok()) return s;
      items->push_back(std::move(item));
      if (Cur().Is(',')) {
        Next();
      } else if (!Cur().Is(close)) {
        return Unexpected(Cur());
      }
    }
    Next();
    return absl::OkStatus();
  }

  absl::Status ParsePrimary(std::unique_ptr<Node>* out) {
    const Token& t = Cur();
    switch (t.kind) {
      case TokenKind::kNumber: {
        auto n = MakeNode(NodeKind::kLiteral, t);
        absl::StatusOr<Value> v = NumberLiteral(t.text, false);
        if (!v.ok()) return SyntaxError("Invalid number", t.line, t.column);
        n->literal = *std::move(v);
        Next();
        *out = std::move(n);
        return absl::OkStatus();
      }
      case TokenKind::kString: {
        auto n = MakeNode(NodeKind::kLiteral, t);
        n->literal = Value::String(t.text);
        Next();
        *out = std::move(n);
        return absl::OkStatus();
      }
      case TokenKind::kRegex: {
        auto n = MakeNode(NodeKind::kLiteral, t);
        Regex re;
        re.pattern = t.text;
        // BSON keeps the flags MongoDB knows (i, m, s, u) sorted; JS-only
        // flags (g, y, d) mean nothing to a query and are dropped.
        for (char f : std::string("imsu")) {
          if (t.flags.find(f) != std::string::npos) re.options.push_back(f);
        }
        n->literal = Value::Re(std::move(re));
        Next();
        *out = std::move(n);
        return absl::OkStatus();
      }
      case TokenKind::kIdentifier: {
        if (t.text == "new") return ParseNew(out);
        if (t.text == "function" &&
            (PeekToken(1).Is('(') ||
             (PeekToken(1).kind == TokenKind::kIdentifier &&
              PeekToken(2).Is('(')))) {
          return ParseFunction(out);
        }
        if (IsArrowAt(1)) return ParseArrow(out);
        auto n = MakeNode(NodeKind::kIdentifier, t);
        n->name = t.text;
        Next();
        *out = std::move(n);
        return absl::OkStatus();
      }
      case TokenKind::kPunct:
        if (t.Is('{')) return ParseObject(out);
        if (t.Is('[')) {
          auto n = MakeNode(NodeKind::kArray, t);
          Next();
          absl::Status s = ParseList(']', &n->items);
          if (!s.ok()) return s;
          *out = std::move(n);
          return absl::OkStatus();
        }
        if (t.Is('(')) {
          if (ArrowParamsAt(pos_)) return ParseArrow(out);
          Next();
          absl::Status s = ParseExpr(out);
          if (!s.ok()) return s;
          return Expect(')');
        }
        return Unexpected(t);
      case TokenKind::kEnd:
        return Unexpected(t);
    }
    return Unexpected(t);
  }

  // Whether tokens [i, i+1] (relative to the current one) are '=' '>'
  // written together: an arrow.
  bool IsArrowAt(size_t i) {
    const Token& eq = PeekToken(i);
    const Token& gt = PeekToken(i + 1);
    return eq.Is('=') && gt.Is('>') && gt.line == eq.line &&
           gt.column == eq.column + 1;
  }

  // Whether the '(' at absolute position `at` opens an arrow's parameter
  // list: '(' [IDENT {',' IDENT}] ')' '=>'.
  bool ArrowParamsAt(size_t at) {
    size_t i = at - pos_ + 1;
    if (PeekToken(i).Is(')')) return IsArrowAt(i + 1);
    while (true) {
      if (PeekToken(i).kind != TokenKind::kIdentifier) return false;
      ++i;
      if (PeekToken(i).Is(')')) return IsArrowAt(i + 1);
      if (!PeekToken(i).Is(',')) return false;
      ++i;
    }
  }

  // '(' [IDENT {',' IDENT}] ')' into *params.
  absl::Status ParseParams(std::vector<std::string>* params) {
    absl::Status s = Expect('(');
    if (!s.ok()) return s;
    while (!Cur().Is(')')) {
      if (Cur().kind != TokenKind::kIdentifier) return Unexpected(Cur());
      params->push_back(Cur().text);
      Next();
      if (Cur().Is(',')) {
        Next();
      } else if (!Cur().Is(')')) {
        return Unexpected(Cur());
      }
    }
    Next();
    return absl::OkStatus();
  }

  absl::Status ParseArrow(std::unique_ptr<Node>* out) {
    auto n = MakeNode(NodeKind::kFunction, Cur());
    auto body = std::make_shared<FunctionBody>();
    if (Cur().kind == TokenKind::kIdentifier) {
      body->params.push_back(Cur().text);
      Next();
    } else {
      absl::Status s = ParseParams(&body->params);
      if (!s.ok()) return s;
    }
    Next();  // '='
    Next();  // '>'
    absl::Status s =
        Cur().Is('{') ? ParseBlock(body.get()) : ParseExpr(&body->result);
    if (!s.ok()) return s;
    n->function = std::move(body);
    *out = std::move(n);
    return absl::OkStatus();
  }

  absl::Status ParseFunction(std::unique_ptr<Node>* out) {
    auto n = MakeNode(NodeKind::kFunction, Cur());
    Next();  // 'function'
    if (Cur().kind == TokenKind::kIdentifier) {
      n->name = Cur().text;
      Next();
    }
    auto body = std::make_shared<FunctionBody>();
    absl::Status s = ParseParams(&body->params);
    if (!s.ok()) return s;
    if (!Cur().Is('{')) return Unexpected(Cur());
    s = ParseBlock(body.get());
    if (!s.ok()) return s;
    n->function = std::move(body);
    *out = std::move(n);
    return absl::OkStatus();
  }

  absl::Status ParseBlock(FunctionBody* body) {
    Next();  // '{'
    while (!Cur().Is('}')) {
      if (Cur().Is(';')) {
        Next();
        continue;
      }
      if (Cur().kind == TokenKind::kEnd) return Unexpected(Cur());
      if (body->result != nullptr) return Unexpected(Cur());
      if (Cur().IsWord("return")) {
        Token ret = Cur();
        Next();
        if (Cur().Is(';') || Cur().Is('}') || Cur().newline_before) {
          // `return;`: undefined.
          auto undefined = MakeNode(NodeKind::kIdentifier, ret);
          undefined->name = "undefined";
          body->result = std::move(undefined);
          continue;
        }
        absl::Status s = ParseExpr(&body->result);
        if (!s.ok()) return s;
        continue;
      }
      std::unique_ptr<Node> stmt;
      absl::Status s = ParseExpr(&stmt);
      if (!s.ok()) return s;
      body->statements.push_back(std::move(stmt));
    }
    Next();  // '}'
    return absl::OkStatus();
  }

  absl::Status ParseNew(std::unique_ptr<Node>* out) {
    auto n = MakeNode(NodeKind::kNew, Cur());
    Next();
    if (Cur().kind != TokenKind::kIdentifier || Cur().text == "new") {
      return Unexpected(Cur());
    }
    n->name = Cur().text;
    Next();
    while (Cur().Is('.') && PeekToken(1).kind == TokenKind::kIdentifier) {
      Next();
      absl::StrAppend(&n->name, ".", Cur().text);
      Next();
    }
    if (Cur().Is('(')) {
      n->has_args = true;
      absl::Status s = ParseArgs(&n->items);
      if (!s.ok()) return s;
    }
    *out = std::move(n);
    return absl::OkStatus();
  }

  absl::Status ParseObject(std::unique_ptr<Node>* out) {
    auto n = MakeNode(NodeKind::kObject, Cur());
    Next();
    while (!Cur().Is('}')) {
      const Token& key = Cur();
      std::string name;
      if (key.kind == TokenKind::kIdentifier ||
          key.kind == TokenKind::kString) {
        name = key.text;
      } else if (key.kind == TokenKind::kNumber) {
        absl::StatusOr<Value> v = NumberLiteral(key.text, false);
        if (!v.ok()) return SyntaxError("Invalid number", key.line, key.column);
        name = v->type() == ValueType::kDouble ? key.text
                                               : absl::StrCat(v->int64_value());
      } else {
        return Unexpected(key);
      }
      Token key_token = key;
      Next();
      std::unique_ptr<Node> value;
      if (key_token.kind == TokenKind::kIdentifier &&
          (Cur().Is(',') || Cur().Is('}'))) {
        // Shorthand {x} means {x: x}.
        value = MakeNode(NodeKind::kIdentifier, key_token);
        value->name = name;
      } else {
        absl::Status s = Expect(':');
        if (!s.ok()) return s;
        s = ParseExpr(&value);
        if (!s.ok()) return s;
      }
      n->fields.emplace_back(std::move(name), std::move(value));
      if (Cur().Is(',')) {
        Next();
      } else if (!Cur().Is('}')) {
        return Unexpected(Cur());
      }
    }
    Next();
    *out = std::move(n);
    return absl::OkStatus();
  }

  // 200: deeper than any document MongoDB stores (100) plus call chains.
  static constexpr int kMaxDepth = 200;

  std::vector<Token> tokens_;
  size_t pos_ = 0;
  int depth_ = 0;
};

}  // namespace

absl::StatusOr<Value> NumberLiteral(absl::string_view lexeme, bool negative) {
  if (lexeme.empty()) return absl::InvalidArgumentError("empty number");
  const std::string text(lexeme);
  double magnitude = 0;
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
    for (size_t i = 2; i < text.size(); ++i) {
      char c = text[i];
      int d = c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10;
      magnitude = magnitude * 16 + d;
    }
  } else {
    errno = 0;
    char* end = nullptr;
    magnitude = std::strtod(text.c_str(), &end);
    if (end != text.c_str() + text.size()) {
      return absl::InvalidArgumentError(absl::StrCat("bad number ", text));
    }
  }
  const double value = negative ? -magnitude : magnitude;
  // As js-bson's serializeNumber sends a JavaScript number: Int32 when it is
  // a safe integer in int32 range and not -0, else Double. The lexeme's form
  // does not matter: 5.0 and 1e3 are Int32, 3000000000 is a Double.
  if (std::trunc(value) == value && value >= INT32_MIN && value <= INT32_MAX &&
      !(value == 0 && std::signbit(value))) {
    return Value::Int32(static_cast<int32_t>(value));
  }
  return Value::Double(value);
}

absl::StatusOr<std::vector<Statement>> ParseProgram(absl::string_view source) {
  std::vector<Token> tokens;
  LexEnd end;
  absl::Status s = Tokenize(source, &tokens, &end);
  if (!s.ok()) return s;
  if (end == LexEnd::kInComment) {
    return SyntaxError("Unterminated comment", tokens.back().line,
                       tokens.back().column);
  }
  if (end == LexEnd::kInStringContinued) {
    return SyntaxError("Unterminated string constant", tokens.back().line,
                       tokens.back().column);
  }
  return Parser(std::move(tokens)).Program();
}

bool StatementIsComplete(absl::string_view buffer) {
  std::vector<Token> tokens;
  LexEnd end;
  if (!Tokenize(buffer, &tokens, &end).ok()) return true;  // report it now
  if (end != LexEnd::kComplete) return false;
  int depth = 0;
  for (const Token& t : tokens) {
    if (t.Is('{') || t.Is('[') || t.Is('(')) ++depth;
    if (t.Is('}') || t.Is(']') || t.Is(')')) {
      if (--depth < 0) return true;  // a stray closer: report the error now
    }
  }
  if (depth > 0) return false;
  if (tokens.size() < 2) return true;
  const Token& last = tokens[tokens.size() - 2];
  for (absl::string_view op :
       {".",  ",",  ":",  "=",  "-",   "+",   "*",  "/",  "%", "<", ">",
        "<=", ">=", "==", "!=", "===", "!==", "&&", "||", "!", "?"}) {
    if (last.IsOp(op)) return false;
  }
  if (last.IsWord("new") || last.IsWord("var") || last.IsWord("let") ||
      last.IsWord("const")) {
    return false;
  }
  return true;
}

}  // namespace shell
}  // namespace ttldb
