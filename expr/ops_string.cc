// String operators: $concat $substrBytes $substr $substrCP $toLower
// $toUpper $split $strLenBytes $strLenCP $trim $ltrim $rtrim $indexOfBytes
// $indexOfCP $strcasecmp, and the regex operators $regexMatch $regexFind
// $regexFindAll over document/regex.h (PCRE2, as $regex). Semantics and errors
// from src/mongo/db/exec/expression/evaluate_string.cpp and
// evaluate_regex.cpp (MongoDB 8).
#include <algorithm>
#include <limits>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "document/regex.h"
#include "expr/ops_util.h"

namespace ttldb {
namespace agg {
namespace {

using internal::CodePointLength;
using internal::CoerceToString;
using internal::DebugString;
using internal::ExprError;
using internal::ExprPtr;
using internal::IsContinuationByte;
using internal::Nullish;
using internal::Ok;
using internal::Opt;
using internal::ParseResult;
using internal::TypeNameOf;

ExprResult Concat(std::vector<Opt>& args) {
  std::string out;
  for (const Opt& v : args) {
    if (Nullish(v)) return internal::Null();
    if (!v->is_string()) {
      return ExprError(16702, absl::StrCat("$concat only supports strings, "
                                           "not ",
                                           TypeNameOf(v)));
    }
    out += v->string_value();
  }
  return Ok(Value::String(std::move(out)));
}

ExprResult Strcasecmp(std::vector<Opt>& args) {
  ASSIGN_OR_RETURN(std::string a, CoerceToString(args[0]));
  ASSIGN_OR_RETURN(std::string b, CoerceToString(args[1]));
  int c = absl::AsciiStrToUpper(a).compare(absl::AsciiStrToUpper(b));
  return Ok(Value::Int32(c == 0 ? 0 : c > 0 ? 1 : -1));
}

template <bool kSubstr>  // $substr is an alias of $substrBytes
ExprResult SubstrBytes(std::vector<Opt>& args) {
  const char* op = kSubstr ? "$substr" : "$substrBytes";
  ASSIGN_OR_RETURN(std::string str, CoerceToString(args[0]));
  const Opt& lower_v = args[1];
  const Opt& length_v = args[2];
  if (!lower_v || !lower_v->is_number()) {
    return ExprError(16034, absl::StrCat(op,
                                         ":  starting index must be a "
                                         "numeric type (is BSON type ",
                                         TypeNameOf(lower_v), ")"));
  }
  if (!length_v || !length_v->is_number()) {
    return ExprError(16035, absl::StrCat(op,
                                         ":  length must be a numeric "
                                         "type (is BSON type ",
                                         TypeNameOf(length_v), ")"));
  }
  int64_t signed_lower = internal::NumToLong(*lower_v);
  if (signed_lower < 0) {
    return ExprError(50752, absl::StrCat(op,
                                         ":  starting index must be "
                                         "non-negative (got: ",
                                         signed_lower, ")"));
  }
  size_t lower = static_cast<size_t>(signed_lower);
  int64_t signed_length = internal::NumToLong(*length_v);
  size_t length =
      signed_length < 0 ? str.size() : static_cast<size_t>(signed_length);
  if (lower < str.size() && IsContinuationByte(str[lower])) {
    return ExprError(28656, absl::StrCat(op,
                                         ":  Invalid range, starting "
                                         "index is a UTF-8 continuation "
                                         "byte."));
  }
  if (lower + length < str.size() && IsContinuationByte(str[lower + length])) {
    return ExprError(28657, absl::StrCat(op,
                                         ":  Invalid range, ending index "
                                         "is in the middle of a UTF-8 "
                                         "character."));
  }
  if (lower >= str.size()) return Ok(Value::String(""));
  return Ok(Value::String(str.substr(lower, length)));
}

ExprResult SubstrCP(std::vector<Opt>& args) {
  ASSIGN_OR_RETURN(std::string str, CoerceToString(args[0]));
  const Opt& lower_v = args[1];
  const Opt& length_v = args[2];
  if (!lower_v || !lower_v->is_number()) {
    return ExprError(34450, absl::StrCat("$substrCP: starting index must be a "
                                         "numeric type (is BSON type ",
                                         TypeNameOf(lower_v), ")"));
  }
  if (!internal::IsIntegral32(*lower_v)) {
    return ExprError(34451, absl::StrCat("$substrCP: starting index cannot be "
                                         "represented as a 32-bit integral "
                                         "value: ",
                                         DebugString(lower_v)));
  }
  if (!length_v || !length_v->is_number()) {
    return ExprError(34452, absl::StrCat("$substrCP: length must be a numeric "
                                         "type (is BSON type ",
                                         TypeNameOf(length_v), ")"));
  }
  if (!internal::IsIntegral32(*length_v)) {
    return ExprError(34453, absl::StrCat("$substrCP: length cannot be "
                                         "represented as a 32-bit integral "
                                         "value: ",
                                         DebugString(length_v)));
  }
  int64_t start = internal::NumToLong(*lower_v);
  int64_t length = internal::NumToLong(*length_v);
  if (length < 0) {
    return ExprError(34454, "$substrCP: length must be a nonnegative integer.");
  }
  if (start < 0) {
    return ExprError(34455,
                     "$substrCP: the starting index must be nonnegative "
                     "integer.");
  }
  size_t i = 0;
  for (int64_t cp = 0; cp < start && i < str.size(); ++cp) {
    i += CodePointLength(str[i]);
  }
  size_t j = i;
  for (int64_t cp = 0; cp < length && j < str.size(); ++cp) {
    j += CodePointLength(str[j]);
  }
  i = std::min(i, str.size());
  j = std::min(j, str.size());
  return Ok(Value::String(str.substr(i, j - i)));
}

template <bool kUpper>
ExprResult ChangeCase(std::vector<Opt>& args) {
  ASSIGN_OR_RETURN(std::string s, CoerceToString(args[0]));
  return Ok(Value::String(kUpper ? absl::AsciiStrToUpper(s)
                                 : absl::AsciiStrToLower(s)));
}

ExprResult StrLenBytes(std::vector<Opt>& args) {
  const Opt& v = args[0];
  if (!v || !v->is_string()) {
    return ExprError(34473, absl::StrCat("$strLenBytes requires a string "
                                         "argument, found: ",
                                         TypeNameOf(v)));
  }
  return Ok(Value::Int32(static_cast<int32_t>(v->string_value().size())));
}

ExprResult StrLenCP(std::vector<Opt>& args) {
  const Opt& v = args[0];
  if (!v || !v->is_string()) {
    return ExprError(34471, absl::StrCat("$strLenCP requires a string "
                                         "argument, found: ",
                                         TypeNameOf(v)));
  }
  return Ok(Value::Int32(
      static_cast<int32_t>(internal::CountCodePoints(v->string_value()))));
}

ExprResult Split(std::vector<Opt>& args) {
  const Opt& input = args[0];
  const Opt& sep = args[1];
  if (Nullish(input) || Nullish(sep)) return internal::Null();
  if (!input->is_string()) {
    return ExprError(40085, absl::StrCat("$split requires an expression that "
                                         "evaluates to a string as a first "
                                         "argument, found: ",
                                         TypeNameOf(input)));
  }
  if (!sep->is_string()) {
    return ExprError(40086, absl::StrCat("$split requires an expression that "
                                         "evaluates to a string as a second "
                                         "argument, found: ",
                                         TypeNameOf(sep)));
  }
  const std::string& s = input->string_value();
  const std::string& d = sep->string_value();
  if (d.empty()) {
    return ExprError(40087, "$split requires a non-empty separator");
  }
  Value::Array out;
  // A short separator can make many more bytes of BSON than the input has.
  internal::ValueBudget budget("$split");
  size_t pos = 0;
  while (true) {
    size_t f = s.find(d, pos);
    if (f == std::string::npos) {
      out.push_back(Value::String(s.substr(pos)));
      break;
    }
    out.push_back(Value::String(s.substr(pos, f - pos)));
    RETURN_IF_ERROR(budget.AddElement(out.size() - 1, out.back()));
    pos = f + d.size();
  }
  return Ok(Value::MakeArray(std::move(out)));
}

// evaluate_string.cpp uassertIfNotIntegralAndNonNegative (its message
// really lacks the space after the operator name in 40096).
absl::Status CheckStringIndexArg(absl::string_view op, const Opt& v,
                                 absl::string_view what) {
  if (!v || !internal::IsIntegral32(*v)) {
    return ExprError(40096,
                     absl::StrCat(op, "requires an integral ", what,
                                  ", found a value of type: ", TypeNameOf(v),
                                  ", with value: ", DebugString(v)));
  }
  if (internal::NumToLong(*v) < 0) {
    return ExprError(40097, absl::StrCat(op, " requires a nonnegative ", what,
                                         ", found: ", DebugString(v)));
  }
  return absl::OkStatus();
}

template <bool kCP>
ExprResult IndexOf(std::vector<Opt>& args) {
  const char* op = kCP ? "$indexOfCP" : "$indexOfBytes";
  const Opt& str_v = args[0];
  if (Nullish(str_v)) return internal::Null();
  if (!str_v->is_string()) {
    return ExprError(kCP ? 40093 : 40091,
                     absl::StrCat(op,
                                  " requires a string as the first "
                                  "argument, found: ",
                                  TypeNameOf(str_v)));
  }
  const Opt& tok_v = args[1];
  if (!tok_v || !tok_v->is_string()) {
    return ExprError(kCP ? 40094 : 40092,
                     absl::StrCat(op,
                                  " requires a string as the second "
                                  "argument, found: ",
                                  TypeNameOf(tok_v)));
  }
  const std::string& input = str_v->string_value();
  const std::string& token = tok_v->string_value();
  size_t start = 0;
  if (args.size() > 2) {
    RETURN_IF_ERROR(CheckStringIndexArg(op, args[2], "starting index"));
    start = static_cast<size_t>(internal::NumToLong(*args[2]));
  }
  if (!kCP) {
    size_t end = input.size();
    if (args.size() > 3) {
      RETURN_IF_ERROR(CheckStringIndexArg(op, args[3], "ending index"));
      end = std::min(input.size(),
                     static_cast<size_t>(internal::NumToLong(*args[3])));
    }
    if (start > input.size() || end < start) return Ok(Value::Int32(-1));
    size_t p = input.substr(0, end).find(token, start);
    return Ok(Value::Int32(p == std::string::npos ? -1 : static_cast<int>(p)));
  }
  size_t cp_len = 0, start_byte = 0;
  for (size_t b = 0; b < input.size(); ++cp_len) {
    if (cp_len == start) start_byte = b;
    if (IsContinuationByte(input[b])) {
      return ExprError(40095, "$indexOfCP found bad UTF-8 in the input");
    }
    b += CodePointLength(input[b]);
  }
  size_t end_cp = cp_len;
  if (args.size() > 3) {
    RETURN_IF_ERROR(CheckStringIndexArg(op, args[3], "ending index"));
    end_cp =
        std::min(cp_len, static_cast<size_t>(internal::NumToLong(*args[3])));
  }
  if (end_cp < start) return Ok(Value::Int32(-1));
  if (start_byte == 0 && input.empty() && token.empty()) {
    return Ok(Value::Int32(0));
  }
  size_t b = start_byte;
  for (size_t cp = start; cp < end_cp; ++cp) {
    if (b + token.size() <= input.size() &&
        input.compare(b, token.size(), token) == 0) {
      return Ok(Value::Int32(static_cast<int>(cp)));
    }
    b += CodePointLength(input[b]);
  }
  return Ok(Value::Int32(-1));
}

// str_trim_utils kDefaultTrimWhitespaceChars.
const std::vector<std::string>& DefaultTrimChars() {
  static const auto* chars = new std::vector<std::string>{std::string(1, '\0'),
                                                          " ",
                                                          "\t",
                                                          "\n",
                                                          "\v",
                                                          "\f",
                                                          "\r",
                                                          "\u00A0",
                                                          "\u1680",
                                                          "\u2000",
                                                          "\u2001",
                                                          "\u2002",
                                                          "\u2003",
                                                          "\u2004",
                                                          "\u2005",
                                                          "\u2006",
                                                          "\u2007",
                                                          "\u2008",
                                                          "\u2009",
                                                          "\u200A",
                                                          "\u2028",
                                                          "\u2029",
                                                          "\u202F",
                                                          "\u205F",
                                                          "\u3000"};
  return *chars;
}

std::vector<std::string> CodePoints(absl::string_view s) {
  std::vector<std::string> out;
  for (size_t i = 0; i < s.size();) {
    size_t n = std::min(CodePointLength(s[i]), s.size() - i);
    out.emplace_back(s.substr(i, n));
    i += n;
  }
  return out;
}

std::string DoTrim(const std::string& input,
                   const std::vector<std::string>& chars, bool left,
                   bool right) {
  std::vector<std::string> cps = CodePoints(input);
  auto trimmed = [&](const std::string& cp) {
    return std::find(chars.begin(), chars.end(), cp) != chars.end();
  };
  size_t b = 0, e = cps.size();
  if (left) {
    while (b < e && trimmed(cps[b])) ++b;
  }
  if (right) {
    while (e > b && trimmed(cps[e - 1])) --e;
  }
  std::string out;
  for (size_t i = b; i < e; ++i) out += cps[i];
  return out;
}

enum class TrimKind { kBoth, kLeft, kRight };

class TrimExpr : public Expression {
 public:
  TrimExpr(const char* op, TrimKind kind, ExprPtr input, ExprPtr chars)
      : op_(op),
        kind_(kind),
        input_(std::move(input)),
        chars_(std::move(chars)) {}
  ExprResult Evaluate(const Value& doc, Variables* vars) const override {
    ASSIGN_OR_RETURN(Opt in, input_->Evaluate(doc, vars));
    if (Nullish(in)) return internal::Null();
    if (!in->is_string()) {
      return ExprError(50699, absl::StrCat(op_,
                                           " requires its input to be a "
                                           "string, got ",
                                           DebugString(in), " (of type ",
                                           TypeNameOf(in), ") instead."));
    }
    bool left = kind_ != TrimKind::kRight, right = kind_ != TrimKind::kLeft;
    if (chars_ == nullptr) {
      return Ok(Value::String(
          DoTrim(in->string_value(), DefaultTrimChars(), left, right)));
    }
    ASSIGN_OR_RETURN(Opt chars, chars_->Evaluate(doc, vars));
    if (Nullish(chars)) return internal::Null();
    if (!chars->is_string()) {
      return ExprError(50700, absl::StrCat(op_,
                                           " requires 'chars' to be a "
                                           "string, got ",
                                           DebugString(chars), " (of type ",
                                           TypeNameOf(chars), ") instead."));
    }
    return Ok(Value::String(DoTrim(
        in->string_value(), CodePoints(chars->string_value()), left, right)));
  }

 private:
  const char* op_;
  TrimKind kind_;
  ExprPtr input_, chars_;
};

template <TrimKind kKind>
ParseResult ParseTrim(const Value& operand, ParseContext* ctx) {
  const char* op = kKind == TrimKind::kBoth   ? "$trim"
                   : kKind == TrimKind::kLeft ? "$ltrim"
                                              : "$rtrim";
  if (!operand.is_object()) {
    return ExprError(50696, absl::StrCat(op,
                                         " only supports an object as an "
                                         "argument, found ",
                                         TypeName(operand.type())));
  }
  ExprPtr input, chars;
  for (const auto& [name, v] : operand.object_fields()) {
    if (name == "input") {
      ASSIGN_OR_RETURN(input, ParseExpression(v, ctx));
    } else if (name == "chars") {
      ASSIGN_OR_RETURN(chars, ParseExpression(v, ctx));
    } else {
      return ExprError(50694,
                       absl::StrCat(op, " found an unknown argument: ", name));
    }
  }
  if (input == nullptr) {
    return ExprError(50695, absl::StrCat(op, " requires an 'input' field"));
  }
  return ExprPtr(new TrimExpr(op, kKind, std::move(input), std::move(chars)));
}

// ---- $regexMatch, $regexFind, $regexFindAll ----

enum class RegexKind { kMatch, kFind, kFindAll };

class RegexExpr : public Expression {
 public:
  RegexExpr(const char* op, RegexKind kind, ExprPtr input, ExprPtr regex,
            ExprPtr options)
      : op_(op),
        kind_(kind),
        input_(std::move(input)),
        regex_(std::move(regex)),
        options_(std::move(options)) {}

  ExprResult Evaluate(const Value& doc, Variables* vars) const override {
    ASSIGN_OR_RETURN(Opt input, input_->Evaluate(doc, vars));
    ASSIGN_OR_RETURN(Opt regex, regex_->Evaluate(doc, vars));
    ASSIGN_OR_RETURN(Opt options, internal::EvalOpt(options_, doc, vars));
    // extractRegexAndOptions.
    if (!Nullish(regex) && !regex->is_string() &&
        regex->type() != ValueType::kRegex) {
      return ExprError(51105, absl::StrCat(op_,
                                           " needs 'regex' to be of type "
                                           "string or regex"));
    }
    if (!Nullish(options) && !options->is_string()) {
      return ExprError(51106, absl::StrCat(op_,
                                           " needs 'options' to be of "
                                           "type string"));
    }
    std::optional<std::string> pattern, flags;
    if (!Nullish(regex) && regex->type() == ValueType::kRegex) {
      pattern = regex->regex_value().pattern;
      const std::string& f = regex->regex_value().options;
      if (!Nullish(options) && !f.empty()) {
        return ExprError(51107, absl::StrCat(op_,
                                             ": found regex option(s) "
                                             "specified in both 'regex' "
                                             "and 'option' fields"));
      }
      if (!f.empty()) flags = f;
    } else if (!Nullish(regex)) {
      pattern = regex->string_value();
    }
    if (!Nullish(options)) flags = options->string_value();
    if (pattern && pattern->find('\0') != std::string::npos) {
      return ExprError(51109, absl::StrCat(op_,
                                           ": regular expression cannot "
                                           "contain an embedded null "
                                           "byte"));
    }
    if (flags && flags->find('\0') != std::string::npos) {
      return ExprError(51110, absl::StrCat(op_,
                                           ": regular expression options "
                                           "cannot contain an embedded "
                                           "null byte"));
    }
    std::shared_ptr<const CompiledRegex> re;
    if (pattern) {
      auto compiled = CompiledRegex::Compile(*pattern, flags.value_or(""));
      if (!compiled.ok()) {
        if (ErrorCode(compiled.status()) == 51108) {
          return ExprError(51108,
                           absl::StrCat(op_, compiled.status().message()));
        }
        std::string msg(compiled.status().message());
        const std::string prefix = "Regular expression is invalid: ";
        if (msg.rfind(prefix, 0) == 0) msg = msg.substr(prefix.size());
        return ExprError(51111,
                         absl::StrCat("Invalid Regex in ", op_, ": ", msg));
      }
      re = *compiled;
    }
    if (!Nullish(input) && !input->is_string()) {
      return ExprError(51104, absl::StrCat(op_,
                                           " needs 'input' to be of type "
                                           "string"));
    }
    if (Nullish(input) || re == nullptr) {
      switch (kind_) {
        case RegexKind::kMatch:
          return Ok(Value::Bool(false));
        case RegexKind::kFind:
          return internal::Null();
        case RegexKind::kFindAll:
          return Ok(Value::MakeArray());
      }
    }
    const std::string& text = input->string_value();
    if (kind_ == RegexKind::kMatch) {
      return Ok(Value::Bool(re->Find(text, 0).has_value()));
    }
    if (kind_ == RegexKind::kFind) {
      auto m = re->Find(text, 0);
      if (!m) return internal::Null();
      return Ok(MatchDoc(text, *m,
                         internal::CountCodePoints(
                             absl::string_view(text).substr(0, m->begin))));
    }
    // $regexFindAll: non-overlapping matches; after an empty match the
    // search resumes one code point further.
    Value::Array out;
    internal::ValueBudget budget("$regexFindAll");
    size_t start_byte = 0, start_cp = 0;
    do {
      RETURN_IF_ERROR(internal::CheckForInterrupt());
      auto m = re->Find(text, start_byte);
      if (!m) break;
      start_cp += internal::CountCodePoints(
          absl::string_view(text).substr(start_byte, m->begin - start_byte));
      start_byte = m->begin;
      out.push_back(MatchDoc(text, *m, start_cp));
      RETURN_IF_ERROR(budget.AddElement(out.size() - 1, out.back()));
      if (m->end == m->begin) {
        if (start_byte >= text.size()) continue;
        start_byte += CodePointLength(text[start_byte]);
        ++start_cp;
        continue;
      }
      start_cp += internal::CountCodePoints(
          absl::string_view(text).substr(m->begin, m->end - m->begin));
      start_byte = m->end;
    } while (start_byte < text.size());
    return Ok(Value::MakeArray(std::move(out)));
  }

 private:
  static Value MatchDoc(const std::string& text, const CompiledRegex::Match& m,
                        size_t idx) {
    Value::Array captures;
    for (const auto& g : m.groups) {
      captures.push_back(
          g ? Value::String(text.substr(g->first, g->second - g->first))
            : Value::Null());
    }
    Value::Object o;
    o.emplace_back("match",
                   Value::String(text.substr(m.begin, m.end - m.begin)));
    o.emplace_back("idx", Value::Int32(static_cast<int32_t>(idx)));
    o.emplace_back("captures", Value::MakeArray(std::move(captures)));
    return Value::MakeObject(std::move(o));
  }

  const char* op_;
  RegexKind kind_;
  ExprPtr input_, regex_, options_;
};

template <RegexKind kKind>
ParseResult ParseRegex(const Value& operand, ParseContext* ctx) {
  const char* op = kKind == RegexKind::kMatch  ? "$regexMatch"
                   : kKind == RegexKind::kFind ? "$regexFind"
                                               : "$regexFindAll";
  if (!operand.is_object()) {
    return ExprError(51103, absl::StrCat(op,
                                         " expects an object of named "
                                         "arguments but found: ",
                                         TypeName(operand.type())));
  }
  ExprPtr input, regex, options;
  for (const auto& [name, v] : operand.object_fields()) {
    if (name == "input") {
      ASSIGN_OR_RETURN(input, ParseExpression(v, ctx));
    } else if (name == "regex") {
      ASSIGN_OR_RETURN(regex, ParseExpression(v, ctx));
    } else if (name == "options") {
      ASSIGN_OR_RETURN(options, ParseExpression(v, ctx));
    } else {
      return ExprError(31024,
                       absl::StrCat(op, " found an unknown argument: ", name));
    }
  }
  if (input == nullptr) {
    return ExprError(31022, absl::StrCat(op, " requires 'input' parameter"));
  }
  if (regex == nullptr) {
    return ExprError(31023, absl::StrCat(op, " requires 'regex' parameter"));
  }
  return ExprPtr(new RegexExpr(op, kKind, std::move(input), std::move(regex),
                               std::move(options)));
}

// ---- $replaceOne, $replaceAll ----

template <bool kAll>
class ReplaceExpr : public Expression {
 public:
  ReplaceExpr(ExprPtr input, ExprPtr find, ExprPtr replacement)
      : input_(std::move(input)),
        find_(std::move(find)),
        replacement_(std::move(replacement)) {}
  ExprResult Evaluate(const Value& doc, Variables* vars) const override {
    const char* op = kAll ? "$replaceAll" : "$replaceOne";
    ASSIGN_OR_RETURN(Opt input, input_->Evaluate(doc, vars));
    ASSIGN_OR_RETURN(Opt find, find_->Evaluate(doc, vars));
    ASSIGN_OR_RETURN(Opt repl, replacement_->Evaluate(doc, vars));
    if (!Nullish(input) && !input->is_string()) {
      return ExprError(51746, absl::StrCat(op,
                                           " requires that 'input' be a "
                                           "string, found: ",
                                           DebugString(input)));
    }
    if (!Nullish(find) && !find->is_string()) {
      return ExprError(51745, absl::StrCat(op,
                                           " requires that 'find' be a "
                                           "string, found: ",
                                           DebugString(find)));
    }
    if (!Nullish(repl) && !repl->is_string()) {
      return ExprError(51744, absl::StrCat(op,
                                           " requires that 'replacement' "
                                           "be a string, found: ",
                                           DebugString(repl)));
    }
    if (Nullish(input) || Nullish(find) || Nullish(repl)) {
      return internal::Null();
    }
    const std::string& in = input->string_value();
    const std::string& f = find->string_value();
    const std::string& r = repl->string_value();
    std::string out;
    // Each replacement may be longer than what it replaces: the result is
    // bounded as it grows (kMaxValueBytes).
    auto too_long = [&] { return out.size() + 5 > kMaxValueBytes; };
    if (f.empty()) {
      // "" matches before every code point and at the end.
      if (!kAll) return Ok(Value::String(r + in));
      for (size_t i = 0; i < in.size();) {
        size_t n = std::min(CodePointLength(in[i]), in.size() - i);
        out += r;
        out.append(in, i, n);
        i += n;
        if (too_long()) {
          return internal::ValueTooLargeError(op, out.size() + 5);
        }
      }
      out += r;
      return Ok(Value::String(std::move(out)));
    }
    size_t pos = 0;
    while (true) {
      size_t hit = in.find(f, pos);
      if (hit == std::string::npos) break;
      out.append(in, pos, hit - pos);
      out += r;
      pos = hit + f.size();
      if (too_long()) return internal::ValueTooLargeError(op, out.size() + 5);
      if (!kAll) break;
    }
    out.append(in, pos, std::string::npos);
    return Ok(Value::String(std::move(out)));
  }

 private:
  ExprPtr input_, find_, replacement_;
};

template <bool kAll>
ParseResult ParseReplace(const Value& operand, ParseContext* ctx) {
  const char* op = kAll ? "$replaceAll" : "$replaceOne";
  if (!operand.is_object()) {
    return ExprError(51751, absl::StrCat(op,
                                         " requires an object as an "
                                         "argument, found: ",
                                         TypeName(operand.type())));
  }
  ExprPtr input, find, replacement;
  for (const auto& [name, v] : operand.object_fields()) {
    if (name == "input") {
      ASSIGN_OR_RETURN(input, ParseExpression(v, ctx));
    } else if (name == "find") {
      ASSIGN_OR_RETURN(find, ParseExpression(v, ctx));
    } else if (name == "replacement") {
      ASSIGN_OR_RETURN(replacement, ParseExpression(v, ctx));
    } else {
      return ExprError(51750,
                       absl::StrCat(op, " found an unknown argument: ", name));
    }
  }
  if (input == nullptr) {
    return ExprError(51749, absl::StrCat(op,
                                         " requires 'input' to be "
                                         "specified"));
  }
  if (find == nullptr) {
    return ExprError(51748, absl::StrCat(op,
                                         " requires 'find' to be "
                                         "specified"));
  }
  if (replacement == nullptr) {
    return ExprError(51747, absl::StrCat(op,
                                         " requires 'replacement' to be "
                                         "specified"));
  }
  return ExprPtr(new ReplaceExpr<kAll>(std::move(input), std::move(find),
                                       std::move(replacement)));
}

ExprResult BinarySize(std::vector<Opt>& a) {
  if (Nullish(a[0])) return internal::Null();
  if (a[0]->is_string()) {
    return Ok(Value::Int32(static_cast<int32_t>(a[0]->string_value().size())));
  }
  if (a[0]->type() == ValueType::kBinary) {
    return Ok(
        Value::Int32(static_cast<int32_t>(a[0]->binary_value().data.size())));
  }
  return ExprError(51276, absl::StrCat("$binarySize requires a string or "
                                       "BinData argument, found: ",
                                       TypeNameOf(a[0])));
}

}  // namespace

void RegisterStringOperators() {
  RegisterOperator("$replaceOne", ParseReplace<false>);
  RegisterOperator("$replaceAll", ParseReplace<true>);
  TTLDB_REGISTER_EAGER("$binarySize", 1, 1, BinarySize);
  TTLDB_REGISTER_EAGER("$concat", 0, -1, Concat);
  TTLDB_REGISTER_EAGER("$strcasecmp", 2, 2, Strcasecmp);
  TTLDB_REGISTER_EAGER("$substrBytes", 3, 3, SubstrBytes<false>);
  TTLDB_REGISTER_EAGER("$substr", 3, 3, SubstrBytes<true>);
  TTLDB_REGISTER_EAGER("$substrCP", 3, 3, SubstrCP);
  TTLDB_REGISTER_EAGER("$toLower", 1, 1, ChangeCase<false>);
  TTLDB_REGISTER_EAGER("$toUpper", 1, 1, ChangeCase<true>);
  TTLDB_REGISTER_EAGER("$strLenBytes", 1, 1, StrLenBytes);
  TTLDB_REGISTER_EAGER("$strLenCP", 1, 1, StrLenCP);
  TTLDB_REGISTER_EAGER("$split", 2, 2, Split);
  TTLDB_REGISTER_EAGER("$indexOfBytes", 2, 4, IndexOf<false>);
  TTLDB_REGISTER_EAGER("$indexOfCP", 2, 4, IndexOf<true>);
  RegisterOperator("$trim", ParseTrim<TrimKind::kBoth>);
  RegisterOperator("$ltrim", ParseTrim<TrimKind::kLeft>);
  RegisterOperator("$rtrim", ParseTrim<TrimKind::kRight>);
  RegisterOperator("$regexMatch", ParseRegex<RegexKind::kMatch>);
  RegisterOperator("$regexFind", ParseRegex<RegexKind::kFind>);
  RegisterOperator("$regexFindAll", ParseRegex<RegexKind::kFindAll>);
}

}  // namespace agg
}  // namespace ttldb
