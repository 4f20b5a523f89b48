// Parser for the mongo shell's object-literal JavaScript subset: turns
// source text into statements whose expressions the evaluator runs.
//
// Grammar (statements end at ';', at a line break, or at the end of input;
// a statement goes on across lines while a bracket is open, after a line
// ending in '.', ',', ':', '=' or a binary operator, and before a line
// starting with '.'):
//
//   statement   := ('var'|'let'|'const') IDENT ['=' expr]
//                | 'show' WORD | 'use' WORD | 'help' [WORD]
//                | 'exit' | 'quit' | 'it'
//                | expr ['=' expr]
//   expr        := logical-or ['?' expr ':' expr]
//   logical-or  := logical-and { '||' logical-and }
//   logical-and := equality { '&&' equality }
//   equality    := relational { ('=='|'!='|'==='|'!==') relational }
//   relational  := additive { ('<'|'>'|'<='|'>=') additive }
//   additive    := multiplicative { ('+'|'-') multiplicative }
//   multiplicative := unary { ('*'|'/'|'%') unary }
//   unary       := ('-'|'+'|'!') unary | postfix
// (JavaScript's precedence and associativity for these operators; the
// evaluator gives them JavaScript's semantics, tools/shell/arithmetic.h)
//   postfix     := primary { '.' IDENT | '[' expr ']' | '(' args ')' }
//   primary     := NUMBER | STRING | REGEX | IDENT | object | array
//                | '(' expr ')' | 'new' IDENT { '.' IDENT } ['(' args ')']
//                | function
//   function    := (IDENT | '(' [IDENT {',' IDENT}] ')') '=>' (expr | block)
//                | 'function' [IDENT] '(' [IDENT {',' IDENT}] ')' block
//   block       := '{' { expr [';'] } ['return' [expr] [';']] '}'
// (functions are for cursor.map/forEach and the like: no other statements)
//   object      := '{' [ key ':' expr { ',' key ':' expr } [','] ] '}'
//   key         := IDENT | STRING | NUMBER
//   array       := '[' [ expr { ',' expr } [','] ] ']'
//
// Number literals become ttldb::Values here, typed as mongosh sends a
// JavaScript number (js-bson src/parser/serializer.ts serializeNumber): an
// integral value in int32 range becomes Int32 whatever its lexeme (5, 5.0,
// 1e3, 0x10), anything else Double (2.5, 3000000000, 2**53, -0). So
// `{a: 5.0}` stores an Int32 and `{a: 3000000000}` a Double, as in mongosh;
// NumberInt, NumberLong and Double(...) give an explicit type. NaN and
// Infinity are identifiers resolved by the evaluator.
#ifndef TTLDB_TOOLS_SHELL_PARSER_H_
#define TTLDB_TOOLS_SHELL_PARSER_H_

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "ttldb/value.h"

namespace ttldb {
namespace shell {

enum class NodeKind {
  kLiteral,      // literal: a number, string or regex
  kIdentifier,   // name (true, false, null, undefined, NaN, Infinity too)
  kObject,       // fields
  kArray,        // items
  kMember,       // target.name
  kIndex,        // target[index]
  kCall,         // target(items...)
  kNew,          // new name(items...): name may be dotted ("ISODate")
  kNegate,       // -target
  kPlus,         // +target (JavaScript's ToNumber)
  kBinary,       // items[0] name[0] items[1] name[1] items[2] ...: a chain of
                 // left-associative operators of one precedence level, each
                 // one character of `name` ("+-" for a + b - c); kept flat so
                 // a long sum does not nest (nor recurse) deeply. Arithmetic
                 // + - * / %; comparison < > and l (<=), g (>=); equality
                 // e (==), n (!=), E (===), N (!==)
  kLogical,      // items joined by the one operator name[0]: '&' (&&) or
                 // '|' (||), evaluated left to right with short-circuit
  kNot,          // !target
  kConditional,  // items[0] ? items[1] : items[2]
  kFunction,     // function: an arrow function or function expression
};

struct Node;

// The parameters and body of `x => expr`, `(x, y) => expr`,
// `x => { stmt; ...; return expr }` or `function (x) { ...; return expr }`:
// expression statements, then an optional `return`. Shared, so that a
// function value outlives the statement that wrote it.
struct FunctionBody {
  std::vector<std::string> params;
  std::vector<std::unique_ptr<Node>> statements;
  std::unique_ptr<Node> result;  // null: returns undefined
};

struct Node {
  NodeKind kind = NodeKind::kLiteral;
  int line = 1;
  int column = 1;
  Value literal;
  std::string name;
  std::vector<std::pair<std::string, std::unique_ptr<Node>>> fields;
  std::vector<std::unique_ptr<Node>> items;
  std::unique_ptr<Node> target;
  std::unique_ptr<Node> index;
  bool has_args = false;  // kNew: written with parentheses
  std::shared_ptr<const FunctionBody> function;  // kFunction
};

enum class StatementKind {
  kExpression,   // expr; printed unless undefined
  kDeclaration,  // var/let/const name [= expr]
  kAssignment,   // target = expr (target: identifier, member or index)
  kCommand,      // show/use/help/exit/quit/it
};

struct Statement {
  StatementKind kind = StatementKind::kExpression;
  int line = 1;
  int column = 1;
  std::string keyword;  // kDeclaration: var/let/const; kCommand: the word
  std::string name;     // kDeclaration: the variable; kCommand: argument
  std::unique_ptr<Node> target;  // kAssignment
  std::unique_ptr<Node> value;   // may be null for `var x`
};

// Parses a whole script. Errors are InvalidArgument
// "SyntaxError: Unexpected token '}' (line 3, column 14)".
absl::StatusOr<std::vector<Statement>> ParseProgram(absl::string_view source);

// For the REPL: whether `buffer` holds complete statements, or the user is
// still typing. False while a bracket is open, inside a /* comment, inside a
// string whose line ends with a backslash, or when the last token is one
// that needs more ('.', ',', ':', '=', '?', '!', a binary
// operator, 'new', var/let/const).
// Like mongosh (Node's REPL), an unterminated plain string or a stray
// closing bracket is complete: parsing it reports the error at once.
bool StatementIsComplete(absl::string_view buffer);

// The Value of a number lexeme as described above; `negative` applies a
// leading minus. InvalidArgument if the lexeme is malformed.
absl::StatusOr<Value> NumberLiteral(absl::string_view lexeme, bool negative);

}  // namespace shell
}  // namespace ttldb

#endif  // TTLDB_TOOLS_SHELL_PARSER_H_
