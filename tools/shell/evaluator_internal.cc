#include "tools/shell/evaluator_internal.h"

#include <cmath>
#include <cstdint>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"

namespace ttldb {
namespace shell {
namespace internal {

using Kind = ShellValue::Kind;

absl::Status TypeError(absl::string_view message) {
  return absl::InvalidArgumentError(absl::StrCat("TypeError: ", message));
}

// "db.c.find" for error messages; "<expr>" for anything else.
std::string NodeText(const Node& n) {
  switch (n.kind) {
    case NodeKind::kIdentifier:
      return n.name;
    case NodeKind::kMember:
      return absl::StrCat(NodeText(*n.target), ".", n.name);
    case NodeKind::kCall:
      return absl::StrCat(NodeText(*n.target), "(...)");
    case NodeKind::kIndex:
      return absl::StrCat(NodeText(*n.target), "[...]");
    default:
      return "(intermediate value)";
  }
}

// JavaScript numbers: a Decimal128 is an object to mongosh, not a number.
bool IsNumeric(const Value& v) {
  return v.is_number() && v.type() != ValueType::kDecimal;
}
double NumberOf(const Value& v) {
  return v.type() == ValueType::kDouble ? v.double_value()
                                        : static_cast<double>(v.int64_value());
}

// A computed JavaScript number: Int32 when integral and in range (prints
// as mongosh prints it), else Double.
Value JsNumber(double d) {
  if (std::trunc(d) == d && d >= INT32_MIN && d <= INT32_MAX &&
      !(d == 0 && std::signbit(d))) {
    return Value::Int32(static_cast<int32_t>(d));
  }
  return Value::Double(d);
}

Value CountValue(int64_t n) {
  return n >= INT32_MIN && n <= INT32_MAX
             ? Value::Int32(static_cast<int32_t>(n))
             : Value::Int64(n);
}

const Value* FieldOf(const Value& obj, absl::string_view name) {
  if (!obj.is_object()) return nullptr;
  for (const Field& f : obj.object_fields()) {
    if (f.first == name) return &f.second;
  }
  return nullptr;
}

void SetField(Value* obj, const std::string& name, Value v) {
  for (Field& f : obj->mutable_object_fields()) {
    if (f.first == name) {
      f.second = std::move(v);
      return;
    }
  }
  obj->mutable_object_fields().emplace_back(name, std::move(v));
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
      return v.double_value() != 0 && !std::isnan(v.double_value());
    case ValueType::kString:
      return !v.string_value().empty();
    default:
      return true;
  }
}

bool HasOperatorKeys(const Value& doc) {
  if (!doc.is_object()) return false;
  for (const Field& f : doc.object_fields()) {
    if (!f.first.empty() && f.first[0] == '$') return true;
  }
  return false;
}

// The argument as a BSON value: undefined or missing -> `fallback`.
absl::StatusOr<Value> Arg(const std::vector<ShellValue>& args, size_t i,
                          const Value& fallback, absl::string_view what) {
  if (i >= args.size() || args[i].kind == Kind::kUndefined) return fallback;
  if (args[i].kind != Kind::kValue) {
    return TypeError(absl::StrCat(what, " must be a BSON value"));
  }
  return args[i].value;
}

absl::Status RequireArgs(const std::vector<ShellValue>& args, size_t n,
                         absl::string_view function) {
  for (size_t i = 0; i < n; ++i) {
    if (i >= args.size() || args[i].kind == Kind::kUndefined) {
      return absl::InvalidArgumentError(absl::StrCat(
          "MongoshInvalidInputError: [COMMON-10001] Missing required "
          "argument at position ",
          i, " (", function, ")"));
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<Value> ObjectArg(const std::vector<ShellValue>& args, size_t i,
                                absl::string_view what) {
  absl::StatusOr<Value> v = Arg(args, i, Value::MakeObject(), what);
  if (!v.ok()) return v;
  if (v->is_null()) return Value::MakeObject();
  if (!v->is_object()) {
    return absl::InvalidArgumentError(
        absl::StrCat("MongoInvalidArgumentError: Argument \"", what,
                     "\" must be an object"));
  }
  return v;
}

absl::StatusOr<int64_t> IntArg(const std::vector<ShellValue>& args, size_t i,
                               absl::string_view what) {
  absl::StatusOr<Value> v = Arg(args, i, Value::Int32(0), what);
  if (!v.ok()) return v.status();
  if (!IsNumeric(*v)) {
    return TypeError(absl::StrCat(what, " must be a number"));
  }
  const double d = NumberOf(*v);
  // 2^53: the exact-integer range of a JavaScript number.
  if (!(std::fabs(d) <= 9007199254740992.0)) {
    return TypeError(absl::StrCat(what, " is out of range"));
  }
  return static_cast<int64_t>(d);
}

// An option of an options object: {upsert: true} -> true.
bool BoolOption(const Value& options, absl::string_view name) {
  const Value* v = FieldOf(options, name);
  return v != nullptr && Truthy(*v);
}

ShellValue Collection(std::string name) {
  ShellValue s;
  s.kind = Kind::kCollection;
  s.collection = std::move(name);
  return s;
}

// A command given as "name" or {name: 1}.
absl::StatusOr<Value> CommandArg(const std::vector<ShellValue>& args) {
  absl::StatusOr<Value> cmd = Arg(args, 0, Value::Null(), "command");
  if (!cmd.ok()) return cmd;
  if (cmd->is_string()) {
    return Value::MakeObject({{cmd->string_value(), Value::Int32(1)}});
  }
  if (!cmd->is_object()) {
    return absl::InvalidArgumentError(
        "MongoInvalidArgumentError: the command must be an object or a "
        "string");
  }
  return cmd;
}

std::string HumanSize(double bytes) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  int u = 0;
  while (bytes >= 1024 && u < 4) {
    bytes /= 1024;
    ++u;
  }
  return absl::StrFormat("%.2f %s", bytes, units[u]);
}

}  // namespace internal
}  // namespace shell
}  // namespace ttldb
