// $fill (document_source_fill.cpp): desugared, as MongoDB does, into a
// $setWindowFields whose outputs are {$locf: "$field"} / {$linearFill:
// "$field"} for the `method` fields (partitionByFields become partitionBy:
// {f: "$f", ...}), then an $addFields of {field: {$ifNull: ["$field",
// value]}} for the `value` fields.
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "base/status.h"
#include "pipeline/stages.h"

namespace ttldb {
namespace agg {

absl::Status ParseFill(const Value& spec, ParseContext* ctx, StageList* out) {
  if (!spec.is_object()) {
    return StageError(kFailedToParse,
                      absl::StrCat("The $fill stage specification must be an "
                                   "object, found ",
                                   TypeName(spec.type())));
  }
  // The IDL FillSpec: sortBy, partitionBy, partitionByFields, output.
  const Value* sort_by = nullptr;
  const Value* partition_by = nullptr;
  const Value* partition_fields = nullptr;
  const Value* output = nullptr;
  for (const Field& f : spec.object_fields()) {
    if (f.first == "sortBy") {
      if (!f.second.is_object()) {
        return IdlWrongType("$fill.sortBy", f.second, "object");
      }
      sort_by = &f.second;
    } else if (f.first == "partitionBy") {
      if (!f.second.is_object() && !f.second.is_string()) {
        return IdlWrongTypes("$fill.partitionBy", f.second, "[string, object]");
      }
      partition_by = &f.second;
    } else if (f.first == "partitionByFields") {
      if (!f.second.is_array()) {
        return IdlWrongType("$fill.partitionByFields", f.second, "array");
      }
      for (size_t i = 0; i < f.second.array_items().size(); ++i) {
        if (!f.second.array_items()[i].is_string()) {
          return IdlWrongType(absl::StrCat("$fill.partitionByFields.", i),
                              f.second.array_items()[i], "string");
        }
      }
      partition_fields = &f.second;
    } else if (f.first == "output") {
      if (!f.second.is_object()) {
        return IdlWrongType("$fill.output", f.second, "object");
      }
      output = &f.second;
    } else {
      return IdlUnknownField(absl::StrCat("$fill.", f.first));
    }
  }
  if (output == nullptr) {
    return IdlMissingField("$fill.output");
  }
  if (output->object_fields().empty()) {
    return StageError(6050203,
                      "The output field in '$fill' must contain an object "
                      "with at least one element");
  }
  Value::Object window_output;
  Value::Object add_fields;
  for (const Field& f : output->object_fields()) {
    if (!f.second.is_object()) {
      return StageError(6050200,
                        "Each fill output specification must be an object "
                        "with exactly one field");
    }
    const Value* method = nullptr;
    const Value* value = nullptr;
    for (const Field& o : f.second.object_fields()) {
      if (o.first == "method") {
        if (!o.second.is_string()) {
          return IdlWrongType("$fill.method", o.second, "string");
        }
        method = &o.second;
      } else if (o.first == "value") {
        value = &o.second;
      } else {
        return IdlUnknownField(absl::StrCat("$fill.", o.first));
      }
    }
    if (method != nullptr) {
      if (value != nullptr) {
        return StageError(6050201,
                          "Each fill output specification must have exactly "
                          "one of 'method' or 'value' fields, not both");
      }
      const std::string& m = method->string_value();
      if (m != "locf" && m != "linear") {
        return StageError(6050202, "Method must be either locf or linear");
      }
      window_output.emplace_back(
          f.first,
          Value::MakeObject({Field(m == "linear" ? "$linearFill" : "$locf",
                                   Value::String("$" + f.first))}));
    }
    if (value != nullptr) {
      add_fields.emplace_back(
          f.first,
          Value::MakeObject({Field(
              "$ifNull",
              Value::MakeArray({Value::String("$" + f.first), *value}))}));
    }
  }
  if (!window_output.empty()) {
    Value::Object swf;
    if (sort_by != nullptr) swf.emplace_back("sortBy", *sort_by);
    if (partition_by != nullptr) {
      if (partition_fields != nullptr) {
        return StageError(6050204,
                          "Maximum one of 'partitionBy' and 'partitionByFields "
                          "can be specified in '$fill'");
      }
      swf.emplace_back("partitionBy", *partition_by);
    }
    if (partition_fields != nullptr) {
      Value::Object key;
      for (const Value& p : partition_fields->array_items()) {
        key.emplace_back(p.string_value(),
                         Value::String("$" + p.string_value()));
      }
      swf.emplace_back("partitionBy", Value::MakeObject(std::move(key)));
    }
    swf.emplace_back("output", Value::MakeObject(std::move(window_output)));
    Value swf_spec = Value::MakeObject(std::move(swf));
    StageList parsed;
    RETURN_IF_ERROR(ParseSetWindowFields(swf_spec, ctx, &parsed));
    parsed[0]->set_spec(
        Value::MakeObject({Field("$setWindowFields", std::move(swf_spec))}));
    out->push_back(std::move(parsed[0]));
  }
  if (!add_fields.empty()) {
    Value af_spec = Value::MakeObject(std::move(add_fields));
    StageList parsed;
    RETURN_IF_ERROR(ParseAddFields(af_spec, ctx, &parsed));
    for (auto& s : parsed) {
      s->set_spec(Value::MakeObject({Field("$addFields", af_spec)}));
      out->push_back(std::move(s));
    }
  }
  return absl::OkStatus();
}

}  // namespace agg
}  // namespace ttldb
