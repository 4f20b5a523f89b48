#include "query/update.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "base/status.h"
#include "document/compare.h"
#include "document/shell_format.h"
#include "query/path_values.h"

namespace ttldb {
namespace {

using OpKind = UpdateOp::Kind;
using query_internal::ParseArrayIndex;
using query_internal::SplitDotted;

absl::Status ImmutableId() {
  return MongoInvalidArgument(
      kImmutableField,
      "Performing an update on the path '_id' would modify the "
      "immutable field '_id'");
}

// ---- Parsing ---------------------------------------------------------------

// "$[]" or "$[<identifier>]".
bool IsArrayFilterToken(absl::string_view part) {
  return part.size() >= 3 && part[0] == '$' && part[1] == '[' &&
         part.back() == ']';
}

// Checks an update path the way UpdateObjectNode::parseAndMerge does:
// non-empty components, at most one "$" and not first, "$[<id>]" not first
// and naming a given array filter (recorded in *used). Sets *dynamic when
// the path holds "$", "$[]" or "$[<id>]", and *positional for "$".
absl::Status ValidatePath(
    absl::string_view path,
    const std::map<std::string, std::shared_ptr<const Filter>>& filters,
    std::set<std::string>* used, bool* dynamic, bool* positional) {
  *dynamic = false;
  *positional = false;
  if (path.empty())
    return MongoInvalidArgument(kEmptyFieldName,
                                "An empty update path is not valid.");
  const std::vector<std::string> parts = SplitDotted(path);
  for (const std::string& part : parts) {
    if (part.empty()) {
      return MongoInvalidArgument(
          kEmptyFieldName,
          absl::StrCat("The update path '", path,
                       "' contains an empty field name, which is not "
                       "allowed."));
    }
  }
  size_t count = 0;
  for (size_t k = 0; k < parts.size(); ++k) {
    if (parts[k] != "$") continue;
    if (++count > 1) {
      return MongoInvalidArgument(
          kBadValue,
          absl::StrCat("Too many positional (i.e. '$') elements found "
                       "in path '",
                       path, "'"));
    }
  }
  if (count > 0 && parts[0] == "$") {
    return MongoInvalidArgument(
        kBadValue,
        absl::StrCat("Cannot have positional (i.e. '$') element in the "
                     "first position in path '",
                     path, "'"));
  }
  *positional = count > 0;
  *dynamic = *positional;
  for (size_t k = 0; k < parts.size(); ++k) {
    const std::string& part = parts[k];
    if (IsArrayFilterToken(part)) {
      if (k == 0) {
        return MongoInvalidArgument(
            kBadValue,
            absl::StrCat("Cannot have array filter identifier (i.e. "
                         "'$[<id>]') element in the first position in "
                         "path '",
                         path, "'"));
      }
      const std::string id = part.substr(2, part.size() - 3);
      if (!id.empty()) {
        if (filters.count(id) == 0) {
          return MongoInvalidArgument(
              kBadValue, absl::StrCat("No array filter found for identifier '",
                                      id, "' in path '", path, "'"));
        }
        used->insert(id);
      }
      *dynamic = true;
    } else if (k == 0 && part[0] == '$' && part != "$") {
      return MongoInvalidArgument(
          kDollarPrefixedFieldName,
          absl::StrCat("The dollar ($) prefixed field '", part, "' in '", path,
                       "' is not valid for storage."));
    }
  }
  return absl::OkStatus();
}

bool IsPrefixPath(absl::string_view prefix, absl::string_view path) {
  return path.size() > prefix.size() &&
         path.substr(0, prefix.size()) == prefix && path[prefix.size()] == '.';
}

// Rejects a path equal to, or on the same branch as, one already updated,
// and (UpdateObjectNode::parseAndMerge) one that needs an array node where
// another needs an object node: "a.$[i]" beside "a.0" or "a.$".
absl::Status AddUpdatedPath(const std::string& path,
                            std::vector<std::string>* seen) {
  const std::vector<std::string> parts = SplitDotted(path);
  for (const std::string& other : *seen) {
    const std::vector<std::string> other_parts = SplitDotted(other);
    for (size_t k = 0; k < parts.size() && k < other_parts.size(); ++k) {
      if (parts[k] == other_parts[k]) continue;
      if (k > 0 &&
          IsArrayFilterToken(parts[k]) != IsArrayFilterToken(other_parts[k])) {
        return MongoInvalidArgument(
            kConflictingUpdateOperators,
            absl::StrCat(
                "Updating the path '", path, "' would create a conflict at '",
                absl::StrJoin(parts.begin(), parts.begin() + k, "."), "'"));
      }
      break;
    }
    if (other == path || IsPrefixPath(other, path) ||
        IsPrefixPath(path, other)) {
      const std::string& at = other.size() <= path.size() ? other : path;
      return MongoInvalidArgument(
          kConflictingUpdateOperators,
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
    // parseIntegerElementToLong(): integral doubles in [-2^63, 2^63).
    if (d != std::floor(d) || d < -9223372036854775808.0 ||
        d >= 9223372036854775808.0) {
      return false;
    }
    *out = static_cast<int64_t>(d);
    return true;
  }
  if (v.type() == ValueType::kDecimal) {
    return v.decimal_value().ToInt64Exact(out);
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
        return MongoInvalidArgument(
            kBadValue, absl::StrCat("The argument to $each in $push must be an "
                                    "array but it was of type: ",
                                    TypeName(v.type())));
      }
      op->each = v.array_items();
    } else if (name == "$slice") {
      int64_t n;
      if (!ToInt64(v, &n)) {
        return MongoInvalidArgument(
            kBadValue, absl::StrCat("The value for $slice must be an integer "
                                    "value but was given type: ",
                                    TypeName(v.type())));
      }
      op->slice = n;
    } else if (name == "$position") {
      int64_t n;
      if (!ToInt64(v, &n)) {
        return MongoInvalidArgument(
            kBadValue,
            absl::StrCat("The value for $position must be an integer "
                         "value, not of type: ",
                         TypeName(v.type())));
      }
      op->position = n;
    } else if (name == "$sort") {
      const absl::Status bad_sort = MongoInvalidArgument(
          kBadValue,
          "The $sort is invalid: use 1/-1 to sort the whole element, or "
          "{field:1/-1} to sort embedded fields");
      if (v.is_number()) {
        const double d = v.AsDouble();
        if (d != 1 && d != -1) return bad_sort;
        op->sort_direction = d > 0 ? 1 : -1;
      } else if (v.is_object()) {
        if (v.object_fields().empty()) {
          return MongoInvalidArgument(
              kBadValue,
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
      return MongoInvalidArgument(
          kBadValue, absl::StrCat("Unrecognized clause in $push: ", name));
    }
  }
  (void)field;
  return absl::OkStatus();
}

absl::Status ParseArg(absl::string_view op_name, const std::string& field,
                      const Value& arg, UpdateOp* op) {
  switch (op->kind) {
    case OpKind::kInc:
    case OpKind::kMul:
      if (!arg.is_number()) {
        return MongoInvalidArgument(
            kTypeMismatch,
            absl::StrCat(op->kind == OpKind::kInc
                             ? "Cannot increment with non-numeric "
                               "argument: "
                             : "Cannot multiply with non-numeric "
                               "argument: ",
                         ShellField(field, arg)));
      }
      return absl::OkStatus();
    case OpKind::kRename: {
      if (!arg.is_string()) {
        return MongoInvalidArgument(
            kBadValue, absl::StrCat("The 'to' field for $rename must be a "
                                    "string: ",
                                    field, ": ", ShellString(arg)));
      }
      const std::string& to = arg.string_value();
      std::set<std::string> unused_ids;
      bool to_dynamic, to_positional;
      RETURN_IF_ERROR(
          ValidatePath(to, {}, &unused_ids, &to_dynamic, &to_positional));
      if (op->dynamic) {
        return MongoInvalidArgument(
            kBadValue, absl::StrCat("The source field for $rename may not be "
                                    "dynamic: ",
                                    field));
      }
      if (to_dynamic) {
        return MongoInvalidArgument(
            kBadValue,
            absl::StrCat("The destination field for $rename may not be "
                         "dynamic: ",
                         to));
      }
      if (to == field) {
        return MongoInvalidArgument(
            kBadValue, absl::StrCat("The source and target field for $rename "
                                    "must differ: ",
                                    field, ": ", ShellString(arg)));
      }
      if (IsPrefixPath(to, field) || IsPrefixPath(field, to)) {
        return MongoInvalidArgument(
            kBadValue, absl::StrCat("The source and target field for $rename "
                                    "must not be on the same path: ",
                                    field, ": ", ShellString(arg)));
      }
      op->to_path = to;
      op->to_parts = SplitDotted(to);
      return absl::OkStatus();
    }
    case OpKind::kCurrentDate: {
      if (arg.type() == ValueType::kBool) return absl::OkStatus();
      if (arg.is_object()) {
        const Value* type = arg.Get("$type");
        if (arg.object_fields().size() != 1 || type == nullptr ||
            !type->is_string() ||
            (type->string_value() != "date" &&
             type->string_value() != "timestamp")) {
          return MongoInvalidArgument(
              kBadValue,
              "The '$type' string field is required to be 'date' or "
              "'timestamp': {$currentDate: {field : {$type: "
              "'date'}}}");
        }
        op->timestamp = type->string_value() == "timestamp";
        return absl::OkStatus();
      }
      return MongoInvalidArgument(
          kBadValue,
          absl::StrCat(ShellField(field, arg),
                       " is not valid type for $currentDate. Please "
                       "use a boolean ('true') or a $type expression "
                       "({$type: 'timestamp/date'})."));
    }
    case OpKind::kPush:
      return ParsePush(field, arg, op);
    case OpKind::kAddToSet:
      if (arg.is_object() && !arg.object_fields().empty() &&
          arg.object_fields()[0].first == "$each") {
        const Value& each = arg.object_fields()[0].second;
        if (!each.is_array()) {
          return MongoInvalidArgument(
              kTypeMismatch,
              absl::StrCat("The argument to $each in $addToSet must "
                           "be an array but it was of type ",
                           TypeName(each.type())));
        }
        if (arg.object_fields().size() > 1) {
          return MongoInvalidArgument(
              kBadValue, absl::StrCat("Found unexpected fields after $each in "
                                      "$addToSet: ",
                                      ShellString(arg)));
        }
        op->each = each.array_items();
      } else {
        op->each.push_back(arg);
      }
      return absl::OkStatus();
    case OpKind::kPull:
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
    case OpKind::kPullAll:
      if (!arg.is_array()) {
        return MongoInvalidArgument(
            kBadValue,
            absl::StrCat("$pullAll requires an array argument but was "
                         "given a ",
                         TypeName(arg.type())));
      }
      return absl::OkStatus();
    case OpKind::kPop: {
      if (!arg.is_number()) {
        return MongoInvalidArgument(
            kFailedToParse, absl::StrCat("Expected a number in: ", field, ": ",
                                         ShellString(arg)));
      }
      const double d = arg.AsDouble();
      if (d != 1 && d != -1) {
        return MongoInvalidArgument(
            kFailedToParse,
            absl::StrCat("$pop expects 1 or -1, found: ", ShellString(arg)));
      }
      op->pop = d > 0 ? 1 : -1;
      return absl::OkStatus();
    }
    case OpKind::kBit: {
      // update/bit_node.cpp BitNode::init.
      if (!arg.is_object()) {
        return MongoInvalidArgument(
            kBadValue,
            absl::StrCat("The $bit modifier is not compatible with a ",
                         TypeName(arg.type()),
                         ".  You must pass in an embedded document: "
                         "{$bit: {field: {and/or/xor: #}}"));
      }
      if (arg.object_fields().empty()) {
        return MongoInvalidArgument(
            kBadValue,
            "You must pass in at least one bitwise operation. The "
            "format is: {$bit: {field: {and/or/xor: #}}");
      }
      for (const auto& [name, v] : arg.object_fields()) {
        if (name != "and" && name != "or" && name != "xor") {
          return MongoInvalidArgument(
              kBadValue, absl::StrCat("The $bit modifier only supports 'and', "
                                      "'or', and 'xor', not '",
                                      name, "' which is an unknown operator: ",
                                      ShellField(name, v)));
        }
        if (v.type() != ValueType::kInt32 && v.type() != ValueType::kInt64) {
          return MongoInvalidArgument(
              kBadValue,
              absl::StrCat("The $bit modifier field must be an "
                           "Integer(32/64 bit); a '",
                           TypeName(v.type()),
                           "' is not supported here: ", ShellField(name, v)));
        }
      }
      return absl::OkStatus();
    }
    default:
      (void)op_name;
      return absl::OkStatus();
  }
}

// $bit's operations over `cur` (int32 or int64), as SafeNum does: int64 if
// either side is.
Value ApplyBitOps(const Value& cur, const Value& ops) {
  bool wide = cur.type() == ValueType::kInt64;
  int64_t n = cur.int64_value();
  for (const auto& [name, v] : ops.object_fields()) {
    wide = wide || v.type() == ValueType::kInt64;
    const int64_t m = v.int64_value();
    n = name == "and" ? (n & m) : name == "or" ? (n | m) : (n ^ m);
  }
  return wide ? Value::Int64(n) : Value::Int32(static_cast<int32_t>(n));
}

bool OperatorKind(absl::string_view name, OpKind* kind) {
  static const std::pair<const char*, OpKind> kOps[] = {
      {"$set", OpKind::kSet},
      {"$unset", OpKind::kUnset},
      {"$inc", OpKind::kInc},
      {"$mul", OpKind::kMul},
      {"$min", OpKind::kMin},
      {"$max", OpKind::kMax},
      {"$rename", OpKind::kRename},
      {"$currentDate", OpKind::kCurrentDate},
      {"$setOnInsert", OpKind::kSetOnInsert},
      {"$push", OpKind::kPush},
      {"$addToSet", OpKind::kAddToSet},
      {"$pull", OpKind::kPull},
      {"$pullAll", OpKind::kPullAll},
      {"$pop", OpKind::kPop},
      {"$bit", OpKind::kBit},
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
        // path_support.cpp maybePadTo(): at most kMaxPaddingAllowed nulls.
        constexpr size_t kMaxPaddingAllowed = 1500000;
        if (index + 1 - items.size() > kMaxPaddingAllowed) {
          return MongoInvalidArgument(
              kCannotBackfillArray,
              absl::StrCat("can't backfill more than ", kMaxPaddingAllowed,
                           " elements"));
        }
        items.resize(index + 1);  // pads with nulls
        if (!last) items[index] = Value::MakeObject();
      }
      cur = &items[index];
      continue;
    }
    return MongoInvalidArgument(
        kPathNotViable,
        absl::StrCat("Cannot create field '", part, "' in element ",
                     ShellField(k == 0 ? "" : parts[k - 1], *cur)));
  }
  return cur;
}

// For an operator that never creates its path ($pop): a missing field on
// the way is a no-op, but a scalar (or an array met with a field name) is
// update/update_leaf_node.cpp checkViability's PathNotViable.
absl::Status CheckViable(const Value& root,
                         const std::vector<std::string>& parts,
                         absl::string_view path) {
  const Value* cur = &root;
  for (size_t k = 0; k < parts.size(); ++k) {
    size_t index;
    if (cur->is_object()) {
      cur = cur->Get(parts[k]);
    } else if (cur->is_array() && ParseArrayIndex(parts[k], &index)) {
      const auto& items = cur->array_items();
      cur = index < items.size() ? &items[index] : nullptr;
    } else {
      return MongoInvalidArgument(
          kPathNotViable,
          absl::StrCat("Cannot use the part (", parts[k], ") of (", path,
                       ") to traverse the element (",
                       ShellField(parts[k - 1], *cur), ")"));
    }
    if (cur == nullptr) return absl::OkStatus();
  }
  return absl::OkStatus();
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

// A number as MongoDB's SafeNum converts it to decimal: ints and longs
// exactly, doubles rounded to 15 significant digits (mongo/util/safe_num.cpp).
Decimal128 AsDecimal(const Value& v) {
  switch (v.type()) {
    case ValueType::kDecimal:
      return v.decimal_value();
    case ValueType::kDouble:
      return Decimal128::FromDouble(v.double_value());
    default:
      return Decimal128::FromInt64(v.int64_value());
  }
}

// $inc / $mul on two numbers with MongoDB's type promotion: int op int is an
// int unless it overflows (then long); long overflow is an error; a decimal
// anywhere makes a decimal, else a double anywhere makes a double.
absl::StatusOr<Value> Arith(OpKind kind, const Value& cur, const Value& arg,
                            const std::string& path, const Value& doc) {
  if (cur.type() == ValueType::kDecimal || arg.type() == ValueType::kDecimal) {
    const Decimal128 a = AsDecimal(cur), b = AsDecimal(arg);
    return Value::Decimal(kind == OpKind::kInc ? a.Add(b) : a.Multiply(b));
  }
  if (cur.type() == ValueType::kDouble || arg.type() == ValueType::kDouble) {
    const double r = kind == OpKind::kInc ? cur.AsDouble() + arg.AsDouble()
                                          : cur.AsDouble() * arg.AsDouble();
    return Value::Double(r);
  }
  int64_t r;
  const bool overflow =
      kind == OpKind::kInc
          ? AddOverflows(cur.int64_value(), arg.int64_value(), &r)
          : MulOverflows(cur.int64_value(), arg.int64_value(), &r);
  if (overflow) {
    return MongoInvalidArgument(
        kBadValue,
        absl::StrCat("Failed to apply ", kind == OpKind::kInc ? "$inc" : "$mul",
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

absl::Status ApplyOp(const UpdateOp& op, const std::vector<std::string>& parts,
                     const std::string& path, Value* doc, int64_t now_millis,
                     bool is_insert) {
  Value* slot = Find(doc, parts);
  const std::string& leaf = parts.back();
  switch (op.kind) {
    case OpKind::kSetOnInsert:
      if (!is_insert) return absl::OkStatus();
      return SetPath(doc, parts, op.arg);
    case OpKind::kSet:
      return SetPath(doc, parts, op.arg);
    case OpKind::kUnset:
      UnsetPath(doc, parts);
      return absl::OkStatus();
    case OpKind::kCurrentDate:
      return SetPath(doc, parts,
                     op.timestamp
                         ? Value::Ts(Timestamp{
                               static_cast<uint32_t>(now_millis / 1000), 1})
                         : Value::Date(now_millis));
    case OpKind::kInc:
    case OpKind::kMul: {
      if (slot == nullptr) {
        if (op.kind == OpKind::kInc) return SetPath(doc, parts, op.arg);
        // arithmetic_node.cpp: the multiplier times an int32 0.
        if (op.arg.type() == ValueType::kDecimal) {
          return SetPath(doc, parts,
                         Value::Decimal(op.arg.decimal_value().Multiply(
                             Decimal128::FromInt64(0))));
        }
        Value zero = op.arg.type() == ValueType::kDouble  ? Value::Double(0)
                     : op.arg.type() == ValueType::kInt64 ? Value::Int64(0)
                                                          : Value::Int32(0);
        return SetPath(doc, parts, std::move(zero));
      }
      if (!slot->is_number()) {
        return MongoInvalidArgument(
            kTypeMismatch,
            absl::StrCat("Cannot apply ",
                         op.kind == OpKind::kInc ? "$inc" : "$mul",
                         " to a value of non-numeric type. ", ShellId(*doc),
                         " has the field '", leaf, "' of non-numeric type ",
                         TypeName(slot->type())));
      }
      ASSIGN_OR_RETURN(Value r, Arith(op.kind, *slot, op.arg, path, *doc));
      *slot = std::move(r);
      return absl::OkStatus();
    }
    case OpKind::kBit: {
      if (slot == nullptr) {
        return SetPath(doc, parts, ApplyBitOps(Value::Int32(0), op.arg));
      }
      if (slot->type() != ValueType::kInt32 &&
          slot->type() != ValueType::kInt64) {
        return MongoInvalidArgument(
            kBadValue,
            absl::StrCat("Cannot apply $bit to a value of non-integral "
                         "type.",
                         ShellId(*doc), " has the field ", leaf,
                         " of non-integer type ", TypeName(slot->type())));
      }
      *slot = ApplyBitOps(*slot, op.arg);
      return absl::OkStatus();
    }
    case OpKind::kMin:
    case OpKind::kMax: {
      if (slot == nullptr) return SetPath(doc, parts, op.arg);
      const int c = CompareValues(op.arg, *slot);
      if ((op.kind == OpKind::kMin && c < 0) ||
          (op.kind == OpKind::kMax && c > 0)) {
        *slot = op.arg;
      }
      return absl::OkStatus();
    }
    case OpKind::kRename: {
      std::string array = ArrayOnPath(*doc, parts);
      if (!array.empty()) {
        return MongoInvalidArgument(
            kBadValue,
            absl::StrCat("The source field cannot be an array element, '", path,
                         "' in doc with ", ShellId(*doc),
                         " has an array field called '", array, "'"));
      }
      if (slot == nullptr) return absl::OkStatus();
      array = ArrayOnPath(*doc, op.to_parts);
      if (!array.empty()) {
        return MongoInvalidArgument(
            kBadValue,
            absl::StrCat("The destination field cannot be an array "
                         "element, '",
                         op.to_path, "' in doc with ", ShellId(*doc),
                         " has an array field called '", array, "'"));
      }
      Value moved = std::move(*slot);
      UnsetPath(doc, parts);
      return SetPath(doc, op.to_parts, std::move(moved));
    }
    case OpKind::kPush: {
      if (slot == nullptr) {
        ASSIGN_OR_RETURN(slot, Create(doc, parts));
        *slot = Value::MakeArray();
      } else if (!slot->is_array()) {
        return MongoInvalidArgument(
            kBadValue, absl::StrCat("The field '", path,
                                    "' must be an array but is of type ",
                                    TypeName(slot->type()), " in document ",
                                    ShellId(*doc)));
      }
      auto& items = slot->mutable_array_items();
      int64_t pos = static_cast<int64_t>(items.size());
      if (op.position.has_value()) {
        pos = *op.position;
        if (pos < 0) {
          pos = std::max<int64_t>(0, static_cast<int64_t>(items.size()) + pos);
        }
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
                           return spec.CompareElements(a, b) < 0;
                         });
      }
      if (op.slice.has_value()) {
        // push_node.cpp performPush(): keep |$slice| elements, from the back
        // when negative. |INT64_MIN| is taken as INT64_MAX (no negation of
        // INT64_MIN, which is undefined).
        const int64_t n = *op.slice;
        const int64_t keep = n >= 0 ? n
                                    : (n == std::numeric_limits<int64_t>::min()
                                           ? std::numeric_limits<int64_t>::max()
                                           : -n);
        const int64_t size = static_cast<int64_t>(items.size());
        if (keep < size) {
          if (n >= 0) {
            items.resize(keep);
          } else {
            items.erase(items.begin(), items.begin() + (size - keep));
          }
        }
      }
      return absl::OkStatus();
    }
    case OpKind::kAddToSet: {
      if (slot == nullptr) {
        ASSIGN_OR_RETURN(slot, Create(doc, parts));
        *slot = Value::MakeArray();
      } else if (!slot->is_array()) {
        return MongoInvalidArgument(
            kTypeMismatch,
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
    case OpKind::kPull:
    case OpKind::kPullAll: {
      if (slot == nullptr) return absl::OkStatus();
      if (!slot->is_array()) {
        return MongoInvalidArgument(kBadValue,
                                    "Cannot apply $pull to a non-array value");
      }
      auto& items = slot->mutable_array_items();
      auto remove = [&op](const Value& item) {
        if (op.kind == OpKind::kPull) return PullMatches(op, item);
        for (const Value& v : op.arg.array_items()) {
          if (ValuesEqual(item, v)) return true;
        }
        return false;
      };
      items.erase(std::remove_if(items.begin(), items.end(), remove),
                  items.end());
      return absl::OkStatus();
    }
    case OpKind::kPop: {
      if (slot == nullptr) return CheckViable(*doc, parts, path);
      if (!slot->is_array()) {
        return MongoInvalidArgument(
            kTypeMismatch,
            absl::StrCat("Path '", path,
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

// BSONObj::toString()'s rendering, used in MongoDB's "was not used in the
// update { $set: { a.$[i]: 5.0 } }" message.
std::string BsonString(const Value& v) {
  switch (v.type()) {
    case ValueType::kObject: {
      if (v.object_fields().empty()) return "{}";
      std::string out = "{ ";
      bool first = true;
      for (const auto& [name, item] : v.object_fields()) {
        absl::StrAppend(&out, first ? "" : ", ", name, ": ", BsonString(item));
        first = false;
      }
      return out + " }";
    }
    case ValueType::kArray: {
      if (v.array_items().empty()) return "[]";
      std::string out = "[ ";
      bool first = true;
      for (const Value& item : v.array_items()) {
        absl::StrAppend(&out, first ? "" : ", ", BsonString(item));
        first = false;
      }
      return out + " ]";
    }
    case ValueType::kString:
      return absl::StrCat("\"", v.string_value(), "\"");
    case ValueType::kDouble: {
      const double d = v.double_value();
      if (std::isfinite(d) && d == std::floor(d) && std::fabs(d) < 1e15) {
        return absl::StrCat(static_cast<int64_t>(d), ".0");
      }
      return absl::StrCat(d);
    }
    default:
      return ShellString(v);
  }
}

// The identifiers ("i" of "i.b") an array filter's predicates start with.
void FilterIdentifiers(const MatchExpr& e, std::vector<std::string>* out) {
  using MKind = MatchExpr::Kind;
  switch (e.kind) {
    case MKind::kAnd:
    case MKind::kOr:
    case MKind::kNor:
      for (const MatchExpr& c : e.children) FilterIdentifiers(c, out);
      return;
    case MKind::kAlwaysTrue:
    case MKind::kAlwaysFalse:
      return;
    default:
      if (!e.parts.empty()) out->push_back(e.parts[0]);
  }
}

bool ValidIdentifier(absl::string_view id) {
  if (id.empty() || id[0] < 'a' || id[0] > 'z') return false;
  for (char c : id) {
    if (!std::isalnum(static_cast<unsigned char>(c))) return false;
  }
  return true;
}

// ExpressionWithPlaceholder::make(): parses one array filter and names its
// identifier.
absl::Status ParseArrayFilter(
    const Value& spec, size_t index,
    std::map<std::string, std::shared_ptr<const Filter>>* out) {
  if (!spec.is_object()) {
    return MongoInvalidArgument(
        kTypeMismatch,
        absl::StrCat("BSON field 'update.updates.arrayFilters.", index,
                     "' is the wrong type '", TypeName(spec.type()),
                     "', expected type 'object'"));
  }
  auto filter = Filter::Parse(spec);
  if (!filter.ok()) {
    return MongoError(absl::StatusCode::kInvalidArgument,
                      ErrorCode(filter.status()),
                      absl::StrCat("Error parsing array filter :: caused by "
                                   ":: ",
                                   filter.status().message()));
  }
  std::vector<std::string> ids;
  FilterIdentifiers(filter->root(), &ids);
  if (ids.empty()) {
    return MongoInvalidArgument(
        kFailedToParse,
        "Cannot use an expression without a top-level field name in "
        "arrayFilters");
  }
  for (const std::string& id : ids) {
    if (id != ids[0]) {
      return MongoInvalidArgument(
          kFailedToParse,
          absl::StrCat("Error parsing array filter :: caused by :: "
                       "Expected a single top-level field name, found "
                       "'",
                       ids[0], "' and '", id, "'"));
    }
  }
  if (!ValidIdentifier(ids[0])) {
    return MongoInvalidArgument(
        kBadValue,
        absl::StrCat("Error parsing array filter :: caused by :: The "
                     "top-level field name must be an alphanumeric "
                     "string beginning with a lowercase letter, found "
                     "'",
                     ids[0], "'"));
  }
  if (out->count(ids[0]) > 0) {
    return MongoInvalidArgument(
        kFailedToParse,
        absl::StrCat("Found multiple array filters with the same "
                     "top-level field name ",
                     ids[0]));
  }
  (*out)[ids[0]] = std::make_shared<const Filter>(*std::move(filter));
  return absl::OkStatus();
}

const Value* FindConst(const Value& root, const std::vector<std::string>& parts,
                       size_t n) {
  const Value* cur = &root;
  for (size_t k = 0; k < n; ++k) {
    if (cur->is_object()) {
      cur = cur->Get(parts[k]);
    } else if (cur->is_array()) {
      size_t i;
      const auto& items = cur->array_items();
      cur = ParseArrayIndex(parts[k], &i) && i < items.size() ? &items[i]
                                                              : nullptr;
    } else {
      return nullptr;
    }
    if (cur == nullptr) return nullptr;
  }
  return cur;
}

// Replaces the dynamic components of `parts` from index k on: "$" by the
// query's matched position, "$[]" by every position of the array there,
// "$[id]" by the positions whose element passes the filter `id`
// (UpdateObjectNode::apply, UpdateArrayNode::apply). Appends each concrete
// path to *out.
// A dynamic component resolved: the concrete path up to and including it.
struct Resolved {
  size_t index;                     // of the component
  std::vector<std::string> prefix;  // index + 1 concrete components
};

absl::Status Expand(
    const Value& doc, std::vector<std::string> parts, size_t k,
    std::optional<size_t> matched,
    const std::map<std::string, std::shared_ptr<const Filter>>& filters,
    std::vector<std::vector<std::string>>* out,
    std::vector<Resolved>* resolved) {
  for (; k < parts.size(); ++k) {
    if (parts[k] == "$") {
      if (!matched.has_value()) {
        return MongoInvalidArgument(
            kBadValue,
            "The positional operator did not find the match needed "
            "from the query.");
      }
      parts[k] = std::to_string(*matched);
      resolved->push_back(
          {k, std::vector<std::string>(parts.begin(), parts.begin() + k + 1)});
      continue;
    }
    if (!IsArrayFilterToken(parts[k])) continue;
    const Value* arr = FindConst(doc, parts, k);
    if (arr == nullptr) {
      return MongoInvalidArgument(
          kBadValue,
          absl::StrCat("The path '",
                       absl::StrJoin(parts.begin(), parts.begin() + k, "."),
                       "' must exist in the document in order to apply "
                       "array updates."));
    }
    if (!arr->is_array()) {
      return MongoInvalidArgument(
          kBadValue, absl::StrCat("Cannot apply array updates to non-array "
                                  "element ",
                                  parts[k - 1], ": ", ShellString(*arr)));
    }
    const std::string id = parts[k].substr(2, parts[k].size() - 3);
    const Filter* filter = id.empty() ? nullptr : filters.at(id).get();
    const auto& items = arr->array_items();
    for (size_t i = 0; i < items.size(); ++i) {
      if (filter != nullptr &&
          !filter->Matches(Value::MakeObject({Field(id, items[i])}))) {
        continue;
      }
      std::vector<std::string> next = parts;
      next[k] = std::to_string(i);
      resolved->push_back(
          {k, std::vector<std::string>(next.begin(), next.begin() + k + 1)});
      RETURN_IF_ERROR(
          Expand(doc, std::move(next), k + 1, matched, filters, out, resolved));
    }
    return absl::OkStatus();
  }
  out->push_back(std::move(parts));
  return absl::OkStatus();
}

// createUpdateNodeByMerging(): two paths that differ at a dynamic component
// resolving to the same element merge there; if the rest of one is a prefix
// of (or equal to) the rest of the other, the merge fails with 40 "Update
// created a conflict at '<element path>.<rest as written>'" whether or not
// the rest resolves to anything. Returns the first such conflict.
absl::Status MergeConflict(const std::vector<const UpdateOp*>& ops,
                           const std::vector<std::vector<Resolved>>& resolved) {
  std::set<size_t> indexes;
  for (const auto& list : resolved) {
    for (const Resolved& r : list) indexes.insert(r.index);
  }
  // (component index, concrete prefix) -> the operations reaching it.
  std::map<std::pair<size_t, std::vector<std::string>>, std::vector<size_t>> at;
  for (size_t o = 0; o < ops.size(); ++o) {
    const std::vector<std::string>& parts = ops[o]->parts;
    for (size_t k : indexes) {
      if (k >= parts.size()) continue;
      // The last resolved component at or before k, extended literally.
      std::optional<size_t> last;
      for (const Resolved& r : resolved[o]) {
        if (r.index <= k && (!last.has_value() || r.index > *last)) {
          last = r.index;
        }
      }
      if (!last.has_value()) {
        at[{k, std::vector<std::string>(parts.begin(), parts.begin() + k + 1)}]
            .push_back(o);
        continue;
      }
      for (const Resolved& r : resolved[o]) {
        if (r.index != *last) continue;
        std::vector<std::string> prefix = r.prefix;
        prefix.insert(prefix.end(), parts.begin() + r.index + 1,
                      parts.begin() + k + 1);
        at[{k, std::move(prefix)}].push_back(o);
      }
    }
  }
  for (const auto& [key, list] : at) {
    const size_t k = key.first;
    for (size_t x = 0; x < list.size(); ++x) {
      for (size_t y = x + 1; y < list.size(); ++y) {
        const auto& a = ops[list[x]]->parts;
        const auto& b = ops[list[y]]->parts;
        if (list[x] == list[y] || a[k] == b[k]) continue;
        const size_t n = std::min(a.size(), b.size());
        if (!std::equal(a.begin() + k + 1, a.begin() + n, b.begin() + k + 1)) {
          continue;
        }
        std::vector<std::string> at_path = key.second;
        const auto& shorter = a.size() <= b.size() ? a : b;
        at_path.insert(at_path.end(), shorter.begin() + k + 1, shorter.end());
        return MongoInvalidArgument(
            kConflictingUpdateOperators,
            absl::StrCat("Update created a conflict at '",
                         absl::StrJoin(at_path, "."), "'"));
      }
    }
  }
  return absl::OkStatus();
}
}  // namespace

absl::StatusOr<Update> Update::Parse(const Value& update_doc) {
  return Parse(update_doc, {});
}

absl::StatusOr<Update> Update::Parse(const Value& update_doc,
                                     const std::vector<Value>& array_filters) {
  Update u;
  // ParsedUpdate parses the array filters before the update.
  for (size_t i = 0; i < array_filters.size(); ++i) {
    RETURN_IF_ERROR(ParseArrayFilter(array_filters[i], i, &u.array_filters_));
  }
  if (!update_doc.is_object()) {
    return MongoInvalidArgument(kFailedToParse,
                                absl::StrCat("update must be an object, not ",
                                             TypeName(update_doc.type())));
  }
  const auto& fields = update_doc.object_fields();
  if (fields.empty() || fields[0].first.empty() || fields[0].first[0] != '$') {
    for (const auto& [name, v] : fields) {
      if (!name.empty() && name[0] == '$') {
        return MongoInvalidArgument(
            kDollarPrefixedFieldName,
            absl::StrCat("The dollar ($) prefixed field '", name, "' in '",
                         name, "' is not valid for storage."));
      }
    }
    u.replacement_ = true;
    u.replacement_doc_ = update_doc;
    return u;
  }
  std::vector<std::string> seen;
  std::set<std::string> used_ids;
  for (const auto& [name, arg] : fields) {
    OpKind kind;
    if (!OperatorKind(name, &kind)) {
      return MongoInvalidArgument(
          kFailedToParse,
          absl::StrCat("Unknown modifier: ", name,
                       ". Expected a valid update modifier or "
                       "pipeline-style update specified as an array"));
    }
    if (!arg.is_object()) {
      return MongoInvalidArgument(
          kFailedToParse,
          absl::StrCat("Modifiers operate on fields but we found type ",
                       TypeName(arg.type()),
                       " instead. For example: {$mod: {<field>: ...}} "
                       "not {",
                       name, ": ", ShellString(arg), "}"));
    }
    if (arg.object_fields().empty()) {
      return MongoInvalidArgument(
          kFailedToParse,
          absl::StrCat("'", name,
                       "' is empty. You must specify a field like so: "
                       "{",
                       name, ": {<field>: ...}}"));
    }
    for (const auto& [field, value] : arg.object_fields()) {
      UpdateOp op;
      bool positional;
      RETURN_IF_ERROR(ValidatePath(field, u.array_filters_, &used_ids,
                                   &op.dynamic, &positional));
      u.positional_ = u.positional_ || positional;
      u.dynamic_ = u.dynamic_ || op.dynamic;
      op.kind = kind;
      op.path = field;
      op.parts = SplitDotted(field);
      op.arg = value;
      RETURN_IF_ERROR(ParseArg(name, field, value, &op));
      RETURN_IF_ERROR(AddUpdatedPath(field, &seen));
      if (kind == OpKind::kRename)
        RETURN_IF_ERROR(AddUpdatedPath(op.to_path, &seen));
      u.ops_.push_back(std::move(op));
    }
  }
  for (const auto& [id, unused] : u.array_filters_) {
    if (used_ids.count(id) == 0) {
      return MongoInvalidArgument(
          kFailedToParse, absl::StrCat("The array filter for identifier '", id,
                                       "' was not used in the update ",
                                       BsonString(update_doc)));
    }
  }
  std::stable_sort(
      u.ops_.begin(), u.ops_.end(), [](const UpdateOp& a, const UpdateOp& b) {
        return PathLess(a.kind == OpKind::kRename ? a.to_parts : a.parts,
                        b.kind == OpKind::kRename ? b.to_parts : b.parts);
      });
  return u;
}

Update Update::FromTransform(std::shared_ptr<const UpdateTransform> transform) {
  Update u;
  u.transform_ = std::move(transform);
  return u;
}

absl::Status Update::ApplyTransform(const Value& original, Value* doc,
                                    int64_t now_millis, bool is_insert,
                                    bool* modified) const {
  ASSIGN_OR_RETURN(Value result,
                   transform_->Transform(original, now_millis, is_insert));
  if (!result.is_object()) {
    return MongoInvalidArgument(kBadValue,
                                "an update pipeline must produce a document");
  }
  // pipeline_executor.cpp: the result replaces the document, keeping the
  // _id when it has none; a changed _id is ImmutableField.
  return ApplyReplacement(result, doc, modified);
}

absl::Status Update::Apply(Value* doc, int64_t now_millis, bool is_insert,
                           bool* modified) const {
  return Apply(doc, now_millis, is_insert, modified, std::nullopt);
}

absl::Status Update::Apply(Value* doc, int64_t now_millis, bool is_insert,
                           bool* modified,
                           std::optional<size_t> matched_position) const {
  *modified = false;
  if (!doc->is_object()) {
    return MongoInvalidArgument(kBadValue,
                                "can only update a document (an object)");
  }
  if (replacement_) return ApplyReplacement(replacement_doc_, doc, modified);
  if (transform_ != nullptr) {
    Value work = *doc;
    RETURN_IF_ERROR(
        ApplyTransform(*doc, &work, now_millis, is_insert, modified));
    if (*modified) *doc = std::move(work);
    return absl::OkStatus();
  }
  Value work = *doc;
  RETURN_IF_ERROR(ApplyOps(&work, now_millis, is_insert, matched_position));
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

absl::Status Update::ApplyToCopy(const Value& original, Value* copy,
                                 int64_t now_millis, bool is_insert,
                                 bool* modified,
                                 std::optional<size_t> matched_position) const {
  *modified = false;
  if (!copy->is_object()) {
    return MongoInvalidArgument(kBadValue,
                                "can only update a document (an object)");
  }
  if (replacement_) return ApplyReplacement(replacement_doc_, copy, modified);
  if (transform_ != nullptr) {
    return ApplyTransform(original, copy, now_millis, is_insert, modified);
  }
  RETURN_IF_ERROR(ApplyOps(copy, now_millis, is_insert, matched_position));
  if (const Value* id = original.Get("_id")) {
    const Value* new_id = copy->Get("_id");
    if (new_id == nullptr || !ExactEqual(*id, *new_id)) return ImmutableId();
  }
  *modified = !ExactEqual(*copy, original);
  return absl::OkStatus();
}

absl::Status Update::ApplyOps(Value* work, int64_t now_millis, bool is_insert,
                              std::optional<size_t> matched_position) const {
  if (!dynamic_) {
    for (const UpdateOp& op : ops_) {
      RETURN_IF_ERROR(
          ApplyOp(op, op.parts, op.path, work, now_millis, is_insert));
    }
    return absl::OkStatus();
  }
  return ApplyDynamic(work, now_millis, is_insert, matched_position);
}

// Resolves every path against the document before the update (conflicts
// between paths are excluded at parse time, so no operation changes an
// array another one expands), then applies in path order.
absl::Status Update::ApplyDynamic(Value* work, int64_t now_millis,
                                  bool is_insert,
                                  std::optional<size_t> matched) const {
  struct Target {
    const UpdateOp* op;
    std::vector<std::string> parts;
  };
  std::vector<Target> targets;
  std::vector<std::vector<std::string>> concrete;
  std::vector<const UpdateOp*> applied;
  std::vector<std::vector<Resolved>> resolved;
  for (const UpdateOp& op : ops_) {
    // $setOnInsert paths resolve (and fail) on updates too: UpdateObjectNode
    // and UpdateArrayNode apply before the leaf decides it is a no-op.
    applied.push_back(&op);
    resolved.emplace_back();
    if (!op.dynamic) {
      targets.push_back({&op, op.parts});
      continue;
    }
    concrete.clear();
    RETURN_IF_ERROR(Expand(*work, op.parts, 0, matched, array_filters_,
                           &concrete, &resolved.back()));
    for (auto& parts : concrete) targets.push_back({&op, std::move(parts)});
  }
  RETURN_IF_ERROR(MergeConflict(applied, resolved));
  // Two operations reaching one element: createUpdateNodeByMerging()'s
  // "Update created a conflict at ...".
  std::vector<const std::vector<std::string>*> sorted;
  for (const Target& t : targets) sorted.push_back(&t.parts);
  std::sort(sorted.begin(), sorted.end(),
            [](const auto* a, const auto* b) { return *a < *b; });
  for (size_t i = 1; i < sorted.size(); ++i) {
    const auto& a = *sorted[i - 1];
    const auto& b = *sorted[i];
    if (a.size() <= b.size() && std::equal(a.begin(), a.end(), b.begin())) {
      return MongoInvalidArgument(kConflictingUpdateOperators,
                                  absl::StrCat("Update created a conflict at '",
                                               absl::StrJoin(a, "."), "'"));
    }
  }
  std::stable_sort(
      targets.begin(), targets.end(), [](const Target& a, const Target& b) {
        return PathLess(
            a.op->kind == OpKind::kRename ? a.op->to_parts : a.parts,
            b.op->kind == OpKind::kRename ? b.op->to_parts : b.parts);
      });
  for (const Target& t : targets) {
    const std::string path =
        t.op->dynamic ? absl::StrJoin(t.parts, ".") : t.op->path;
    RETURN_IF_ERROR(ApplyOp(*t.op, t.parts, path, work, now_millis, is_insert));
  }
  return absl::OkStatus();
}

absl::Status ApplyReplacement(const Value& replacement, Value* doc,
                              bool* modified) {
  *modified = false;
  if (!replacement.is_object()) {
    return MongoInvalidArgument(kBadValue,
                                "a replacement must be a document (an object)");
  }
  const Value* old_id = doc->is_object() ? doc->Get("_id") : nullptr;
  const Value* new_id = replacement.Get("_id");
  Value out = Value::MakeObject();
  if (old_id != nullptr) {
    if (new_id != nullptr && !ExactEqual(*old_id, *new_id)) {
      return MongoInvalidArgument(
          kImmutableField,
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
      return MongoInvalidArgument(
          kNotSingleValueField,
          absl::StrCat("cannot infer query fields to set, path '", path,
                       "' is matched twice"));
    }
    if (IsPrefixPath(path, e.path) || IsPrefixPath(e.path, path)) {
      return MongoInvalidArgument(
          kNotSingleValueField,
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
