// $group, and the stages MongoDB desugars into one: $sortByCount ($group +
// $sort) and $bucket (a $group keyed by boundary range, sorted by _id).
//
// Groups are kept in a table bounded by RunContext::max_memory_bytes (each
// group's key plus its accumulators' memory, as MongoDB's
// internalDocumentSourceGroupMaxMemoryBytes counts). Beyond it the stage
// fails with 292, or under allowDiskUse writes the table's partial groups,
// sorted by key, to a spill file and starts afresh; at the end the runs are
// merged key by key (accumulators' Merge, in spill order, so $first/$last
// and $push keep arrival order). Output order: first-seen order without
// spilling, key order after a spill (MongoDB's order is unspecified).
#include <functional>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "base/status.h"
#include "document/bson.h"
#include "document/compare.h"
#include "document/compare_hash.h"
#include "pipeline/accumulator.h"
#include "pipeline/stages.h"
#include "query/sort.h"
#include "query/spill_file.h"
#include "ttldb/json.h"

namespace ttldb {
namespace agg {
namespace {

// The key of a document's group, or an error.
using KeyFn =
    std::function<absl::StatusOr<Value>(const Value& doc, Variables* vars)>;

struct GroupDef {
  KeyFn key;
  // The expression `key` evaluates, when the key is its value ($group's
  // _id): a key that already exists in the document (a field path) is then
  // looked up without a copy.
  std::shared_ptr<const Expression> key_expr;
  std::vector<AccumulatorSpec> accumulators;
  bool sort_by_key = false;  // $bucket
};

struct Group {
  Value key;
  std::vector<std::unique_ptr<Accumulator>> accs;
  size_t bytes = 0;
};

// Group keys equal in the pipeline's collation are one group (MongoDB's
// $group compares _id values with the expression context's collator); the
// group's _id is the first key met. A hash table of them: one hash and
// (mostly) one comparison per document, not a tree's log2(groups).
struct CollatedHash {
  const Collator* collator;
  size_t operator()(const Value& v) const { return CompareHash(v, collator); }
};
struct CollatedEqual {
  const Collator* collator;
  bool operator()(const Value& a, const Value& b) const {
    return CompareValues(a, b, collator) == 0;
  }
};

class GroupStream : public Cursor {
 public:
  GroupStream(std::unique_ptr<Cursor> in, std::shared_ptr<const GroupDef> def,
              RunContext* ctx)
      : input_(std::move(in)),
        def_(std::move(def)),
        ctx_(ctx),
        vars_(StageVariables(*ctx)),
        index_(0, CollatedHash{ctx->collator.get()},
               CollatedEqual{ctx->collator.get()}) {}

  absl::StatusOr<std::optional<Value>> Next() override {
    if (!loaded_) {
      loaded_ = true;
      RETURN_IF_ERROR(Load());
    }
    if (runs_.empty()) {
      if (pos_ >= order_.size()) return std::optional<Value>();
      return std::optional<Value>(Output(groups_[order_[pos_++]]));
    }
    return NextMerged();
  }

 private:
  absl::Status Load() {
    size_t total = 0;
    while (true) {
      ASSIGN_OR_RETURN(std::optional<Value> doc, input_->Next());
      if (!doc.has_value()) break;
      vars_.set_root(&*doc);
      const Value* key = nullptr;
      Value built;
      if (def_->key_expr == nullptr ||
          !def_->key_expr->Peek(*doc, vars_, &key)) {
        ASSIGN_OR_RETURN(built, def_->key(*doc, &vars_));
        key = &built;
      } else if (key == nullptr) {
        key = &null_;  // missing: the null group
      }
      auto it = index_.find(*key);
      size_t g;
      if (it == index_.end()) {
        Group group;
        group.key = *key;
        for (const AccumulatorSpec& a : def_->accumulators) {
          ASSIGN_OR_RETURN(std::unique_ptr<Accumulator> acc,
                           a.Make(*doc, &vars_));
          group.accs.push_back(std::move(acc));
        }
        g = groups_.size();
        groups_.push_back(std::move(group));
        index_.emplace(*key, g);
        order_.push_back(g);
      } else {
        g = it->second;
      }
      Group& group = groups_[g];
      size_t bytes = BsonValueSize(group.key) + 64;
      for (size_t i = 0; i < group.accs.size(); ++i) {
        const Expression* arg = def_->accumulators[i].argument();
        std::optional<Value> v;
        if (arg == nullptr) {
          v = Value::Int32(1);  // $count
        } else {
          ASSIGN_OR_RETURN(v, arg->Evaluate(*doc, &vars_));
        }
        RETURN_IF_ERROR(group.accs[i]->Process(v, *doc));
        bytes += group.accs[i]->MemoryBytes();
      }
      total += bytes - group.bytes;
      group.bytes = bytes;
      if (total > ctx_->max_memory_bytes) {
        if (!ctx_->allow_disk_use) {
          return MongoError(
              absl::StatusCode::kResourceExhausted,
              kQueryExceededMemoryLimitNoDiskUseAllowed,
              absl::StrCat(kAggregationErrorContext,
                           " :: caused by :: Exceeded memory limit for "
                           "$group, but didn't allow external spilling; pass "
                           "allowDiskUse:true to opt in"));
        }
        RETURN_IF_ERROR(Spill());
        total = 0;
      }
    }
    if (!runs_.empty()) {
      RETURN_IF_ERROR(Spill());
      for (Run& r : runs_) RETURN_IF_ERROR(Advance(&r));
    } else if (def_->sort_by_key) {
      std::stable_sort(
          order_.begin(), order_.end(), [this](size_t a, size_t b) {
            return CompareValues(groups_[a].key, groups_[b].key, collator()) <
                   0;
          });
    }
    return absl::OkStatus();
  }

  Value Output(const Group& g) const {
    Value::Object out = {Field("_id", g.key)};
    for (size_t i = 0; i < g.accs.size(); ++i) {
      out.emplace_back(def_->accumulators[i].field(), g.accs[i]->Final());
    }
    return Value::MakeObject(std::move(out));
  }

  // ---- spilling ----
  struct Run {
    std::unique_ptr<SpillFile> file;
    std::optional<Value> current;  // {k: key, p: [partials]}
  };

  absl::Status Spill() {
    std::vector<size_t> sorted = order_;
    std::stable_sort(sorted.begin(), sorted.end(), [this](size_t a, size_t b) {
      return CompareValues(groups_[a].key, groups_[b].key, collator()) < 0;
    });
    ASSIGN_OR_RETURN(std::string dir, SpillDirectory(ctx_)());
    ASSIGN_OR_RETURN(std::unique_ptr<SpillFile> f, SpillFile::Create(dir));
    for (size_t g : sorted) {
      Value::Array partials;
      for (const auto& acc : groups_[g].accs) {
        partials.push_back(acc->Partial());
      }
      RETURN_IF_ERROR(f->Write(Value::MakeObject(
          {Field("k", groups_[g].key),
           Field("p", Value::MakeArray(std::move(partials)))})));
    }
    RETURN_IF_ERROR(f->FinishWriting());
    groups_.clear();
    index_.clear();
    order_.clear();
    runs_.push_back(Run{std::move(f), std::nullopt});
    return absl::OkStatus();
  }

  absl::Status Advance(Run* r) {
    ASSIGN_OR_RETURN(r->current, r->file->Read());
    return absl::OkStatus();
  }

  absl::StatusOr<std::optional<Value>> NextMerged() {
    const Value* least = nullptr;
    for (Run& r : runs_) {
      if (!r.current.has_value()) continue;
      const Value* k = r.current->Get("k");
      if (least == nullptr || CompareValues(*k, *least, collator()) < 0)
        least = k;
    }
    if (least == nullptr) return std::optional<Value>();
    Group g;
    g.key = *least;
    Value first = Value::MakeObject({Field("_id", g.key)});
    vars_.set_root(&first);
    for (const AccumulatorSpec& a : def_->accumulators) {
      ASSIGN_OR_RETURN(std::unique_ptr<Accumulator> acc, a.Make(first, &vars_));
      g.accs.push_back(std::move(acc));
    }
    for (Run& r : runs_) {
      if (!r.current.has_value() ||
          CompareValues(*r.current->Get("k"), g.key, collator()) != 0) {
        continue;
      }
      const Value::Array& p = r.current->Get("p")->array_items();
      for (size_t i = 0; i < g.accs.size(); ++i) {
        RETURN_IF_ERROR(g.accs[i]->Merge(p[i]));
      }
      RETURN_IF_ERROR(Advance(&r));
    }
    return std::optional<Value>(Output(g));
  }

  const Collator* collator() const { return ctx_->collator.get(); }

  std::unique_ptr<Cursor> input_;
  std::shared_ptr<const GroupDef> def_;
  RunContext* ctx_;
  Variables vars_;
  bool loaded_ = false;
  std::vector<Group> groups_;
  absl::flat_hash_map<Value, size_t, CollatedHash, CollatedEqual> index_;
  std::vector<size_t> order_;
  const Value null_;
  size_t pos_ = 0;
  std::vector<Run> runs_;
};

class GroupSpec : public StageSpec {
 public:
  // `fields`: the top-level fields of its input the key and the
  // accumulators read.
  GroupSpec(absl::string_view name, std::shared_ptr<const GroupDef> def,
            TopLevelFields fields)
      : name_(name), def_(std::move(def)), fields_(std::move(fields)) {}
  absl::string_view name() const override { return name_; }
  const TopLevelFields* InputFields() const override { return &fields_; }
  absl::StatusOr<std::unique_ptr<Cursor>> Open(std::unique_ptr<Cursor> input,
                                               RunContext* ctx) const override {
    return std::unique_ptr<Cursor>(
        std::make_unique<GroupStream>(std::move(input), def_, ctx));
  }

 private:
  std::string name_;
  std::shared_ptr<const GroupDef> def_;
  TopLevelFields fields_;
};

// The fields the accumulators of `spec` ({field: {$op: arg}, ...}) read,
// the field `skip` left out.
void AddAccumulatorFields(const Value& spec, absl::string_view skip,
                          TopLevelFields* fields) {
  for (const Field& f : spec.object_fields()) {
    if (f.first != skip) fields->AddAccumulator(f.second);
  }
}

KeyFn ExpressionKey(std::shared_ptr<const Expression> e) {
  return [e](const Value& doc, Variables* vars) -> absl::StatusOr<Value> {
    ASSIGN_OR_RETURN(std::optional<Value> v, e->Evaluate(doc, vars));
    return v.value_or(Value::Null());
  };
}

absl::Status ParseAccumulators(const Value& spec, bool skip_id,
                               ParseContext* ctx, GroupDef* def) {
  for (const Field& f : spec.object_fields()) {
    if (skip_id && f.first == "_id") continue;
    if (!f.first.empty() && f.first[0] == '$') {
      return StageError(40236, absl::StrCat("The field name '", f.first,
                                            "' cannot be an operator name"));
    }
    if (absl::StrContains(f.first, '.')) {
      return StageError(40235, absl::StrCat("The field name '", f.first,
                                            "' cannot contain '.'"));
    }
    ASSIGN_OR_RETURN(AccumulatorSpec a,
                     AccumulatorSpec::Parse(f.first, f.second, ctx));
    def->accumulators.push_back(std::move(a));
  }
  return absl::OkStatus();
}

// {$sort: spec} as a parsed stage.
absl::Status AppendSort(Value spec, ParseContext* ctx, StageList* out) {
  StageList sort;
  RETURN_IF_ERROR(ParseSort(spec, ctx, &sort));
  sort[0]->set_spec(Value::MakeObject({Field("$sort", std::move(spec))}));
  out->push_back(std::move(sort[0]));
  return absl::OkStatus();
}

}  // namespace

absl::Status ParseGroup(const Value& spec, ParseContext* ctx, StageList* out) {
  // document_source_group.cpp / group_from_first_document_transformation
  if (!spec.is_object()) {
    return StageError(15947, "a group's fields must be specified in an object");
  }
  auto def = std::make_shared<GroupDef>();
  const Value* id = spec.Get("_id");
  if (id == nullptr) {
    return StageError(15955, "a group specification must include an _id");
  }
  ASSIGN_OR_RETURN(std::unique_ptr<Expression> key, ParseExpression(*id, ctx));
  def->key_expr = std::move(key);
  def->key = ExpressionKey(def->key_expr);
  RETURN_IF_ERROR(ParseAccumulators(spec, true, ctx, def.get()));
  TopLevelFields fields;
  fields.AddExpression(*id);
  AddAccumulatorFields(spec, "_id", &fields);
  out->push_back(
      std::make_shared<GroupSpec>("$group", std::move(def), std::move(fields)));
  return absl::OkStatus();
}

absl::Status ParseSortByCount(const Value& spec, ParseContext* ctx,
                              StageList* out) {
  // document_source_sort_by_count.cpp
  if (spec.is_object()) {
    if (spec.object_fields().empty() || spec.object_fields()[0].first.empty() ||
        spec.object_fields()[0].first[0] != '$') {
      return StageError(40147,
                        "the sortByCount field must be specified as a string "
                        "or as an object");
    }
  } else if (!spec.is_string() || spec.string_value().empty() ||
             spec.string_value()[0] != '$') {
    return StageError(40148,
                      "the sortByCount field must be defined as a $-prefixed "
                      "path or an expression");
  }
  auto def = std::make_shared<GroupDef>();
  ASSIGN_OR_RETURN(std::unique_ptr<Expression> key, ParseExpression(spec, ctx));
  def->key_expr = std::move(key);
  def->key = ExpressionKey(def->key_expr);
  ASSIGN_OR_RETURN(
      AccumulatorSpec count,
      AccumulatorSpec::Parse(
          "count", Value::MakeObject({Field("$sum", Value::Int32(1))}), ctx));
  def->accumulators.push_back(std::move(count));
  TopLevelFields fields;
  fields.AddExpression(spec);
  auto group =
      std::make_shared<GroupSpec>("$group", std::move(def), std::move(fields));
  group->set_spec(Value::MakeObject({Field(
      "$group",
      Value::MakeObject({Field("_id", spec),
                         Field("count", Value::MakeObject({Field(
                                            "$sum", Value::Int32(1))}))}))}));
  out->push_back(std::move(group));
  return AppendSort(Value::MakeObject({Field("count", Value::Int32(-1))}), ctx,
                    out);
}

absl::Status ParseBucket(const Value& spec, ParseContext* ctx, StageList* out) {
  // document_source_bucket.cpp
  if (!spec.is_object()) {
    return StageError(40201,
                      absl::StrCat("Argument to $bucket stage must be an "
                                   "object, but found type: ",
                                   TypeName(spec.type()), "."));
  }
  const Value* group_by = nullptr;
  const Value* boundaries = nullptr;
  const Value* deflt = nullptr;
  const Value* output = nullptr;
  for (const Field& f : spec.object_fields()) {
    if (f.first == "groupBy") {
      group_by = &f.second;
      bool ok = (f.second.is_string() && !f.second.string_value().empty() &&
                 f.second.string_value()[0] == '$') ||
                f.second.is_object();
      if (!ok) {
        return StageError(
            40202, absl::StrCat("The $bucket 'groupBy' field must be defined "
                                "as a $-prefixed path or an expression, but "
                                "found: ",
                                ToJson(f.second), "."));
      }
    } else if (f.first == "boundaries") {
      if (!f.second.is_array()) {
        return StageError(
            40200, absl::StrCat("The $bucket 'boundaries' field must be an "
                                "array, but found type: ",
                                TypeName(f.second.type()), "."));
      }
      boundaries = &f.second;
    } else if (f.first == "default") {
      deflt = &f.second;
    } else if (f.first == "output") {
      if (!f.second.is_object()) {
        return StageError(40196,
                          absl::StrCat("The $bucket 'output' field must be an "
                                       "object, but found type: ",
                                       TypeName(f.second.type()), "."));
      }
      output = &f.second;
    } else {
      return StageError(
          40197,
          absl::StrCat("Unrecognized option to $bucket: ", f.first, "."));
    }
  }
  if (group_by == nullptr || boundaries == nullptr) {
    return StageError(40198,
                      "$bucket requires 'groupBy' and 'boundaries' to be "
                      "specified.");
  }
  // Boundaries are constant expressions evaluated at parse time.
  std::vector<Value> bounds;
  for (const Value& b : boundaries->array_items()) {
    ASSIGN_OR_RETURN(std::unique_ptr<Expression> e, ParseExpression(b, ctx));
    if (!e->IsConstant()) {
      return StageError(40191,
                        absl::StrCat("The $bucket 'boundaries' field must be "
                                     "an array of constant values, but found "
                                     "value: ",
                                     ToJson(b), "."));
    }
    Value empty = Value::MakeObject();
    Variables vars(&empty, 0);
    ASSIGN_OR_RETURN(std::optional<Value> v, e->Evaluate(empty, &vars));
    bounds.push_back(v.value_or(Value::Null()));
  }
  if (bounds.size() < 2) {
    return StageError(40192,
                      absl::StrCat("The $bucket 'boundaries' field must have "
                                   "at least 2 values, but found ",
                                   bounds.size(), " value(s)."));
  }
  for (size_t i = 1; i < bounds.size(); ++i) {
    const Value& a = bounds[i - 1];
    const Value& b = bounds[i];
    if (CanonicalTypeOrder(a.type()) != CanonicalTypeOrder(b.type())) {
      return StageError(
          40193,
          absl::StrCat("All values in the the 'boundaries' option to "
                       "$bucket must have the same type. Found "
                       "conflicting types ",
                       TypeName(a.type()), " and ", TypeName(b.type()), "."));
    }
    if (CompareValues(a, b) >= 0) {
      return StageError(
          40194,
          absl::StrCat("The 'boundaries' option to $bucket must be "
                       "sorted in ascending order, but elements ",
                       i - 1, " and ", i, " are not in ascending order (",
                       ToJson(a), " is not less than ", ToJson(b), ")."));
    }
  }
  std::optional<Value> default_value;
  if (deflt != nullptr) {
    default_value = *deflt;
    if (CanonicalTypeOrder(deflt->type()) ==
            CanonicalTypeOrder(bounds.front().type()) &&
        CompareValues(*deflt, bounds.front()) >= 0 &&
        CompareValues(*deflt, bounds.back()) < 0) {
      return StageError(40199,
                        "The $bucket 'default' field must be less than the "
                        "lowest boundary or greater than or equal to the "
                        "highest boundary.");
    }
  }
  ASSIGN_OR_RETURN(std::shared_ptr<const Expression> by,
                   ParseExpression(*group_by, ctx));
  auto def = std::make_shared<GroupDef>();
  def->sort_by_key = true;
  def->key = [by, bounds, default_value](
                 const Value& doc, Variables* vars) -> absl::StatusOr<Value> {
    ASSIGN_OR_RETURN(std::optional<Value> v, by->Evaluate(doc, vars));
    Value x = v.value_or(Value::Null());
    if (CompareValues(x, bounds.front()) >= 0 &&
        CompareValues(x, bounds.back()) < 0) {
      // The last boundary not above x.
      auto it = std::upper_bound(bounds.begin(), bounds.end(), x,
                                 [](const Value& a, const Value& b) {
                                   return CompareValues(a, b) < 0;
                                 });
      return *(it - 1);
    }
    if (default_value.has_value()) return *default_value;
    return StageError(40066,
                      absl::StrCat("$switch could not find a matching branch "
                                   "for an input, and no default was "
                                   "specified."));
  };
  if (output == nullptr) {
    ASSIGN_OR_RETURN(
        AccumulatorSpec count,
        AccumulatorSpec::Parse(
            "count", Value::MakeObject({Field("$sum", Value::Int32(1))}), ctx));
    def->accumulators.push_back(std::move(count));
  } else {
    RETURN_IF_ERROR(ParseAccumulators(*output, false, ctx, def.get()));
  }
  TopLevelFields fields;
  fields.AddExpression(*group_by);
  if (output != nullptr) AddAccumulatorFields(*output, "", &fields);
  out->push_back(std::make_shared<GroupSpec>("$bucket", std::move(def),
                                             std::move(fields)));
  return absl::OkStatus();
}

}  // namespace agg
}  // namespace ttldb
