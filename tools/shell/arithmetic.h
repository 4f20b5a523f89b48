// JavaScript's arithmetic operators on the shell's values: + - * / % and
// unary + and -, and its comparison, equality and truthiness, with the
// semantics of ECMA-262 (every number is a
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
#include "ttldb/value.h"

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

// Whether `v` is a JavaScript object in mongosh (not a primitive): an
// Int64 (bson Long), Decimal128, Date, ObjectId, array, document and the
// other BSON wrappers. Int32 and Double are numbers; strings, booleans and
// null are primitives.
bool JsIsObject(const Value& v);

// ECMA-262 ToBoolean: undefined, null, false, 0, -0, NaN and "" are false;
// every object is true (NumberLong(0) too, as a bson Long object).
bool JsTruthy(const JsOperand& v);

// The comparison and equality operators, with ECMA-262's semantics:
//   '<' '>' 'l' (<=) 'g' (>=): IsLessThan on ToPrimitive(hint number) of
//     both: two strings compare by UTF-16 code units ("10" < "9"), anything
//     else as numbers (a Date by its milliseconds; NaN or undefined make
//     every comparison false);
//   'E' (===) 'N' (!==): IsStrictlyEqual: same type and value; NaN is not
//     equal to itself, +0 equals -0; two objects are equal only when they
//     are the same object, which values cannot tell: never (mongosh's
//     `ObjectId("..") === ObjectId("..")` is false too);
//   'e' (==) 'n' (!=): IsLooselyEqual: null == undefined; a number and a
//     string compare as numbers; a boolean as a number; an object against
//     a primitive through its ToPrimitive (a Date as its string, a Long as
//     its number, an array as its join(","), a document as
//     "[object Object]").
bool JsCompare(char op, const JsOperand& a, const JsOperand& b,
               absl::TimeZone zone);

}  // namespace shell
}  // namespace ttldb

#endif  // TTLDB_TOOLS_SHELL_ARITHMETIC_H_
