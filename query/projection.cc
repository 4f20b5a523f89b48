#include "query/projection.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "base/status.h"
#include "expr/expression.h"
#include "query/path_values.h"

namespace ttldb {

// A trie of projected paths; a leaf is a projected field.
struct Projection::Node {
  enum class Kind { kField, kSlice, kElemMatch, kPositional, kComputed };
  bool leaf = false;
  Kind kind = Kind::kField;
  std::map<std::string, std::unique_ptr<Node>> children;
};

namespace {

using ProjNode = Projection::Node;
using NodeKind = Projection::Node::Kind;

// Adds `parts` to the trie, rejecting a path on the branch of another.
absl::Status AddProjectionPath(ProjNode* root,
                               const std::vector<std::string>& parts,
                               const std::string& path, NodeKind kind) {
  ProjNode* cur = root;
  for (size_t k = 0; k < parts.size(); ++k) {
    if (cur->leaf) {
      return MongoInvalidArgument(
          31250,
          absl::StrCat("Path collision at ", path, " remaining portion ",
                       absl::StrJoin(parts.begin() + k, parts.end(), ".")));
    }
    auto& child = cur->children[parts[k]];
    if (child == nullptr) child = std::make_unique<ProjNode>();
    cur = child.get();
  }
  if (cur->leaf || !cur->children.empty()) {
    return MongoInvalidArgument(31250,
                                absl::StrCat("Path collision at ", path));
  }
  cur->leaf = true;
  cur->kind = kind;
  return absl::OkStatus();
}

Value Include(const ProjNode& node, const Value& obj);

Value IncludeArray(const ProjNode& node, const Value& arr) {
  Value out = Value::MakeArray();
  for (const Value& item : arr.array_items()) {
    if (item.is_object()) {
      out.mutable_array_items().push_back(Include(node, item));
    } else if (item.is_array()) {
      out.mutable_array_items().push_back(IncludeArray(node, item));
    }
  }
  return out;
}

Value Include(const ProjNode& node, const Value& obj) {
  Value out = Value::MakeObject();
  for (const auto& [name, v] : obj.object_fields()) {
    auto it = node.children.find(name);
    if (it == node.children.end()) continue;
    const ProjNode& child = *it->second;
    if (child.leaf) {
      // $elemMatch values and computed fields are set after the others.
      if (child.kind != NodeKind::kElemMatch &&
          child.kind != NodeKind::kComputed) {
        out.mutable_object_fields().emplace_back(name, v);
      }
    } else if (v.is_object()) {
      out.mutable_object_fields().emplace_back(name, Include(child, v));
    } else if (v.is_array()) {
      out.mutable_object_fields().emplace_back(name, IncludeArray(child, v));
    }
  }
  return out;
}

Value Exclude(const ProjNode& node, const Value& obj);

Value ExcludeArray(const ProjNode& node, const Value& arr) {
  Value out = Value::MakeArray();
  for (const Value& item : arr.array_items()) {
    if (item.is_object()) {
      out.mutable_array_items().push_back(Exclude(node, item));
    } else if (item.is_array()) {
      out.mutable_array_items().push_back(ExcludeArray(node, item));
    } else {
      out.mutable_array_items().push_back(item);
    }
  }
  return out;
}

Value Exclude(const ProjNode& node, const Value& obj) {
  Value out = Value::MakeObject();
  for (const auto& [name, v] : obj.object_fields()) {
    auto it = node.children.find(name);
    if (it == node.children.end()) {
      out.mutable_object_fields().emplace_back(name, v);
      continue;
    }
    const ProjNode& child = *it->second;
    if (child.leaf) {
      // Operators ($slice, $elemMatch) keep the field for their pass.
      if (child.kind != NodeKind::kField && child.kind != NodeKind::kComputed) {
        out.mutable_object_fields().emplace_back(name, v);
      }
      continue;
    }
    if (v.is_object()) {
      out.mutable_object_fields().emplace_back(name, Exclude(child, v));
    } else if (v.is_array()) {
      out.mutable_object_fields().emplace_back(name, ExcludeArray(child, v));
    } else {
      out.mutable_object_fields().emplace_back(name, v);
    }
  }
  return out;
}

// MongoDB's BSONElement::numberInt(): doubles truncate (saturating), longs
// keep their low 32 bits, decimals round half to even.
int NumberInt(const Value& v) {
  if (v.type() == ValueType::kDouble) {
    const double d = v.double_value();
    if (std::isnan(d)) return 0;
    if (d >= static_cast<double>(INT_MAX)) return INT_MAX;
    if (d <= static_cast<double>(INT_MIN)) return INT_MIN;
    return static_cast<int>(d);
  }
  if (v.type() == ValueType::kDecimal) {
    // Decimal128::toInt(): round half to even; out of range is INT_MIN.
    const double d = std::nearbyint(v.decimal_value().ToDouble());
    if (std::isnan(d) || d > static_cast<double>(INT_MAX) ||
        d < static_cast<double>(INT_MIN)) {
      return INT_MIN;
    }
    return static_cast<int>(d);
  }
  return static_cast<int>(static_cast<uint32_t>(v.int64_value()));
}

// sliceArray() in exec/projection_executor_utils.cpp.
Value SliceArray(const Value& arr, std::optional<int> skip, int limit) {
  const auto& items = arr.array_items();
  const int64_t len = items.size();
  int64_t start = 0;
  int64_t forward = 0;
  if (!skip.has_value()) {
    if (limit < 0) {
      start = std::max<int64_t>(0, len + limit);
      forward = len - start;
    } else {
      forward = std::min<int64_t>(len, limit);
    }
  } else if (*skip < 0) {
    start = std::max<int64_t>(0, len + *skip);
    forward = std::min<int64_t>(len - start, limit);
  } else {
    start = std::min<int64_t>(len, *skip);
    forward = std::min<int64_t>(len - start, limit);
  }
  return Value::MakeArray(
      Value::Array(items.begin() + start, items.begin() + start + forward));
}

// applyFindSliceProjectionHelper(): the array at `parts` (through arrays of
// objects; nested arrays are left alone) is sliced in place.
void SliceAt(Value* obj, const std::vector<std::string>& parts, size_t i,
             std::optional<int> skip, int limit) {
  Value* v = obj->GetMutable(parts[i]);
  if (v == nullptr) return;
  const bool last = i + 1 == parts.size();
  if (v->is_array()) {
    if (last) {
      *v = SliceArray(*v, skip, limit);
      return;
    }
    for (Value& item : v->mutable_array_items()) {
      if (item.is_object()) SliceAt(&item, parts, i + 1, skip, limit);
    }
  } else if (v->is_object() && !last) {
    SliceAt(v, parts, i + 1, skip, limit);
  }
}

// findFirstPositionalOperator(): [begin, end) of the first ".$." or final
// ".$" (or the whole of "$").
std::optional<std::pair<size_t, size_t>> FindPositional(absl::string_view p) {
  const size_t first = p.find(".$.");
  if (first != absl::string_view::npos) {
    return std::make_pair(first, first + 3);
  }
  if (absl::EndsWith(p, ".$")) return std::make_pair(p.size() - 2, p.size());
  if (p == "$") return std::make_pair(size_t{0}, p.size());
  return std::nullopt;
}

// hasPositionalOperatorMatch(): some predicate's path starts with `field`.
bool QueryTestsField(const MatchExpr& e, absl::string_view field) {
  using Kind = MatchExpr::Kind;
  switch (e.kind) {
    case Kind::kAnd:
    case Kind::kOr:
    case Kind::kNor:
      for (const MatchExpr& c : e.children) {
        if (QueryTestsField(c, field)) return true;
      }
      return false;
    case Kind::kAlwaysTrue:
    case Kind::kAlwaysFalse:
      return false;
    default:
      return !e.parts.empty() && e.parts[0] == field;
  }
}

absl::string_view TypeNameForError(const Value& v) {
  return TypeName(v.type());
}

absl::Status ParseSlice(const Value& arg, std::optional<int>* skip,
                        int* limit) {
  if (arg.is_number()) {
    *limit = NumberInt(arg);
    return absl::OkStatus();
  }
  if (!arg.is_array()) {
    return MongoInvalidArgument(
        31273, "$slice only supports numbers and [skip, limit] arrays");
  }
  const auto& items = arg.array_items();
  if (items.size() != 2) {
    return MongoInvalidArgument(
        31272, "$slice array argument should be of form [skip, limit]");
  }
  if (!items[0].is_number()) {
    return MongoInvalidArgument(
        31257, absl::StrCat("$slice expects the skip argument to be a number, "
                            "got ",
                            TypeNameForError(items[0])));
  }
  if (!items[1].is_number()) {
    return MongoInvalidArgument(
        31258, absl::StrCat("$slice expects the limit argument to be a "
                            "number, got ",
                            TypeNameForError(items[1])));
  }
  const int n = NumberInt(items[1]);
  if (n <= 0) {
    return MongoInvalidArgument(
        31259, absl::StrCat("$slice limit must be positive, got ", n));
  }
  *skip = NumberInt(items[0]);
  *limit = n;
  return absl::OkStatus();
}

absl::Status UnsupportedProjection(const std::string& name) {
  return MongoInvalidArgument(
      kBadValue, absl::StrCat("ttldb does not support projection operators "
                              "or expressions: field '",
                              name, "'"));
}

struct Entry {
  std::string path;
  NodeKind kind;
};

// An object that is an operator or expression ({$slice: 2}, {$add: ...}),
// not a nested projection (projection_parser.cpp parseSubObject: its first
// field starts with '$').
bool IsOperatorObject(const Value& v) {
  const auto& fields = v.object_fields();
  return !fields.empty() && !fields[0].first.empty() &&
         fields[0].first[0] == '$';
}

// The spec's fields with nested projections spelled as dotted paths, in
// spec order.
absl::Status Flatten(const Value& spec, const std::string& prefix,
                     std::vector<std::pair<std::string, const Value*>>* out) {
  for (const auto& [name, v] : spec.object_fields()) {
    std::string path = prefix.empty() ? name : absl::StrCat(prefix, ".", name);
    // (A positional path's object value is refused later: 31271.)
    if (v.is_object() && !IsOperatorObject(v) &&
        !FindPositional(path).has_value()) {
      if (v.object_fields().empty()) {
        return MongoInvalidArgument(
            51270, absl::StrCat("An empty sub-projection is not a "
                                "valid value. Found empty object at "
                                "path ",
                                path));
      }
      RETURN_IF_ERROR(Flatten(v, path, out));
      continue;
    }
    out->emplace_back(std::move(path), &v);
  }
  return absl::OkStatus();
}

// Sets `v` (nothing: removes) at `parts[i..]` below `obj`, through arrays;
// a scalar or missing field on the way becomes an object
// (projection_executor's applyExpressions).
void SetComputed(Value* obj, const std::vector<std::string>& parts, size_t i,
                 const std::optional<Value>& v);

void SetComputedIn(Value* item, const std::vector<std::string>& parts, size_t i,
                   const std::optional<Value>& v) {
  if (item->is_array()) {
    for (Value& e : item->mutable_array_items()) {
      SetComputedIn(&e, parts, i, v);
    }
    return;
  }
  if (!item->is_object()) *item = Value::MakeObject();
  SetComputed(item, parts, i, v);
}

void SetComputed(Value* obj, const std::vector<std::string>& parts, size_t i,
                 const std::optional<Value>& v) {
  if (i + 1 == parts.size()) {
    if (v.has_value()) {
      obj->Set(parts[i], *v);
    } else {
      obj->Remove(parts[i]);
    }
    return;
  }
  Value* child = obj->GetMutable(parts[i]);
  if (child == nullptr) {
    obj->Set(parts[i], Value::MakeObject());
    child = obj->GetMutable(parts[i]);
  }
  SetComputedIn(child, parts, i + 1, v);
}

// The {$meta: "sortKey"} value: the key's values in sort order.
Value SortKeyArray(const SortSpec::Key& key) {
  Value out = Value::MakeArray();
  for (const KeyElement& e : key.elements) {
    out.mutable_array_items().push_back(
        e.kind == KeyElement::Kind::kValue ? *e.value : Value());
  }
  return out;
}

}  // namespace

absl::StatusOr<Projection> Projection::Parse(const Value& spec,
                                             const Filter* query) {
  if (!spec.is_object()) {
    return MongoInvalidArgument(kBadValue, "projection must be an object");
  }
  Projection p;
  // One pass in spec order, as projection_parser.cpp: the mode comes from
  // the non-_id inclusions and exclusions.
  std::optional<bool> mode;
  std::optional<bool> id_include;
  bool has_slice = false;
  std::vector<Entry> entries;
  std::vector<std::pair<std::string, const Value*>> flat;
  RETURN_IF_ERROR(Flatten(spec, "", &flat));
  bool has_computed = false;
  for (const auto& [name, vp] : flat) {
    const Value& v = *vp;
    if (name.empty() || name.find("..") != std::string::npos ||
        name.back() == '.' || name[0] == '.') {
      return MongoInvalidArgument(
          kBadValue,
          absl::StrCat("invalid projection field name: '", name, "'"));
    }
    const auto positional = FindPositional(name);
    const bool exclusion = (v.type() == ValueType::kBool && !v.bool_value()) ||
                           (v.is_number() && v.AsDouble() == 0);
    // FieldPath::uassertValidFieldName on the path (before a positional
    // ".$" of an inclusion).
    const absl::string_view checked =
        positional.has_value() && !exclusion
            ? absl::string_view(name).substr(0, positional->first)
            : absl::string_view(name);
    for (absl::string_view part : absl::StrSplit(checked, '.')) {
      if (!part.empty() && part[0] == '$' && part != "$id" && part != "$ref" &&
          part != "$db") {
        return MongoInvalidArgument(
            16410,
            "FieldPath field names may not start with '$'. Consider "
            "using $getField or $setField.");
      }
    }
    if (v.is_object()) {
      if (positional.has_value()) {
        return MongoInvalidArgument(
            31271,
            "positional projection cannot be used with an expression "
            "or sub object");
      }
      const auto& fields = v.object_fields();
      const std::string& op = fields[0].first;
      const Value& arg = fields[0].second;
      if (op == "$meta" && fields.size() == 1) {
        if (!arg.is_string() || arg.string_value() != "sortKey") {
          return UnsupportedProjection(name);
        }
        p.sort_keys_.push_back(query_internal::SplitDotted(name));
        entries.push_back({name, NodeKind::kComputed});
        continue;
      }
      if (op == "$slice" && fields.size() == 1) {
        Slice s;
        RETURN_IF_ERROR(ParseSlice(arg, &s.skip, &s.limit));
        s.parts = query_internal::SplitDotted(name);
        p.slices_.push_back(std::move(s));
        entries.push_back({name, NodeKind::kSlice});
        has_slice = true;
        continue;
      }
      if (op == "$elemMatch") {
        if (!arg.is_object()) {
          return MongoInvalidArgument(
              31274, absl::StrCat("elemMatch: Invalid argument, object "
                                  "required, but got ",
                                  TypeName(arg.type())));
        }
        if (!p.positional_.empty()) {
          return MongoInvalidArgument(
              31255, "Cannot specify positional operator and $elemMatch.");
        }
        if (name.find('.') != std::string::npos) {
          return MongoInvalidArgument(
              31275, "Cannot use $elemMatch projection on a nested field.");
        }
        ASSIGN_OR_RETURN(
            Filter f,
            Filter::Parse(Value::MakeObject(
                {Field(name, Value::MakeObject({Field("$elemMatch", arg)}))})));
        p.elem_matches_.push_back(
            {name, std::make_shared<const Filter>(std::move(f))});
        entries.push_back({name, NodeKind::kElemMatch});
        continue;
      }
    }
    if (v.type() != ValueType::kBool && !v.is_number()) {
      if (positional.has_value()) {
        return MongoInvalidArgument(
            31308, "positional projection cannot be used with a literal");
      }
      // A computed field (projection_parser.cpp parseLiteral /
      // attemptToParseGenericExpression): inclusion only.
      if (mode.has_value() && !*mode) {
        return MongoInvalidArgument(
            31252,
            "Cannot use expression other than $meta in exclusion "
            "projection");
      }
      agg::ParseContext ctx;
      ASSIGN_OR_RETURN(std::unique_ptr<agg::Expression> expr,
                       agg::ParseExpression(v, &ctx));
      p.computed_.push_back(
          {query_internal::SplitDotted(name),
           std::shared_ptr<const agg::Expression>(std::move(expr))});
      entries.push_back({name, NodeKind::kComputed});
      if (name == "_id") id_include = true;
      has_computed = true;
      continue;
    }
    const bool include =
        v.type() == ValueType::kBool ? v.bool_value() : v.AsDouble() != 0;
    if (include && positional.has_value()) {
      if (!p.positional_.empty()) {
        return MongoInvalidArgument(
            31276,
            "Cannot specify more than one positional projection per "
            "query.");
      }
      if (!p.elem_matches_.empty()) {
        return MongoInvalidArgument(
            31256, "Cannot specify positional operator and $elemMatch.");
      }
      if (query == nullptr) {
        return MongoInvalidArgument(
            51050,
            "Projections with a positional operator require a "
            "matcher");
      }
      const std::string match_field = name.substr(0, name.find('.'));
      if (!QueryTestsField(query->root(), match_field)) {
        return MongoInvalidArgument(
            31277, absl::StrCat("Positional projection '", name,
                                "' does not match the query "
                                "document."));
      }
      if (absl::EndsWith(name, ".$.")) {
        return MongoInvalidArgument(31270, "Path cannot end with '.$.'");
      }
      const absl::string_view rest =
          absl::string_view(name).substr(positional->second);
      if (FindPositional(rest).has_value() || rest == "$") {
        return MongoInvalidArgument(
            31287,
            absl::StrCat("Cannot use positional operator twice: ", name));
      }
      const std::string path = name.substr(0, positional->first);
      p.positional_ = query_internal::SplitDotted(path);
      p.query_ = std::make_shared<const Filter>(*query);
      entries.push_back({path, NodeKind::kPositional});
    } else if (name == "_id") {
      id_include = include;
      continue;
    } else {
      entries.push_back({name, NodeKind::kField});
    }
    if (!include && has_computed) {
      return MongoInvalidArgument(
          31254, absl::StrCat("Cannot do exclusion on field ", name,
                              " in inclusion projection"));
    }
    if (mode.has_value() && *mode != include) {
      return MongoInvalidArgument(
          include ? 31253 : 31254,
          absl::StrCat("Cannot do ", include ? "inclusion" : "exclusion",
                       " on field ", name, " in ",
                       include ? "exclusion" : "inclusion", " projection"));
    }
    mode = include;
  }
  p.empty_ = spec.object_fields().empty();
  // computeProjectionType() for projections without inclusions/exclusions.
  if (mode.has_value()) {
    p.inclusion_ = *mode;
  } else if (has_computed) {
    p.inclusion_ = true;
  } else if (has_slice) {
    p.inclusion_ = id_include.value_or(false);
  } else if (!p.elem_matches_.empty()) {
    p.inclusion_ = true;
  } else {
    p.inclusion_ = id_include.value_or(false);
  }
  auto root = std::make_shared<ProjNode>();
  for (const Entry& e : entries) {
    RETURN_IF_ERROR(AddProjectionPath(
        root.get(), query_internal::SplitDotted(e.path), e.path, e.kind));
  }
  const bool id_projected = root->children.count("_id") > 0;
  if (!id_projected) {
    const bool want_id = id_include.value_or(true);
    if (p.inclusion_ == want_id) {
      RETURN_IF_ERROR(
          AddProjectionPath(root.get(), {"_id"}, "_id", NodeKind::kField));
    }
  }
  p.root_ = std::move(root);
  return p;
}

// applyFindPositionalProjection(): the first array on the path, in the
// projected document, becomes the one element the query matched.
absl::Status Projection::ApplyPositional(const Value& doc, Value* out) const {
  MatchDetails details;
  query_->Matches(doc, &details);
  Value* cur = out;
  for (size_t i = 0; i < positional_.size(); ++i) {
    Value* v = cur->GetMutable(positional_[i]);
    if (v == nullptr) return absl::OkStatus();
    if (v->is_array()) {
      if (!details.elem_match_key.has_value()) {
        return MongoInvalidArgument(
            51246,
            "positional operator '.$' couldn't find a matching element "
            "in the array");
      }
      const size_t k = *details.elem_match_key;
      if (k >= v->array_items().size()) {
        return MongoInvalidArgument(
            51247, "positional operator '.$' element mismatch");
      }
      Value element = std::move(v->mutable_array_items()[k]);
      *v = Value::MakeArray({std::move(element)});
      return absl::OkStatus();
    }
    if (!v->is_object()) return absl::OkStatus();
    cur = v;
  }
  return absl::OkStatus();
}

// Computed fields in spec order, then the sort key fields.
absl::Status Projection::ApplyComputed(const Value& doc, const SortSpec* sort,
                                       Value* out) const {
  agg::Variables vars(&doc, absl::ToUnixMillis(absl::Now()));
  for (const Computed& c : computed_) {
    ASSIGN_OR_RETURN(std::optional<Value> v, c.expr->Evaluate(doc, &vars));
    SetComputed(out, c.parts, 0, v);
  }
  if (sort_keys_.empty()) return absl::OkStatus();
  Value key;
  if (sort != nullptr) {
    ASSIGN_OR_RETURN(SortSpec::Key k, sort->KeyOf(doc));
    key = SortKeyArray(k);
  }
  for (const std::vector<std::string>& parts : sort_keys_) {
    SetComputed(out, parts, 0, key);
  }
  return absl::OkStatus();
}

absl::StatusOr<Value> Projection::Apply(const Value& doc,
                                        const SortSpec* sort) const {
  if (empty_ || !doc.is_object()) return doc;
  Value out = inclusion_ ? Include(*root_, doc) : Exclude(*root_, doc);
  if (!positional_.empty()) RETURN_IF_ERROR(ApplyPositional(doc, &out));
  for (const Slice& s : slices_) SliceAt(&out, s.parts, 0, s.skip, s.limit);
  RETURN_IF_ERROR(ApplyComputed(doc, sort, &out));
  for (const ElemMatch& em : elem_matches_) {
    // applyFindElemMatchProjection(): on the input document.
    MatchDetails details;
    std::optional<Value> element;
    if (em.filter->Matches(doc, &details) &&
        details.elem_match_key.has_value()) {
      const Value* arr = doc.Get(em.field);
      if (arr != nullptr && arr->is_array() &&
          *details.elem_match_key < arr->array_items().size()) {
        element = arr->array_items()[*details.elem_match_key];
      }
    }
    if (element.has_value()) {
      out.Set(em.field, Value::MakeArray({std::move(*element)}));
    } else {
      out.Remove(em.field);
    }
  }
  return out;
}

}  // namespace ttldb
