#include "query/filter.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <utility>

#include "absl/strings/str_cat.h"
#include "base/status.h"
#include "document/collator.h"
#include "document/compare.h"
#include "query/path_values.h"

namespace ttldb {
namespace {

using Kind = MatchExpr::Kind;
using query_internal::CollectValues;
using query_internal::SplitDotted;

bool StartsWithDollar(absl::string_view s) { return !s.empty() && s[0] == '$'; }

// An operator document: non-empty and its first field starts with '$'.
bool IsOperatorDoc(const Value& v) {
  return v.is_object() && !v.object_fields().empty() &&
         StartsWithDollar(v.object_fields()[0].first);
}

bool IsDBRefField(absl::string_view name) {
  return name == "$ref" || name == "$id" || name == "$db";
}

MatchExpr Leaf(Kind kind, absl::string_view path, Value operand) {
  MatchExpr e;
  e.kind = kind;
  e.path = std::string(path);
  if (!path.empty()) e.parts = SplitDotted(path);
  e.operand = std::move(operand);
  return e;
}

absl::StatusOr<MatchExpr> RegexLeaf(absl::string_view path,
                                    const std::string& pattern,
                                    const std::string& options) {
  ASSIGN_OR_RETURN(auto compiled, CompiledRegex::Compile(pattern, options));
  std::string sorted = options;
  std::sort(sorted.begin(), sorted.end());
  MatchExpr e = Leaf(Kind::kRegex, path, Value::Re(Regex{pattern, sorted}));
  e.regexes.push_back(std::move(compiled));
  return e;
}

// $type names and numbers.
bool TypeCodeFromName(absl::string_view name, int* code) {
  static const std::pair<const char*, int> kNames[] = {
      {"double", 1},      {"string", 2},     {"object", 3},
      {"array", 4},       {"binData", 5},    {"undefined", 6},
      {"objectId", 7},    {"bool", 8},       {"date", 9},
      {"null", 10},       {"regex", 11},     {"dbPointer", 12},
      {"javascript", 13}, {"symbol", 14},    {"javascriptWithScope", 15},
      {"int", 16},        {"timestamp", 17}, {"long", 18},
      {"decimal", 19},    {"minKey", -1},    {"maxKey", 127},
      {"number", 0},
  };
  for (const auto& [n, c] : kNames) {
    if (name == n) {
      *code = c;
      return true;
    }
  }
  return false;
}

int TypeCodeOf(ValueType t) {
  switch (t) {
    case ValueType::kMinKey:
      return -1;
    case ValueType::kNull:
      return 10;
    case ValueType::kInt32:
      return 16;
    case ValueType::kInt64:
      return 18;
    case ValueType::kDouble:
      return 1;
    case ValueType::kString:
      return 2;
    case ValueType::kObject:
      return 3;
    case ValueType::kArray:
      return 4;
    case ValueType::kBinary:
      return 5;
    case ValueType::kObjectId:
      return 7;
    case ValueType::kBool:
      return 8;
    case ValueType::kDate:
      return 9;
    case ValueType::kTimestamp:
      return 17;
    case ValueType::kRegex:
      return 11;
    case ValueType::kMaxKey:
      return 127;
    case ValueType::kDecimal:
      return 19;
  }
  return -2;
}

absl::Status ParseTypeCode(const Value& v, std::vector<int>* out) {
  if (v.is_string()) {
    int code;
    if (!TypeCodeFromName(v.string_value(), &code)) {
      return MongoInvalidArgument(
          kBadValue,
          absl::StrCat("Unknown type name alias: ", v.string_value()));
    }
    out->push_back(code);
    return absl::OkStatus();
  }
  if (v.is_number()) {
    const double d = v.AsDouble();
    // Range-checked first: casting a double outside int's range is
    // undefined (found by fuzz/filter_fuzz).
    const bool in_range = d >= -1 && d <= 127;
    const int code = in_range ? static_cast<int>(d) : 0;
    static const int kValid[] = {1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11,
                                 12, 13, 14, 15, 16, 17, 18, 19, -1, 127};
    bool ok = in_range && d == static_cast<double>(code);
    if (ok) {
      ok = false;
      for (int c : kValid) ok = ok || c == code;
    }
    if (!ok) {
      return MongoInvalidArgument(
          kBadValue,
          absl::StrCat("Invalid numerical type code: ",
                       v.type() == ValueType::kDouble ? absl::StrCat(d)
                       : v.type() == ValueType::kDecimal
                           ? v.decimal_value().ToString()
                           : absl::StrCat(v.int64_value())));
    }
    out->push_back(code);
    return absl::OkStatus();
  }
  return MongoError(absl::StatusCode::kInvalidArgument, kTypeMismatch,
                    "type must be represented as a number or a string");
}

bool Truthy(const Value& v) {
  switch (v.type()) {
    case ValueType::kNull:
      return false;
    case ValueType::kBool:
      return v.bool_value();
    case ValueType::kInt32:
    case ValueType::kInt64:
      return v.int64_value() != 0;
    case ValueType::kDouble:
      return v.double_value() != 0;
    case ValueType::kDecimal:
      return !v.decimal_value().IsZero();
    default:
      return true;
  }
}

absl::Status ParseTopLevel(const Value& doc, std::vector<MatchExpr>* out,
                           bool top = false);
absl::Status ParseOperators(absl::string_view path, const Value& ops,
                            std::vector<MatchExpr>* out);

absl::StatusOr<MatchExpr> ParseElemMatch(absl::string_view path,
                                         const Value& arg) {
  if (!arg.is_object())
    return MongoInvalidArgument(kBadValue, "$elemMatch needs an Object");
  MatchExpr e = Leaf(Kind::kElemMatch, path, Value());
  const auto& fields = arg.object_fields();
  bool value_form = false;
  if (!fields.empty() && StartsWithDollar(fields[0].first)) {
    const std::string& first = fields[0].first;
    value_form = first != "$and" && first != "$or" && first != "$nor" &&
                 first != "$comment" && first != "$where" && first != "$expr";
    // expression_parser.cpp isExpressionDocument(e, allowIncompleteDBRef):
    // a document naming a DBRef field ($ref, $id, $db) is an object match.
    for (const auto& [name, v] : fields) {
      if (IsDBRefField(name)) value_form = false;
    }
  }
  if (value_form) {
    RETURN_IF_ERROR(ParseOperators("", arg, &e.children));
  } else {
    e.elem_match_object = true;
    RETURN_IF_ERROR(ParseTopLevel(arg, &e.children, /*top=*/false));
  }
  return e;
}

// BSONElement::tryCoerce to long long, as parseMOD uses it: doubles are
// truncated; NaN, Infinity and values outside [-2^63, 2^63] are errors.
absl::StatusOr<int64_t> CoerceToLong(const Value& v) {
  if (v.type() == ValueType::kDecimal) {
    // Decimals alike: truncated, NaN/Infinity and out-of-range refused.
    const Decimal128& d = v.decimal_value();
    if (d.IsNaN() || d.IsInfinite()) {
      return MongoInvalidArgument(kBadValue,
                                  "Unable to coerce NaN/Inf to integral type");
    }
    int64_t n;
    if (!d.TruncToInt64(&n)) {
      return MongoInvalidArgument(kBadValue,
                                  "Out of bounds coercing to integral value");
    }
    return n;
  }
  if (v.type() != ValueType::kDouble) return v.int64_value();
  const double d = v.double_value();
  if (!std::isfinite(d)) {
    return MongoInvalidArgument(kBadValue,
                                "Unable to coerce NaN/Inf to integral type");
  }
  // MongoDB checks d > (double)INT64_MAX, which is 2^63, so 2^63 itself
  // passes and its cast gives INT64_MIN on the x86-64 and ARM64 servers
  // MongoDB ships for (ttldb spells that out to avoid the undefined cast).
  constexpr double kTwo63 = 9223372036854775808.0;
  if (d > kTwo63 || d < -kTwo63) {
    return MongoInvalidArgument(kBadValue,
                                "Out of bounds coercing to integral value");
  }
  if (d == kTwo63) return INT64_MIN;
  return static_cast<int64_t>(d);
}

// src/mongo/db/matcher/expression_parser.cpp parseMOD, checks in its order.
absl::Status ParseMod(absl::string_view path, const Value& arg,
                      std::vector<MatchExpr>* out) {
  if (!arg.is_array())
    return MongoInvalidArgument(kBadValue,
                                "malformed mod, needs to be an array");
  const auto& items = arg.array_items();
  if (items.empty())
    return MongoInvalidArgument(kBadValue,
                                "malformed mod, not enough elements");
  if (!items[0].is_number()) {
    return MongoInvalidArgument(kBadValue,
                                "malformed mod, divisor not a number");
  }
  if (items.size() < 2)
    return MongoInvalidArgument(kBadValue,
                                "malformed mod, not enough elements");
  if (!items[1].is_number()) {
    return MongoInvalidArgument(kBadValue,
                                "malformed mod, remainder not a number");
  }
  if (items.size() > 2)
    return MongoInvalidArgument(kBadValue, "malformed mod, too many elements");
  absl::StatusOr<int64_t> divisor = CoerceToLong(items[0]);
  if (!divisor.ok()) {
    return MongoInvalidArgument(
        kBadValue,
        absl::StrCat("malformed mod, divisor value is invalid :: caused by :: ",
                     divisor.status().message()));
  }
  absl::StatusOr<int64_t> remainder = CoerceToLong(items[1]);
  if (!remainder.ok()) {
    return MongoInvalidArgument(
        kBadValue,
        absl::StrCat(
            "malformed mod, remainder value is invalid :: caused by :: ",
            remainder.status().message()));
  }
  if (*divisor == 0)
    return MongoInvalidArgument(kBadValue, "divisor cannot be 0");
  out->push_back(Leaf(
      Kind::kMod, path,
      Value::MakeArray({Value::Int64(*divisor), Value::Int64(*remainder)})));
  return absl::OkStatus();
}

absl::Status ParseOneOperator(absl::string_view path, absl::string_view op,
                              const Value& arg, const Value& ops,
                              std::vector<MatchExpr>* out) {
  static const std::pair<const char*, Kind> kComparisons[] = {
      {"$eq", Kind::kEq},   {"$ne", Kind::kNe}, {"$gt", Kind::kGt},
      {"$gte", Kind::kGte}, {"$lt", Kind::kLt}, {"$lte", Kind::kLte},
  };
  for (const auto& [name, kind] : kComparisons) {
    if (op != name) continue;
    if (kind == Kind::kNe && arg.type() == ValueType::kRegex) {
      return MongoInvalidArgument(kBadValue, "Can't have regex as arg to $ne.");
    }
    out->push_back(Leaf(kind, path, arg));
    return absl::OkStatus();
  }
  if (op == "$in" || op == "$nin") {
    if (!arg.is_array())
      return MongoInvalidArgument(kBadValue,
                                  absl::StrCat(op, " needs an array"));
    MatchExpr e = Leaf(op == "$in" ? Kind::kIn : Kind::kNin, path, Value());
    for (const Value& item : arg.array_items()) {
      if (IsOperatorDoc(item))
        return MongoInvalidArgument(kBadValue, "cannot nest $ under $in");
      std::shared_ptr<const CompiledRegex> re;
      if (item.type() == ValueType::kRegex) {
        ASSIGN_OR_RETURN(re,
                         CompiledRegex::Compile(item.regex_value().pattern,
                                                item.regex_value().options));
      }
      e.operands.push_back(item);
      e.regexes.push_back(std::move(re));
    }
    auto set = std::make_shared<MatchExpr::InSet>();
    for (size_t i = 0; i < e.operands.size(); ++i) {
      if (e.regexes[i] != nullptr) {
        set->regex_indexes.push_back(i);
      } else if (e.operands[i].is_null()) {
        set->has_null = true;
      } else {
        set->sorted.push_back(e.operands[i]);
      }
    }
    std::sort(
        set->sorted.begin(), set->sorted.end(),
        [](const Value& a, const Value& b) { return CompareValues(a, b) < 0; });
    e.in_set = std::move(set);
    out->push_back(std::move(e));
    return absl::OkStatus();
  }
  if (op == "$exists") {
    out->push_back(Leaf(Kind::kExists, path, Value::Bool(Truthy(arg))));
    return absl::OkStatus();
  }
  if (op == "$type") {
    MatchExpr e = Leaf(Kind::kType, path, arg);
    if (arg.is_array()) {
      for (const Value& t : arg.array_items()) {
        RETURN_IF_ERROR(ParseTypeCode(t, &e.type_codes));
      }
    } else {
      RETURN_IF_ERROR(ParseTypeCode(arg, &e.type_codes));
    }
    out->push_back(std::move(e));
    return absl::OkStatus();
  }
  if (op == "$size") {
    if (!arg.is_number())
      return MongoInvalidArgument(kBadValue, "$size needs a number");
    int64_t n;
    if (arg.type() == ValueType::kDouble || arg.type() == ValueType::kDecimal) {
      const double d = arg.AsDouble();
      if (d != std::floor(d) || std::isinf(d)) {
        return MongoInvalidArgument(kBadValue, "$size must be a whole number");
      }
      // Beyond int64 the cast is undefined (found by fuzz/filter_fuzz.cc).
      if (std::fabs(d) >= 9223372036854775808.0) {
        return MongoInvalidArgument(
            kBadValue,
            absl::StrCat(
                "Failed to parse $size. Cannot represent as a 64-bit integer: "
                "$size: ",
                d));
      }
      n = static_cast<int64_t>(d);
    } else {
      n = arg.int64_value();
    }
    if (n < 0)
      return MongoInvalidArgument(kBadValue, "$size may not be negative");
    out->push_back(Leaf(Kind::kSize, path, Value::Int64(n)));
    return absl::OkStatus();
  }
  if (op == "$all") {
    if (!arg.is_array())
      return MongoInvalidArgument(kBadValue, "$all needs an array");
    MatchExpr e = Leaf(Kind::kAll, path, Value());
    const auto& items = arg.array_items();
    const bool elem_match = !items.empty() && items[0].is_object() &&
                            !items[0].object_fields().empty() &&
                            items[0].object_fields()[0].first == "$elemMatch";
    for (const Value& item : items) {
      e.operands.push_back(item);
      const bool is_em = item.is_object() && !item.object_fields().empty() &&
                         item.object_fields()[0].first == "$elemMatch";
      if (is_em != elem_match) {
        return MongoInvalidArgument(kBadValue,
                                    "$all/$elemMatch has to be consistent");
      }
      if (is_em) {
        ASSIGN_OR_RETURN(MatchExpr em,
                         ParseElemMatch(path, item.object_fields()[0].second));
        e.children.push_back(std::move(em));
      } else if (item.type() == ValueType::kRegex) {
        ASSIGN_OR_RETURN(MatchExpr re,
                         RegexLeaf(path, item.regex_value().pattern,
                                   item.regex_value().options));
        e.children.push_back(std::move(re));
      } else if (IsOperatorDoc(item)) {
        return MongoInvalidArgument(kBadValue, "no $ expressions in $all");
      } else {
        e.children.push_back(Leaf(Kind::kEq, path, item));
      }
    }
    out->push_back(std::move(e));
    return absl::OkStatus();
  }
  if (op == "$elemMatch") {
    ASSIGN_OR_RETURN(MatchExpr e, ParseElemMatch(path, arg));
    out->push_back(std::move(e));
    return absl::OkStatus();
  }
  if (op == "$not") {
    MatchExpr e = Leaf(Kind::kNot, path, Value());
    MatchExpr inner;
    inner.kind = Kind::kAnd;
    if (arg.type() == ValueType::kRegex) {
      ASSIGN_OR_RETURN(MatchExpr re, RegexLeaf(path, arg.regex_value().pattern,
                                               arg.regex_value().options));
      inner.children.push_back(std::move(re));
    } else if (arg.is_object()) {
      if (arg.object_fields().empty())
        return MongoInvalidArgument(kBadValue, "$not cannot be empty");
      RETURN_IF_ERROR(ParseOperators(path, arg, &inner.children));
    } else {
      return MongoInvalidArgument(kBadValue,
                                  "$not needs a regex or a document");
    }
    e.children.push_back(std::move(inner));
    out->push_back(std::move(e));
    return absl::OkStatus();
  }
  if (op == "$regex") {
    const Value* options = ops.Get("$options");
    std::string opts;
    if (options != nullptr) {
      if (!options->is_string())
        return MongoInvalidArgument(kBadValue, "$options has to be a string");
      opts = options->string_value();
    }
    if (arg.is_string()) {
      ASSIGN_OR_RETURN(MatchExpr e, RegexLeaf(path, arg.string_value(), opts));
      out->push_back(std::move(e));
      return absl::OkStatus();
    }
    if (arg.type() == ValueType::kRegex) {
      if (options != nullptr && !arg.regex_value().options.empty()) {
        return MongoInvalidArgument(kBadValue,
                                    "options set in both $regex and $options");
      }
      ASSIGN_OR_RETURN(
          MatchExpr e,
          RegexLeaf(path, arg.regex_value().pattern,
                    options != nullptr ? opts : arg.regex_value().options));
      out->push_back(std::move(e));
      return absl::OkStatus();
    }
    return MongoInvalidArgument(kBadValue, "$regex has to be a string");
  }
  if (op == "$options") {
    if (ops.Get("$regex") == nullptr)
      return MongoInvalidArgument(kBadValue, "$options needs a $regex");
    return absl::OkStatus();  // consumed by $regex
  }
  if (op == "$mod") return ParseMod(path, arg, out);
  return MongoInvalidArgument(kBadValue,
                              absl::StrCat("unknown operator: ", op));
}

// Parses the operators of {path: {$op: arg, ...}} into *out, one leaf each.
absl::Status ParseOperators(absl::string_view path, const Value& ops,
                            std::vector<MatchExpr>* out) {
  for (const auto& [op, arg] : ops.object_fields()) {
    RETURN_IF_ERROR(ParseOneOperator(path, op, arg, ops, out));
  }
  return absl::OkStatus();
}

absl::Status ParseLogical(absl::string_view op, const Value& arg,
                          std::vector<MatchExpr>* out, bool top) {
  if (!arg.is_array() || arg.array_items().empty()) {
    return MongoInvalidArgument(kBadValue,
                                absl::StrCat(op, " must be a nonempty array"));
  }
  MatchExpr e;
  e.kind = op == "$and" ? Kind::kAnd : op == "$or" ? Kind::kOr : Kind::kNor;
  for (const Value& item : arg.array_items()) {
    if (!item.is_object()) {
      return MongoInvalidArgument(
          kBadValue, "$or/$and/$nor entries need to be full objects");
    }
    MatchExpr child;
    child.kind = Kind::kAnd;
    RETURN_IF_ERROR(ParseTopLevel(item, &child.children, top));
    e.children.push_back(std::move(child));
  }
  out->push_back(std::move(e));
  return absl::OkStatus();
}

// The $$NOW that $expr nodes being parsed on this thread see (set by
// Filter::Parse).
thread_local int64_t parse_now_millis = 0;

// {$expr: <expression>} (src/mongo/db/matcher/expression_parser.cpp
// parseExpr: only at the top level of a query, $and/$or/$nor included).
absl::Status ParseExprNode(const Value& spec, bool top,
                           std::vector<MatchExpr>* out) {
  if (!top) {
    return MongoInvalidArgument(
        kBadValue, "$expr can only be applied to the top-level document");
  }
  agg::ParseContext ctx;
  ASSIGN_OR_RETURN(std::unique_ptr<agg::Expression> expr,
                   agg::ParseExpression(spec, &ctx));
  MatchExpr e;
  e.kind = Kind::kExpr;
  e.operand = spec;
  e.expr = std::shared_ptr<const agg::Expression>(std::move(expr));
  e.now_millis = parse_now_millis;
  out->push_back(std::move(e));
  return absl::OkStatus();
}

// {$jsonSchema: <schema>} (matcher/expression_parser.cpp
// parseJSONSchema): only at the top level of a query.
absl::Status ParseJsonSchemaNode(const Value& spec, bool top,
                                 std::vector<MatchExpr>* out) {
  if (!top) {
    return MongoInvalidArgument(
        kBadValue, "$jsonSchema can only be applied to the top-level document");
  }
  MatchExpr e;
  e.kind = Kind::kJsonSchema;
  ASSIGN_OR_RETURN(e.schema, JsonSchema::Parse(spec));
  e.operand = spec;
  out->push_back(std::move(e));
  return absl::OkStatus();
}

// The first $expr evaluation error of the current Matches call on this
// thread (MatchesOrError reads it; Matches ignores it).
thread_local absl::Status* expr_error = nullptr;

bool EvalExprNode(const MatchExpr& e, const Value& doc) {
  agg::Variables vars(&doc, e.now_millis);
  vars.set_collator(e.collator.get());
  agg::ExprResult r = e.expr->Evaluate(doc, &vars);
  if (!r.ok()) {
    if (expr_error != nullptr && expr_error->ok()) *expr_error = r.status();
    return false;
  }
  return agg::IsTruthy(*r);
}

absl::Status ParseTopLevel(const Value& doc, std::vector<MatchExpr>* out,
                           bool top) {
  for (const auto& [name, v] : doc.object_fields()) {
    if (StartsWithDollar(name)) {
      if (name == "$and" || name == "$or" || name == "$nor") {
        RETURN_IF_ERROR(ParseLogical(name, v, out, top));
      } else if (name == "$expr") {
        RETURN_IF_ERROR(ParseExprNode(v, top, out));
      } else if (name == "$jsonSchema") {
        RETURN_IF_ERROR(ParseJsonSchemaNode(v, top, out));
      } else if (name == "$comment") {
        continue;
      } else if (!top && IsDBRefField(name)) {
        // A DBRef's field inside $elemMatch ({x: {$elemMatch: {$id: 1}}}).
        if (IsOperatorDoc(v)) {
          RETURN_IF_ERROR(ParseOperators(name, v, out));
        } else {
          out->push_back(Leaf(Kind::kEq, name, v));
        }
      } else if (name == "$alwaysTrue" || name == "$alwaysFalse") {
        // matcher/expression_parser.cpp parseAlwaysBoolean: only the
        // integer 1 (a whole double counts).
        if (!v.is_number() || v.type() == ValueType::kDecimal ||
            v.AsDouble() != 1) {
          return MongoError(
              absl::StatusCode::kInvalidArgument, kFailedToParse,
              absl::StrCat(name, " must be an integer value of 1"));
        }
        MatchExpr e;
        e.kind = name == "$alwaysTrue" ? Kind::kAlwaysTrue : Kind::kAlwaysFalse;
        out->push_back(std::move(e));
      } else {
        // MongoDB's text (matcher/expression_parser.cpp, since 5.0).
        return MongoInvalidArgument(
            kBadValue,
            absl::StrCat(
                "unknown top level operator: ", name,
                ". If you have a field name that starts with a '$' symbol, "
                "consider using $getField or $setField."));
      }
    } else if (IsOperatorDoc(v)) {
      RETURN_IF_ERROR(ParseOperators(name, v, out));
    } else if (v.type() == ValueType::kRegex) {
      ASSIGN_OR_RETURN(MatchExpr e, RegexLeaf(name, v.regex_value().pattern,
                                              v.regex_value().options));
      out->push_back(std::move(e));
    } else {
      out->push_back(Leaf(Kind::kEq, name, v));
    }
  }
  return absl::OkStatus();
}

// ---- Evaluation ----------------------------------------------------------

bool EvalDoc(const MatchExpr& e, const Value& doc);

bool EqualsOperand(const Value& operand, const Value* v,
                   const Collator* collator) {
  if (operand.is_null()) return v == nullptr || v->is_null();
  return v != nullptr && CompareValues(*v, operand, collator) == 0;
}

bool RegexMatches(const MatchExpr& e, size_t i, const Value& v) {
  const Value& operand = e.kind == Kind::kRegex ? e.operand : e.operands[i];
  if (v.is_string()) return e.regexes[i]->Search(v.string_value());
  if (v.type() == ValueType::kRegex) {
    return v.regex_value().pattern == operand.regex_value().pattern &&
           v.regex_value().options == operand.regex_value().options;
  }
  return false;
}

bool InList(const MatchExpr& e, const Value* v) {
  if (e.in_set != nullptr) {
    const MatchExpr::InSet& set = *e.in_set;
    if (v == nullptr || v->is_null()) {
      if (set.has_null) return true;
    }
    if (v == nullptr) return false;
    const Collator* collator = e.collator.get();
    if (std::binary_search(set.sorted.begin(), set.sorted.end(), *v,
                           [collator](const Value& a, const Value& b) {
                             return CompareValues(a, b, collator) < 0;
                           })) {
      return true;
    }
    for (size_t i : set.regex_indexes) {
      if (RegexMatches(e, i, *v)) return true;
    }
    return false;
  }
  for (size_t i = 0; i < e.operands.size(); ++i) {
    if (e.regexes[i] != nullptr) {
      if (v != nullptr && RegexMatches(e, i, *v)) return true;
    } else if (EqualsOperand(e.operands[i], v, e.collator.get())) {
      return true;
    }
  }
  return false;
}

// MongoDB tests std::isnan(numberDouble()), which a decimal NaN passes too.
bool IsNaN(const Value& v) {
  return (v.type() == ValueType::kDouble && std::isnan(v.double_value())) ||
         (v.type() == ValueType::kDecimal && v.decimal_value().IsNaN());
}

// $gt $gte $lt $lte on one value (nullptr: the field is missing), as
// src/mongo/db/matcher/expression_leaf.cpp ComparisonMatchExpression::
// matchesSingleElement decides it.
bool Compare(const MatchExpr& e, const Value* v) {
  const bool greater = e.kind == Kind::kGt || e.kind == Kind::kGte;
  const ValueType rhs_type = e.operand.type();
  // Comparing with MinKey or MaxKey is not type-bracketed: $gt/$gte MinKey
  // and $lt/$lte MaxKey match every other value, and a missing field (EOO,
  // whose canonical type differs from both).
  if (v == nullptr ||
      CanonicalTypeOrder(v->type()) != CanonicalTypeOrder(e.operand.type())) {
    if (rhs_type == ValueType::kMinKey) return greater;
    if (rhs_type == ValueType::kMaxKey) return !greater;
    // null and missing are treated the same.
    return v == nullptr && e.operand.is_null() &&
           (e.kind == Kind::kGte || e.kind == Kind::kLte);
  }
  // NaN equals NaN but otherwise compares false, although NaN sorts below
  // every number.
  const bool lhs_nan = IsNaN(*v);
  const bool rhs_nan = IsNaN(e.operand);
  if (lhs_nan || rhs_nan) {
    return (e.kind == Kind::kGte || e.kind == Kind::kLte) && lhs_nan && rhs_nan;
  }
  const int c = CompareValues(*v, e.operand, e.collator.get());
  switch (e.kind) {
    case Kind::kGt:
      return c > 0;
    case Kind::kGte:
      return c >= 0;
    case Kind::kLt:
      return c < 0;
    default:
      return c <= 0;
  }
}

bool ModMatches(const MatchExpr& e, const Value& v) {
  if (!v.is_number()) return false;
  int64_t x;
  if (v.type() == ValueType::kDouble) {
    // ModMatchExpression::matchesSingleElement: no match unless the
    // truncated value is representable as a long long.
    const double d = std::trunc(v.double_value());
    if (!std::isfinite(d) || d >= 9223372036854775808.0 ||
        d < -9223372036854775808.0) {
      return false;
    }
    x = static_cast<int64_t>(d);
  } else if (v.type() == ValueType::kDecimal) {
    // expression_leaf.cpp: a decimal dividend is truncated toward zero; NaN,
    // infinities and values outside int64 match nothing.
    if (v.decimal_value().IsNaN() || v.decimal_value().IsInfinite() ||
        !v.decimal_value().TruncToInt64(&x)) {
      return false;
    }
  } else {
    x = v.int64_value();
  }
  const int64_t divisor = e.operand.array_items()[0].int64_value();
  const int64_t remainder = e.operand.array_items()[1].int64_value();
  if (divisor == -1) return remainder == 0;  // avoids INT64_MIN % -1
  return x % divisor == remainder;
}

// Whether one value (nullptr: missing) satisfies the leaf, without looking
// into arrays (MongoDB's matchesSingleElement).
bool EvalElement(const MatchExpr& e, const Value* v) {
  switch (e.kind) {
    case Kind::kAnd:
      for (const MatchExpr& c : e.children) {
        if (!EvalElement(c, v)) return false;
      }
      return true;
    case Kind::kOr:
      for (const MatchExpr& c : e.children) {
        if (EvalElement(c, v)) return true;
      }
      return false;
    case Kind::kNor:
      for (const MatchExpr& c : e.children) {
        if (EvalElement(c, v)) return false;
      }
      return true;
    case Kind::kNot:
      return !EvalElement(e.children[0], v);
    case Kind::kEq:
      return EqualsOperand(e.operand, v, e.collator.get());
    case Kind::kNe:
      return !EqualsOperand(e.operand, v, e.collator.get());
    case Kind::kGt:
    case Kind::kGte:
    case Kind::kLt:
    case Kind::kLte:
      return Compare(e, v);
    case Kind::kIn:
      return InList(e, v);
    case Kind::kNin:
      return !InList(e, v);
    case Kind::kExists:
      return (v != nullptr) == e.operand.bool_value();
    case Kind::kType: {
      if (v == nullptr) return false;
      const int code = TypeCodeOf(v->type());
      for (int t : e.type_codes) {
        if (t == code || (t == 0 && v->is_number())) return true;
      }
      return false;
    }
    case Kind::kAll: {
      if (e.children.empty()) return false;
      for (const MatchExpr& c : e.children) {
        bool ok = EvalElement(c, v);
        if (!ok && v != nullptr && v->is_array()) {
          for (const Value& item : v->array_items()) {
            ok = ok || EvalElement(c, &item);
          }
        }
        if (!ok) return false;
      }
      return true;
    }
    case Kind::kSize:
      return v != nullptr && v->is_array() &&
             static_cast<int64_t>(v->array_items().size()) ==
                 e.operand.int64_value();
    case Kind::kElemMatch:
      if (v == nullptr || !v->is_array()) return false;
      for (const Value& item : v->array_items()) {
        bool ok = true;
        if (e.elem_match_object) {
          // MongoDB's ElemMatchObjectMatchExpression::matchesArray skips
          // only elements that are not BSON objects: an array element is
          // matched as the object {"0": ..., "1": ...}.
          if (!item.is_object() && !item.is_array()) continue;
          for (const MatchExpr& c : e.children) ok = ok && EvalDoc(c, item);
        } else {
          for (const MatchExpr& c : e.children)
            ok = ok && EvalElement(c, &item);
        }
        if (ok) return true;
      }
      return false;
    case Kind::kRegex:
      return v != nullptr && RegexMatches(e, 0, *v);
    case Kind::kMod:
      return v != nullptr && ModMatches(e, *v);
    case Kind::kAlwaysTrue:
      return true;
    case Kind::kAlwaysFalse:
      return false;
    case Kind::kExpr:
    case Kind::kJsonSchema:
      // Never below a path (both are only parsed at the top).
      return false;
  }
  return false;
}

// Whether some value the leaf's path reaches in `doc` satisfies it.
bool AnyValue(const MatchExpr& e, const Value& doc, bool expand) {
  // A path through objects only (most documents, most paths) reaches one
  // value or none: CollectValues' walk without its list. An array on the
  // way takes the full walk.
  const Value* cur = &doc;
  bool array = !doc.is_object();  // an array element as the root: full walk
  for (size_t k = 0; !array && k < e.parts.size(); ++k) {
    const Value* f = cur->is_object() ? cur->Get(e.parts[k]) : nullptr;
    if (f == nullptr) return EvalElement(e, nullptr);
    if (f->is_array()) {
      array = true;
      break;
    }
    if (!f->is_object() && k + 1 < e.parts.size()) {
      return EvalElement(e, nullptr);  // a scalar with path left over
    }
    cur = f;
  }
  if (!array) return EvalElement(e, cur);
  std::vector<const Value*> values;
  CollectValues(doc, e.parts, expand, &values);
  for (const Value* v : values) {
    if (EvalElement(e, v)) return true;
  }
  return false;
}

bool EvalDoc(const MatchExpr& e, const Value& doc) {
  switch (e.kind) {
    case Kind::kAnd:
      for (const MatchExpr& c : e.children) {
        if (!EvalDoc(c, doc)) return false;
      }
      return true;
    case Kind::kOr:
      for (const MatchExpr& c : e.children) {
        if (EvalDoc(c, doc)) return true;
      }
      return false;
    case Kind::kNor:
      for (const MatchExpr& c : e.children) {
        if (EvalDoc(c, doc)) return false;
      }
      return true;
    case Kind::kNot:
      return !EvalDoc(e.children[0], doc);
    case Kind::kNe:
    case Kind::kNin: {
      // Negations over the whole path: no reached value may equal.
      std::vector<const Value*> values;
      CollectValues(doc, e.parts, true, &values);
      for (const Value* v : values) {
        if (e.kind == Kind::kNe ? EqualsOperand(e.operand, v, e.collator.get())
                                : InList(e, v)) {
          return false;
        }
      }
      return true;
    }
    case Kind::kExists: {
      std::vector<const Value*> values;
      CollectValues(doc, e.parts, false, &values);
      bool exists = false;
      for (const Value* v : values) exists = exists || v != nullptr;
      return exists == e.operand.bool_value();
    }
    case Kind::kAll:
      if (e.children.empty()) return false;
      for (const MatchExpr& c : e.children) {
        if (!EvalDoc(c, doc)) return false;
      }
      return true;
    case Kind::kSize:
    case Kind::kElemMatch:
      return AnyValue(e, doc, false);
    case Kind::kAlwaysTrue:
      return true;
    case Kind::kAlwaysFalse:
      return false;
    case Kind::kExpr:
      return EvalExprNode(e, doc);
    case Kind::kJsonSchema:
      return e.schema->Matches(doc);
    default:
      return AnyValue(e, doc, true);
  }
}

}  // namespace

bool ComparisonMatches(const MatchExpr& e, const Value* v) {
  return Compare(e, v);
}

absl::StatusOr<Filter> Filter::Parse(const Value& filter_doc) {
  return Parse(filter_doc, absl::Now());
}

namespace {

// Gives every node the collation its comparisons use, and orders $in's set
// by it.
void SetCollator(const std::shared_ptr<const Collator>& collator,
                 MatchExpr* e) {
  e->collator = collator;
  for (MatchExpr& c : e->children) SetCollator(collator, &c);
  if (e->in_set != nullptr) {
    auto set = std::make_shared<MatchExpr::InSet>(*e->in_set);
    const Collator* raw = collator.get();
    std::sort(set->sorted.begin(), set->sorted.end(),
              [raw](const Value& a, const Value& b) {
                return CompareValues(a, b, raw) < 0;
              });
    e->in_set = std::move(set);
  }
}

}  // namespace

absl::StatusOr<Filter> Filter::Parse(const Value& filter_doc, absl::Time now,
                                     std::shared_ptr<const Collator> collator) {
  ASSIGN_OR_RETURN(Filter f, Parse(filter_doc, now));
  if (collator != nullptr) SetCollator(collator, &f.root_);
  return f;
}

absl::StatusOr<Filter> Filter::ParseValueCondition(
    const Value& operators, std::shared_ptr<const Collator> collator) {
  ASSIGN_OR_RETURN(Filter f, ParseValueCondition(operators));
  if (collator != nullptr) SetCollator(collator, &f.root_);
  return f;
}

absl::StatusOr<Filter> Filter::Parse(const Value& filter_doc, absl::Time now) {
  if (!filter_doc.is_object()) {
    return MongoInvalidArgument(kBadValue,
                                absl::StrCat("filter must be an object, not ",
                                             TypeName(filter_doc.type())));
  }
  Filter f;
  f.root_.kind = Kind::kAnd;
  parse_now_millis = absl::ToUnixMillis(now);
  RETURN_IF_ERROR(ParseTopLevel(filter_doc, &f.root_.children, /*top=*/true));
  return f;
}

absl::StatusOr<bool> Filter::MatchesOrError(const Value& doc) const {
  absl::Status error;
  absl::Status* saved = expr_error;
  expr_error = &error;
  const bool matched = EvalDoc(root_, doc);
  expr_error = saved;
  if (!error.ok()) return error;
  return matched;
}

absl::StatusOr<Filter> Filter::ParseValueCondition(const Value& operators) {
  if (!IsOperatorDoc(operators)) {
    return MongoInvalidArgument(
        kBadValue, "a value condition must be a document of $ operators");
  }
  Filter f;
  f.root_.kind = Kind::kAnd;
  RETURN_IF_ERROR(ParseOperators("", operators, &f.root_.children));
  return f;
}

bool Filter::Matches(const Value& doc) const { return EvalDoc(root_, doc); }

bool Filter::MatchesValue(const Value& v) const {
  return EvalElement(root_, &v);
}

bool MatchExprMatches(const MatchExpr& expr, const Value& doc) {
  return EvalDoc(expr, doc);
}

}  // namespace ttldb

// ---- Match details (elemMatchKey) ------------------------------------------
//
// Computed only on request, after the document is known to match, by a
// second walk that mirrors MongoDB's BSONElementIterator (matcher/path.cpp):
// array elements come before the array itself, and each reached value
// carries the offset of the outermost array traversed implicitly.

namespace ttldb {
namespace {

struct Reached {
  const Value* value;  // nullptr: missing
  int64_t offset;      // -1: no implicit array traversal
};

void WalkWithOffsets(const Value* cur, const std::vector<std::string>& parts,
                     size_t i, bool expand, int64_t offset,
                     std::vector<Reached>* out) {
  while (i < parts.size() && cur->is_object()) {
    cur = cur->Get(parts[i]);
    ++i;
    if (cur == nullptr) {
      out->push_back({nullptr, offset});
      return;
    }
  }
  if (!cur->is_array()) {
    out->push_back({i == parts.size() ? cur : nullptr, offset});
    return;
  }
  const auto& items = cur->array_items();
  if (i == parts.size()) {
    if (expand) {
      for (size_t k = 0; k < items.size(); ++k) {
        out->push_back(
            {&items[k], offset >= 0 ? offset : static_cast<int64_t>(k)});
      }
    }
    out->push_back({cur, offset});
    return;
  }
  size_t index = 0;
  const bool numeric = ParseArrayIndex(parts[i], &index);
  for (size_t k = 0; k < items.size(); ++k) {
    const Value& e = items[k];
    if (e.is_object()) {
      WalkWithOffsets(&e, parts, i, expand,
                      offset >= 0 ? offset : static_cast<int64_t>(k), out);
    }
    if (!numeric || index != k) continue;
    // An explicit position is not an implicit traversal: no offset here.
    if (i + 1 == parts.size()) {
      out->push_back({&e, offset});
    } else if (e.is_object() || e.is_array()) {
      WalkWithOffsets(&e, parts, i + 1, expand, offset, out);
    }
  }
}

bool ElemMatchesItem(const MatchExpr& e, const Value& item) {
  if (e.elem_match_object) {
    // As EvalElement's kElemMatch: arrays are matched as {"0": ...}.
    if (!item.is_object() && !item.is_array()) return false;
    for (const MatchExpr& c : e.children) {
      if (!EvalDoc(c, item)) return false;
    }
    return true;
  }
  for (const MatchExpr& c : e.children) {
    if (!EvalElement(c, &item)) return false;
  }
  return true;
}

// Records the elemMatchKey of `e`, which matched `doc`.
void RecordKey(const MatchExpr& e, const Value& doc,
               std::optional<size_t>* key) {
  switch (e.kind) {
    case Kind::kAnd:
    case Kind::kAll:
      for (const MatchExpr& c : e.children) RecordKey(c, doc, key);
      return;
    case Kind::kOr:
    case Kind::kNor:
    case Kind::kNot:
    case Kind::kNe:
    case Kind::kNin:
    case Kind::kAlwaysTrue:
    case Kind::kAlwaysFalse:
    case Kind::kExpr:
    case Kind::kJsonSchema:
      return;
    case Kind::kExists:
      if (!e.operand.bool_value()) return;  // MongoDB: $not of $exists
      break;
    case Kind::kSize:
    case Kind::kElemMatch: {
      // ArrayMatchingMatchExpression: leaf arrays are not traversed.
      std::vector<Reached> reached;
      WalkWithOffsets(&doc, e.parts, 0, false, -1, &reached);
      for (const Reached& r : reached) {
        if (r.value == nullptr || !r.value->is_array() ||
            !EvalElement(e, r.value)) {
          continue;
        }
        if (r.offset >= 0) {
          *key = static_cast<size_t>(r.offset);
        } else if (e.kind == Kind::kElemMatch) {
          const auto& items = r.value->array_items();
          for (size_t k = 0; k < items.size(); ++k) {
            if (ElemMatchesItem(e, items[k])) {
              *key = k;
              break;
            }
          }
        }
        return;
      }
      return;
    }
    default:
      break;
  }
  std::vector<Reached> reached;
  WalkWithOffsets(&doc, e.parts, 0, true, -1, &reached);
  for (const Reached& r : reached) {
    if (!EvalElement(e, r.value)) continue;
    if (r.offset >= 0) *key = static_cast<size_t>(r.offset);
    return;
  }
}

}  // namespace

bool Filter::Matches(const Value& doc, MatchDetails* details) const {
  if (!EvalDoc(root_, doc)) return false;
  if (details != nullptr) {
    details->elem_match_key.reset();
    RecordKey(root_, doc, &details->elem_match_key);
  }
  return true;
}

}  // namespace ttldb
