#include "tools/shell/evaluator.h"

#include <cmath>
#include <cstdint>
#include <utility>

#include "absl/random/random.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/time/clock.h"
#include "base/status.h"
#include "tools/shell/builtins.h"

namespace ttldb {
namespace shell {
namespace {

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

bool IsNumeric(const Value& v) { return v.is_number(); }
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
  return static_cast<int64_t>(NumberOf(*v));
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

}  // namespace

Evaluator::Evaluator(ShellBackend* backend, std::ostream* out,
                     EvaluatorOptions options)
    : backend_(backend), out_(out), options_(std::move(options)) {}

int64_t Evaluator::Now() const {
  if (options_.now_millis) return options_.now_millis();
  return absl::ToUnixMillis(absl::Now());
}

void Evaluator::SetVariable(const std::string& name, ShellValue value) {
  variables_[name] = std::move(value);
}

const ShellValue* Evaluator::GetVariable(const std::string& name) const {
  auto it = variables_.find(name);
  return it == variables_.end() ? nullptr : &it->second;
}

absl::Status Evaluator::Run(absl::string_view source) {
  absl::StatusOr<std::vector<Statement>> program = ParseProgram(source);
  if (!program.ok()) return program.status();
  for (const Statement& st : *program) {
    if (exit_requested_) break;
    absl::Status s = Execute(st);
    if (!s.ok()) return s;
  }
  return absl::OkStatus();
}

absl::Status Evaluator::Execute(const Statement& st) {
  switch (st.kind) {
    case StatementKind::kCommand:
      return RunCommand(st);
    case StatementKind::kDeclaration: {
      if (constants_.count(st.name) != 0) {
        return absl::InvalidArgumentError(
            absl::StrCat("SyntaxError: Identifier '", st.name,
                         "' has already been declared"));
      }
      ShellValue v;
      if (st.value != nullptr) {
        absl::StatusOr<ShellValue> r = Evaluate(*st.value);
        if (!r.ok()) return r.status();
        v = *std::move(r);
      }
      variables_[st.name] = std::move(v);
      if (st.keyword == "const") constants_.insert(st.name);
      return absl::OkStatus();
    }
    case StatementKind::kAssignment: {
      absl::StatusOr<ShellValue> r = Evaluate(*st.value);
      if (!r.ok()) return r.status();
      absl::Status s = Assign(*st.target, *r);
      if (!s.ok()) return s;
      return options_.print_results ? Print(*r) : absl::OkStatus();
    }
    case StatementKind::kExpression: {
      absl::StatusOr<ShellValue> r = Evaluate(*st.value);
      if (!r.ok()) return r.status();
      return options_.print_results ? Print(*r) : absl::OkStatus();
    }
  }
  return absl::OkStatus();
}

absl::Status Evaluator::RunCommand(const Statement& st) {
  const std::string& word = st.keyword;
  if (word == "exit" || word == "quit") {
    exit_requested_ = true;
    return absl::OkStatus();
  }
  if (word == "it") return absl::OkStatus();  // every result prints whole
  if (word == "help") {
    *out_ << HelpText();
    return absl::OkStatus();
  }
  if (word == "use") {
    if (st.name.empty()) {
      return absl::InvalidArgumentError(
          "MongoshInvalidInputError: [COMMON-10001] Missing required "
          "argument: use <db>");
    }
    if (st.name == options_.database) {
      *out_ << "already on db " << st.name << "\n";
      return absl::OkStatus();
    }
    absl::Status s = backend_->UseDatabase(st.name);
    if (!s.ok()) return s;
    options_.database = st.name;
    *out_ << "switched to db " << st.name << "\n";
    return absl::OkStatus();
  }
  // show
  if (st.name == "collections" || st.name == "tables") {
    absl::StatusOr<Value> names = backend_->ListCollections();
    if (!names.ok()) return names.status();
    if (names->is_array()) {
      for (const Value& n : names->array_items()) {
        *out_ << (n.is_string() ? n.string_value() : Render(n)) << "\n";
      }
    }
    return absl::OkStatus();
  }
  if (st.name == "dbs" || st.name == "databases") {
    absl::StatusOr<Value> dbs = backend_->ListDatabases();
    if (!dbs.ok()) return dbs.status();
    if (!dbs->is_array()) return absl::OkStatus();
    size_t width = 0;
    for (const Value& d : dbs->array_items()) {
      const Value* name = FieldOf(d, "name");
      if (name != nullptr && name->is_string()) {
        width = std::max(width, name->string_value().size());
      }
    }
    for (const Value& d : dbs->array_items()) {
      const Value* name = FieldOf(d, "name");
      const Value* size = FieldOf(d, "sizeOnDisk");
      std::string n = name != nullptr && name->is_string()
                          ? name->string_value()
                          : std::string("?");
      *out_ << n << std::string(width - n.size() + 2, ' ')
            << HumanSize(size != nullptr && IsNumeric(*size) ? NumberOf(*size)
                                                             : 0)
            << "\n";
    }
    return absl::OkStatus();
  }
  return absl::InvalidArgumentError(
      absl::StrCat("MongoshInvalidInputError: [COMMON-10001] '", st.name,
                   "' is not a valid argument for \"show\"."));
}

std::string Evaluator::Render(const Value& v) const {
  if (options_.mode == OutputMode::kJson) return FormatJson(v);
  return FormatValue(v, options_.format);
}

absl::Status Evaluator::Print(const ShellValue& v) {
  switch (v.kind) {
    case Kind::kUndefined:
      return absl::OkStatus();
    case Kind::kValue:
      // mongosh prints a top-level string bare: createIndex's "a_1".
      if (v.value.is_string() && options_.mode == OutputMode::kShell) {
        *out_ << v.value.string_value() << "\n";
      } else {
        *out_ << Render(v.value) << "\n";
      }
      return absl::OkStatus();
    case Kind::kDatabase:
      *out_ << options_.database << "\n";
      return absl::OkStatus();
    case Kind::kCollection:
      *out_ << options_.database << "." << v.collection << "\n";
      return absl::OkStatus();
    case Kind::kFunction:
      *out_ << "[Function: " << v.name << "]\n";
      return absl::OkStatus();
    case Kind::kCursor: {
      absl::StatusOr<std::vector<Value>> docs = RunCursor(v);
      if (!docs.ok()) return docs.status();
      if (docs->empty()) return absl::OkStatus();
      if (options_.mode == OutputMode::kJson) {
        for (const Value& d : *docs) *out_ << FormatJson(d) << "\n";
      } else {
        *out_ << FormatValue(Value::MakeArray(*std::move(docs)),
                             options_.format)
              << "\n";
      }
      return absl::OkStatus();
    }
  }
  return absl::OkStatus();
}

void Evaluator::Warn(const std::string& method, const std::string& message) {
  if (!options_.deprecation_warnings || warned_.count(method) != 0) return;
  warned_.insert(method);
  *out_ << "DeprecationWarning: " << message << "\n";
}

absl::Status Evaluator::Assign(const Node& target, ShellValue value) {
  if (target.kind == NodeKind::kIdentifier) {
    if (constants_.count(target.name) != 0) {
      return TypeError("Assignment to constant variable.");
    }
    variables_[target.name] = std::move(value);
    return absl::OkStatus();
  }
  // target is obj.name or obj[index]: walk down to the Value to change,
  // starting at a variable.
  std::vector<const Node*> path;
  const Node* root = &target;
  while (root->kind == NodeKind::kMember || root->kind == NodeKind::kIndex) {
    path.push_back(root);
    root = root->target.get();
  }
  if (root->kind != NodeKind::kIdentifier) {
    return TypeError("can only assign into a variable's fields");
  }
  auto it = variables_.find(root->name);
  if (it == variables_.end()) {
    return absl::InvalidArgumentError(
        absl::StrCat("ReferenceError: ", root->name, " is not defined"));
  }
  if (it->second.kind != Kind::kValue) {
    return TypeError(absl::StrCat("cannot set a property of ", root->name));
  }
  if (value.kind != Kind::kValue) {
    return TypeError("only BSON values can be stored in a document");
  }
  Value* cur = &it->second.value;
  for (size_t i = path.size(); i-- > 0;) {
    const Node* step = path[i];
    std::string key;
    int64_t index = -1;
    if (step->kind == NodeKind::kMember) {
      key = step->name;
    } else {
      absl::StatusOr<ShellValue> k = Evaluate(*step->index);
      if (!k.ok()) return k.status();
      if (k->kind == Kind::kValue && k->value.is_string()) {
        key = k->value.string_value();
      } else if (k->kind == Kind::kValue && IsNumeric(k->value)) {
        index = static_cast<int64_t>(NumberOf(k->value));
        key = absl::StrCat(index);
      } else {
        return TypeError("invalid property key");
      }
    }
    const bool last = i == 0;
    if (cur->is_array() && index >= 0) {
      auto& items = cur->mutable_array_items();
      // 1,000,000: refuse to grow an array absurdly through a typo.
      if (index > 1000000) return TypeError("array index too large");
      if (static_cast<size_t>(index) >= items.size()) items.resize(index + 1);
      if (last) {
        items[index] = value.value;
        return absl::OkStatus();
      }
      cur = &items[index];
    } else if (cur->is_object()) {
      if (last) {
        SetField(cur, key, value.value);
        return absl::OkStatus();
      }
      Value* next = nullptr;
      for (Field& f : cur->mutable_object_fields()) {
        if (f.first == key) next = &f.second;
      }
      if (next == nullptr) {
        return TypeError(absl::StrCat(
            "Cannot set properties of undefined (setting '",
            path[i - 1]->kind == NodeKind::kMember ? path[i - 1]->name : "?",
            "')"));
      }
      cur = next;
    } else {
      return TypeError(absl::StrCat("Cannot set properties of ",
                                    cur->is_null() ? "null" : "a non-object",
                                    " (setting '", key, "')"));
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<ShellValue> Evaluator::Evaluate(const Node& node) {
  switch (node.kind) {
    case NodeKind::kLiteral:
      return ShellValue::Of(node.literal);
    case NodeKind::kIdentifier: {
      auto it = variables_.find(node.name);
      if (it != variables_.end()) return it->second;
      const std::string& n = node.name;
      if (n == "true") return ShellValue::Of(Value::Bool(true));
      if (n == "false") return ShellValue::Of(Value::Bool(false));
      if (n == "null") return ShellValue::Of(Value::Null());
      if (n == "undefined") return ShellValue::Undefined();
      if (n == "NaN") return ShellValue::Of(Value::Double(std::nan("")));
      if (n == "Infinity") return ShellValue::Of(Value::Double(INFINITY));
      if (n == "MinKey") return ShellValue::Of(Value::MinKey());
      if (n == "MaxKey") return ShellValue::Of(Value::MaxKey());
      if (n == "db") {
        ShellValue s;
        s.kind = Kind::kDatabase;
        return s;
      }
      if (n == "print" || n == "printjson") {
        ShellValue s;
        s.kind = Kind::kFunction;
        s.name = n;
        return s;
      }
      return absl::InvalidArgumentError(
          absl::StrCat("ReferenceError: ", n, " is not defined"));
    }
    case NodeKind::kObject: {
      Value obj = Value::MakeObject();
      for (const auto& [key, child] : node.fields) {
        absl::StatusOr<ShellValue> v = Evaluate(*child);
        if (!v.ok()) return v.status();
        // BSON has no undefined: the driver stores it as null.
        if (v->kind == Kind::kUndefined) {
          SetField(&obj, key, Value::Null());
        } else if (v->kind != Kind::kValue) {
          return TypeError(
              absl::StrCat("field '", key, "' is not a BSON value"));
        } else {
          SetField(&obj, key, std::move(v->value));
        }
      }
      return ShellValue::Of(std::move(obj));
    }
    case NodeKind::kArray: {
      Value::Array items;
      for (const auto& child : node.items) {
        absl::StatusOr<ShellValue> v = Evaluate(*child);
        if (!v.ok()) return v.status();
        if (v->kind == Kind::kUndefined) {
          items.push_back(Value::Null());
        } else if (v->kind != Kind::kValue) {
          return TypeError("array item is not a BSON value");
        } else {
          items.push_back(std::move(v->value));
        }
      }
      return ShellValue::Of(Value::MakeArray(std::move(items)));
    }
    case NodeKind::kMember: {
      absl::StatusOr<ShellValue> target = Evaluate(*node.target);
      if (!target.ok()) return target.status();
      return EvalMember(*target, node.name, node);
    }
    case NodeKind::kIndex: {
      absl::StatusOr<ShellValue> target = Evaluate(*node.target);
      if (!target.ok()) return target.status();
      absl::StatusOr<ShellValue> index = Evaluate(*node.index);
      if (!index.ok()) return index.status();
      if (index->kind != Kind::kValue) return TypeError("invalid index");
      const Value& k = index->value;
      if (target->kind == Kind::kValue && target->value.is_array() &&
          IsNumeric(k)) {
        double d = NumberOf(k);
        const auto& items = target->value.array_items();
        if (d >= 0 && d < items.size() && std::trunc(d) == d) {
          return ShellValue::Of(items[static_cast<size_t>(d)]);
        }
        return ShellValue::Undefined();
      }
      std::string key;
      if (k.is_string()) {
        key = k.string_value();
      } else if (k.type() == ValueType::kInt32 ||
                 k.type() == ValueType::kInt64) {
        key = absl::StrCat(k.int64_value());
      } else {
        return TypeError("invalid index");
      }
      return EvalMember(*target, key, node);
    }
    case NodeKind::kCall:
      return EvalCall(node);
    case NodeKind::kNew: {
      if (!IsBuiltinConstructor(node.name)) {
        return TypeError(absl::StrCat(node.name, " is not a constructor"));
      }
      std::vector<Value> args;
      for (const auto& child : node.items) {
        absl::StatusOr<ShellValue> v = Evaluate(*child);
        if (!v.ok()) return v.status();
        if (v->kind != Kind::kValue) {
          return TypeError(absl::StrCat(node.name, ": invalid argument"));
        }
        args.push_back(std::move(v->value));
      }
      BuiltinContext ctx{Now(), options_.time_zone, options_.new_object_id,
                         options_.random_bytes};
      absl::StatusOr<Value> v = CallBuiltin(node.name, true, args, ctx);
      if (!v.ok()) return v.status();
      return ShellValue::Of(*std::move(v));
    }
    case NodeKind::kNegate: {
      absl::StatusOr<ShellValue> v = Evaluate(*node.target);
      if (!v.ok()) return v.status();
      if (v->kind != Kind::kValue || !IsNumeric(v->value)) {
        return ShellValue::Of(Value::Double(std::nan("")));
      }
      const Value& n = v->value;
      if (n.type() == ValueType::kInt64) {
        return ShellValue::Of(Value::Int64(-n.int64_value()));
      }
      if (n.type() == ValueType::kInt32 && n.int32_value() != 0) {
        return ShellValue::Of(JsNumber(-NumberOf(n)));
      }
      return ShellValue::Of(Value::Double(-NumberOf(n)));
    }
  }
  return ShellValue::Undefined();
}

absl::StatusOr<ShellValue> Evaluator::EvalMember(const ShellValue& target,
                                                 const std::string& name,
                                                 const Node& node) {
  switch (target.kind) {
    case Kind::kDatabase:
      return Collection(name);
    case Kind::kCollection:
      // db.system.indexes: a collection whose name has a dot.
      return Collection(absl::StrCat(target.collection, ".", name));
    case Kind::kUndefined:
      return TypeError(absl::StrCat(
          "Cannot read properties of undefined (reading '", name, "')"));
    case Kind::kCursor:
    case Kind::kFunction:
      return ShellValue::Undefined();
    case Kind::kValue:
      break;
  }
  const Value& v = target.value;
  if (v.is_null()) {
    return TypeError(
        absl::StrCat("Cannot read properties of null (reading '", name, "')"));
  }
  if (v.is_object()) {
    const Value* f = FieldOf(v, name);
    if (f == nullptr) return ShellValue::Undefined();
    return ShellValue::Of(*f);
  }
  if (name == "length") {
    if (v.is_array()) return ShellValue::Of(CountValue(v.array_items().size()));
    if (v.is_string()) {
      int64_t n = 0;  // UTF-16 code units, as JavaScript counts
      for (unsigned char c : v.string_value()) {
        if ((c & 0xC0) != 0x80) n += c >= 0xF0 ? 2 : 1;
      }
      return ShellValue::Of(CountValue(n));
    }
  }
  if (v.type() == ValueType::kObjectId && name == "str") {
    std::string hex = FormatValue(v);  // ObjectId('...')
    return ShellValue::Of(Value::String(hex.substr(10, 24)));
  }
  (void)node;
  return ShellValue::Undefined();
}

absl::StatusOr<ShellValue> Evaluator::EvalCall(const Node& node) {
  const Node& callee = *node.target;
  Args args;
  for (const auto& child : node.items) {
    absl::StatusOr<ShellValue> v = Evaluate(*child);
    if (!v.ok()) return v.status();
    args.push_back(*std::move(v));
  }
  if (callee.kind == NodeKind::kIdentifier) {
    auto it = variables_.find(callee.name);
    if (it == variables_.end() || it->second.kind != Kind::kFunction) {
      return CallGlobal(node, args);
    }
  }
  if (callee.kind == NodeKind::kMember) {
    // Date.now() and the like: the target is a global, not a value.
    if (callee.target->kind == NodeKind::kIdentifier &&
        callee.target->name == "Date" && variables_.count("Date") == 0) {
      if (callee.name == "now") return ShellValue::Of(Value::Double(Now()));
      return TypeError(
          absl::StrCat("Date.", callee.name, " is not a function"));
    }
    absl::StatusOr<ShellValue> target = Evaluate(*callee.target);
    if (!target.ok()) return target.status();
    switch (target->kind) {
      case Kind::kDatabase:
        return CallDbMethod(callee.name, args, node);
      case Kind::kCollection:
        return CallCollectionMethod(target->collection, callee.name, args,
                                    node);
      case Kind::kCursor:
        return CallCursorMethod(*target, callee.name, args, node);
      case Kind::kValue:
        return CallValueMethod(target->value, callee.name, args, node);
      case Kind::kUndefined:
        return TypeError(
            absl::StrCat("Cannot read properties of undefined (reading '",
                         callee.name, "')"));
      case Kind::kFunction:
        break;
    }
    return TypeError(absl::StrCat(NodeText(callee), " is not a function"));
  }
  absl::StatusOr<ShellValue> fn = Evaluate(callee);
  if (!fn.ok()) return fn.status();
  if (fn->kind == Kind::kFunction) {
    Node alias;
    alias.kind = NodeKind::kCall;
    alias.target = std::make_unique<Node>();
    alias.target->kind = NodeKind::kIdentifier;
    alias.target->name = fn->name;
    return CallGlobal(alias, args);
  }
  return TypeError(absl::StrCat(NodeText(callee), " is not a function"));
}

absl::StatusOr<ShellValue> Evaluator::CallGlobal(const Node& node,
                                                 const Args& args) {
  const std::string& name = node.target->name;
  if (name == "print" || name == "printjson") {
    std::vector<std::string> parts;
    for (const ShellValue& a : args) {
      if (a.kind == Kind::kValue) {
        if (name == "print" && a.value.is_string()) {
          parts.push_back(a.value.string_value());
        } else {
          parts.push_back(Render(a.value));
        }
      } else if (a.kind == Kind::kUndefined) {
        parts.push_back("undefined");
      } else if (a.kind == Kind::kCursor) {
        absl::StatusOr<std::vector<Value>> docs = RunCursor(a);
        if (!docs.ok()) return docs.status();
        parts.push_back(Render(Value::MakeArray(*std::move(docs))));
      } else if (a.kind == Kind::kCollection) {
        parts.push_back(absl::StrCat(options_.database, ".", a.collection));
      } else if (a.kind == Kind::kDatabase) {
        parts.push_back(options_.database);
      } else {
        parts.push_back(absl::StrCat("[Function: ", a.name, "]"));
      }
    }
    *out_ << absl::StrJoin(parts, " ") << "\n";
    return ShellValue::Undefined();
  }
  if (name == "sleep") {
    absl::StatusOr<int64_t> ms = IntArg(args, 0, "sleep(ms)");
    if (!ms.ok()) return ms.status();
    if (options_.sleep) {
      options_.sleep(*ms);
    } else {
      absl::SleepFor(absl::Milliseconds(*ms));
    }
    return ShellValue::Undefined();
  }
  if (name == "quit" || name == "exit") {
    absl::StatusOr<int64_t> code = IntArg(args, 0, "exit code");
    if (!code.ok()) return code.status();
    exit_requested_ = true;
    exit_code_ = static_cast<int>(*code);
    return ShellValue::Undefined();
  }
  if (name == "help") {
    *out_ << HelpText();
    return ShellValue::Undefined();
  }
  if (IsBuiltinConstructor(name)) {
    std::vector<Value> values;
    for (const ShellValue& a : args) {
      if (a.kind != Kind::kValue) {
        return TypeError(absl::StrCat(name, ": invalid argument"));
      }
      values.push_back(a.value);
    }
    BuiltinContext ctx{Now(), options_.time_zone, options_.new_object_id,
                       options_.random_bytes};
    absl::StatusOr<Value> v = CallBuiltin(name, false, values, ctx);
    if (!v.ok()) return v.status();
    return ShellValue::Of(*std::move(v));
  }
  if (variables_.count(name) != 0) {
    return TypeError(absl::StrCat(name, " is not a function"));
  }
  return absl::InvalidArgumentError(
      absl::StrCat("ReferenceError: ", name, " is not defined"));
}

absl::StatusOr<ShellValue> Evaluator::CallDbMethod(const std::string& method,
                                                   const Args& args,
                                                   const Node& node) {
  auto wrap = [](absl::StatusOr<Value> v) -> absl::StatusOr<ShellValue> {
    if (!v.ok()) return v.status();
    return ShellValue::Of(*std::move(v));
  };
  if (method == "getCollection" || method == "getSiblingCollection") {
    absl::StatusOr<Value> name = Arg(args, 0, Value::Null(), "name");
    if (!name.ok()) return name.status();
    if (!name->is_string() || name->string_value().empty()) {
      return absl::InvalidArgumentError(
          "MongoInvalidArgumentError: Collection name must be a non-empty "
          "string");
    }
    return Collection(name->string_value());
  }
  if (method == "getCollectionNames") return wrap(backend_->ListCollections());
  if (method == "getName") {
    return ShellValue::Of(Value::String(options_.database));
  }
  if (method == "runCommand" || method == "adminCommand") {
    absl::StatusOr<Value> cmd = CommandArg(args);
    if (!cmd.ok()) return cmd.status();
    return wrap(method == "runCommand" ? backend_->RunCommand(*cmd)
                                       : backend_->AdminCommand(*cmd));
  }
  if (method == "serverStatus") return wrap(backend_->ServerStatus());
  if (method == "createCollection") {
    absl::StatusOr<Value> name = Arg(args, 0, Value::Null(), "name");
    if (!name.ok()) return name.status();
    if (!name->is_string()) {
      return absl::InvalidArgumentError(
          "MongoInvalidArgumentError: Collection name must be a string");
    }
    absl::StatusOr<Value> options = ObjectArg(args, 1, "options");
    if (!options.ok()) return options.status();
    return wrap(backend_->CreateCollection(name->string_value(), *options));
  }
  if (method == "help") {
    *out_ << HelpText();
    return ShellValue::Undefined();
  }
  return TypeError(absl::StrCat(NodeText(*node.target), " is not a function"));
}

absl::StatusOr<ShellValue> Evaluator::CallCollectionMethod(
    const std::string& coll, const std::string& method, const Args& args,
    const Node& node) {
  auto wrap = [](absl::StatusOr<Value> v) -> absl::StatusOr<ShellValue> {
    if (!v.ok()) return v.status();
    return ShellValue::Of(*std::move(v));
  };
  if (method == "find") {
    ShellValue cursor;
    cursor.kind = Kind::kCursor;
    cursor.collection = coll;
    ASSIGN_OR_RETURN(cursor.find.filter, ObjectArg(args, 0, "filter"));
    ASSIGN_OR_RETURN(cursor.find.projection, ObjectArg(args, 1, "projection"));
    return cursor;
  }
  if (method == "findOne") {
    ASSIGN_OR_RETURN(Value filter, ObjectArg(args, 0, "filter"));
    ASSIGN_OR_RETURN(Value projection, ObjectArg(args, 1, "projection"));
    return wrap(backend_->FindOne(coll, filter, projection));
  }
  if (method == "insertOne") {
    ASSIGN_OR_RETURN(Value doc, ObjectArg(args, 0, "doc"));
    return wrap(backend_->InsertOne(coll, doc));
  }
  if (method == "insertMany" || method == "insert") {
    if (method == "insert") {
      Warn("insert",
           "Collection.insert() is deprecated. Use insertOne, insertMany, "
           "or bulkWrite.");
    }
    ASSIGN_OR_RETURN(Value docs, Arg(args, 0, Value::Null(), "docs"));
    ASSIGN_OR_RETURN(Value options, ObjectArg(args, 1, "options"));
    const Value* ordered = FieldOf(options, "ordered");
    const bool is_ordered = ordered == nullptr || Truthy(*ordered);
    if (docs.is_array()) {
      for (const Value& d : docs.array_items()) {
        if (!d.is_object()) {
          return absl::InvalidArgumentError(
              "MongoInvalidArgumentError: Argument \"docs\" must be an "
              "array of documents");
        }
      }
      return wrap(backend_->InsertMany(coll, docs.array_items(), is_ordered));
    }
    if (method == "insertMany" || !docs.is_object()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "MongoInvalidArgumentError: Argument \"docs\" must be ",
          method == "insertMany" ? "an array of documents" : "an object"));
    }
    // Legacy insert of one document replies as insertMany does.
    ASSIGN_OR_RETURN(Value reply, backend_->InsertOne(coll, docs));
    const Value* id = FieldOf(reply, "insertedId");
    return ShellValue::Of(Value::MakeObject(
        {{"acknowledged", Value::Bool(true)},
         {"insertedIds",
          Value::MakeObject({{"0", id != nullptr ? *id : Value::Null()}})}}));
  }
  if (method == "updateOne" || method == "updateMany" ||
      method == "replaceOne" || method == "update") {
    ASSIGN_OR_RETURN(Value filter, ObjectArg(args, 0, "filter"));
    ASSIGN_OR_RETURN(Value update, Arg(args, 1, Value::Null(), "update"));
    bool upsert = false, multi = false;
    if (args.size() > 2 && args[2].kind == Kind::kValue &&
        args[2].value.type() == ValueType::kBool) {
      // Legacy update(filter, update, upsert, multi).
      upsert = args[2].value.bool_value();
      if (args.size() > 3 && args[3].kind == Kind::kValue) {
        multi = Truthy(args[3].value);
      }
    } else {
      ASSIGN_OR_RETURN(Value options, ObjectArg(args, 2, "options"));
      upsert = BoolOption(options, "upsert");
      multi = BoolOption(options, "multi");
    }
    const bool pipeline = update.is_array();
    if (!update.is_object() && !pipeline) {
      return absl::InvalidArgumentError(
          "MongoInvalidArgumentError: Update document must be an object or "
          "a pipeline");
    }
    const bool has_ops = pipeline || HasOperatorKeys(update);
    if (method == "update") {
      Warn("update",
           "Collection.update() is deprecated. Use updateOne, updateMany, "
           "or bulkWrite.");
      if (!has_ops) {
        return wrap(backend_->ReplaceOne(coll, filter, update, upsert));
      }
      return wrap(multi ? backend_->UpdateMany(coll, filter, update, upsert)
                        : backend_->UpdateOne(coll, filter, update, upsert));
    }
    if (method == "replaceOne") {
      if (pipeline || HasOperatorKeys(update)) {
        return absl::InvalidArgumentError(
            "MongoInvalidArgumentError: Replacement document must not "
            "contain atomic operators");
      }
      return wrap(backend_->ReplaceOne(coll, filter, update, upsert));
    }
    if (!has_ops) {
      return absl::InvalidArgumentError(
          "MongoInvalidArgumentError: Update document requires atomic "
          "operators");
    }
    return wrap(method == "updateOne"
                    ? backend_->UpdateOne(coll, filter, update, upsert)
                    : backend_->UpdateMany(coll, filter, update, upsert));
  }
  if (method == "deleteOne" || method == "deleteMany") {
    ASSIGN_OR_RETURN(Value filter, ObjectArg(args, 0, "filter"));
    return wrap(method == "deleteOne" ? backend_->DeleteOne(coll, filter)
                                      : backend_->DeleteMany(coll, filter));
  }
  if (method == "remove") {
    Warn("remove",
         "Collection.remove() is deprecated. Use deleteOne, deleteMany, "
         "findOneAndDelete, or bulkWrite.");
    ASSIGN_OR_RETURN(Value filter, ObjectArg(args, 0, "filter"));
    ASSIGN_OR_RETURN(Value just_one,
                     Arg(args, 1, Value::Bool(false), "justOne"));
    const bool one = just_one.is_object() ? BoolOption(just_one, "justOne")
                                          : Truthy(just_one);
    return wrap(one ? backend_->DeleteOne(coll, filter)
                    : backend_->DeleteMany(coll, filter));
  }
  if (method == "count" || method == "countDocuments") {
    if (method == "count") {
      Warn("count",
           "Collection.count() is deprecated. Use countDocuments or "
           "estimatedDocumentCount.");
    }
    ASSIGN_OR_RETURN(Value filter, ObjectArg(args, 0, "filter"));
    ASSIGN_OR_RETURN(Value options, ObjectArg(args, 1, "options"));
    int64_t skip = 0, limit = 0;
    if (const Value* s = FieldOf(options, "skip"); s && IsNumeric(*s)) {
      skip = static_cast<int64_t>(NumberOf(*s));
    }
    if (const Value* l = FieldOf(options, "limit"); l && IsNumeric(*l)) {
      limit = static_cast<int64_t>(NumberOf(*l));
    }
    return wrap(backend_->CountDocuments(coll, filter, skip, limit));
  }
  if (method == "estimatedDocumentCount") {
    return wrap(backend_->CountDocuments(coll, Value::MakeObject(), 0, 0));
  }
  if (method == "distinct") {
    ASSIGN_OR_RETURN(Value key, Arg(args, 0, Value::Null(), "key"));
    if (!key.is_string()) {
      return absl::InvalidArgumentError(
          "MongoInvalidArgumentError: Argument \"key\" must be a string");
    }
    ASSIGN_OR_RETURN(Value filter, ObjectArg(args, 1, "filter"));
    return wrap(backend_->Distinct(coll, key.string_value(), filter));
  }
  if (method == "createIndex" || method == "ensureIndex") {
    ASSIGN_OR_RETURN(Value keys, ObjectArg(args, 0, "keys"));
    ASSIGN_OR_RETURN(Value options, ObjectArg(args, 1, "options"));
    return wrap(backend_->CreateIndex(coll, keys, options));
  }
  if (method == "createIndexes") {
    ASSIGN_OR_RETURN(Value list, Arg(args, 0, Value::Null(), "keyPatterns"));
    if (!list.is_array()) {
      return absl::InvalidArgumentError(
          "MongoInvalidArgumentError: Argument \"keyPatterns\" must be an "
          "array");
    }
    ASSIGN_OR_RETURN(Value options, ObjectArg(args, 1, "options"));
    Value::Array names;
    for (const Value& keys : list.array_items()) {
      ASSIGN_OR_RETURN(Value name, backend_->CreateIndex(coll, keys, options));
      names.push_back(std::move(name));
    }
    return ShellValue::Of(Value::MakeArray(std::move(names)));
  }
  if (method == "getIndexes" || method == "getIndexSpecs" ||
      method == "getIndices") {
    return wrap(backend_->ListIndexes(coll));
  }
  if (method == "dropIndex") {
    ASSIGN_OR_RETURN(Value which, Arg(args, 0, Value::Null(), "index"));
    if (!which.is_string() && !which.is_object()) {
      return absl::InvalidArgumentError(
          "MongoInvalidArgumentError: Argument \"index\" must be a name or "
          "a key pattern");
    }
    return wrap(backend_->DropIndex(coll, which));
  }
  if (method == "dropIndexes") {
    ASSIGN_OR_RETURN(Value indexes, backend_->ListIndexes(coll));
    int64_t was = indexes.is_array() ? indexes.array_items().size() : 0;
    if (indexes.is_array()) {
      for (const Value& spec : indexes.array_items()) {
        const Value* name = FieldOf(spec, "name");
        if (name == nullptr || !name->is_string() ||
            name->string_value() == "_id_") {
          continue;
        }
        RETURN_IF_ERROR(backend_->DropIndex(coll, *name).status());
      }
    }
    return ShellValue::Of(Value::MakeObject(
        {{"nIndexesWas", CountValue(was)},
         {"msg", Value::String("non-_id indexes dropped for collection")},
         {"ok", Value::Int32(1)}}));
  }
  if (method == "drop") return wrap(backend_->DropCollection(coll));
  if (method == "stats") return wrap(backend_->Stats(coll));
  if (method == "validate") {
    ASSIGN_OR_RETURN(Value options, ObjectArg(args, 0, "options"));
    return wrap(backend_->Validate(coll, options));
  }
  if (method == "getName") return ShellValue::Of(Value::String(coll));
  if (method == "getFullName") {
    return ShellValue::Of(
        Value::String(absl::StrCat(options_.database, ".", coll)));
  }
  return TypeError(absl::StrCat(NodeText(*node.target), " is not a function"));
}

absl::StatusOr<std::vector<Value>> Evaluator::RunCursor(
    const ShellValue& cursor) {
  return backend_->Find(cursor.collection, cursor.find);
}

absl::StatusOr<ShellValue> Evaluator::CallCursorMethod(
    const ShellValue& cursor, const std::string& method, const Args& args,
    const Node& node) {
  ShellValue next = cursor;
  if (method == "sort") {
    ASSIGN_OR_RETURN(next.find.sort, ObjectArg(args, 0, "sort"));
    return next;
  }
  if (method == "limit") {
    ASSIGN_OR_RETURN(next.find.limit, IntArg(args, 0, "limit"));
    return next;
  }
  if (method == "skip") {
    ASSIGN_OR_RETURN(next.find.skip, IntArg(args, 0, "skip"));
    if (next.find.skip < 0) {
      return absl::InvalidArgumentError(
          "MongoServerError: skip value must be non-negative");
    }
    return next;
  }
  if (method == "pretty" || method == "batchSize" || method == "maxTimeMS" ||
      method == "noCursorTimeout") {
    return next;  // printing is always pretty; the rest do not apply
  }
  if (method == "count" || method == "size") {
    bool apply = method == "size";
    if (!args.empty() && args[0].kind == Kind::kValue) {
      apply = apply || Truthy(args[0].value);
    }
    ASSIGN_OR_RETURN(Value n, backend_->CountDocuments(
                                  cursor.collection, cursor.find.filter,
                                  apply ? cursor.find.skip : 0,
                                  apply ? std::abs(cursor.find.limit) : 0));
    return ShellValue::Of(std::move(n));
  }
  if (method == "itcount" || method == "toArray") {
    ASSIGN_OR_RETURN(std::vector<Value> docs, RunCursor(cursor));
    if (method == "itcount") {
      return ShellValue::Of(CountValue(docs.size()));
    }
    return ShellValue::Of(Value::MakeArray(std::move(docs)));
  }
  if (method == "explain") {
    ASSIGN_OR_RETURN(Value verbosity,
                     Arg(args, 0, Value::String("queryPlanner"), "verbosity"));
    std::string v = "queryPlanner";
    if (verbosity.is_string()) {
      v = verbosity.string_value();
    } else if (verbosity.type() == ValueType::kBool) {
      v = verbosity.bool_value() ? "allPlansExecution" : "queryPlanner";
    }
    ASSIGN_OR_RETURN(Value plan,
                     backend_->Explain(cursor.collection, cursor.find, v));
    return ShellValue::Of(std::move(plan));
  }
  if (method == "forEach") {
    if (args.empty() || args[0].kind != Kind::kFunction) {
      return TypeError(
          "forEach takes print or printjson: the shell runs no JavaScript "
          "functions");
    }
    ASSIGN_OR_RETURN(std::vector<Value> docs, RunCursor(cursor));
    for (const Value& d : docs) *out_ << Render(d) << "\n";
    return ShellValue::Undefined();
  }
  return TypeError(absl::StrCat(NodeText(*node.target), " is not a function"));
}

absl::StatusOr<ShellValue> Evaluator::CallValueMethod(const Value& v,
                                                      const std::string& method,
                                                      const Args& args,
                                                      const Node& node) {
  (void)args;
  if (v.is_date()) {
    if (method == "getTime" || method == "valueOf") {
      return ShellValue::Of(
          Value::Double(static_cast<double>(v.date_millis())));
    }
    if (method == "toISOString" || method == "toJSON") {
      return ShellValue::Of(Value::String(FormatIsoDateJs(v.date_millis())));
    }
    if (method == "toString") {
      return ShellValue::Of(
          Value::String(JsDateString(v.date_millis(), options_.time_zone)));
    }
  }
  if (v.type() == ValueType::kObjectId) {
    std::string hex = FormatValue(v).substr(10, 24);
    if (method == "toString" || method == "toHexString" ||
        method == "valueOf") {
      return ShellValue::Of(Value::String(hex));
    }
    if (method == "getTimestamp") {
      const auto& b = v.oid_value().bytes;
      int64_t seconds =
          (int64_t{b[0]} << 24) | (b[1] << 16) | (b[2] << 8) | b[3];
      return ShellValue::Of(Value::Date(seconds * 1000));
    }
  }
  if (method == "toString" && v.is_string()) return ShellValue::Of(v);
  if (method == "toString" && IsNumeric(v)) {
    std::string s = v.type() == ValueType::kDouble
                        ? FormatJsNumber(v.double_value())
                        : absl::StrCat(v.int64_value());
    return ShellValue::Of(Value::String(s));
  }
  return TypeError(absl::StrCat(NodeText(*node.target), " is not a function"));
}

std::string FormatError(const absl::Status& status) {
  const std::string message(status.message());
  static const char* const kPrefixes[] = {"SyntaxError:",
                                          "TypeError:",
                                          "ReferenceError:",
                                          "RangeError:",
                                          "MongoshInvalidInputError:",
                                          "MongoInvalidArgumentError:",
                                          "BSONError:",
                                          "MongoServerError",
                                          "Error:"};
  for (const char* p : kPrefixes) {
    if (absl::StartsWith(message, p)) return message;
  }
  const int code = ErrorCode(status);
  if (code != 0) {
    absl::string_view name = MongoCodeName(code);
    if (!name.empty()) {
      return absl::StrCat("MongoServerError[", name, "]: ", message);
    }
    return absl::StrCat("MongoServerError: ", message);
  }
  return absl::StrCat("Error: ", message);
}

absl::string_view HelpText() {
  return R"(  Shell help:
    use <db>                         switch the current database
    show collections                 list the collections of the database
    show dbs                         list the databases
    db.<coll>.insertOne(doc)         insert a document (also insertMany, insert)
    db.<coll>.find(filter, proj)     query; chain .sort({a: 1}) .skip(n) .limit(n)
    db.<coll>.findOne(filter)        the first match
    db.<coll>.updateOne(filter, up)  update (also updateMany, replaceOne, update)
    db.<coll>.deleteOne(filter)      delete (also deleteMany, remove)
    db.<coll>.countDocuments(filter) count (also count, distinct(key, filter))
    db.<coll>.createIndex(keys, {expireAfterSeconds: n})   TTL index
    db.<coll>.getIndexes()           list indexes (dropIndex(name), drop())
    db.<coll>.stats(), validate()    collection statistics, consistency check
    db.runCommand(cmd)               e.g. {collMod: 'c', index: {...}}
    db.adminCommand(cmd)             e.g. {setParameter: 1, ttlMonitorSleepSecs: 1}
    db.serverStatus()                server status, with TTL metrics
    print(x), printjson(x), sleep(ms)
    exit, quit()                     leave the shell
)";
}

}  // namespace shell
}  // namespace ttldb
