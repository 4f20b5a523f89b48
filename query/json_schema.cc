// $jsonSchema: parse (json_schema_parser.cpp's rules), match, and explain
// a failure in doc_validation_error.cpp's shapes.
#include "query/json_schema.h"

#include <cmath>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "base/status.h"
#include "document/compare.h"
#include "document/regex.h"
#include "document/storable.h"

namespace ttldb {
namespace {

absl::Status FailedToParse(absl::string_view msg) {
  return MongoError(absl::StatusCode::kInvalidArgument, kFailedToParse, msg);
}
absl::Status MustBe(absl::string_view keyword, absl::string_view what) {
  return MongoError(
      absl::StatusCode::kInvalidArgument, kTypeMismatch,
      absl::StrCat("$jsonSchema keyword '", keyword, "' must be ", what));
}

constexpr ValueType kAllTypes[] = {
    ValueType::kMinKey,    ValueType::kNull,   ValueType::kInt32,
    ValueType::kInt64,     ValueType::kDouble, ValueType::kString,
    ValueType::kObject,    ValueType::kArray,  ValueType::kBinary,
    ValueType::kObjectId,  ValueType::kBool,   ValueType::kDate,
    ValueType::kTimestamp, ValueType::kRegex,  ValueType::kMaxKey,
    ValueType::kDecimal};

// The types a bsonType alias names; false for an unknown alias. Types
// ttldb cannot store (undefined, symbol, ...) name nothing.
bool BsonTypeAlias(absl::string_view name, std::vector<ValueType>* out) {
  if (name == "number") {
    for (ValueType t : kAllTypes) {
      if (IsNumber(t)) out->push_back(t);
    }
    return true;
  }
  for (ValueType t : kAllTypes) {
    if (TypeName(t) == name) {
      out->push_back(t);
      return true;
    }
  }
  static const char* const kUnstorable[] = {
      "undefined", "dbPointer", "javascript", "symbol", "javascriptWithScope"};
  for (const char* n : kUnstorable) {
    if (name == n) return true;
  }
  return false;
}

// JSON Schema's own type names (json_schema_parser.cpp kJSONTypeAliases).
absl::Status JsonTypeAlias(absl::string_view name,
                           std::vector<ValueType>* out) {
  if (name == "integer") {
    return FailedToParse(
        "$jsonSchema type 'integer' is not currently supported.");
  }
  if (name == "boolean") return BsonTypeAlias("bool", out), absl::OkStatus();
  if (name == "object" || name == "array" || name == "string" ||
      name == "number" || name == "null") {
    BsonTypeAlias(name, out);
    return absl::OkStatus();
  }
  return MongoError(absl::StatusCode::kInvalidArgument, kBadValue,
                    absl::StrCat("Unknown JSON Schema alias: ", name));
}

size_t CountCodePoints(absl::string_view s) {
  size_t n = 0;
  const char* p = s.data();
  const char* end = p + s.size();
  while (p < end) {
    size_t len = Utf8SequenceLength(p, end);
    p += len == 0 ? 1 : len;
    ++n;
  }
  return n;
}

Value Named(absl::string_view keyword, const Value& v) {
  return Value::MakeObject({Field(std::string(keyword), v)});
}

}  // namespace

struct JsonSchema::Node {
  std::optional<std::string> title, description;
  // type / bsonType: the keyword used, its argument, the types it allows.
  std::string type_keyword;
  Value type_spec;
  std::vector<ValueType> types;
  // Objects.
  std::vector<std::string> required;
  Value required_spec;
  std::vector<std::pair<std::string, std::unique_ptr<Node>>> properties;
  struct PatternProperty {
    std::string pattern;
    std::shared_ptr<const CompiledRegex> regex;
    std::unique_ptr<Node> schema;
  };
  std::vector<PatternProperty> pattern_properties;
  std::optional<bool> additional_allowed;  // additionalProperties: bool
  std::unique_ptr<Node> additional_schema;
  std::optional<int64_t> min_properties, max_properties;
  struct Dependency {
    std::string name;
    std::vector<std::string> required;  // property form
    std::unique_ptr<Node> schema;       // schema form
  };
  std::vector<Dependency> dependencies;
  // Numbers.
  std::optional<Value> minimum, maximum, multiple_of;
  bool exclusive_minimum = false, exclusive_maximum = false;
  // Strings.
  std::optional<int64_t> min_length, max_length;
  std::string pattern;
  std::shared_ptr<const CompiledRegex> pattern_regex;
  // Arrays.
  std::unique_ptr<Node> items;                   // items: {schema}
  std::vector<std::unique_ptr<Node>> item_list;  // items: [schemas]
  bool has_item_list = false;
  std::optional<bool> additional_items_allowed;
  std::unique_ptr<Node> additional_items;
  std::optional<int64_t> min_items, max_items;
  bool unique_items = false;
  // Any type.
  std::optional<Value> enum_values;
  std::vector<std::unique_ptr<Node>> all_of, any_of, one_of;
  std::unique_ptr<Node> not_schema;

  // ---- Matching ---------------------------------------------------------
  bool Matches(const Value& v) const;
  bool MatchesObject(const Value& v) const;
  // ---- Explaining -------------------------------------------------------
  // The failing keywords' errors for a value that does not match.
  Value::Array Explain(const Value& v) const;
  void ExplainObject(const Value& v, Value::Array* out) const;
  void ExplainArray(const Value& v, Value::Array* out) const;
  void Annotate(Value::Object* out) const {
    if (title) out->emplace_back("title", Value::String(*title));
    if (description) {
      out->emplace_back("description", Value::String(*description));
    }
  }
};

namespace {

using Node = JsonSchema::Node;

absl::StatusOr<int64_t> ParseLength(absl::string_view keyword, const Value& v) {
  if (!v.is_number()) return MustBe(keyword, "a number");
  const double d = v.AsDouble();
  if (d < 0 || std::floor(d) != d || d > 9.2e18) {
    return FailedToParse(absl::StrCat("$jsonSchema keyword '", keyword,
                                      "' must be a non-negative integer"));
  }
  return static_cast<int64_t>(d);
}

absl::StatusOr<std::vector<std::string>> ParseNameList(
    absl::string_view keyword, const Value& v) {
  if (!v.is_array()) return MustBe(keyword, "an array");
  if (v.array_items().empty()) {
    return FailedToParse(absl::StrCat("$jsonSchema keyword '", keyword,
                                      "' cannot be an empty array"));
  }
  std::vector<std::string> names;
  for (const Value& item : v.array_items()) {
    if (!item.is_string()) {
      return MongoError(absl::StatusCode::kInvalidArgument, kTypeMismatch,
                        absl::StrCat("$jsonSchema keyword '", keyword,
                                     "' must contain only strings"));
    }
    for (const std::string& n : names) {
      if (n == item.string_value()) {
        return FailedToParse(
            absl::StrCat("$jsonSchema keyword '", keyword,
                         "' array cannot contain duplicate values"));
      }
    }
    names.push_back(item.string_value());
  }
  return names;
}

absl::StatusOr<std::unique_ptr<Node>> ParseNode(const Value& spec, int depth);

absl::StatusOr<std::vector<std::unique_ptr<Node>>> ParseSchemaList(
    absl::string_view keyword, const Value& v, int depth) {
  if (!v.is_array()) return MustBe(keyword, "an array");
  if (v.array_items().empty()) {
    return FailedToParse(absl::StrCat("$jsonSchema keyword '", keyword,
                                      "' must be a non-empty array"));
  }
  std::vector<std::unique_ptr<Node>> out;
  for (const Value& item : v.array_items()) {
    if (!item.is_object()) {
      return MongoError(absl::StatusCode::kInvalidArgument, kTypeMismatch,
                        absl::StrCat("$jsonSchema keyword '", keyword,
                                     "' must be an array of objects"));
    }
    ASSIGN_OR_RETURN(auto node, ParseNode(item, depth + 1));
    out.push_back(std::move(node));
  }
  return out;
}

absl::StatusOr<std::unique_ptr<Node>> ParseSubschema(absl::string_view keyword,
                                                     const Value& v,
                                                     int depth) {
  if (!v.is_object()) return MustBe(keyword, "an object");
  return ParseNode(v, depth + 1);
}

// 150: a bound on the nesting of subschemas (MongoDB bounds a query's
// depth at 100 levels of BSON; a schema is at most that deep anyway).
constexpr int kMaxSchemaDepth = 150;

absl::Status ParseTypes(const Value& v, bool bson, Node* n) {
  const char* keyword = bson ? "bsonType" : "type";
  std::vector<Value> names;
  if (v.is_string()) {
    names.push_back(v);
  } else if (v.is_array()) {
    for (const Value& item : v.array_items()) {
      if (!item.is_string()) {
        return MongoError(absl::StatusCode::kInvalidArgument, kTypeMismatch,
                          absl::StrCat("$jsonSchema keyword '", keyword,
                                       "' array elements must be strings"));
      }
      names.push_back(item);
    }
    if (names.empty()) {
      return FailedToParse(absl::StrCat("$jsonSchema keyword '", keyword,
                                        "' must name at least one type"));
    }
  } else {
    return MustBe(keyword, "a string or an array of strings");
  }
  for (const Value& name : names) {
    if (bson) {
      if (!BsonTypeAlias(name.string_value(), &n->types)) {
        return MongoError(
            absl::StatusCode::kInvalidArgument, kBadValue,
            absl::StrCat("Unknown type name alias: ", name.string_value()));
      }
    } else {
      RETURN_IF_ERROR(JsonTypeAlias(name.string_value(), &n->types));
    }
  }
  n->type_keyword = keyword;
  n->type_spec = v;
  return absl::OkStatus();
}

absl::StatusOr<std::unique_ptr<Node>> ParseNode(const Value& spec, int depth) {
  if (depth > kMaxSchemaDepth) {
    return FailedToParse("$jsonSchema is nested too deeply");
  }
  auto n = std::make_unique<Node>();
  const Value* min = nullptr;
  const Value* max = nullptr;
  for (const auto& [k, v] : spec.object_fields()) {
    if (k == "title" || k == "description") {
      if (!v.is_string()) return MustBe(k, "a string");
      (k == "title" ? n->title : n->description) = v.string_value();
    } else if (k == "type" || k == "bsonType") {
      if (!n->type_keyword.empty()) {
        return FailedToParse(
            "Cannot specify both $jsonSchema keywords 'type' and 'bsonType'");
      }
      RETURN_IF_ERROR(ParseTypes(v, k == "bsonType", n.get()));
    } else if (k == "required") {
      ASSIGN_OR_RETURN(n->required, ParseNameList(k, v));
      n->required_spec = v;
    } else if (k == "properties") {
      if (!v.is_object()) return MustBe(k, "an object");
      for (const auto& [name, sub] : v.object_fields()) {
        if (!sub.is_object()) {
          return MongoError(
              absl::StatusCode::kInvalidArgument, kTypeMismatch,
              absl::StrCat("Nested schema for $jsonSchema property '", name,
                           "' must be an object"));
        }
        ASSIGN_OR_RETURN(auto node, ParseNode(sub, depth + 1));
        n->properties.emplace_back(name, std::move(node));
      }
    } else if (k == "patternProperties") {
      if (!v.is_object()) return MustBe(k, "an object");
      for (const auto& [pattern, sub] : v.object_fields()) {
        if (!sub.is_object()) {
          return MongoError(
              absl::StatusCode::kInvalidArgument, kTypeMismatch,
              absl::StrCat("$jsonSchema keyword 'patternProperties' has "
                           "property '",
                           pattern, "' which is not an object"));
        }
        ASSIGN_OR_RETURN(auto regex, CompiledRegex::Compile(pattern, ""));
        ASSIGN_OR_RETURN(auto node, ParseNode(sub, depth + 1));
        n->pattern_properties.push_back({pattern, regex, std::move(node)});
      }
    } else if (k == "additionalProperties") {
      if (v.type() == ValueType::kBool) {
        n->additional_allowed = v.bool_value();
      } else if (v.is_object()) {
        ASSIGN_OR_RETURN(n->additional_schema, ParseNode(v, depth + 1));
      } else {
        return MustBe(k, "an object or a boolean");
      }
    } else if (k == "minProperties" || k == "maxProperties") {
      ASSIGN_OR_RETURN(int64_t len, ParseLength(k, v));
      (k == "minProperties" ? n->min_properties : n->max_properties) = len;
    } else if (k == "dependencies") {
      if (!v.is_object()) return MustBe(k, "an object");
      for (const auto& [name, dep] : v.object_fields()) {
        Node::Dependency d;
        d.name = name;
        if (dep.is_object()) {
          ASSIGN_OR_RETURN(d.schema, ParseNode(dep, depth + 1));
        } else if (dep.is_array()) {
          ASSIGN_OR_RETURN(d.required, ParseNameList(k, dep));
        } else {
          return MongoError(
              absl::StatusCode::kInvalidArgument, kTypeMismatch,
              absl::StrCat("property '", name,
                           "' in $jsonSchema keyword 'dependencies' must be "
                           "either an object or an array"));
        }
        n->dependencies.push_back(std::move(d));
      }
    } else if (k == "minimum" || k == "maximum") {
      if (!v.is_number()) return MustBe(k, "a number");
      (k == "minimum" ? min : max) = &v;
      (k == "minimum" ? n->minimum : n->maximum) = v;
    } else if (k == "exclusiveMinimum" || k == "exclusiveMaximum") {
      if (v.type() != ValueType::kBool) return MustBe(k, "a boolean");
      (k == "exclusiveMinimum" ? n->exclusive_minimum : n->exclusive_maximum) =
          v.bool_value();
    } else if (k == "multipleOf") {
      if (!v.is_number()) return MustBe(k, "a number");
      if (!(v.AsDouble() > 0)) {
        return FailedToParse(
            "$jsonSchema keyword 'multipleOf' must have a positive value");
      }
      n->multiple_of = v;
    } else if (k == "minLength" || k == "maxLength") {
      ASSIGN_OR_RETURN(int64_t len, ParseLength(k, v));
      (k == "minLength" ? n->min_length : n->max_length) = len;
    } else if (k == "pattern") {
      if (!v.is_string()) return MustBe(k, "a string");
      ASSIGN_OR_RETURN(n->pattern_regex,
                       CompiledRegex::Compile(v.string_value(), ""));
      n->pattern = v.string_value();
    } else if (k == "items") {
      if (v.is_object()) {
        ASSIGN_OR_RETURN(n->items, ParseNode(v, depth + 1));
      } else if (v.is_array()) {
        for (const Value& item : v.array_items()) {
          if (!item.is_object()) {
            return MongoError(absl::StatusCode::kInvalidArgument, kTypeMismatch,
                              "$jsonSchema keyword 'items' requires that "
                              "each element of the array is an object");
          }
          ASSIGN_OR_RETURN(auto node, ParseNode(item, depth + 1));
          n->item_list.push_back(std::move(node));
        }
        n->has_item_list = true;
      } else {
        return MustBe(k, "an array or an object");
      }
    } else if (k == "additionalItems") {
      if (v.type() == ValueType::kBool) {
        n->additional_items_allowed = v.bool_value();
      } else if (v.is_object()) {
        ASSIGN_OR_RETURN(n->additional_items, ParseNode(v, depth + 1));
      } else {
        return MustBe(k, "an object or a boolean");
      }
    } else if (k == "minItems" || k == "maxItems") {
      ASSIGN_OR_RETURN(int64_t len, ParseLength(k, v));
      (k == "minItems" ? n->min_items : n->max_items) = len;
    } else if (k == "uniqueItems") {
      if (v.type() != ValueType::kBool) return MustBe(k, "a boolean");
      n->unique_items = v.bool_value();
    } else if (k == "enum") {
      if (!v.is_array()) return MustBe(k, "an array");
      if (v.array_items().empty()) {
        return FailedToParse(
            "$jsonSchema keyword 'enum' cannot be an empty array");
      }
      const auto& items = v.array_items();
      for (size_t i = 0; i < items.size(); ++i) {
        for (size_t j = 0; j < i; ++j) {
          if (ValuesEqual(items[i], items[j]) &&
              items[i].type() == items[j].type()) {
            return FailedToParse(
                "$jsonSchema keyword 'enum' array cannot contain duplicate "
                "values");
          }
        }
      }
      n->enum_values = v;
    } else if (k == "allOf") {
      ASSIGN_OR_RETURN(n->all_of, ParseSchemaList(k, v, depth));
    } else if (k == "anyOf") {
      ASSIGN_OR_RETURN(n->any_of, ParseSchemaList(k, v, depth));
    } else if (k == "oneOf") {
      ASSIGN_OR_RETURN(n->one_of, ParseSchemaList(k, v, depth));
    } else if (k == "not") {
      ASSIGN_OR_RETURN(n->not_schema, ParseSubschema(k, v, depth));
    } else if (k == "$ref" || k == "$schema" || k == "default" ||
               k == "definitions" || k == "format" || k == "id") {
      return FailedToParse(absl::StrCat("$jsonSchema keyword '", k,
                                        "' is not currently supported"));
    } else {
      return FailedToParse(absl::StrCat("Unknown $jsonSchema keyword: ", k));
    }
  }
  if (n->exclusive_minimum && min == nullptr) {
    return FailedToParse(
        "$jsonSchema keyword 'minimum' must be a present if "
        "exclusiveMinimum is present");
  }
  if (n->exclusive_maximum && max == nullptr) {
    return FailedToParse(
        "$jsonSchema keyword 'maximum' must be a present if "
        "exclusiveMaximum is present");
  }
  return n;
}

bool TypeAllowed(const Node& n, const Value& v) {
  if (n.type_keyword.empty()) return true;
  for (ValueType t : n.types) {
    if (t == v.type()) return true;
  }
  return false;
}

bool MinimumHolds(const Node& n, const Value& v) {
  const int c = CompareValues(v, *n.minimum);
  return n.exclusive_minimum ? c > 0 : c >= 0;
}
bool MaximumHolds(const Node& n, const Value& v) {
  const int c = CompareValues(v, *n.maximum);
  return n.exclusive_maximum ? c < 0 : c <= 0;
}
bool MultipleHolds(const Node& n, const Value& v) {
  const double d = v.AsDouble();
  if (std::isnan(d) || std::isinf(d)) return false;
  return std::fmod(d, n.multiple_of->AsDouble()) == 0;
}
bool InEnum(const Node& n, const Value& v) {
  for (const Value& e : n.enum_values->array_items()) {
    if (ValuesEqual(v, e)) return true;
  }
  return false;
}
// The first value that occurs twice in `arr`, if any.
const Value* Duplicate(const Value& arr) {
  const auto& items = arr.array_items();
  for (size_t i = 0; i < items.size(); ++i) {
    for (size_t j = 0; j < i; ++j) {
      if (ValuesEqual(items[i], items[j])) return &items[i];
    }
  }
  return nullptr;
}
bool IsAdditional(const Node& n, const std::string& name) {
  for (const auto& [p, unused] : n.properties) {
    if (p == name) return false;
  }
  for (const auto& pp : n.pattern_properties) {
    if (pp.regex->Search(name)) return false;
  }
  return true;
}
int CountMatching(const std::vector<std::unique_ptr<Node>>& list,
                  const Value& v) {
  int matched = 0;
  for (const auto& s : list) matched += s->Matches(v) ? 1 : 0;
  return matched;
}

}  // namespace

bool JsonSchema::Node::Matches(const Value& v) const {
  if (!TypeAllowed(*this, v)) return false;
  if (enum_values && !InEnum(*this, v)) return false;
  if (v.is_number()) {
    if (minimum && !MinimumHolds(*this, v)) return false;
    if (maximum && !MaximumHolds(*this, v)) return false;
    if (multiple_of && !MultipleHolds(*this, v)) return false;
  }
  if (v.is_string()) {
    const size_t len = CountCodePoints(v.string_value());
    if (min_length && static_cast<int64_t>(len) < *min_length) return false;
    if (max_length && static_cast<int64_t>(len) > *max_length) return false;
    if (pattern_regex && !pattern_regex->Search(v.string_value())) {
      return false;
    }
  }
  if (v.is_array()) {
    const auto& arr = v.array_items();
    const int64_t size = static_cast<int64_t>(arr.size());
    if (min_items && size < *min_items) return false;
    if (max_items && size > *max_items) return false;
    if (unique_items && Duplicate(v) != nullptr) return false;
    if (items) {
      for (const Value& item : arr) {
        if (!items->Matches(item)) return false;
      }
    }
    if (has_item_list) {
      for (size_t i = 0; i < arr.size(); ++i) {
        if (i < item_list.size()) {
          if (!item_list[i]->Matches(arr[i])) return false;
        } else if (additional_items_allowed == false) {
          return false;
        } else if (additional_items && !additional_items->Matches(arr[i])) {
          return false;
        }
      }
    }
  }
  if (v.is_object() && !MatchesObject(v)) return false;
  for (const auto& s : all_of) {
    if (!s->Matches(v)) return false;
  }
  if (!any_of.empty() && CountMatching(any_of, v) == 0) return false;
  if (!one_of.empty() && CountMatching(one_of, v) != 1) return false;
  if (not_schema && not_schema->Matches(v)) return false;
  return true;
}

bool JsonSchema::Node::MatchesObject(const Value& v) const {
  for (const std::string& r : required) {
    if (v.Get(r) == nullptr) return false;
  }
  const int64_t count = static_cast<int64_t>(v.object_fields().size());
  if (min_properties && count < *min_properties) return false;
  if (max_properties && count > *max_properties) return false;
  for (const auto& [name, schema] : properties) {
    const Value* p = v.Get(name);
    if (p != nullptr && !schema->Matches(*p)) return false;
  }
  for (const auto& [name, field] : v.object_fields()) {
    bool additional = true;
    for (const auto& pp : pattern_properties) {
      if (pp.regex->Search(name)) {
        additional = false;
        if (!pp.schema->Matches(field)) return false;
      }
    }
    if (!additional || !IsAdditional(*this, name)) continue;
    if (additional_allowed == false) return false;
    if (additional_schema && !additional_schema->Matches(field)) return false;
  }
  for (const Dependency& d : dependencies) {
    if (v.Get(d.name) == nullptr) continue;
    for (const std::string& r : d.required) {
      if (v.Get(r) == nullptr) return false;
    }
    if (d.schema && !d.schema->Matches(v)) return false;
  }
  return true;
}

namespace {

// {operatorName: <k>, specifiedAs: {<k>: <spec>}, reason, consideredValue}
Value LeafError(absl::string_view keyword, const Value& spec,
                absl::string_view reason, const Value& considered) {
  return Value::MakeObject(
      {{"operatorName", Value::String(std::string(keyword))},
       {"specifiedAs", Named(keyword, spec)},
       {"reason", Value::String(std::string(reason))},
       {"consideredValue", considered}});
}

// minimum / maximum: {operatorName, specifiedAs: {minimum: m[,
// exclusiveMinimum: true]}, reason: "comparison failed", consideredValue}.
Value BoundError(const char* keyword, const Value& bound,
                 const char* exclusive_keyword, bool exclusive,
                 const Value& v) {
  Value spec = Named(keyword, bound);
  if (exclusive) {
    spec.mutable_object_fields().emplace_back(exclusive_keyword,
                                              Value::Bool(true));
  }
  return Value::MakeObject({{"operatorName", Value::String(keyword)},
                            {"specifiedAs", spec},
                            {"reason", Value::String("comparison failed")},
                            {"consideredValue", v}});
}

Value Int(int64_t n) {
  return n >= INT32_MIN && n <= INT32_MAX ? Value::Int32(static_cast<int>(n))
                                          : Value::Int64(n);
}

// {index, [title], [description], details: [...]} for each failing one.
Value::Array FailingSchemas(const std::vector<std::unique_ptr<Node>>& list,
                            const Value& v) {
  Value::Array out;
  for (size_t i = 0; i < list.size(); ++i) {
    if (list[i]->Matches(v)) continue;
    Value::Object entry = {{"index", Int(static_cast<int64_t>(i))}};
    list[i]->Annotate(&entry);
    entry.emplace_back("details", Value::MakeArray(list[i]->Explain(v)));
    out.push_back(Value::MakeObject(std::move(entry)));
  }
  return out;
}

}  // namespace

Value::Array JsonSchema::Node::Explain(const Value& v) const {
  Value::Array out;
  if (!TypeAllowed(*this, v)) {
    out.push_back(Value::MakeObject(
        {{"operatorName", Value::String(type_keyword)},
         {"specifiedAs", Named(type_keyword, type_spec)},
         {"reason", Value::String("type did not match")},
         {"consideredValue", v},
         {"consideredType", Value::String(std::string(TypeName(v.type())))}}));
  }
  if (enum_values && !InEnum(*this, v)) {
    out.push_back(
        LeafError("enum", *enum_values, "value was not found in enum", v));
  }
  if (v.is_number()) {
    if (minimum && !MinimumHolds(*this, v)) {
      out.push_back(BoundError("minimum", *minimum, "exclusiveMinimum",
                               exclusive_minimum, v));
    }
    if (maximum && !MaximumHolds(*this, v)) {
      out.push_back(BoundError("maximum", *maximum, "exclusiveMaximum",
                               exclusive_maximum, v));
    }
    if (multiple_of && !MultipleHolds(*this, v)) {
      out.push_back(LeafError(
          "multipleOf", *multiple_of,
          "considered value is not a multiple of the specified value", v));
    }
  }
  if (v.is_string()) {
    const int64_t len = static_cast<int64_t>(CountCodePoints(v.string_value()));
    if (min_length && len < *min_length) {
      out.push_back(LeafError("minLength", Int(*min_length),
                              "specified string length was not satisfied", v));
    }
    if (max_length && len > *max_length) {
      out.push_back(LeafError("maxLength", Int(*max_length),
                              "specified string length was not satisfied", v));
    }
    if (pattern_regex && !pattern_regex->Search(v.string_value())) {
      out.push_back(LeafError("pattern", Value::String(pattern),
                              "regular expression did not match", v));
    }
  }
  if (v.is_array()) ExplainArray(v, &out);
  if (v.is_object()) ExplainObject(v, &out);
  if (!all_of.empty()) {
    Value::Array failing = FailingSchemas(all_of, v);
    if (!failing.empty()) {
      out.push_back(Value::MakeObject(
          {{"operatorName", Value::String("allOf")},
           {"schemasNotSatisfied", Value::MakeArray(std::move(failing))}}));
    }
  }
  if (!any_of.empty() && CountMatching(any_of, v) == 0) {
    out.push_back(
        Value::MakeObject({{"operatorName", Value::String("anyOf")},
                           {"schemasNotSatisfied",
                            Value::MakeArray(FailingSchemas(any_of, v))}}));
  }
  if (!one_of.empty()) {
    const int matched = CountMatching(one_of, v);
    if (matched == 0) {
      out.push_back(
          Value::MakeObject({{"operatorName", Value::String("oneOf")},
                             {"schemasNotSatisfied",
                              Value::MakeArray(FailingSchemas(one_of, v))}}));
    } else if (matched > 1) {
      Value::Array indexes;
      for (size_t i = 0; i < one_of.size(); ++i) {
        if (one_of[i]->Matches(v)) indexes.push_back(Int(i));
      }
      out.push_back(Value::MakeObject(
          {{"operatorName", Value::String("oneOf")},
           {"reason", Value::String("more than one subschema matched")},
           {"matchingSchemaIndexes", Value::MakeArray(std::move(indexes))}}));
    }
  }
  if (not_schema && not_schema->Matches(v)) {
    out.push_back(Value::MakeObject(
        {{"operatorName", Value::String("not")},
         {"reason", Value::String("child expression matched")}}));
  }
  return out;
}

void JsonSchema::Node::ExplainArray(const Value& v, Value::Array* out) const {
  const auto& arr = v.array_items();
  const int64_t size = static_cast<int64_t>(arr.size());
  if (min_items && size < *min_items) {
    out->push_back(LeafError("minItems", Int(*min_items),
                             "array did not match specified length", v));
  }
  if (max_items && size > *max_items) {
    out->push_back(LeafError("maxItems", Int(*max_items),
                             "array did not match specified length", v));
  }
  if (unique_items) {
    if (const Value* dup = Duplicate(v)) {
      Value e = LeafError("uniqueItems", Value::Bool(true),
                          "found a duplicate item", v);
      e.mutable_object_fields().emplace_back("duplicatedValue", *dup);
      out->push_back(std::move(e));
    }
  }
  auto item_error = [&](const char* keyword, const char* reason,
                        const Node& schema, size_t i) {
    Value::Object e = {{"operatorName", Value::String(keyword)}};
    schema.Annotate(&e);
    e.emplace_back("reason", Value::String(reason));
    e.emplace_back("itemIndex", Int(static_cast<int64_t>(i)));
    e.emplace_back("details", Value::MakeArray(schema.Explain(arr[i])));
    out->push_back(Value::MakeObject(std::move(e)));
  };
  if (items) {
    for (size_t i = 0; i < arr.size(); ++i) {
      if (!items->Matches(arr[i])) {
        item_error("items", "At least one item did not match the sub-schema",
                   *items, i);
        break;
      }
    }
  }
  if (!has_item_list) return;
  Value::Array failing;
  for (size_t i = 0; i < arr.size() && i < item_list.size(); ++i) {
    if (item_list[i]->Matches(arr[i])) continue;
    failing.push_back(Value::MakeObject(
        {{"itemIndex", Int(static_cast<int64_t>(i))},
         {"details", Value::MakeArray(item_list[i]->Explain(arr[i]))}}));
  }
  if (!failing.empty()) {
    out->push_back(
        Value::MakeObject({{"operatorName", Value::String("items")},
                           {"details", Value::MakeArray(std::move(failing))}}));
  }
  if (arr.size() <= item_list.size()) return;
  if (additional_items_allowed == false) {
    out->push_back(Value::MakeObject(
        {{"operatorName", Value::String("additionalItems")},
         {"specifiedAs", Named("additionalItems", Value::Bool(false))},
         {"reason", Value::String("found additional items")},
         {"additionalItems",
          Value::MakeArray(
              Value::Array(arr.begin() + item_list.size(), arr.end()))}}));
  } else if (additional_items) {
    for (size_t i = item_list.size(); i < arr.size(); ++i) {
      if (!additional_items->Matches(arr[i])) {
        item_error("additionalItems",
                   "At least one additional item did not match the "
                   "sub-schema",
                   *additional_items, i);
        break;
      }
    }
  }
}

void JsonSchema::Node::ExplainObject(const Value& v, Value::Array* out) const {
  const int64_t count = static_cast<int64_t>(v.object_fields().size());
  auto count_error = [&](const char* keyword, int64_t bound) {
    out->push_back(Value::MakeObject(
        {{"operatorName", Value::String(keyword)},
         {"specifiedAs", Named(keyword, Int(bound))},
         {"reason",
          Value::String("specified number of properties was not satisfied")},
         {"numberOfProperties", Int(count)}}));
  };
  if (min_properties && count < *min_properties) {
    count_error("minProperties", *min_properties);
  }
  if (max_properties && count > *max_properties) {
    count_error("maxProperties", *max_properties);
  }
  Value::Array props;
  for (const auto& [name, schema] : properties) {
    const Value* p = v.Get(name);
    if (p == nullptr || schema->Matches(*p)) continue;
    Value::Object e = {{"propertyName", Value::String(name)}};
    schema->Annotate(&e);
    e.emplace_back("details", Value::MakeArray(schema->Explain(*p)));
    props.push_back(Value::MakeObject(std::move(e)));
  }
  if (!props.empty()) {
    out->push_back(Value::MakeObject(
        {{"operatorName", Value::String("properties")},
         {"propertiesNotSatisfied", Value::MakeArray(std::move(props))}}));
  }
  Value::Array pattern_failures;
  Value::Array additional;
  std::optional<std::string> failing_additional;
  for (const auto& [name, field] : v.object_fields()) {
    for (const auto& pp : pattern_properties) {
      if (!pp.regex->Search(name) || pp.schema->Matches(field)) continue;
      Value::Object e = {{"propertyName", Value::String(name)}};
      pp.schema->Annotate(&e);
      e.emplace_back("regexMatched", Value::String(pp.pattern));
      e.emplace_back("details", Value::MakeArray(pp.schema->Explain(field)));
      pattern_failures.push_back(Value::MakeObject(std::move(e)));
    }
    if (!IsAdditional(*this, name)) continue;
    additional.push_back(Value::String(name));
    if (additional_schema && !failing_additional &&
        !additional_schema->Matches(field)) {
      failing_additional = name;
    }
  }
  if (!pattern_failures.empty()) {
    out->push_back(Value::MakeObject(
        {{"operatorName", Value::String("patternProperties")},
         {"details", Value::MakeArray(std::move(pattern_failures))}}));
  }
  if (additional_allowed == false && !additional.empty()) {
    out->push_back(Value::MakeObject(
        {{"operatorName", Value::String("additionalProperties")},
         {"specifiedAs", Named("additionalProperties", Value::Bool(false))},
         {"additionalProperties", Value::MakeArray(std::move(additional))}}));
  } else if (failing_additional) {
    Value::Object e = {{"operatorName", Value::String("additionalProperties")}};
    additional_schema->Annotate(&e);
    e.emplace_back("reason",
                   Value::String("at least one additional property did not "
                                 "match the subschema"));
    e.emplace_back("failingProperty", Value::String(*failing_additional));
    e.emplace_back("details", Value::MakeArray(additional_schema->Explain(
                                  *v.Get(*failing_additional))));
    out->push_back(Value::MakeObject(std::move(e)));
  }
  Value::Array failing_deps;
  for (const Dependency& d : dependencies) {
    if (v.Get(d.name) == nullptr) continue;
    Value::Object e = {{"conditionalProperty", Value::String(d.name)}};
    if (d.schema) {
      if (d.schema->Matches(v)) continue;
      e.emplace_back("details", Value::MakeArray(d.schema->Explain(v)));
    } else {
      Value::Array missing;
      for (const std::string& r : d.required) {
        if (v.Get(r) == nullptr) missing.push_back(Value::String(r));
      }
      if (missing.empty()) continue;
      e.emplace_back("missingProperties", Value::MakeArray(std::move(missing)));
    }
    failing_deps.push_back(Value::MakeObject(std::move(e)));
  }
  if (!failing_deps.empty()) {
    out->push_back(Value::MakeObject(
        {{"operatorName", Value::String("dependencies")},
         {"failingDependencies", Value::MakeArray(std::move(failing_deps))}}));
  }
  Value::Array missing;
  for (const std::string& r : required) {
    if (v.Get(r) == nullptr) missing.push_back(Value::String(r));
  }
  if (!missing.empty()) {
    out->push_back(Value::MakeObject(
        {{"operatorName", Value::String("required")},
         {"specifiedAs", Named("required", required_spec)},
         {"missingProperties", Value::MakeArray(std::move(missing))}}));
  }
}

JsonSchema::JsonSchema(Value spec, std::unique_ptr<Node> root)
    : spec_(std::move(spec)), root_(std::move(root)) {}
JsonSchema::~JsonSchema() = default;

absl::StatusOr<std::shared_ptr<const JsonSchema>> JsonSchema::Parse(
    const Value& spec) {
  if (!spec.is_object()) {
    return MongoError(absl::StatusCode::kInvalidArgument, kTypeMismatch,
                      "$jsonSchema must be an object");
  }
  ASSIGN_OR_RETURN(std::unique_ptr<Node> root, ParseNode(spec, 0));
  return std::shared_ptr<const JsonSchema>(
      new JsonSchema(spec, std::move(root)));
}

bool JsonSchema::Matches(const Value& doc) const { return root_->Matches(doc); }

Value JsonSchema::Explain(const Value& doc) const {
  Value::Object out = {{"operatorName", Value::String("$jsonSchema")}};
  root_->Annotate(&out);
  out.emplace_back("schemaRulesNotSatisfied",
                   Value::MakeArray(root_->Explain(doc)));
  return Value::MakeObject(std::move(out));
}

}  // namespace ttldb
