#include "expr/expression.h"

#include <utility>

#include "absl/base/call_once.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/synchronization/mutex.h"
#include "base/status.h"
#include "expr/ops_util.h"

namespace ttldb {
namespace agg {
namespace {

using internal::ExprError;

// A constant value.
class LiteralExpr : public Expression {
 public:
  explicit LiteralExpr(Value v) : value_(std::move(v)) {}
  ExprResult Evaluate(const Value&, Variables*) const override {
    return std::optional<Value>(value_);
  }
  bool IsConstant() const override { return true; }
  bool Peek(const Value&, const Variables&, const Value** out) const override {
    *out = &value_;
    return true;
  }

 private:
  Value value_;
};

// Walks `path` from `v` as MongoDB's ExpressionFieldPath::evaluatePath
// does: objects by field name; an array maps the rest of the path over its
// elements, keeping only elements that yield something.
std::optional<Value> WalkPath(const Value& v,
                              const std::vector<std::string>& path, size_t i) {
  if (i == path.size()) return v;
  if (v.is_object()) {
    const Value* f = v.Get(path[i]);
    if (f == nullptr) return std::nullopt;
    return WalkPath(*f, path, i + 1);
  }
  if (v.is_array()) {
    Value::Array out;
    for (const Value& e : v.array_items()) {
      // ExpressionFieldPath::evaluatePathArray: only object elements are
      // walked; scalars and nested arrays yield nothing.
      if (!e.is_object()) continue;
      std::optional<Value> r = WalkPath(e, path, i);
      if (r.has_value()) out.push_back(std::move(*r));
    }
    return Value::MakeArray(std::move(out));
  }
  return std::nullopt;
}

// "$a.b" (variable CURRENT) or "$$name.a.b".
class FieldPathExpr : public Expression {
 public:
  enum class Base { kCurrent, kRoot, kNow, kRemove, kUser };
  FieldPathExpr(Base base, int var_id, std::vector<std::string> path)
      : base_(base), var_id_(var_id), path_(std::move(path)) {}

  ExprResult Evaluate(const Value& doc, Variables* vars) const override {
    const Value* start = nullptr;
    Value now;
    switch (base_) {
      case Base::kCurrent:
        start = &doc;
        break;
      case Base::kRoot:
        start = &vars->root();
        break;
      case Base::kNow:
        now = Value::Date(vars->now_millis());
        start = &now;
        break;
      case Base::kRemove:
        return std::optional<Value>();
      case Base::kUser:
        start = vars->Get(var_id_);
        if (start == nullptr) return std::optional<Value>();
        break;
    }
    return WalkPath(*start, path_, 0);
  }

  bool Peek(const Value& doc, const Variables& vars,
            const Value** out) const override {
    const Value* v = nullptr;
    switch (base_) {
      case Base::kCurrent:
        v = &doc;
        break;
      case Base::kRoot:
        v = &vars.root();
        break;
      case Base::kNow:
        return false;  // built at each evaluation
      case Base::kRemove:
        *out = nullptr;
        return true;
      case Base::kUser:
        v = vars.Get(var_id_);
        break;
    }
    // Objects only: a path through an array builds a new array (WalkPath).
    for (const std::string& name : path_) {
      if (v == nullptr) break;
      if (v->is_array()) return false;
      v = v->is_object() ? v->Get(name) : nullptr;
    }
    *out = v;
    return true;
  }

 private:
  Base base_;
  int var_id_;
  std::vector<std::string> path_;
};

// {a: <expr>, b: <expr>}: fields whose expression is missing are omitted.
class ObjectExpr : public Expression {
 public:
  void Add(std::string name, std::unique_ptr<Expression> e) {
    fields_.emplace_back(std::move(name), std::move(e));
  }
  ExprResult Evaluate(const Value& doc, Variables* vars) const override {
    Value::Object out;
    internal::ValueBudget budget("an object expression");
    for (const auto& [name, e] : fields_) {
      ExprResult r = e->Evaluate(doc, vars);
      if (!r.ok()) return r.status();
      if (r->has_value()) {
        RETURN_IF_ERROR(budget.AddField(name, **r));
        out.emplace_back(name, std::move(**r));
      }
    }
    return std::optional<Value>(Value::MakeObject(std::move(out)));
  }

 private:
  std::vector<std::pair<std::string, std::unique_ptr<Expression>>> fields_;
};

// [<expr>, ...]: a missing element becomes null.
class ArrayExpr : public Expression {
 public:
  void Add(std::unique_ptr<Expression> e) { items_.push_back(std::move(e)); }
  ExprResult Evaluate(const Value& doc, Variables* vars) const override {
    Value::Array out;
    out.reserve(items_.size());
    internal::ValueBudget budget("an array expression");
    for (const auto& e : items_) {
      ExprResult r = e->Evaluate(doc, vars);
      if (!r.ok()) return r.status();
      out.push_back(r->has_value() ? std::move(**r) : Value::Null());
      RETURN_IF_ERROR(budget.AddElement(out.size() - 1, out.back()));
    }
    return std::optional<Value>(Value::MakeArray(std::move(out)));
  }

 private:
  std::vector<std::unique_ptr<Expression>> items_;
};

struct Registry {
  absl::Mutex mu;
  absl::flat_hash_map<std::string, OperatorParser> parsers ABSL_GUARDED_BY(mu);
};

Registry& GetRegistry() {
  static Registry* registry = new Registry;  // never destroyed
  return *registry;
}

// Registers the built-in operators. Called exactly once, before the first
// lookup, so that registration does not depend on static initializers (which
// a linker drops from a static library when nothing references their file).
thread_local bool registering_builtins = false;

void RegisterBuiltinOperators() {
  registering_builtins = true;
  RegisterArithmeticOperators();
  RegisterComparisonOperators();
  RegisterBooleanOperators();
  RegisterConditionalOperators();
  RegisterStringOperators();
  RegisterArrayOperators();
  RegisterSetOperators();
  RegisterDateOperators();
  RegisterTypeOperators();
  RegisterVariableOperators();
  RegisterObjectOperators();
  RegisterTrigOperators();
  registering_builtins = false;
}

void EnsureBuiltinOperators() {
  static absl::once_flag once;
  absl::call_once(once, RegisterBuiltinOperators);
}

absl::StatusOr<std::unique_ptr<Expression>> ParseLiteralOperator(
    const Value& operand, ParseContext*) {
  return std::unique_ptr<Expression>(new LiteralExpr(operand));
}

}  // namespace

int ParseContext::Push(absl::string_view name) {
  int id = next_id_++;
  scope_.emplace_back(std::string(name), id);
  return id;
}

void ParseContext::Pop(absl::string_view name) {
  for (auto it = scope_.rbegin(); it != scope_.rend(); ++it) {
    if (it->first == name) {
      scope_.erase(std::next(it).base());
      return;
    }
  }
}

int ParseContext::Lookup(absl::string_view name) const {
  for (auto it = scope_.rbegin(); it != scope_.rend(); ++it) {
    if (it->first == name) return it->second;
  }
  return -1;
}

// src/mongo/db/pipeline/variable_validation.cpp.
absl::Status ValidateVariableName(absl::string_view name) {
  if (name.empty()) {
    return ExprError(16866, "empty variable names are not allowed");
  }
  unsigned char first = static_cast<unsigned char>(name[0]);
  if (!((first >= 'a' && first <= 'z') || first >= 0x80)) {
    return ExprError(16867, absl::StrCat("'", name,
                                         "' starts with an invalid character "
                                         "for a user variable name"));
  }
  for (char ch : name.substr(1)) {
    unsigned char c = static_cast<unsigned char>(ch);
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
          (c >= '0' && c <= '9') || c == '_' || c >= 0x80)) {
      return ExprError(16868, absl::StrCat("'", name,
                                           "' contains an invalid character "
                                           "for a variable name: '",
                                           std::string(1, ch), "'"));
    }
  }
  return absl::OkStatus();
}

void RegisterOperator(absl::string_view name, OperatorParser parser) {
  Registry& r = GetRegistry();
  absl::MutexLock lock(&r.mu);
  if (registering_builtins) {
    // A registration made before the built-ins were loaded wins.
    r.parsers.try_emplace(std::string(name), parser);
  } else {
    r.parsers[std::string(name)] = parser;
  }
}

absl::StatusOr<std::unique_ptr<Expression>> ParseFieldPath(
    absl::string_view path, ParseContext* ctx) {
  if (!absl::StartsWith(path, "$")) {
    return ExprError(
        16873, absl::StrCat("FieldPath '", path, "' doesn't start with $"));
  }
  FieldPathExpr::Base base = FieldPathExpr::Base::kCurrent;
  int var_id = -1;
  absl::string_view rest = path.substr(1);
  std::vector<std::string> parts;
  if (absl::StartsWith(rest, "$")) {
    rest = rest.substr(1);
    std::vector<std::string> all = absl::StrSplit(rest, '.');
    absl::string_view var = all[0];
    if (var == "ROOT") {
      base = FieldPathExpr::Base::kRoot;
    } else if (var == "CURRENT") {
      base = FieldPathExpr::Base::kCurrent;
    } else if (var == "NOW") {
      base = FieldPathExpr::Base::kNow;
    } else if (var == "REMOVE") {
      // $$REMOVE evaluates to missing ($project / $addFields drop the
      // field; $cond: [c, "$$REMOVE", x] is the usual conditional removal).
      base = FieldPathExpr::Base::kRemove;
    } else {
      var_id = ctx->Lookup(var);
      if (var_id < 0) {
        // Names starting with an upper-case letter are reserved system
        // variables; every other unknown name is undefined.
        return ExprError(17276,
                         absl::StrCat("Use of undefined variable: ", var));
      }
      base = FieldPathExpr::Base::kUser;
    }
    parts.assign(all.begin() + 1, all.end());
  } else {
    if (rest.empty()) {
      return ExprError(16872, "'$' by itself is not a valid FieldPath");
    }
    parts = absl::StrSplit(rest, '.');
  }
  for (const std::string& p : parts) {
    if (p.empty()) {
      return ExprError(15998,
                       "FieldPath field names may not be empty strings.");
    }
    if (p[0] == '$') {
      return ExprError(16410, absl::StrCat("FieldPath field names may not "
                                           "start with '$'. Consider using "
                                           "$getField or $setField."));
    }
  }
  return std::unique_ptr<Expression>(
      new FieldPathExpr(base, var_id, std::move(parts)));
}

absl::StatusOr<std::unique_ptr<Expression>> ParseOperator(
    absl::string_view name, const Value& operand, ParseContext* ctx) {
  if (name == "$literal") return ParseLiteralOperator(operand, ctx);
  EnsureBuiltinOperators();
  OperatorParser parser = nullptr;
  {
    Registry& r = GetRegistry();
    absl::MutexLock lock(&r.mu);
    auto it = r.parsers.find(name);
    if (it != r.parsers.end()) parser = it->second;
  }
  if (parser == nullptr) {
    return ExprError(kInvalidPipelineOperator,
                     absl::StrCat("Unrecognized expression '", name, "'"));
  }
  return parser(operand, ctx);
}

absl::StatusOr<std::unique_ptr<Expression>> ParseExpression(const Value& spec,
                                                            ParseContext* ctx) {
  if (spec.is_string() && absl::StartsWith(spec.string_value(), "$")) {
    return ParseFieldPath(spec.string_value(), ctx);
  }
  if (spec.is_array()) {
    auto out = std::make_unique<ArrayExpr>();
    for (const Value& item : spec.array_items()) {
      auto e = ParseExpression(item, ctx);
      if (!e.ok()) return e.status();
      out->Add(std::move(*e));
    }
    return std::unique_ptr<Expression>(std::move(out));
  }
  if (spec.is_object()) {
    const Value::Object& fields = spec.object_fields();
    if (!fields.empty() && absl::StartsWith(fields[0].first, "$")) {
      if (fields.size() != 1) {
        return ExprError(15983,
                         "an expression specification must contain exactly "
                         "one field, the name of the expression. Found " +
                             std::to_string(fields.size()) + " fields in " +
                             "the expression");
      }
      return ParseOperator(fields[0].first, fields[0].second, ctx);
    }
    auto out = std::make_unique<ObjectExpr>();
    for (const auto& [name, sub] : fields) {
      if (absl::StartsWith(name, "$")) {
        return ExprError(16410, absl::StrCat("FieldPath field names may not "
                                             "start with '$'. Consider using "
                                             "$getField or $setField."));
      }
      if (absl::StrContains(name, '.')) {
        return ExprError(16412, absl::StrCat("FieldPath field names may not "
                                             "contain '.'. Consider using "
                                             "$getField or $setField."));
      }
      auto e = ParseExpression(sub, ctx);
      if (!e.ok()) return e.status();
      out->Add(name, std::move(*e));
    }
    return std::unique_ptr<Expression>(std::move(out));
  }
  return std::unique_ptr<Expression>(new LiteralExpr(spec));
}

bool IsTruthy(const std::optional<Value>& v) {
  if (!v.has_value()) return false;
  switch (v->type()) {
    case ValueType::kNull:
      return false;
    case ValueType::kBool:
      return v->bool_value();
    case ValueType::kInt32:
    case ValueType::kInt64:
      return v->int64_value() != 0;
    case ValueType::kDouble:
      return v->double_value() != 0;
    case ValueType::kDecimal:
      return v->AsDouble() != 0;
    default:
      return true;
  }
}

}  // namespace agg
}  // namespace ttldb
