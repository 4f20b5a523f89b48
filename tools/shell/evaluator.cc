#include "tools/shell/evaluator.h"

#include <cmath>
#include <cstdint>
#include <optional>
#include <utility>

#include "absl/random/random.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/time/clock.h"
#include "base/status.h"
#include "tools/shell/arithmetic.h"
#include "tools/shell/builtins.h"
#include "tools/shell/evaluator_internal.h"
#include "tools/shell/interrupt.h"

namespace ttldb {
namespace shell {

using internal::Arg;
using internal::BoolOption;
using internal::Collection;
using internal::CommandArg;
using internal::CountValue;
using internal::FieldOf;
using internal::HasOperatorKeys;
using internal::HumanSize;
using internal::IntArg;
using internal::IsNumeric;
using internal::JsNumber;
using internal::NodeText;
using internal::NumberOf;
using internal::ObjectArg;
using internal::SetField;
using internal::TypeError;
using Kind = ShellValue::Kind;

Evaluator::Evaluator(ShellBackend* backend, std::ostream* out,
                     EvaluatorOptions options)
    : backend_(backend), out_(out), options_(std::move(options)) {
  if (!options_.random_bytes) {
    options_.random_bytes = [](size_t n) {
      absl::BitGen gen;
      std::string bytes(n, '\0');
      for (char& c : bytes) c = static_cast<char>(absl::Uniform<uint8_t>(gen));
      return bytes;
    };
  }
}

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
  return RunStatements(source, nullptr);
}

absl::Status Evaluator::RunEach(
    absl::string_view source,
    const std::function<void(const absl::Status&)>& on_error) {
  return RunStatements(source, &on_error);
}

absl::Status Evaluator::RunStatements(
    absl::string_view source,
    const std::function<void(const absl::Status&)>* on_error) {
  absl::StatusOr<std::vector<Statement>> program = ParseProgram(source);
  if (!program.ok()) return program.status();
  for (const Statement& st : *program) {
    if (exit_requested_) break;
    if (InterruptRequested()) return InterruptedError();
    absl::Status s = Execute(st);
    if (s.ok()) continue;
    if (on_error == nullptr) return s;
    (*on_error)(s);
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
  if (word == "it") {
    if (pending_pos_ >= pending_.size()) {
      *out_ << "no cursor\n";
    } else {
      PrintBatch();
    }
    return absl::OkStatus();
  }
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
      if (v.function != nullptr && v.name.empty()) {
        *out_ << "[Function (anonymous)]\n";
      } else {
        *out_ << "[Function: " << v.name << "]\n";
      }
      return absl::OkStatus();
    case Kind::kCursor: {
      absl::StatusOr<std::vector<Value>> docs = RunCursor(v);
      if (!docs.ok()) return docs.status();
      if (docs->empty()) return absl::OkStatus();
      if (options_.mode == OutputMode::kJson) {
        for (const Value& d : *docs) *out_ << FormatJson(d) << "\n";
        return absl::OkStatus();
      }
      pending_ = *std::move(docs);
      pending_pos_ = 0;
      PrintBatch();
      return absl::OkStatus();
    }
  }
  return absl::OkStatus();
}

void Evaluator::PrintBatch() {
  size_t end = pending_.size();
  if (options_.cursor_batch_size > 0) {
    end = std::min(end, pending_pos_ + options_.cursor_batch_size);
  }
  Value::Array batch(pending_.begin() + pending_pos_, pending_.begin() + end);
  *out_ << FormatValue(Value::MakeArray(std::move(batch)), options_.format)
        << "\n";
  pending_pos_ = end;
  if (pending_pos_ < pending_.size()) {
    *out_ << "Type \"it\" for more\n";
  } else {
    pending_.clear();
    pending_pos_ = 0;
  }
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
        const double d = NumberOf(k->value);
        if (!(d >= 0 && d <= 1e6) || std::trunc(d) != d) {
          return TypeError("invalid array index");
        }
        index = static_cast<int64_t>(d);
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

JsOperand Evaluator::Operand(const ShellValue& v) const {
  switch (v.kind) {
    case Kind::kUndefined:
      return std::nullopt;
    case Kind::kValue:
      return v.value;
    case Kind::kDatabase:  // mongosh's toString() of db and db.c
      return Value::String(options_.database);
    case Kind::kCollection:
      return Value::String(absl::StrCat(options_.database, ".", v.collection));
    default:
      return Value::String("[object Object]");
  }
}

bool Evaluator::IsTruthy(const ShellValue& v) const {
  if (v.kind == Kind::kUndefined) return false;
  if (v.kind != Kind::kValue) return true;  // db, collections, ...: objects
  return JsTruthy(v.value);
}

bool Evaluator::Compare(char op, const ShellValue& a,
                        const ShellValue& b) const {
  // The shell's own objects (db, a collection, a cursor, a function) are
  // objects: equal only to themselves (db is one object), and compared
  // with primitives through their string (db == "test").
  const auto is_object = [](const ShellValue& v) {
    return v.kind != Kind::kUndefined &&
           (v.kind != Kind::kValue || JsIsObject(v.value));
  };
  const bool shell_a = a.kind != Kind::kUndefined && a.kind != Kind::kValue;
  const bool shell_b = b.kind != Kind::kUndefined && b.kind != Kind::kValue;
  if ((shell_a || shell_b) &&
      absl::string_view("eEnN").find(op) != absl::string_view::npos) {
    bool equal;
    if (is_object(a) && is_object(b)) {
      equal = a.kind == Kind::kDatabase && b.kind == Kind::kDatabase;
    } else if (op == 'E' || op == 'N') {
      equal = false;
    } else {
      equal = JsCompare('e', Operand(a), Operand(b), options_.time_zone);
    }
    return (op == 'e' || op == 'E') ? equal : !equal;
  }
  return JsCompare(op, Operand(a), Operand(b), options_.time_zone);
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
    case NodeKind::kFunction: {
      ShellValue fn;
      fn.kind = Kind::kFunction;
      fn.name = node.name;
      fn.function = node.function;
      return fn;
    }
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
    case NodeKind::kNegate:
    case NodeKind::kPlus: {
      absl::StatusOr<ShellValue> v = Evaluate(*node.target);
      if (!v.ok()) return v.status();
      const JsOperand operand = Operand(*v);
      return ShellValue::Of(node.kind == NodeKind::kNegate
                                ? JsNegate(operand)
                                : JsUnaryPlus(operand));
    }
    case NodeKind::kBinary: {
      absl::StatusOr<ShellValue> acc = Evaluate(*node.items[0]);
      if (!acc.ok()) return acc.status();
      for (size_t i = 1; i < node.items.size(); ++i) {
        absl::StatusOr<ShellValue> next = Evaluate(*node.items[i]);
        if (!next.ok()) return next.status();
        const char op = node.name[i - 1];
        if (absl::string_view("+-*/%").find(op) != absl::string_view::npos) {
          acc = ShellValue::Of(
              JsBinary(op, Operand(*acc), Operand(*next), options_.time_zone));
        } else {
          acc = ShellValue::Of(Value::Bool(Compare(op, *acc, *next)));
        }
      }
      return acc;
    }
    case NodeKind::kLogical: {
      // a && b: a when falsy, else b; a || b: a when truthy, else b.
      const bool is_and = node.name[0] == '&';
      absl::StatusOr<ShellValue> v = Evaluate(*node.items[0]);
      for (size_t i = 1; i < node.items.size(); ++i) {
        if (!v.ok()) return v.status();
        if (IsTruthy(*v) != is_and) return v;
        v = Evaluate(*node.items[i]);
      }
      return v;
    }
    case NodeKind::kNot: {
      absl::StatusOr<ShellValue> v = Evaluate(*node.target);
      if (!v.ok()) return v.status();
      return ShellValue::Of(Value::Bool(!IsTruthy(*v)));
    }
    case NodeKind::kConditional: {
      absl::StatusOr<ShellValue> test = Evaluate(*node.items[0]);
      if (!test.ok()) return test.status();
      return Evaluate(*node.items[IsTruthy(*test) ? 1 : 2]);
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
  if (fn->kind == Kind::kFunction && fn->function != nullptr) {
    return CallFunction(*fn, args);
  }
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

absl::StatusOr<ShellValue> Evaluator::CallFunction(const ShellValue& fn,
                                                   const Args& args) {
  if (fn.function == nullptr) {
    Node alias;
    alias.kind = NodeKind::kCall;
    alias.target = std::make_unique<Node>();
    alias.target->kind = NodeKind::kIdentifier;
    alias.target->name = fn.name;
    return CallGlobal(alias, args);
  }
  // Ctrl-C stops a script inside its functions too, not only between
  // statements: `g = n => n > 0 ? [g(n - 1), g(n - 1)] : 0; g(60)` makes
  // 2^60 calls without ever nesting deeply.
  if (InterruptRequested()) return InterruptedError();
  // 200 nested calls, or 4 MiB of stack (half the main thread's 8 MiB; a
  // call level takes tens of KiB under AddressSanitizer, so 200 levels
  // overflowed there, found by fuzz/shell_eval_fuzz.cc): a function that
  // calls itself fails as V8 does instead of overflowing the stack.
  constexpr size_t kMaxStackBytes = 4 << 20;
  thread_local int depth = 0;
  thread_local uintptr_t stack_base = 0;
  const uintptr_t here =
      reinterpret_cast<uintptr_t>(__builtin_frame_address(0));
  if (depth == 0) stack_base = here;
  const uintptr_t used =
      stack_base > here ? stack_base - here : here - stack_base;
  if (depth >= 200 || used > kMaxStackBytes) {
    return absl::InvalidArgumentError(
        "RangeError: Maximum call stack size exceeded");
  }
  ++depth;
  struct Leave {
    ~Leave() { --depth; }
  } leave;
  // Parameters shadow variables of the same name while the body runs.
  const FunctionBody& body = *fn.function;
  std::vector<std::pair<std::string, std::optional<ShellValue>>> saved;
  for (size_t i = 0; i < body.params.size(); ++i) {
    const std::string& p = body.params[i];
    auto it = variables_.find(p);
    saved.emplace_back(p, it == variables_.end()
                              ? std::nullopt
                              : std::optional<ShellValue>(it->second));
    variables_[p] = i < args.size() ? args[i] : ShellValue::Undefined();
  }
  auto restore = [&] {
    for (auto it = saved.rbegin(); it != saved.rend(); ++it) {
      if (it->second.has_value()) {
        variables_[it->first] = *it->second;
      } else {
        variables_.erase(it->first);
      }
    }
  };
  absl::StatusOr<ShellValue> result = ShellValue::Undefined();
  for (const auto& stmt : body.statements) {
    absl::StatusOr<ShellValue> v = Evaluate(*stmt);
    if (!v.ok()) {
      result = v.status();
      break;
    }
  }
  if (result.ok() && body.result != nullptr) result = Evaluate(*body.result);
  restore();
  return result;
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
  if (method == "toString" && v.type() == ValueType::kDecimal) {
    return ShellValue::Of(Value::String(v.decimal_value().ToString()));
  }
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
                                          "MongoshInterruptedError:",
                                          "MongoInvalidArgumentError:",
                                          "MongoBulkWriteError:",
                                          "MongoCursorInUseError:",
                                          "BSONError:",
                                          "MongoServerError",
                                          "Error:"};
  for (const char* p : kPrefixes) {
    if (absl::StartsWith(message, p)) return message;
  }
  const int code = ErrorCode(status);
  if (code != 0) {
    return absl::StrCat("MongoServerError[", MongoCodeName(code),
                        "]: ", message);
  }
  return absl::StrCat("Error: ", message);
}

absl::string_view HelpText() {
  return R"(  Shell help:
    use <db>                         switch the current database
    show collections                 list the collections of the database
    show dbs                         list the databases
    db.<coll>.insertOne(doc)         insert a document (also insertMany, insert)
    db.<coll>.find(filter, proj)     query; chain .sort({a: 1}) .skip(n) .limit(n) .hint(index) .allowDiskUse()
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
