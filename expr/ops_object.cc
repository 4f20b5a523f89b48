// Object operators: $mergeObjects, $objectToArray, $arrayToObject
// (src/mongo/db/exec/expression/evaluate_array.cpp), $getField and
// $setField (src/mongo/db/pipeline/expression.cpp ExpressionGetField /
// ExpressionSetField).
#include "absl/strings/str_cat.h"
#include "document/bson.h"
#include "expr/ops_util.h"

namespace ttldb {
namespace agg {
namespace {

using internal::DebugString;
using internal::ExprError;
using internal::ExprPtr;
using internal::Nullish;
using internal::Ok;
using internal::Opt;
using internal::ParseResult;
using internal::TypeNameOf;

// Sets `name` in `fields`, in place when present (MutableDocument).
void SetField(Value::Object* fields, const std::string& name, Value v) {
  for (auto& f : *fields) {
    if (f.first == name) {
      f.second = std::move(v);
      return;
    }
  }
  fields->emplace_back(name, std::move(v));
}

ExprResult MergeObjects(std::vector<Opt>& a) {
  Value::Object out;
  for (const Opt& v : a) {
    if (Nullish(v)) continue;
    if (!v->is_object()) {
      return ExprError(
          40400, absl::StrCat("$mergeObjects requires object "
                              "inputs, but input ",
                              DebugString(v), " is of type ", TypeNameOf(v)));
    }
    for (const auto& [k, fv] : v->object_fields()) SetField(&out, k, fv);
  }
  return Ok(Value::MakeObject(std::move(out)));
}

ExprResult ObjectToArray(std::vector<Opt>& a) {
  if (Nullish(a[0])) return internal::Null();
  if (!a[0]->is_object()) {
    return ExprError(40390, absl::StrCat("$objectToArray requires a document "
                                         "input, found: ",
                                         TypeNameOf(a[0])));
  }
  Value::Array out;
  for (const auto& [k, v] : a[0]->object_fields()) {
    Value::Object kv;
    kv.emplace_back("k", Value::String(k));
    kv.emplace_back("v", v);
    out.push_back(Value::MakeObject(std::move(kv)));
  }
  return Ok(Value::MakeArray(std::move(out)));
}

ExprResult ArrayToObject(std::vector<Opt>& a) {
  const Opt& input = a[0];
  if (Nullish(input)) return internal::Null();
  if (!input->is_array()) {
    return ExprError(40386, absl::StrCat("$arrayToObject requires an array "
                                         "input, found: ",
                                         TypeNameOf(input)));
  }
  const Value::Array& items = input->array_items();
  Value::Object out;
  if (items.empty()) return Ok(Value::MakeObject());
  bool array_format;
  if (items[0].is_array()) {
    array_format = true;
  } else if (items[0].is_object()) {
    array_format = false;
  } else {
    return ExprError(40398, absl::StrCat("Unrecognised input type format for "
                                         "$arrayToObject: ",
                                         TypeName(items[0].type())));
  }
  for (const Value& e : items) {
    if (array_format) {
      if (!e.is_array()) {
        return ExprError(40396,
                         absl::StrCat("$arrayToObject requires a consistent "
                                      "input format. Elements mustall be "
                                      "arrays or all be objects. Array was "
                                      "detected, now found: ",
                                      TypeName(e.type())));
      }
      const Value::Array& pair = e.array_items();
      if (pair.size() != 2) {
        return ExprError(40397, absl::StrCat("$arrayToObject requires an array "
                                             "of size 2 arrays,found array of "
                                             "size: ",
                                             pair.size()));
      }
      if (!pair[0].is_string()) {
        return ExprError(40395, absl::StrCat("$arrayToObject requires an array "
                                             "of key-value pairs, where the "
                                             "key must be of type string. "
                                             "Found key type: ",
                                             TypeName(pair[0].type())));
      }
      if (pair[0].string_value().find('\0') != std::string::npos) {
        return ExprError(4940400,
                         "Key field cannot contain an embedded null byte");
      }
      SetField(&out, pair[0].string_value(), pair[1]);
    } else {
      if (!e.is_object()) {
        return ExprError(40391,
                         absl::StrCat("$arrayToObject requires a consistent "
                                      "input format. Elements mustall be "
                                      "arrays or all be objects. Object was "
                                      "detected, now found: ",
                                      TypeName(e.type())));
      }
      if (e.object_fields().size() != 2) {
        return ExprError(40392, absl::StrCat("$arrayToObject requires an "
                                             "object keys of 'k' and 'v'. "
                                             "Found incorrect number of keys:",
                                             e.object_fields().size()));
      }
      const Value* k = e.Get("k");
      const Value* v = e.Get("v");
      if (k == nullptr || v == nullptr) {
        return ExprError(40393,
                         absl::StrCat("$arrayToObject requires an object "
                                      "with keys 'k' and 'v'. Missing "
                                      "either or both keys from: ",
                                      DebugString(e)));
      }
      if (!k->is_string()) {
        return ExprError(40394,
                         absl::StrCat("$arrayToObject requires an object "
                                      "with keys 'k' and 'v', where the "
                                      "value of 'k' must be of type "
                                      "string. Found type: ",
                                      TypeName(k->type())));
      }
      if (k->string_value().find('\0') != std::string::npos) {
        return ExprError(4940401,
                         "Key field cannot contain an embedded null byte");
      }
      SetField(&out, k->string_value(), *v);
    }
  }
  return Ok(Value::MakeObject(std::move(out)));
}

// {$getField: {field: <string>, input: <expr>}} or {$getField: <string>}
// (input $$CURRENT). The field name must be a constant string.
class GetFieldExpr : public Expression {
 public:
  GetFieldExpr(std::string field, ExprPtr input)
      : field_(std::move(field)), input_(std::move(input)) {}
  ExprResult Evaluate(const Value& doc, Variables* vars) const override {
    Opt input;
    if (input_ == nullptr) {
      input = doc;
    } else {
      ASSIGN_OR_RETURN(input, input_->Evaluate(doc, vars));
    }
    if (Nullish(input)) {
      if (!input.has_value()) return internal::Missing();
      return internal::Null();
    }
    if (!input->is_object()) return internal::Missing();
    const Value* f = input->Get(field_);
    if (f == nullptr) return internal::Missing();
    return Ok(*f);
  }

 private:
  std::string field_;
  ExprPtr input_;
};

absl::StatusOr<std::string> ConstantFieldName(const Value& v,
                                              absl::string_view op) {
  if (v.is_string() && !v.string_value().empty() &&
      v.string_value()[0] == '$') {
    return ExprError(3041704,
                     absl::StrCat(op,
                                  " requires 'field' to evaluate to type "
                                  "String, but got Object"));
  }
  if (v.is_object() && v.object_fields().size() == 1 &&
      v.object_fields()[0].first == "$literal" &&
      v.object_fields()[0].second.is_string()) {
    return v.object_fields()[0].second.string_value();
  }
  if (!v.is_string()) {
    return ExprError(5654602, absl::StrCat(op,
                                           " requires 'field' to evaluate to a "
                                           "constant, but got a non-constant "
                                           "argument"));
  }
  return v.string_value();
}

ParseResult ParseGetField(const Value& operand, ParseContext* ctx) {
  if (!operand.is_object() ||
      (!operand.object_fields().empty() &&
       operand.object_fields()[0].first == "$literal")) {
    ASSIGN_OR_RETURN(std::string f, ConstantFieldName(operand, "$getField"));
    return ExprPtr(new GetFieldExpr(std::move(f), nullptr));
  }
  const Value *field = nullptr, *input = nullptr;
  for (const auto& [name, v] : operand.object_fields()) {
    if (name == "field") {
      field = &v;
    } else if (name == "input") {
      input = &v;
    } else {
      return ExprError(
          3041701, absl::StrCat("$getField found an unknown argument: ", name));
    }
  }
  if (field == nullptr) {
    return ExprError(3041702, "$getField requires 'field' to be specified");
  }
  ASSIGN_OR_RETURN(std::string f, ConstantFieldName(*field, "$getField"));
  ExprPtr in;
  if (input != nullptr) {
    ASSIGN_OR_RETURN(in, ParseExpression(*input, ctx));
  } else {
    ASSIGN_OR_RETURN(in, ParseExpression(Value::String("$$CURRENT"), ctx));
  }
  return ExprPtr(new GetFieldExpr(std::move(f), std::move(in)));
}

// {$setField: {field, input, value}}; a missing value ("$$REMOVE")
// removes the field. {$unsetField: {field, input}} is the same with value
// $$REMOVE (ExpressionSetField::parse serves both names).
class SetFieldExpr : public Expression {
 public:
  SetFieldExpr(const char* op, std::string field, ExprPtr input, ExprPtr value)
      : op_(op),
        field_(std::move(field)),
        input_(std::move(input)),
        value_(std::move(value)) {}
  ExprResult Evaluate(const Value& doc, Variables* vars) const override {
    ASSIGN_OR_RETURN(Opt input, input_->Evaluate(doc, vars));
    if (Nullish(input)) return internal::Null();
    if (!input->is_object()) {
      return ExprError(4161105, absl::StrCat(op_,
                                             " requires 'input' to "
                                             "evaluate to type Object, but "
                                             "got ",
                                             TypeNameOf(input)));
    }
    Value::Object out = input->object_fields();
    ASSIGN_OR_RETURN(Opt v, value_->Evaluate(doc, vars));
    if (!v.has_value()) {
      for (auto it = out.begin(); it != out.end(); ++it) {
        if (it->first == field_) {
          out.erase(it);
          break;
        }
      }
    } else {
      SetField(&out, field_, std::move(*v));
    }
    return Ok(Value::MakeObject(std::move(out)));
  }

 private:
  const char* op_;
  std::string field_;
  ExprPtr input_, value_;
};

template <bool kUnset>
ParseResult ParseSetField(const Value& operand, ParseContext* ctx) {
  const char* op = kUnset ? "$unsetField" : "$setField";
  if (!operand.is_object()) {
    return ExprError(4161100, absl::StrCat(op,
                                           " only supports an object as its "
                                           "argument"));
  }
  const Value *field = nullptr, *input = nullptr, *value = nullptr;
  for (const auto& [name, v] : operand.object_fields()) {
    if (name == "field") {
      field = &v;
    } else if (name == "input") {
      input = &v;
    } else if (name == "value" && !kUnset) {
      value = &v;
    } else {
      return ExprError(4161101,
                       absl::StrCat(op, " found an unknown argument: ", name));
    }
  }
  static const Value* const kRemove = new Value(Value::String("$$REMOVE"));
  if (kUnset) value = kRemove;
  if (field == nullptr) {
    return ExprError(4161102, absl::StrCat(op,
                                           " requires 'field' to be "
                                           "specified"));
  }
  if (value == nullptr) {
    return ExprError(4161103, absl::StrCat(op,
                                           " requires 'value' to be "
                                           "specified"));
  }
  if (input == nullptr) {
    return ExprError(4161104, absl::StrCat(op,
                                           " requires 'input' to be "
                                           "specified"));
  }
  ASSIGN_OR_RETURN(std::string f, ConstantFieldName(*field, op));
  ASSIGN_OR_RETURN(ExprPtr in, ParseExpression(*input, ctx));
  ASSIGN_OR_RETURN(ExprPtr val, ParseExpression(*value, ctx));
  return ExprPtr(
      new SetFieldExpr(op, std::move(f), std::move(in), std::move(val)));
}

// $bsonSize: the BSON size in bytes of an object (int), null for null.
ExprResult BsonSize(std::vector<Opt>& a) {
  if (Nullish(a[0])) return internal::Null();
  if (!a[0]->is_object()) {
    return ExprError(31393, absl::StrCat("$bsonSize requires a document "
                                         "input, found: ",
                                         TypeNameOf(a[0])));
  }
  return Ok(internal::IntOrLong(static_cast<int64_t>(BsonDocumentSize(*a[0]))));
}

}  // namespace

void RegisterObjectOperators() {
  TTLDB_REGISTER_EAGER("$bsonSize", 1, 1, BsonSize);
  TTLDB_REGISTER_EAGER("$mergeObjects", 0, -1, MergeObjects);
  TTLDB_REGISTER_EAGER("$objectToArray", 1, 1, ObjectToArray);
  TTLDB_REGISTER_EAGER("$arrayToObject", 1, 1, ArrayToObject);
  RegisterOperator("$getField", ParseGetField);
  RegisterOperator("$setField", ParseSetField<false>);
  RegisterOperator("$unsetField", ParseSetField<true>);
}

}  // namespace agg
}  // namespace ttldb
