#include "tools/shell/parser.h"

#include <cmath>
#include <cstdint>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "gtest/gtest.h"
#include "tools/shell/lexer.h"

namespace ttldb {
namespace shell {
namespace {

// A compact rendering of the AST: 1 int32, 1L int64, 1.5d double, 's'
// string, /p/f regex, {k:v}, [a,b], a.b, a[b], f(x), new D(x), -(x).
std::string Dump(const Node& n) {
  switch (n.kind) {
    case NodeKind::kLiteral:
      switch (n.literal.type()) {
        case ValueType::kInt32:
          return absl::StrCat(n.literal.int32_value());
        case ValueType::kInt64:
          return absl::StrCat(n.literal.int64_value(), "L");
        case ValueType::kDouble:
          return absl::StrCat(n.literal.double_value(), "d");
        case ValueType::kString:
          return absl::StrCat("'", n.literal.string_value(), "'");
        case ValueType::kRegex:
          return absl::StrCat("/", n.literal.regex_value().pattern, "/",
                              n.literal.regex_value().options);
        default:
          return "?";
      }
    case NodeKind::kIdentifier:
      return n.name;
    case NodeKind::kObject: {
      std::vector<std::string> parts;
      for (const auto& f : n.fields) {
        parts.push_back(absl::StrCat(f.first, ":", Dump(*f.second)));
      }
      return absl::StrCat("{", absl::StrJoin(parts, ","), "}");
    }
    case NodeKind::kArray:
    case NodeKind::kCall:
    case NodeKind::kNew: {
      std::vector<std::string> parts;
      for (const auto& item : n.items) parts.push_back(Dump(*item));
      std::string list = absl::StrJoin(parts, ",");
      if (n.kind == NodeKind::kArray) return absl::StrCat("[", list, "]");
      if (n.kind == NodeKind::kCall) {
        return absl::StrCat(Dump(*n.target), "(", list, ")");
      }
      return absl::StrCat("new ", n.name, n.has_args ? "(" : "", list,
                          n.has_args ? ")" : "");
    }
    case NodeKind::kMember:
      return absl::StrCat(Dump(*n.target), ".", n.name);
    case NodeKind::kIndex:
      return absl::StrCat(Dump(*n.target), "[", Dump(*n.index), "]");
    case NodeKind::kNegate:
      return absl::StrCat("-(", Dump(*n.target), ")");
    case NodeKind::kPlus:
      return absl::StrCat("+(", Dump(*n.target), ")");
    case NodeKind::kBinary: {
      std::string out = absl::StrCat("(", Dump(*n.items[0]));
      for (size_t i = 1; i < n.items.size(); ++i) {
        absl::StrAppend(&out, " ", std::string(1, n.name[i - 1]), " ",
                        Dump(*n.items[i]));
      }
      return absl::StrCat(out, ")");
    }
    case NodeKind::kNot:
      return absl::StrCat("!(", Dump(*n.target), ")");
    case NodeKind::kLogical: {
      std::vector<std::string> parts;
      for (const auto& item : n.items) parts.push_back(Dump(*item));
      return absl::StrCat(
          "(", absl::StrJoin(parts, n.name[0] == '&' ? " && " : " || "), ")");
    }
    case NodeKind::kConditional:
      return absl::StrCat("(", Dump(*n.items[0]), " ? ", Dump(*n.items[1]),
                          " : ", Dump(*n.items[2]), ")");
    case NodeKind::kFunction: {
      std::vector<std::string> body;
      for (const auto& st : n.function->statements) body.push_back(Dump(*st));
      if (n.function->result != nullptr) {
        body.push_back(absl::StrCat("return ", Dump(*n.function->result)));
      }
      return absl::StrCat("fn ", n.name, "(",
                          absl::StrJoin(n.function->params, ","), "){",
                          absl::StrJoin(body, ";"), "}");
    }
  }
  return "?";
}

std::string DumpStatement(const Statement& s) {
  switch (s.kind) {
    case StatementKind::kExpression:
      return Dump(*s.value);
    case StatementKind::kDeclaration:
      return absl::StrCat(s.keyword, " ", s.name,
                          s.value ? absl::StrCat(" = ", Dump(*s.value)) : "");
    case StatementKind::kAssignment:
      return absl::StrCat(Dump(*s.target), " = ", Dump(*s.value));
    case StatementKind::kCommand:
      return absl::StrCat("<", s.keyword, s.name.empty() ? "" : " ", s.name,
                          ">");
  }
  return "?";
}

// All statements of `src`, joined by " ; ", or the error message.
std::string Parse(const std::string& src) {
  absl::StatusOr<std::vector<Statement>> r = ParseProgram(src);
  if (!r.ok()) return std::string(r.status().message());
  std::vector<std::string> parts;
  for (const Statement& s : *r) parts.push_back(DumpStatement(s));
  return absl::StrJoin(parts, " ; ");
}

TEST(ParserTest, TtlTutorialLinesVerbatim) {
  EXPECT_EQ(
      Parse(
          R"(db.eventlog.createIndex( { "lastModifiedDate": 1 }, { expireAfterSeconds: 3600 } ))"),
      "db.eventlog.createIndex({lastModifiedDate:1},{expireAfterSeconds:3600}"
      ")");
  EXPECT_EQ(
      Parse(
          R"(db.log_events.insertOne( { "expireAt": new Date('July 22, 2013 14:00:00'), "logEvent": 2, "logMessage": "Success!" } ))"),
      "db.log_events.insertOne({expireAt:new Date('July 22, 2013 "
      "14:00:00'),logEvent:2,logMessage:'Success!'})");
  EXPECT_EQ(
      Parse(
          R"(db.log_events.createIndex( { "expireAt": 1 }, { expireAfterSeconds: 0 } ))"),
      "db.log_events.createIndex({expireAt:1},{expireAfterSeconds:0})");
  EXPECT_EQ(
      Parse(
          R"(db.runCommand({collMod: "eventlog", index: {keyPattern: {lastModifiedDate: 1}, expireAfterSeconds: 7200}}))"),
      "db.runCommand({collMod:'eventlog',index:{keyPattern:{"
      "lastModifiedDate:1},expireAfterSeconds:7200}})");
  EXPECT_EQ(Parse("db.adminCommand({setParameter: 1, ttlMonitorSleepSecs: 1})"),
            "db.adminCommand({setParameter:1,ttlMonitorSleepSecs:1})");
  EXPECT_EQ(Parse("var r = db.c.insertOne({a: 1}); r.insertedId"),
            "var r = db.c.insertOne({a:1}) ; r.insertedId");
  EXPECT_EQ(Parse("db.eventLog.find({pageID: {$gt: 100}}).sort({accessTime: "
                  "-1}).limit(5).pretty()"),
            "db.eventLog.find({pageID:{$gt:100}}).sort({accessTime:-1})."
            "limit(5).pretty()");
  EXPECT_EQ(Parse("show collections"), "<show collections>");
}

TEST(ParserTest, KeysQuotedAndUnquoted) {
  EXPECT_EQ(Parse(R"({a: 1, "b": 2, 'c': 3, $set: {x: 1}, 4: 5, "a b": 6})"),
            "{a:1,b:2,c:3,$set:{x:1},4:5,a b:6}");
  EXPECT_EQ(Parse("({x, y: 2})"), "{x:x,y:2}");
}

TEST(ParserTest, Strings) {
  EXPECT_EQ(Parse(R"('it\'s' ; "say \"hi\"" ; 'a\\b')"),
            "'it's' ; 'say \"hi\"' ; 'a\\b'");
  absl::StatusOr<std::vector<Statement>> r =
      ParseProgram(R"("\n\t\u00e9\u{1F600}\x41\uD83D\uDE00")");
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ((*r)[0].value->literal.string_value(),
            "\n\t\xC3\xA9\xF0\x9F\x98\x80"
            "A\xF0\x9F\x98\x80");
  EXPECT_EQ(Parse("'a\\\nb'"), "'ab'");  // line continuation
  EXPECT_EQ(Parse("`two\nlines`"), "'two\nlines'");
  EXPECT_EQ(Parse("`a ${x}`"),
            "SyntaxError: Template substitutions ${...} are not supported "
            "(line 1, column 4)");
}

// Typed as mongosh sends a JavaScript number (js-bson
// src/parser/serializer.ts serializeNumber): Int32 for a safe integer in
// int32 range other than -0, else Double; the lexeme's form does not count.
TEST(ParserTest, Numbers) {
  EXPECT_EQ(Parse("[1, -1, 2147483647, -2147483648, 2147483648, -2147483649, "
                  "1.5, 2.0, 1e3, .5, 0x1F, -0x10, 9007199254740992, "
                  "9007199254740994, 12345678901234567890, 5.0, 3000000000]"),
            "[1,-1,2147483647,-2147483648,2.14748e+09d,-2.14748e+09d,1.5d,2,"
            "1000,0.5d,31,-16,9.0072e+15d,9.0072e+15d,1.23457e+19d,5,3e+09d]");
  EXPECT_EQ(Parse("[NaN, Infinity, -Infinity, - 5]"),
            "[NaN,Infinity,-(Infinity),-5]");
  EXPECT_EQ(Parse("1.5e-3"), "0.0015d");
}

TEST(ParserTest, LiteralsAndTrailingCommas) {
  EXPECT_EQ(Parse("[true, false, null, undefined, [], {}, [1,2,], {a: 1,},]"),
            "[true,false,null,undefined,[],{},[1,2],{a:1}]");
}

// Arrow functions and function expressions, for cursor.map/forEach.
TEST(ParserTest, Functions) {
  EXPECT_EQ(Parse("c.map(d => d.name)"), "c.map(fn (d){return d.name})");
  EXPECT_EQ(Parse("c.map((a, b) => [b, a])"), "c.map(fn (a,b){return [b,a]})");
  EXPECT_EQ(Parse("f = () => 1"), "f = fn (){return 1}");
  EXPECT_EQ(Parse("c.forEach(d => { print(d); return d.a; })"),
            "c.forEach(fn (d){print(d);return d.a})");
  EXPECT_EQ(Parse("c.forEach(function (d) {\n  print(d.a)\n  printjson(d)\n})"),
            "c.forEach(fn (d){print(d.a);printjson(d)})");
  EXPECT_EQ(Parse("var g = function named(x) { return }"),
            "var g = fn named(x){return undefined}");
  // A parenthesized expression is still one.
  EXPECT_EQ(Parse("(a)"), "a");
  EXPECT_EQ(Parse("d = > 1"),
            "SyntaxError: Unexpected token '>' (line 1, column 5)");
  EXPECT_EQ(Parse("x => { return 1; 2 }"),
            "SyntaxError: Unexpected number (line 1, column 18)");
}

TEST(ParserTest, Comments) {
  EXPECT_EQ(Parse("// leading\n{a: /* inline */ 1} // trailing\n/* multi\n"
                  "line */ x"),
            "{a:1} ; x");
}

TEST(ParserTest, Constructors) {
  EXPECT_EQ(Parse("[new Date(), Date(), new Date(0), new Date('2013-07-22'), "
                  "new Date(2013, 6, 22, 14, 0, 0), ISODate('2020-01-01T00:00:"
                  "00Z'), new ISODate(), new Date]"),
            "[new Date(),Date(),new Date(0),new Date('2013-07-22'),new "
            "Date(2013,6,22,14,0,0),ISODate('2020-01-01T00:00:00Z'),new "
            "ISODate(),new Date]");
  EXPECT_EQ(Parse("[ObjectId('65a1b2c3d4e5f60718293a4b'), ObjectId(), "
                  "NumberLong(5), NumberLong('9007199254740993'), "
                  "NumberInt(3), NumberDecimal('1.1'), Timestamp(1, 2), "
                  "MinKey(), MaxKey(), BinData(0, 'AQI='), UUID('0123')]"),
            "[ObjectId('65a1b2c3d4e5f60718293a4b'),ObjectId(),NumberLong(5),"
            "NumberLong('9007199254740993'),NumberInt(3),NumberDecimal('1.1'),"
            "Timestamp(1,2),MinKey(),MaxKey(),BinData(0,'AQI='),UUID('0123')]");
  EXPECT_EQ(Parse("new Date().getTime()"), "new Date().getTime()");
}

TEST(ParserTest, RegexLiterals) {
  EXPECT_EQ(Parse("db.c.find({name: /^ab[/c]\\/d/gi, x: /a/msu})"),
            "db.c.find({name:/^ab[/c]\\/d/i,x:/a/msu})");
  EXPECT_EQ(Parse("/a/x"),
            "SyntaxError: Invalid regular expression flags 'x' (line 1, "
            "column 1)");
}

TEST(ParserTest, Expressions) {
  EXPECT_EQ(Parse("db['my coll'].find()[0].a"), "db['my coll'].find()[0].a");
  EXPECT_EQ(Parse("db.getCollection(\"x\").drop()"),
            "db.getCollection('x').drop()");
  EXPECT_EQ(Parse("let a = 1; const b = 'x'\nvar c\nd = {a: 1}\ne.f = 2"),
            "let a = 1 ; const b = 'x' ; var c ; d = {a:1} ; e.f = 2");
  EXPECT_EQ(Parse("(1)"), "1");
}

// Arithmetic with JavaScript's precedence (ECMA-262 13.7 multiplicative
// over 13.8 additive, both left-associative; unary minus and plus bind
// tightest). `new Date(Date.now() - 3600 * 1000)` is the TTL tutorials'
// line (MongoDB manual, "Expire Data from Collections by Setting TTL").
TEST(ParserTest, ArithmeticPrecedence) {
  EXPECT_EQ(Parse("1 + 2 * 3"), "(1 + (2 * 3))");
  EXPECT_EQ(Parse("(1 + 2) * 3"), "((1 + 2) * 3)");
  EXPECT_EQ(Parse("a - b - c"), "(a - b - c)");
  EXPECT_EQ(Parse("8 / 4 / 2 % 3"), "(8 / 4 / 2 % 3)");
  EXPECT_EQ(Parse("-a * -2 + +b"), "((-(a) * -2) + +(b))");
  EXPECT_EQ(Parse("- - x"), "-(-(x))");
  EXPECT_EQ(Parse("new Date(Date.now() - 3600 * 1000)"),
            "new Date((Date.now() - (3600 * 1000)))");
  EXPECT_EQ(Parse("db.c.find({t: {$lt: Date.now() - 60 * 1000}})"),
            "db.c.find({t:{$lt:(Date.now() - (60 * 1000))}})");
  EXPECT_EQ(Parse("'a' + x.y[0]"), "('a' + x.y[0])");
  EXPECT_EQ(Parse("x = 1 + 2\ny"), "x = (1 + 2) ; y");
}

// Comparison, equality, logical and conditional operators with
// JavaScript's precedence (ECMA-262 13.10 relational over 13.11 equality
// over 13.12 && over 13.13 ||, all left-associative; 13.14 ?: below them and
// right-associative). In the dump, l is <=, g is >=, e ==, n !=, E ===,
// N !==.
TEST(ParserTest, ComparisonAndLogicalPrecedence) {
  EXPECT_EQ(Parse("a < b"), "(a < b)");
  EXPECT_EQ(Parse("a<=b>=c"), "(a l b g c)");
  EXPECT_EQ(Parse("1 + 2 < 3 * 4"), "((1 + 2) < (3 * 4))");
  EXPECT_EQ(Parse("a == b != c === d !== e"), "(a e b n c E d N e)");
  EXPECT_EQ(Parse("a < b == c > d"), "((a < b) e (c > d))");
  EXPECT_EQ(Parse("a || b && c || d"), "(a || (b && c) || d)");
  EXPECT_EQ(Parse("a && b == c"), "(a && (b e c))");
  EXPECT_EQ(Parse("!a && !!b"), "(!(a) && !(!(b)))");
  EXPECT_EQ(Parse("!a == b"), "(!(a) e b)");
  EXPECT_EQ(Parse("a ? b : c ? d : e"), "(a ? b : (c ? d : e))");
  EXPECT_EQ(Parse("a || b ? c + 1 : d && e"),
            "((a || b) ? (c + 1) : (d && e))");
  EXPECT_EQ(Parse("x = a > 1 ? 'big' : 'small'"),
            "x = ((a > 1) ? 'big' : 'small')");
  EXPECT_EQ(Parse("c.map(d => d.a >= 2 ? d : null)"),
            "c.map(fn (d){return ((d.a g 2) ? d : null)})");
  EXPECT_EQ(Parse("({a: b ? 1 : 2, c: d < e})"), "{a:(b ? 1 : 2),c:(d < e)}");
  // Operators continue a statement onto the next line.
  EXPECT_EQ(Parse("a\n&& b\n|| c"), "((a && b) || c)");
  EXPECT_EQ(Parse("a ?\n b :\n c"), "(a ? b : c)");
  EXPECT_EQ(Parse("a\n!b"), "a ; !(b)");
  // An arrow is still '=' '>' written together.
  EXPECT_EQ(Parse("f = x=>x>=1"), "f = fn (x){return (x g 1)}");
  EXPECT_EQ(Parse("a ? b"),
            "SyntaxError: Unexpected end of input (line 1, column 6)");
  EXPECT_EQ(Parse("a = = b"),
            "SyntaxError: Unexpected token '=' (line 1, column 5)");
  EXPECT_EQ(Parse("a < < b"),
            "SyntaxError: Unexpected token '<' (line 1, column 5)");
}

// A '/' after a value divides; anywhere else it starts a regex literal
// (the ECMAScript lexical grammar's InputElementDiv/InputElementRegExp
// goal symbols, decided here by the previous token).
TEST(ParserTest, DivisionOrRegexByPreviousToken) {
  EXPECT_EQ(Parse("10 / 4"), "(10 / 4)");
  EXPECT_EQ(Parse("10/4/2"), "(10 / 4 / 2)");
  EXPECT_EQ(Parse("x / 2"), "(x / 2)");
  EXPECT_EQ(Parse("(x) / 2"), "(x / 2)");
  EXPECT_EQ(Parse("a[0] / 2"), "(a[0] / 2)");
  EXPECT_EQ(Parse("'6' / 2"), "('6' / 2)");
  EXPECT_EQ(Parse("db.c.find({a: /x/})"), "db.c.find({a:/x/})");
  EXPECT_EQ(Parse("/a/i"), "/a/i");
  EXPECT_EQ(Parse("[/a/, /b/]"), "[/a/,/b/]");
  EXPECT_EQ(Parse("f(/a/)"), "f(/a/)");
  EXPECT_EQ(Parse("x = /a/"), "x = /a/");
  EXPECT_EQ(Parse("1 + /a/"), "(1 + /a/)");
  EXPECT_EQ(Parse("/a/ / 2"), "(/a/ / 2)");
  // After an operator a '/' starts a regex; after a value it divides.
  EXPECT_EQ(Parse("a < /x/"), "(a < /x/)");
  EXPECT_EQ(Parse("!/x/"), "!(/x/)");
  EXPECT_EQ(Parse("a && /x/ || b"), "((a && /x/) || b)");
  EXPECT_EQ(Parse("c ? /x/ : /y/i"), "(c ? /x/ : /y/i)");
  EXPECT_EQ(Parse("a == b / 2"), "(a e (b / 2))");
  EXPECT_EQ(Parse("(a < b) / 2"), "((a < b) / 2)");
}

TEST(ParserTest, StatementsSpanLines) {
  EXPECT_EQ(Parse("db.c.find({\n  a: 1,\n  b: [\n1,\n2]\n})\nx"),
            "db.c.find({a:1,b:[1,2]}) ; x");
  EXPECT_EQ(Parse("db.c.find().\n  sort({a: 1})"), "db.c.find().sort({a:1})");
  EXPECT_EQ(Parse("db.c.find()\n  .sort({a: 1})\n  .limit(2)\ny"),
            "db.c.find().sort({a:1}).limit(2) ; y");
  EXPECT_EQ(Parse("a\nb;c;;\n"), "a ; b ; c");
  EXPECT_EQ(Parse("x =\n 5"), "x = 5");
}

TEST(ParserTest, ShellCommands) {
  EXPECT_EQ(Parse("show dbs\nuse my-db\nhelp\nexit\nquit\nit\nquit()\n"
                  "help admin; show collections"),
            "<show dbs> ; <use my-db> ; <help> ; <exit> ; <quit> ; <it> ; "
            "quit() ; <help admin> ; <show collections>");
  EXPECT_EQ(Parse("var show = 1\nshow"), "var show = 1 ; <show>");
}

TEST(ParserTest, SyntaxErrorsCarryLineAndColumn) {
  EXPECT_EQ(Parse("db.c.insertOne({\n  a: 1,\n  b: {c: 22}}})"),
            "SyntaxError: Unexpected token '}' (line 3, column 14)");
  EXPECT_EQ(Parse("db.c.find({a: 1)"),
            "SyntaxError: Unexpected token ')' (line 1, column 16)");
  EXPECT_EQ(Parse("db.c.find({a 1})"),
            "SyntaxError: Unexpected number (line 1, column 14)");
  EXPECT_EQ(Parse("db.c.find({a: 1}"),
            "SyntaxError: Unexpected end of input (line 1, column 17)");
  EXPECT_EQ(Parse("x = 'abc\n"),
            "SyntaxError: Unterminated string constant (line 1, column 5)");
  EXPECT_EQ(Parse("a b"),
            "SyntaxError: Unexpected identifier 'b' (line 1, column 3)");
  EXPECT_EQ(Parse("db.c.find('a' 'b')"),
            "SyntaxError: Unexpected string (line 1, column 15)");
  EXPECT_EQ(Parse("1 = 2"),
            "SyntaxError: Invalid left-hand side in assignment (line 1, "
            "column 1)");
  EXPECT_EQ(Parse("/* open"),
            "SyntaxError: Unterminated comment (line 1, column 8)");
  EXPECT_EQ(Parse("x = 3in"),
            "SyntaxError: Invalid or unexpected token (line 1, column 6)");
  EXPECT_EQ(Parse("x = 1 + "),
            "SyntaxError: Unexpected end of input (line 1, column 9)");
  EXPECT_EQ(Parse("x = 1 * * 2"),
            "SyntaxError: Unexpected token '*' (line 1, column 9)");
  EXPECT_EQ(Parse("'\\u12'"),
            "SyntaxError: Invalid Unicode escape sequence (line 1, column 2)");
  EXPECT_EQ(Parse("const z"),
            "SyntaxError: Missing initializer in const declaration (line 1, "
            "column 8)");
  EXPECT_EQ(Parse("db.c.\nfind(1"),
            "SyntaxError: Unexpected end of input (line 2, column 7)");
}

TEST(StatementIsCompleteTest, Incremental) {
  EXPECT_TRUE(StatementIsComplete("db.c.find()"));
  EXPECT_TRUE(StatementIsComplete(""));
  EXPECT_TRUE(StatementIsComplete("show collections"));
  EXPECT_FALSE(StatementIsComplete("db.c.insertOne({"));
  EXPECT_FALSE(StatementIsComplete("db.c.insertOne({a: [1,"));
  EXPECT_FALSE(StatementIsComplete("db.c.find({a: 1}, {b: 1})."));
  EXPECT_FALSE(StatementIsComplete("db.c.insertOne({a: 1,"));
  EXPECT_FALSE(StatementIsComplete("var x ="));
  EXPECT_FALSE(StatementIsComplete("x = /* a comment"));
  EXPECT_TRUE(StatementIsComplete("x = /* a comment */ 1"));
  EXPECT_FALSE(StatementIsComplete("x = 'abc\\"));
  EXPECT_TRUE(StatementIsComplete("x = 'abc"));  // error reported at once
  EXPECT_FALSE(StatementIsComplete("x = `abc\n"));
  EXPECT_TRUE(StatementIsComplete("x = `abc\ndef`"));
  EXPECT_TRUE(StatementIsComplete("x = '{'"));    // brackets in strings
  EXPECT_TRUE(StatementIsComplete("x = /[(]/"));  // and regexes don't count
  EXPECT_TRUE(StatementIsComplete("x = 1 // {"));
  EXPECT_TRUE(StatementIsComplete("db.c.find())"));  // stray closer: error
  EXPECT_TRUE(StatementIsComplete("db.c.insertOne({\n a: 1\n})"));
  EXPECT_FALSE(StatementIsComplete("x = 10 /"));  // division, not a regex
  EXPECT_FALSE(StatementIsComplete("x = 10 *"));
  EXPECT_FALSE(StatementIsComplete("x = 'a' +"));
  EXPECT_TRUE(StatementIsComplete("x = 10 / 4"));
  for (const char* op :
       {"<", ">", "<=", ">=", "==", "!=", "===", "!==", "&&", "||", "!", "?"}) {
    EXPECT_FALSE(StatementIsComplete(absl::StrCat("a ", op))) << op;
  }
  EXPECT_TRUE(StatementIsComplete("a ? b : c"));
  EXPECT_TRUE(StatementIsComplete("a >= b"));
}

TEST(ParserTest, NegativeZeroIsADouble) {
  absl::StatusOr<std::vector<Statement>> r = ParseProgram("-0");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ((*r)[0].value->literal.type(), ValueType::kDouble);
  EXPECT_TRUE(std::signbit((*r)[0].value->literal.double_value()));
}

// Garbage never crashes the lexer or parser, and every error names a line
// and column.
TEST(ParserTest, SurvivesGarbage) {
  const std::string alphabet = "{}[](),:;.=-+/*'\"\\\nab$0x9e.ISODate new ";
  uint32_t seed = 12345;
  for (int round = 0; round < 20000; ++round) {
    std::string src;
    const int len = round % 40;
    for (int i = 0; i < len; ++i) {
      seed = seed * 1103515245 + 12345;
      src.push_back(alphabet[(seed >> 16) % alphabet.size()]);
    }
    StatementIsComplete(src);
    absl::StatusOr<std::vector<Statement>> r = ParseProgram(src);
    if (!r.ok()) {
      EXPECT_NE(r.status().message().find("(line "), absl::string_view::npos)
          << src << " -> " << r.status();
    }
  }
  // Deep nesting is an error, not a stack overflow.
  EXPECT_EQ(Parse(std::string(10000, '[')),
            "SyntaxError: Expression nested too deeply (line 1, column 201)");
}

TEST(LexerTest, PositionsAndNewlines) {
  std::vector<Token> tokens;
  ASSERT_TRUE(Tokenize("a .b\n  'c'", &tokens).ok());
  ASSERT_EQ(tokens.size(), 5u);
  EXPECT_EQ(tokens[1].column, 3);
  EXPECT_FALSE(tokens[1].newline_before);
  EXPECT_EQ(tokens[3].kind, TokenKind::kString);
  EXPECT_EQ(tokens[3].line, 2);
  EXPECT_EQ(tokens[3].column, 3);
  EXPECT_TRUE(tokens[3].newline_before);
  EXPECT_EQ(tokens[4].kind, TokenKind::kEnd);
}

}  // namespace
}  // namespace shell
}  // namespace ttldb
