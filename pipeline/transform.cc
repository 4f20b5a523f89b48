// $project, $addFields / $set, $unset, $replaceRoot / $replaceWith: the
// document transformations of MongoDB's projection_executor (inclusion_node,
// exclusion_node, add_fields_projection_executor).
#include <map>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "base/status.h"
#include "document/bson.h"
#include "pipeline/stages.h"
#include "ttldb/json.h"

namespace ttldb {
namespace agg {
namespace {

enum class Mode { kInclusion, kExclusion, kAddFields };

// One level of a projection: what happens to each field name, in spec
// order.
struct Node {
  enum class Kind { kInclude, kExclude, kExpr, kChild };
  struct Entry {
    std::string name;
    Kind kind;
    std::shared_ptr<const Expression> expr;
    std::unique_ptr<Node> child;
  };
  std::vector<Entry> entries;

  Entry* Find(absl::string_view name) {
    for (Entry& e : entries) {
      if (e.name == name) return &e;
    }
    return nullptr;
  }
  const Entry* Find(absl::string_view name) const {
    return const_cast<Node*>(this)->Find(name);
  }
  bool HasComputed() const {
    for (const Entry& e : entries) {
      if (e.kind == Kind::kExpr) return true;
      if (e.kind == Kind::kChild && e.child->HasComputed()) return true;
    }
    return false;
  }
};

struct Projection {
  Mode mode = Mode::kInclusion;
  Node root;
};

absl::Status ProjectError(absl::string_view stage, int code,
                          absl::string_view why) {
  return StageError(code,
                    absl::StrCat("Invalid ", stage, " :: caused by :: ", why));
}

// Adds `path` (dotted) with `kind` under `root`.
absl::Status AddPath(absl::string_view stage, Node* root,
                     absl::string_view path, Node::Kind kind,
                     std::shared_ptr<const Expression> expr) {
  std::vector<std::string> parts = absl::StrSplit(path, '.');
  for (const std::string& p : parts) {
    if (p.empty()) {
      return ProjectError(stage, 15998,
                          "FieldPath field names may not be empty strings.");
    }
    if (p[0] == '$') {
      return ProjectError(
          stage, 16410,
          absl::StrCat("FieldPath field names may not start with '$'. "
                       "Consider using $getField or $setField."));
    }
  }
  Node* node = root;
  for (size_t i = 0; i + 1 < parts.size(); ++i) {
    Node::Entry* e = node->Find(parts[i]);
    if (e == nullptr) {
      node->entries.push_back(
          {parts[i], Node::Kind::kChild, nullptr, std::make_unique<Node>()});
      e = &node->entries.back();
    } else if (e->kind != Node::Kind::kChild) {
      return ProjectError(stage, 31250,
                          absl::StrCat("Path collision at ", path));
    }
    node = e->child.get();
  }
  if (node->Find(parts.back()) != nullptr) {
    return ProjectError(stage, 31250, absl::StrCat("Path collision at ", path));
  }
  node->entries.push_back(
      {parts.back(), kind, std::move(expr),
       kind == Node::Kind::kChild ? std::make_unique<Node>() : nullptr});
  return absl::OkStatus();
}

bool IsExpressionObject(const Value& v) {
  return v.is_object() && !v.object_fields().empty() &&
         !v.object_fields()[0].first.empty() &&
         v.object_fields()[0].first[0] == '$';
}

// Parses the fields of `spec` under `prefix` into p->root.
absl::Status ParseFields(absl::string_view stage, const Value& spec,
                         const std::string& prefix, ParseContext* ctx,
                         Projection* p, bool* saw_include, bool* saw_exclude,
                         bool* saw_expr, bool* id_excluded, bool* id_set) {
  for (const Field& f : spec.object_fields()) {
    std::string path = prefix.empty() ? f.first : prefix + "." + f.first;
    const Value& v = f.second;
    bool is_top_id = prefix.empty() && f.first == "_id";
    if (p->mode != Mode::kAddFields &&
        (v.is_number() || v.type() == ValueType::kBool)) {
      bool include =
          v.type() == ValueType::kBool ? v.bool_value() : v.AsDouble() != 0;
      if (is_top_id) {
        *id_set = true;
        *id_excluded = !include;
        if (include) {
          RETURN_IF_ERROR(
              AddPath(stage, &p->root, path, Node::Kind::kInclude, nullptr));
        }
        continue;
      }
      if (include) {
        if (*saw_exclude) {
          return ProjectError(stage, 31253,
                              absl::StrCat("Cannot do inclusion on field ",
                                           path, " in exclusion projection"));
        }
        *saw_include = true;
      } else {
        if (*saw_include || *saw_expr) {
          return ProjectError(stage, 31254,
                              absl::StrCat("Cannot do exclusion on field ",
                                           path, " in inclusion projection"));
        }
        *saw_exclude = true;
      }
      RETURN_IF_ERROR(AddPath(
          stage, &p->root, path,
          include ? Node::Kind::kInclude : Node::Kind::kExclude, nullptr));
      continue;
    }
    if (v.is_object() && !IsExpressionObject(v)) {
      if (v.object_fields().empty()) {
        if (p->mode == Mode::kAddFields) {
          // An empty object is the literal {} in $addFields.
          ASSIGN_OR_RETURN(std::unique_ptr<Expression> e,
                           ParseExpression(v, ctx));
          RETURN_IF_ERROR(
              AddPath(stage, &p->root, path, Node::Kind::kExpr, std::move(e)));
          continue;
        }
        return ProjectError(
            stage, 51270,
            absl::StrCat("An empty sub-projection is not a valid value. "
                         "Found empty object at path"));
      }
      if (absl::StrContains(f.first, '.')) {
        return ProjectError(
            stage, 31249,
            absl::StrCat("Path collision at ", path,
                         ": a dotted field name may not hold a nested "
                         "specification"));
      }
      RETURN_IF_ERROR(ParseFields(stage, v, path, ctx, p, saw_include,
                                  saw_exclude, saw_expr, id_excluded, id_set));
      continue;
    }
    // A computed field.
    if (*saw_exclude && p->mode != Mode::kAddFields) {
      return ProjectError(
          stage, 31252,
          "Cannot use expression other than $meta in exclusion projection");
    }
    if (is_top_id) *id_set = true;
    *saw_expr = true;
    ASSIGN_OR_RETURN(std::unique_ptr<Expression> e, ParseExpression(v, ctx));
    RETURN_IF_ERROR(
        AddPath(stage, &p->root, path, Node::Kind::kExpr, std::move(e)));
  }
  return absl::OkStatus();
}

// ---- Applying ---------------------------------------------------------------

struct Applier {
  const Value* root;
  Variables* vars;
  // BSON bytes of the computed values so far: with the input document's
  // (itself bounded), they bound the document built, so that fields each
  // holding a copy of a large value fail before they are all built.
  mutable size_t computed_bytes = 0;

  absl::Status Charge(const std::string& name, const Value& v) const {
    computed_bytes += 2 + name.size() + BsonValueSize(v);
    if (computed_bytes > kMaxOutputDocumentBytes) {
      return StageError(kBSONObjectTooLarge,
                        absl::StrCat("the computed fields of the document "
                                     "take ",
                                     computed_bytes, " bytes, over the ",
                                     kMaxOutputDocumentBytes,
                                     "-byte limit of a BSON document"));
    }
    return absl::OkStatus();
  }

  // Inclusion of `node`'s fields of `in` (an object).
  Value Include(const Node& node, const Value& in) const {
    Value::Object out;
    for (const Field& f : in.object_fields()) {
      const Node::Entry* e = node.Find(f.first);
      if (e == nullptr) continue;
      if (e->kind == Node::Kind::kInclude) {
        out.push_back(f);
      } else if (e->kind == Node::Kind::kChild) {
        std::optional<Value> v = IncludeValue(*e->child, f.second);
        if (v.has_value()) out.emplace_back(f.first, std::move(*v));
      }
    }
    return Value::MakeObject(std::move(out));
  }
  std::optional<Value> IncludeValue(const Node& node, const Value& v) const {
    if (v.is_object()) return Include(node, v);
    if (v.is_array()) {
      Value::Array out;
      for (const Value& e : v.array_items()) {
        std::optional<Value> r = IncludeValue(node, e);
        if (r.has_value()) out.push_back(std::move(*r));
      }
      return Value::MakeArray(std::move(out));
    }
    // A scalar under a sub-projection: dropped (the computed fields, if
    // any, come back in ApplyExpressions).
    return std::nullopt;
  }

  Value Exclude(const Node& node, const Value& in) const {
    Value::Object out;
    for (const Field& f : in.object_fields()) {
      const Node::Entry* e = node.Find(f.first);
      if (e == nullptr || e->kind == Node::Kind::kInclude) {
        out.push_back(f);
      } else if (e->kind == Node::Kind::kChild) {
        out.emplace_back(f.first, ExcludeValue(*e->child, f.second));
      }
    }
    return Value::MakeObject(std::move(out));
  }
  Value ExcludeValue(const Node& node, const Value& v) const {
    if (v.is_object()) return Exclude(node, v);
    if (v.is_array()) {
      Value::Array out;
      for (const Value& e : v.array_items()) {
        out.push_back(ExcludeValue(node, e));
      }
      return Value::MakeArray(std::move(out));
    }
    return v;
  }

  // Sets the computed fields of `node` into `doc` (an object), in spec
  // order, replacing a field in place or appending it.
  absl::Status Expressions(const Node& node, Value* doc) const {
    for (const Node::Entry& e : node.entries) {
      if (e.kind == Node::Kind::kExpr) {
        ASSIGN_OR_RETURN(std::optional<Value> v, e.expr->Evaluate(*root, vars));
        if (v.has_value()) {
          RETURN_IF_ERROR(Charge(e.name, *v));
          doc->Set(e.name, std::move(*v));
        } else {
          // A missing result leaves the field out ($addFields removes an
          // existing one, as MongoDB's setField(missing) does).
          doc->Remove(e.name);
        }
      } else if (e.kind == Node::Kind::kChild && e.child->HasComputed()) {
        const Value* existing = doc->Get(e.name);
        ASSIGN_OR_RETURN(
            std::optional<Value> v,
            ExpressionsValue(*e.child, existing
                                           ? std::optional<Value>(*existing)
                                           : std::nullopt));
        if (v.has_value()) doc->Set(e.name, std::move(*v));
      }
    }
    return absl::OkStatus();
  }
  absl::StatusOr<std::optional<Value>> ExpressionsValue(
      const Node& node, std::optional<Value> v) const {
    if (v.has_value() && v->is_object()) {
      RETURN_IF_ERROR(Expressions(node, &*v));
      return v;
    }
    if (v.has_value() && v->is_array()) {
      for (Value& e : v->mutable_array_items()) {
        ASSIGN_OR_RETURN(std::optional<Value> r, ExpressionsValue(node, e));
        if (r.has_value()) e = std::move(*r);
      }
      return v;
    }
    // A scalar or nothing: replaced by a document of the computed fields
    // ({"a.b": {$literal: 1}} over {a: 1} gives {a: {b: 1}}).
    Value d = Value::MakeObject();
    RETURN_IF_ERROR(Expressions(node, &d));
    return std::optional<Value>(std::move(d));
  }
};

class TransformSpec : public StageSpec {
 public:
  TransformSpec(absl::string_view name, std::shared_ptr<const Projection> p)
      : name_(name), p_(std::move(p)) {}
  absl::string_view name() const override { return name_; }

  class Stream : public MapStream {
   public:
    Stream(std::unique_ptr<Cursor> in, const Projection* p, Variables vars)
        : MapStream(std::move(in)), p_(p), vars_(std::move(vars)) {}

   protected:
    absl::StatusOr<std::optional<Value>> Map(Value doc) override {
      vars_.set_root(&doc);
      Applier a{&doc, &vars_};
      Value out;
      switch (p_->mode) {
        case Mode::kInclusion:
          out = a.Include(p_->root, doc);
          RETURN_IF_ERROR(a.Expressions(p_->root, &out));
          break;
        case Mode::kExclusion:
          out = a.Exclude(p_->root, doc);
          break;
        case Mode::kAddFields:
          out = doc;
          RETURN_IF_ERROR(a.Expressions(p_->root, &out));
          break;
      }
      return std::optional<Value>(std::move(out));
    }

   private:
    const Projection* p_;
    Variables vars_;
  };

  absl::StatusOr<std::unique_ptr<Cursor>> Open(std::unique_ptr<Cursor> input,
                                               RunContext* ctx) const override {
    return std::unique_ptr<Cursor>(std::make_unique<Stream>(
        std::move(input), p_.get(), StageVariables(*ctx)));
  }

 private:
  std::string name_;
  std::shared_ptr<const Projection> p_;
};

// ---- $replaceRoot
// -------------------------------------------------------------

class ReplaceRootSpec : public StageSpec {
 public:
  ReplaceRootSpec(std::shared_ptr<const Expression> e, std::string what)
      : expr_(std::move(e)), what_(std::move(what)) {}
  absl::string_view name() const override { return "$replaceRoot"; }

  class Stream : public MapStream {
   public:
    Stream(std::unique_ptr<Cursor> in, const ReplaceRootSpec* s, Variables vars)
        : MapStream(std::move(in)), s_(s), vars_(std::move(vars)) {}

   protected:
    absl::StatusOr<std::optional<Value>> Map(Value doc) override {
      vars_.set_root(&doc);
      ASSIGN_OR_RETURN(std::optional<Value> v,
                       s_->expr_->Evaluate(doc, &vars_));
      if (!v.has_value() || !v->is_object()) {
        // document_source_replace_root.h kErrorTemplate.
        return StageError(
            40228,
            absl::StrCat(s_->what_,
                         "must evaluate to an object, but resulting value "
                         "was: ",
                         v.has_value() ? ToJson(*v) : "MISSING",
                         ". Type of resulting value: '",
                         v.has_value() ? TypeName(v->type()) : "missing",
                         "'. Input document: ", ToJson(doc)));
      }
      return v;
    }

   private:
    const ReplaceRootSpec* s_;
    Variables vars_;
  };

  absl::StatusOr<std::unique_ptr<Cursor>> Open(std::unique_ptr<Cursor> input,
                                               RunContext* ctx) const override {
    return std::unique_ptr<Cursor>(
        std::make_unique<Stream>(std::move(input), this, StageVariables(*ctx)));
  }

 private:
  std::shared_ptr<const Expression> expr_;
  std::string what_;
};

}  // namespace

absl::Status ParseProject(const Value& spec, ParseContext* ctx,
                          StageList* out) {
  if (!spec.is_object()) {
    return StageError(15969, "$project specification must be an object");
  }
  if (spec.object_fields().empty()) {
    return ProjectError("$project", 51272,
                        "projection specification must have at least one "
                        "field");
  }
  auto p = std::make_shared<Projection>();
  p->mode = Mode::kInclusion;
  bool inc = false, exc = false, expr = false, id_excluded = false,
       id_set = false;
  RETURN_IF_ERROR(ParseFields("$project", spec, "", ctx, p.get(), &inc, &exc,
                              &expr, &id_excluded, &id_set));
  if (exc || (!inc && !expr && id_excluded)) {
    p->mode = Mode::kExclusion;
    if (id_excluded) {
      RETURN_IF_ERROR(
          AddPath("$project", &p->root, "_id", Node::Kind::kExclude, nullptr));
    }
  } else if (!id_set && p->root.Find("_id") == nullptr) {
    // _id is included by default, first in the spec's order of checks (the
    // output keeps the document's field order anyway).
    p->root.entries.insert(
        p->root.entries.begin(),
        Node::Entry{"_id", Node::Kind::kInclude, nullptr, nullptr});
  }
  out->push_back(std::make_shared<TransformSpec>("$project", std::move(p)));
  return absl::OkStatus();
}

absl::Status ParseAddFields(const Value& spec, ParseContext* ctx,
                            StageList* out) {
  if (!spec.is_object()) {
    return StageError(40272,
                      "$addFields specification stage must be an object, got " +
                          std::string(TypeName(spec.type())));
  }
  auto p = std::make_shared<Projection>();
  p->mode = Mode::kAddFields;
  bool inc = false, exc = false, expr = false, id_excluded = false,
       id_set = false;
  RETURN_IF_ERROR(ParseFields("$addFields", spec, "", ctx, p.get(), &inc, &exc,
                              &expr, &id_excluded, &id_set));
  out->push_back(std::make_shared<TransformSpec>("$addFields", std::move(p)));
  return absl::OkStatus();
}

absl::Status ParseUnset(const Value& spec, ParseContext*, StageList* out) {
  // document_source_project.cpp (the $unset alias).
  std::vector<std::string> fields;
  if (spec.is_string()) {
    fields.push_back(spec.string_value());
  } else if (spec.is_array()) {
    if (spec.array_items().empty()) {
      return StageError(31119,
                        "$unset specification must be a string or an array "
                        "with at least one field");
    }
    for (const Value& v : spec.array_items()) {
      if (!v.is_string()) {
        return StageError(31120,
                          "$unset specification must be a string or an array "
                          "containing only string values");
      }
      fields.push_back(v.string_value());
    }
  } else {
    return StageError(31002,
                      "$unset specification must be a string or an array");
  }
  auto p = std::make_shared<Projection>();
  p->mode = Mode::kExclusion;
  for (const std::string& f : fields) {
    RETURN_IF_ERROR(
        AddPath("$unset", &p->root, f, Node::Kind::kExclude, nullptr));
  }
  out->push_back(std::make_shared<TransformSpec>("$unset", std::move(p)));
  return absl::OkStatus();
}

absl::Status ParseReplaceRoot(const Value& spec, ParseContext* ctx,
                              StageList* out) {
  if (!spec.is_object()) {
    return StageError(40229,
                      absl::StrCat("expected an object as specification for "
                                   "$replaceRoot stage, got ",
                                   TypeName(spec.type())));
  }
  const Value* new_root = nullptr;
  for (const Field& f : spec.object_fields()) {
    if (f.first == "newRoot") {
      new_root = &f.second;
    } else {
      return IdlUnknownField(absl::StrCat("$replaceRoot.", f.first));
    }
  }
  if (new_root == nullptr) {
    return StageError(40414,
                      "BSON field '$replaceRoot.newRoot' is missing but a "
                      "required field");
  }
  ASSIGN_OR_RETURN(std::unique_ptr<Expression> e,
                   ParseExpression(*new_root, ctx));
  out->push_back(
      std::make_shared<ReplaceRootSpec>(std::move(e), "'newRoot' expression "));
  return absl::OkStatus();
}

absl::Status ParseReplaceWith(const Value& spec, ParseContext* ctx,
                              StageList* out) {
  ASSIGN_OR_RETURN(std::unique_ptr<Expression> e, ParseExpression(spec, ctx));
  out->push_back(std::make_shared<ReplaceRootSpec>(std::move(e),
                                                   "'replacement document' "));
  return absl::OkStatus();
}

}  // namespace agg
}  // namespace ttldb
