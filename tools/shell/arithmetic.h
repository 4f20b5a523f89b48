// JavaScript's arithmetic operators on the shell's values: + - * / % and
// unary + and -, with the number semantics of ECMA-262 (every number is a
// double; the result is shown and stored as mongosh sends a JavaScript
// number, Int32 when integral and in int32 range, else Double).
//
//   10 / 4            -> 2.5          7 % -3        -> 1
//   'a' + 1           -> 'a1'         '6' * '7'     -> 42
//   Date.now() - 3600 * 1000          new Date() - 0 -> milliseconds
//   new Date(0) + ''  -> the Date's toString()
//
// Operands that are not BSON values (undefined, the shell's objects) are
// passed as std::nullopt (undefined) or already converted to their string
// by the caller.
#ifndef TTLDB_TOOLS_SHELL_ARITHMETIC_H_
#define TTLDB_TOOLS_SHELL_ARITHMETIC_H_

#include <optional>
#include <string>

#include "absl/time/time.h"
#include "document/value.h"

namespace ttldb {
namespace shell {

// std::nullopt is JavaScript's undefined.
using JsOperand = std::optional<Value>;

// ECMA-262 ToNumber (a Date is its milliseconds, a string is parsed as a
// StringNumericLiteral, null is 0, undefined NaN; NumberLong is a number,
// as its valueOf gives; Decimal128 goes through its string).
double JsToNumber(const JsOperand& v);

// ECMA-262 ToString of ToPrimitive: numbers as Number.prototype.toString,
// a Date as Date.prototype.toString in `zone`, an array as join(','), an
// object as "[object Object]", an ObjectId as its hex.
std::string JsToString(const JsOperand& v, absl::TimeZone zone);

// `a op b` for op one of + - * / %.
Value JsBinary(char op, const JsOperand& a, const JsOperand& b,
               absl::TimeZone zone);

// Unary minus and plus.
Value JsNegate(const JsOperand& v);
Value JsUnaryPlus(const JsOperand& v);

}  // namespace shell
}  // namespace ttldb

#endif  // TTLDB_TOOLS_SHELL_ARITHMETIC_H_
