#include "query/update.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "base/status.h"
#include "document/compare.h"
#include "query/path_values.h"
#include "query/shell_format.h"

namespace ttldb {
namespace {

using Kind = UpdateOp::Kind;
using query_internal::ExactEqual;
using query_internal::ParseArrayIndex;
using query_internal::ShellField;
using query_internal::ShellId;
using query_internal::ShellString;
using query_internal::SplitDotted;

// MongoDB codes used only here.
constexpr int kPathNotViable = 28;
constexpr int kConflictingUpdateOperators = 40;
constexpr int kDollarPrefixedFieldName = 52;
constexpr int kNotSingleValueField = 54;
constexpr int kEmptyFieldName = 56;

absl::Status Err(int code, absl::string_view msg) {
  return MongoError(absl::StatusCode::kInvalidArgument, code, msg);
}

absl::Status ImmutableId() {
  return Err(kImmutableField,
             "Performing an update on the path '_id' would modify the "
             "immutable field '_id'");
}

// ---- Parsing ---------------------------------------------------------------

absl::Status ValidatePath(absl::string_view path) {
  if (path.empty())
    return Err(kEmptyFieldName, "An empty update path is not valid.");
  for (const std::string& part : SplitDotted(path)) {
    if (part.empty()) {
      return Err(kEmptyFieldName,
                 absl::StrCat("The update path '", path,
                              "' contains an empty field name, which is not "
                              "allowed."));
    }
    if (part[0] == '$') {
      return Err(kBadValue,
                 absl::StrCat("ttldb does not support positional update "
                              "paths: '",
                              path, "'"));
    }
  }
  return absl::OkStatus();
}

bool IsPrefixPath(absl::string_view prefix, absl::string_view path) {
  return path.size() > prefix.size() &&
         path.substr(0, prefix.size()) == prefix && path[prefix.size()] == '.';
}

// Rejects a path equal to, or on the same branch as, one already updated.
absl::Status AddPath(const std::string& path, std::vector<std::string>* seen) {
  for (const std::string& other : *seen) {
    if (other == path || IsPrefixPath(other, path) ||
        IsPrefixPath(path, other)) {
      const std::string& at = other.size() <= path.size() ? other : path;
      return Err(kConflictingUpdateOperators,
                 absl::StrCat("Updating the path '", path,
                              "' would create a conflict at '", at, "'"));
    }
  }
  seen->push_back(path);
  return absl::OkStatus();
}

bool ToInt64(const Value& v, int64_t* out) {
  if (v.type() == ValueType::kInt32 || v.type() == ValueType::kInt64) {
    *out = v.int64_value();
    return true;
  }
  if (v.type() == ValueType::kDouble) {
    const double d = v.double_value();
    if (d != std::floor(d) || std::fabs(d) > 9e18) return false;
    *out = static_cast<int64_t>(d);
    return true;
  }
  return false;
}

absl::Status ParsePush(const std::string& field, const Value& arg,
                       UpdateOp* op) {
  if (!arg.is_object() || arg.Get("$each") == nullptr) {
    op->each.push_back(arg);
    return absl::OkStatus();
  }
  for (const auto& [name, v] : arg.object_fields()) {
    if (name == "$each") {
      if (!v.is_array()) {
        return Err(kBadValue,
                   absl::StrCat("The argument to $each in $push must be an "
                                "array but it was of type: ",
                                TypeName(v.type())));
      }
      op->each = v.array_items();
    } else if (name == "$slice") {
      int64_t n;
      if (!ToInt64(v, &n)) {
        return Err(kBadValue,
                   absl::StrCat("The value for $slice must be an integer "
                                "value but was given type: ",
                                TypeName(v.type())));
      }
      op->slice = n;
    } else if (name == "$position") {
      int64_t n;
      if (!ToInt64(v, &n)) {
        return Err(kBadValue,
                   absl::StrCat("The value for $position must be an integer "
                                "value, not of type: ",
                                TypeName(v.type())));
      }
      op->position = n;
    } else if (name == "$sort") {
      const absl::Status bad_sort =
          Err(kBadValue,
              "The $sort is invalid: use 1/-1 to sort the whole element, or "
              "{field:1/-1} to sort embedded fields");
      if (v.is_number()) {
        const double d = v.AsDouble();
        if (d != 1 && d != -1) return bad_sort;
        op->sort_direction = d > 0 ? 1 : -1;
      } else if (v.is_object()) {
        if (v.object_fields().empty()) {
          return Err(kBadValue,
                     "The $sort pattern is empty when it should be a set of "
                     "fields.");
        }
        auto spec = SortSpec::Parse(v);
        if (!spec.ok()) return bad_sort;
        op->sort_fields = std::make_shared<const SortSpec>(*std::move(spec));
      } else {
        return bad_sort;
      }
    } else {
      return Err(kBadValue,
                 absl::StrCat("Unrecognized clause in $push: ", name));
    }
  }
  (void)field;
  return absl::OkStatus();
}

absl::Status ParseArg(absl::string_view op_name, const std::string& field,
                      const Value& arg, UpdateOp* op) {
  switch (op->kind) {
    case Kind::kInc:
    case Kind::kMul:
      if (!arg.is_number()) {
        return Err(kTypeMismatch,
                   absl::StrCat(op->kind == Kind::kInc
                                    ? "Cannot increment with non-numeric "
                                      "argument: "
                                    : "Cannot multiply with non-numeric "
                                      "argument: ",
                                ShellField(field, arg)));
      }
      return absl::OkStatus();
    case Kind::kRename: {
      if (!arg.is_string()) {
        return Err(kBadValue,
                   absl::StrCat("The 'to' field for $rename must be a "
                                "string: ",
                                field, ": ", ShellString(arg)));
      }
      const std::string& to = arg.string_value();
      RETURN_IF_ERROR(ValidatePath(to));
      if (to == field) {
        return Err(kBadValue,
                   absl::StrCat("The source and target field for $rename "
                                "must differ: ",
                                field, ": ", ShellString(arg)));
      }
      if (IsPrefixPath(to, field) || IsPrefixPath(field, to)) {
        return Err(kBadValue,
                   absl::StrCat("The source and target field for $rename "
                                "must not be on the same path: ",
                                field, ": ", ShellString(arg)));
      }
      op->to_path = to;
      op->to_parts = SplitDotted(to);
      return absl::OkStatus();
    }
    case Kind::kCurrentDate: {
      if (arg.type() == ValueType::kBool) return absl::OkStatus();
      if (arg.is_object()) {
        const Value* type = arg.Get("$type");
        if (arg.object_fields().size() != 1 || type == nullptr ||
            !type->is_string() ||
            (type->string_value() != "date" &&
             type->string_value() != "timestamp")) {
          return Err(kBadValue,
                     "The '$type' string field is required to be 'date' or "
                     "'timestamp': {$currentDate: {field : {$type: "
                     "'date'}}}");
        }
        op->timestamp = type->string_value() == "timestamp";
        return absl::OkStatus();
      }
      return Err(kBadValue,
                 absl::StrCat(ShellField(field, arg),
                              " is not valid type for $currentDate. Please "
                              "use a boolean ('true') or a $type expression "
                              "({$type: 'timestamp/date'})."));
    }
    case Kind::kPush:
      return ParsePush(field, arg, op);
    case Kind::kAddToSet:
      if (arg.is_object() && !arg.object_fields().empty() &&
          arg.object_fields()[0].first == "$each") {
        const Value& each = arg.object_fields()[0].second;
        if (!each.is_array()) {
          return Err(kTypeMismatch,
                     absl::StrCat("The argument to $each in $addToSet must "
                                  "be an array but it was of type ",
                                  TypeName(each.type())));
        }
        if (arg.object_fields().size() > 1) {
          return Err(kBadValue,
                     absl::StrCat("Found unexpected fields after $each in "
                                  "$addToSet: ",
                                  ShellString(arg)));
        }
        op->each = each.array_items();
      } else {
        op->each.push_back(arg);
      }
      return absl::OkStatus();
    case Kind::kPull:
      if (arg.is_object() && !arg.object_fields().empty() &&
          arg.object_fields()[0].first[0] == '$') {
        ASSIGN_OR_RETURN(Filter f, Filter::ParseValueCondition(arg));
        op->pull_filter = std::make_shared<const Filter>(std::move(f));
        op->pull_value_condition = true;
      } else if (arg.is_object()) {
        ASSIGN_OR_RETURN(Filter f, Filter::Parse(arg));
        op->pull_filter = std::make_shared<const Filter>(std::move(f));
      }
      return absl::OkStatus();
    case Kind::kPullAll:
      if (!arg.is_array()) {
        return Err(kBadValue,
                   absl::StrCat("$pullAll requires an array argument but was "
                                "given a ",
                                TypeName(arg.type())));
      }
      return absl::OkStatus();
    case Kind::kPop: {
      if (!arg.is_number()) {
        return Err(kFailedToParse, absl::StrCat("Expected a number in: ", field,
                                                ": ", ShellString(arg)));
      }
      const double d = arg.AsDouble();
      if (d != 1 && d != -1) {
        return Err(kFailedToParse, absl::StrCat("$pop expects 1 or -1, found: ",
                                                ShellString(arg)));
      }
      op->pop = d > 0 ? 1 : -1;
      return absl::OkStatus();
    }
    default:
      (void)op_name;
      return absl::OkStatus();
  }
}

bool OperatorKind(absl::string_view name, Kind* kind) {
  static const std::pair<const char*, Kind> kOps[] = {
      {"$set", Kind::kSet},
      {"$unset", Kind::kUnset},
      {"$inc", Kind::kInc},
      {"$mul", Kind::kMul},
      {"$min", Kind::kMin},
      {"$max", Kind::kMax},
      {"$rename", Kind::kRename},
      {"$currentDate", Kind::kCurrentDate},
      {"$setOnInsert", Kind::kSetOnInsert},
      {"$push", Kind::kPush},
      {"$addToSet", Kind::kAddToSet},
      {"$pull", Kind::kPull},
      {"$pullAll", Kind::kPullAll},
      {"$pop", Kind::kPop},
  };
  for (const auto& [n, k] : kOps) {
    if (name == n) {
      *kind = k;
      return true;
    }
  }
  return false;
}

// Component-wise path order: numeric components by number, others bytewise.
bool PathLess(const std::vector<std::string>& a,
              const std::vector<std::string>& b) {
  for (size_t i = 0; i < a.size() && i < b.size(); ++i) {
    size_t x, y;
    if (ParseArrayIndex(a[i], &x) && ParseArrayIndex(b[i], &y)) {
      if (x != y) return x < y;
    } else if (a[i] != b[i]) {
      return a[i] < b[i];
    }
  }
  return a.size() < b.size();
}

// ---- Applying --------------------------------------------------------------

// Exact lookup for writing: object fields and array positions only.
Value* Find(Value* root, const std::vector<std::string>& parts) {
  Value* cur = root;
  for (const std::string& part : parts) {
    if (cur->is_object()) {
      cur = cur->GetMutable(part);
    } else if (cur->is_array()) {
      size_t i;
      auto& items = cur->mutable_array_items();
      cur = ParseArrayIndex(part, &i) && i < items.size() ? &items[i] : nullptr;
    } else {
      return nullptr;
    }
    if (cur == nullptr) return nullptr;
  }
  return cur;
}

// Makes `parts` exist (intermediate objects, null padding in arrays) and
// returns the slot at its end, which is null if it was just created.
absl::StatusOr<Value*> Create(Value* root,
                              const std::vector<std::string>& parts) {
  Value* cur = root;
  for (size_t k = 0; k < parts.size(); ++k) {
    const std::string& part = parts[k];
    const bool last = k + 1 == parts.size();
    if (cur->is_object()) {
      Value* child = cur->GetMutable(part);
      if (child == nullptr) {
        cur->Set(part, last ? Value() : Value::MakeObject());
        child = cur->GetMutable(part);
      }
      cur = child;
      continue;
    }
    size_t index;
    if (cur->is_array() && ParseArrayIndex(part, &index)) {
      auto& items = cur->mutable_array_items();
      if (index >= items.size()) {
        items.resize(index + 1);  // pads with nulls
        if (!last) items[index] = Value::MakeObject();
      }
      cur = &items[index];
      continue;
    }
    return Err(kPathNotViable,
               absl::StrCat("Cannot create field '", part, "' in element ",
                            ShellField(k == 0 ? "" : parts[k - 1], *cur)));
  }
  return cur;
}

absl::Status SetPath(Value* root, const std::vector<std::string>& parts,
                     Value v) {
  Value* slot = Find(root, parts);
  if (slot == nullptr) {
    ASSIGN_OR_RETURN(slot, Create(root, parts));
  }
  *slot = std::move(v);
  return absl::OkStatus();
}

// Removes the value at `parts` (an array element becomes null, as in
// MongoDB). Returns whether something was there.
bool UnsetPath(Value* root, const std::vector<std::string>& parts) {
  std::vector<std::string> parent_parts(parts.begin(), parts.end() - 1);
  Value* parent = Find(root, parent_parts);
  if (parent == nullptr) return false;
  if (parent->is_object()) return parent->Remove(parts.back());
  size_t i;
  if (parent->is_array() && ParseArrayIndex(parts.back(), &i) &&
      i < parent->array_items().size()) {
    parent->mutable_array_items()[i] = Value();
    return true;
  }
  return false;
}

// The first array met strictly before the end of `parts`, as a dotted
// prefix, or "".
std::string ArrayOnPath(const Value& root,
                        const std::vector<std::string>& parts) {
  const Value* cur = &root;
  for (size_t k = 0; k < parts.size(); ++k) {
    if (cur->is_array()) {
      return absl::StrJoin(parts.begin(), parts.begin() + k, ".");
    }
    if (!cur->is_object()) return "";
    cur = cur->Get(parts[k]);
    if (cur == nullptr) return "";
  }
  return "";
}

bool AddOverflows(int64_t a, int64_t b, int64_t* r) {
  return __builtin_add_overflow(a, b, r);
}
bool MulOverflows(int64_t a, int64_t b, int64_t* r) {
  return __builtin_mul_overflow(a, b, r);
}

// $inc / $mul on two numbers with MongoDB's type promotion: int op int is an
// int unless it overflows (then long); long overflow is an error; a double
// anywhere makes a double.
absl::StatusOr<Value> Arith(Kind kind, const Value& cur, const Value& arg,
                            const std::string& path, const Value& doc) {
  if (cur.type() == ValueType::kDouble || arg.type() == ValueType::kDouble) {
    const double r = kind == Kind::kInc ? cur.AsDouble() + arg.AsDouble()
                                        : cur.AsDouble() * arg.AsDouble();
    return Value::Double(r);
  }
  int64_t r;
  const bool overflow =
      kind == Kind::kInc
          ? AddOverflows(cur.int64_value(), arg.int64_value(), &r)
          : MulOverflows(cur.int64_value(), arg.int64_value(), &r);
  if (overflow) {
    return Err(
        kBadValue,
        absl::StrCat("Failed to apply ", kind == Kind::kInc ? "$inc" : "$mul",
                     " operations to current value (", ShellString(cur),
                     ") for document ", ShellId(doc), " at path '", path, "'"));
  }
  if (cur.type() == ValueType::kInt32 && arg.type() == ValueType::kInt32 &&
      r >= std::numeric_limits<int32_t>::min() &&
      r <= std::numeric_limits<int32_t>::max()) {
    return Value::Int32(static_cast<int32_t>(r));
  }
  return Value::Int64(r);
}

bool PullMatches(const UpdateOp& op, const Value& item) {
  if (op.pull_filter == nullptr) return ValuesEqual(item, op.arg);
  if (op.pull_value_condition) return op.pull_filter->MatchesValue(item);
  return item.is_object() && op.pull_filter->Matches(item);
}

absl::Status ApplyOp(const UpdateOp& op, Value* doc, int64_t now_millis,
                     bool is_insert) {
  Value* slot = Find(doc, op.parts);
  const std::string& leaf = op.parts.back();
  switch (op.kind) {
    case Kind::kSetOnInsert:
      if (!is_insert) return absl::OkStatus();
      return SetPath(doc, op.parts, op.arg);
    case Kind::kSet:
      return SetPath(doc, op.parts, op.arg);
    case Kind::kUnset:
      UnsetPath(doc, op.parts);
      return absl::OkStatus();
    case Kind::kCurrentDate:
      return SetPath(doc, op.parts,
                     op.timestamp
                         ? Value::Ts(Timestamp{
                               static_cast<uint32_t>(now_millis / 1000), 1})
                         : Value::Date(now_millis));
    case Kind::kInc:
    case Kind::kMul: {
      if (slot == nullptr) {
        if (op.kind == Kind::kInc) return SetPath(doc, op.parts, op.arg);
        Value zero = op.arg.type() == ValueType::kDouble  ? Value::Double(0)
                     : op.arg.type() == ValueType::kInt64 ? Value::Int64(0)
                                                          : Value::Int32(0);
        return SetPath(doc, op.parts, std::move(zero));
      }
      if (!slot->is_number()) {
        return Err(kTypeMismatch,
                   absl::StrCat(
                       "Cannot apply ", op.kind == Kind::kInc ? "$inc" : "$mul",
                       " to a value of non-numeric type. ", ShellId(*doc),
                       " has the field '", leaf, "' of non-numeric type ",
                       TypeName(slot->type())));
      }
      ASSIGN_OR_RETURN(Value r, Arith(op.kind, *slot, op.arg, op.path, *doc));
      *slot = std::move(r);
      return absl::OkStatus();
    }
    case Kind::kMin:
    case Kind::kMax: {
      if (slot == nullptr) return SetPath(doc, op.parts, op.arg);
      const int c = CompareValues(op.arg, *slot);
      if ((op.kind == Kind::kMin && c < 0) ||
          (op.kind == Kind::kMax && c > 0)) {
        *slot = op.arg;
      }
      return absl::OkStatus();
    }
    case Kind::kRename: {
      std::string array = ArrayOnPath(*doc, op.parts);
      if (!array.empty()) {
        return Err(
            kBadValue,
            absl::StrCat("The source field cannot be an array element, '",
                         op.path, "' in doc with ", ShellId(*doc),
                         " has an array field called '", array, "'"));
      }
      if (slot == nullptr) return absl::OkStatus();
      array = ArrayOnPath(*doc, op.to_parts);
      if (!array.empty()) {
        return Err(kBadValue,
                   absl::StrCat("The destination field cannot be an array "
                                "element, '",
                                op.to_path, "' in doc with ", ShellId(*doc),
                                " has an array field called '", array, "'"));
      }
      Value moved = std::move(*slot);
      UnsetPath(doc, op.parts);
      return SetPath(doc, op.to_parts, std::move(moved));
    }
    case Kind::kPush: {
      if (slot == nullptr) {
        ASSIGN_OR_RETURN(slot, Create(doc, op.parts));
        *slot = Value::MakeArray();
      } else if (!slot->is_array()) {
        return Err(kBadValue, absl::StrCat("The field '", op.path,
                                           "' must be an array but is of type ",
                                           TypeName(slot->type()),
                                           " in document ", ShellId(*doc)));
      }
      auto& items = slot->mutable_array_items();
      int64_t pos = static_cast<int64_t>(items.size());
      if (op.position.has_value()) {
        pos = *op.position;
        if (pos < 0) pos = std::max<int64_t>(0, items.size() + pos);
        pos = std::min<int64_t>(pos, items.size());
      }
      items.insert(items.begin() + pos, op.each.begin(), op.each.end());
      if (op.sort_direction != 0) {
        const int dir = op.sort_direction;
        std::stable_sort(items.begin(), items.end(),
                         [dir](const Value& a, const Value& b) {
                           return CompareValues(a, b) * dir < 0;
                         });
      } else if (op.sort_fields != nullptr) {
        const SortSpec& spec = *op.sort_fields;
        std::stable_sort(items.begin(), items.end(),
                         [&spec](const Value& a, const Value& b) {
                           return spec.Compare(a, b) < 0;
                         });
      }
      if (op.slice.has_value()) {
        const int64_t n = *op.slice;
        const int64_t size = items.size();
        if (n >= 0 && n < size) {
          items.resize(n);
        } else if (n < 0 && -n < size) {
          items.erase(items.begin(), items.begin() + (size + n));
        }
      }
      return absl::OkStatus();
    }
    case Kind::kAddToSet: {
      if (slot == nullptr) {
        ASSIGN_OR_RETURN(slot, Create(doc, op.parts));
        *slot = Value::MakeArray();
      } else if (!slot->is_array()) {
        return Err(kTypeMismatch,
                   absl::StrCat("Cannot apply $addToSet to non-array field. "
                                "Field named '",
                                leaf, "' has non-array type ",
                                TypeName(slot->type())));
      }
      auto& items = slot->mutable_array_items();
      for (const Value& v : op.each) {
        bool present = false;
        for (const Value& item : items)
          present = present || ValuesEqual(item, v);
        if (!present) items.push_back(v);
      }
      return absl::OkStatus();
    }
    case Kind::kPull:
    case Kind::kPullAll: {
      if (slot == nullptr) return absl::OkStatus();
      if (!slot->is_array()) {
        return Err(kBadValue, "Cannot apply $pull to a non-array value");
      }
      auto& items = slot->mutable_array_items();
      auto remove = [&op](const Value& item) {
        if (op.kind == Kind::kPull) return PullMatches(op, item);
        for (const Value& v : op.arg.array_items()) {
          if (ValuesEqual(item, v)) return true;
        }
        return false;
      };
      items.erase(std::remove_if(items.begin(), items.end(), remove),
                  items.end());
      return absl::OkStatus();
    }
    case Kind::kPop: {
      if (slot == nullptr) return absl::OkStatus();
      if (!slot->is_array()) {
        return Err(kTypeMismatch,
                   absl::StrCat("Path '", op.path,
                                "' contains an element of non-array type '",
                                TypeName(slot->type()), "'"));
      }
      auto& items = slot->mutable_array_items();
      if (items.empty()) return absl::OkStatus();
      if (op.pop > 0) {
        items.pop_back();
      } else {
        items.erase(items.begin());
      }
      return absl::OkStatus();
    }
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<Update> Update::Parse(const Value& update_doc) {
  if (!update_doc.is_object()) {
    return Err(kFailedToParse, absl::StrCat("update must be an object, not ",
                                            TypeName(update_doc.type())));
  }
  Update u;
  const auto& fields = update_doc.object_fields();
  if (fields.empty() || fields[0].first.empty() || fields[0].first[0] != '$') {
    for (const auto& [name, v] : fields) {
      if (!name.empty() && name[0] == '$') {
        return Err(kDollarPrefixedFieldName,
                   absl::StrCat("The dollar ($) prefixed field '", name,
                                "' in '", name, "' is not valid for storage."));
      }
    }
    u.replacement_ = true;
    u.replacement_doc_ = update_doc;
    return u;
  }
  std::vector<std::string> seen;
  for (const auto& [name, arg] : fields) {
    Kind kind;
    if (!OperatorKind(name, &kind)) {
      return Err(kFailedToParse,
                 absl::StrCat("Unknown modifier: ", name,
                              ". Expected a valid update modifier or "
                              "pipeline-style update specified as an array"));
    }
    if (!arg.is_object()) {
      return Err(kFailedToParse,
                 absl::StrCat("Modifiers operate on fields but we found type ",
                              TypeName(arg.type()),
                              " instead. For example: {$mod: {<field>: ...}} "
                              "not {",
                              name, ": ", ShellString(arg), "}"));
    }
    if (arg.object_fields().empty()) {
      return Err(kFailedToParse,
                 absl::StrCat("'", name,
                              "' is empty. You must specify a field like so: "
                              "{",
                              name, ": {<field>: ...}}"));
    }
    for (const auto& [field, value] : arg.object_fields()) {
      RETURN_IF_ERROR(ValidatePath(field));
      UpdateOp op;
      op.kind = kind;
      op.path = field;
      op.parts = SplitDotted(field);
      op.arg = value;
      RETURN_IF_ERROR(ParseArg(name, field, value, &op));
      RETURN_IF_ERROR(AddPath(field, &seen));
      if (kind == Kind::kRename) RETURN_IF_ERROR(AddPath(op.to_path, &seen));
      u.ops_.push_back(std::move(op));
    }
  }
  std::stable_sort(
      u.ops_.begin(), u.ops_.end(), [](const UpdateOp& a, const UpdateOp& b) {
        return PathLess(a.kind == Kind::kRename ? a.to_parts : a.parts,
                        b.kind == Kind::kRename ? b.to_parts : b.parts);
      });
  return u;
}

absl::Status Update::Apply(Value* doc, int64_t now_millis, bool is_insert,
                           bool* modified) const {
  *modified = false;
  if (!doc->is_object()) {
    return Err(kBadValue, "can only update a document (an object)");
  }
  if (replacement_) return ApplyReplacement(replacement_doc_, doc, modified);
  Value work = *doc;
  for (const UpdateOp& op : ops_) {
    RETURN_IF_ERROR(ApplyOp(op, &work, now_millis, is_insert));
  }
  if (const Value* id = doc->Get("_id")) {
    const Value* new_id = work.Get("_id");
    if (new_id == nullptr || !ExactEqual(*id, *new_id)) return ImmutableId();
  }
  if (!ExactEqual(work, *doc)) {
    *doc = std::move(work);
    *modified = true;
  }
  return absl::OkStatus();
}

absl::Status ApplyReplacement(const Value& replacement, Value* doc,
                              bool* modified) {
  *modified = false;
  if (!replacement.is_object()) {
    return Err(kBadValue, "a replacement must be a document (an object)");
  }
  const Value* old_id = doc->is_object() ? doc->Get("_id") : nullptr;
  const Value* new_id = replacement.Get("_id");
  Value out = Value::MakeObject();
  if (old_id != nullptr) {
    if (new_id != nullptr && !ExactEqual(*old_id, *new_id)) {
      return Err(kImmutableField,
                 absl::StrCat("After applying the update, the (immutable) "
                              "field '_id' was found to have been altered to "
                              "_id: ",
                              ShellString(*new_id)));
    }
    out.Set("_id", *old_id);
  } else if (new_id != nullptr) {
    out.Set("_id", *new_id);
  }
  for (const auto& [name, v] : replacement.object_fields()) {
    if (name != "_id") out.mutable_object_fields().emplace_back(name, v);
  }
  if (!ExactEqual(out, *doc)) {
    *doc = std::move(out);
    *modified = true;
  }
  return absl::OkStatus();
}

namespace {

absl::Status CollectEqualities(
    const MatchExpr& e, std::vector<std::pair<std::string, Value>>* out) {
  using MKind = MatchExpr::Kind;
  // MongoDB extracts equalities from the optimized filter, where an $or
  // with a single clause has become that clause (expression_tree.cpp
  // ListOfMatchExpression optimize) and nested $and are flattened
  // (src/mongo/db/update/path_support.cpp _extractFullEqualityMatches
  // descends into AND only).
  if (e.kind == MKind::kAnd ||
      (e.kind == MKind::kOr && e.children.size() == 1)) {
    for (const MatchExpr& c : e.children) {
      RETURN_IF_ERROR(CollectEqualities(c, out));
    }
    return absl::OkStatus();
  }
  const Value* v = nullptr;
  if (e.kind == MKind::kEq && e.operand.type() != ValueType::kRegex) {
    v = &e.operand;
  } else if (e.kind == MKind::kIn && e.operands.size() == 1 &&
             e.regexes[0] == nullptr) {
    v = &e.operands[0];
  }
  if (v == nullptr || e.path.empty()) return absl::OkStatus();
  for (const auto& [path, unused] : *out) {
    if (path == e.path) {
      return Err(kNotSingleValueField,
                 absl::StrCat("cannot infer query fields to set, path '", path,
                              "' is matched twice"));
    }
    if (IsPrefixPath(path, e.path) || IsPrefixPath(e.path, path)) {
      return Err(kNotSingleValueField,
                 absl::StrCat("cannot infer query fields to set, both paths "
                              "'",
                              e.path, "' and '", path, "' are matched"));
    }
  }
  out->emplace_back(e.path, *v);
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<Value> UpsertSeed(const Filter& filter) {
  std::vector<std::pair<std::string, Value>> eqs;
  RETURN_IF_ERROR(CollectEqualities(filter.root(), &eqs));
  Value doc = Value::MakeObject();
  for (auto& [path, v] : eqs) {
    if (path == "_id") {
      auto& fields = doc.mutable_object_fields();
      fields.insert(fields.begin(), Field("_id", v));
      continue;
    }
    RETURN_IF_ERROR(SetPath(&doc, SplitDotted(path), v));
  }
  return doc;
}

}  // namespace ttldb
