// Collection::Aggregate: runs an agg::Pipeline with the engine as its
// agg::DatabaseAccess.
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "base/status.h"
#include "catalog/view_catalog.h"
#include "document/vector_cursor.h"
#include "engine/backend.h"
#include "engine/coll_stats.h"
#include "engine/database_internal.h"
#include "engine/db_impl.h"
#include "engine/query_exec.h"
#include "pipeline/pipeline.h"
#include "storage/spill_directory.h"
#include "ttldb/clock.h"
#include "ttldb/collection.h"
#include "ttldb/database.h"

namespace ttldb {
namespace {

// `collation`: the pipeline's, resolved ({locale: "simple"} for none), so
// that the find does not fall back to another collection's default.
FindOptions ToFindOptions(const agg::ScanRequest& r, const Value& collation) {
  FindOptions o;
  o.sort = r.sort;
  o.skip = r.skip;
  o.limit = r.limit;
  o.collation = collation;
  return o;
}

class EngineAccess : public agg::DatabaseAccess {
 public:
  using DatabaseNamedFn =
      std::function<absl::StatusOr<std::shared_ptr<Database>>(
          absl::string_view)>;
  EngineAccess(DbImpl* engine, DatabaseNamedFn database_named,
               StatsSource stats_source = {})
      : engine_(engine),
        database_named_(std::move(database_named)),
        stats_source_(std::move(stats_source)) {}

  absl::StatusOr<std::unique_ptr<Cursor>> Scan(
      absl::string_view coll, const agg::ScanRequest& r) override {
    const std::string name(coll);
    RETURN_IF_ERROR(engine_->CheckCollection(name));
    return FindLocal(engine_, name, r.filter, ToFindOptions(r, collation_),
                     r.fields);
  }
  absl::StatusOr<bool> ProvidesSort(absl::string_view coll, const Value& filter,
                                    const Value& sort) override {
    auto state = engine_->GetState(coll);
    if (state == nullptr) return true;  // nothing to sort
    FindOptions o;
    o.sort = sort;
    o.collation = collation_;
    ASSIGN_OR_RETURN(Query q, ParseQuery(filter, o, state.get()));
    ASSIGN_OR_RETURN(QueryPlan plan,
                     PlanQuery(*state, q.filter, &*q.sort, q.hint));
    return plan.provides_sort && !plan.sort_needs_not_multikey;
  }
  absl::StatusOr<Value> ExplainScan(absl::string_view coll,
                                    const agg::ScanRequest& r) override {
    return engine_->collection(coll).Explain(r.filter,
                                             ToFindOptions(r, collation_));
  }
  absl::Status Insert(absl::string_view coll, const Value& doc) override {
    return engine_->collection(coll).InsertOne(doc, write_).status();
  }
  absl::Status ReplaceById(absl::string_view coll, const Value& doc) override {
    Value filter = Value::MakeObject(
        {Field("_id", Value::MakeObject({Field("$eq", *doc.Get("_id"))}))});
    return engine_->collection(coll)
        .ReplaceOne(filter, doc, {}, write_)
        .status();
  }
  absl::Status DeleteAll(absl::string_view coll) override {
    return engine_->collection(coll).DeleteMany("{}").status();
  }
  absl::Status Rename(absl::string_view from, absl::string_view to) override {
    return engine_->RenameCollection(from, to, /*drop_target=*/false);
  }
  absl::Status Create(absl::string_view coll) override {
    return engine_->CreateCollection(coll, /*must_not_exist=*/false);
  }
  absl::StatusOr<bool> Drop(absl::string_view coll) override {
    return engine_->DropCollection(coll);
  }
  absl::StatusOr<std::vector<Value>> ListIndexes(
      absl::string_view coll) override {
    if (engine_->GetState(coll) == nullptr) return std::vector<Value>();
    return engine_->collection(coll).ListIndexes();
  }
  absl::Status CreateIndex(absl::string_view coll, const Value& keys,
                           const Value& options) override {
    return engine_->collection(coll).CreateIndex(keys, options).status();
  }
  absl::StatusOr<std::string> TempDir() override {
    return SpillDirectory(engine_->path(), engine_->options().in_memory);
  }
  absl::StatusOr<Value> CollStats(absl::string_view coll,
                                  const Value& request) override {
    return CollStatsDocument(engine_, coll, request, stats_source_);
  }
  absl::StatusOr<std::vector<Value>> IndexStats(
      absl::string_view coll) override {
    return IndexStatsDocuments(engine_, coll, stats_source_);
  }
  absl::StatusOr<agg::DatabaseAccess*> DatabaseNamed(
      absl::string_view name) override {
    auto it = others_.find(name);
    if (it != others_.end()) return it->second.access.get();
    if (!database_named_) {
      return MongoError(absl::StatusCode::kUnimplemented, kNotImplemented,
                        absl::StrCat("$out and $merge into database ", name,
                                     " need AggregateOptions::database_named"));
    }
    ASSIGN_OR_RETURN(std::shared_ptr<Database> db, database_named_(name));
    if (db == nullptr) {
      return absl::InternalError(
          absl::StrCat("database ", name, " could not be opened"));
    }
    DbImpl* engine = DatabaseInternal::engine(*db);
    if (engine == engine_) return this;
    Other& other = others_[std::string(name)];
    other.db = std::move(db);
    other.access = std::make_unique<EngineAccess>(engine, database_named_);
    other.access->write_ = write_;
    other.access->collation_ = collation_;
    return other.access.get();
  }

 private:
  // A database $out / $merge writes into, kept open while the run lasts.
  struct Other {
    std::shared_ptr<Database> db;
    std::unique_ptr<EngineAccess> access;
  };

  DbImpl* engine_;
  DatabaseNamedFn database_named_;
  StatsSource stats_source_;

 public:
  // The options of $out's and $merge's writes.
  WriteOptions write_;
  // The pipeline's collation, resolved, for every scan (ToFindOptions).
  Value collation_;

 private:
  std::map<std::string, Other, std::less<>> others_;
};

// The cursor Aggregate returns: owns the pipeline, its run state and the
// stream of its last stage.
class AggregateCursor : public Cursor {
 public:
  absl::StatusOr<std::optional<Value>> Next() override {
    if (!status_.ok()) return status_;
    if (done_) return std::optional<Value>();
    absl::StatusOr<std::optional<Value>> r = stream_->Next();
    if (!r.ok()) {
      status_ = r.status();
      stream_.reset();  // releases spill files now
    } else if (!r->has_value()) {
      done_ = true;
      stream_.reset();
    }
    return r;
  }

  std::unique_ptr<EngineAccess> access;
  agg::Pipeline pipeline;
  agg::RunContext ctx;
  std::unique_ptr<Cursor> stream_;

 private:
  absl::Status status_;
  bool done_ = false;
};

absl::StatusOr<std::unique_ptr<AggregateCursor>> Prepare(
    DbImpl* engine, const std::string& coll, const DocArg& pipeline,
    const AggregateOptions& options) {
  auto spec = pipeline.ResolveAny();
  if (!spec.ok()) {
    return MongoError(
        spec.status().code(), ErrorCode(spec.status()),
        absl::StrCat("invalid pipeline: ", spec.status().message()));
  }
  auto c = std::make_unique<AggregateCursor>();
  c->access = std::make_unique<EngineAccess>(
      engine, options.database_named,
      StatsSource{options.host, options.latency_stats});
  c->access->write_.bypass_document_validation =
      options.bypass_document_validation;
  c->ctx.db = c->access.get();
  c->ctx.collection = coll;
  c->ctx.allow_disk_use = options.allow_disk_use;
  c->ctx.max_memory_bytes = options.max_memory_bytes != 0
                                ? options.max_memory_bytes
                                : engine->options().max_blocking_sort_bytes;
  int64_t now = absl::ToUnixMillis(engine->clock()->WallNow());
  c->ctx.vars = agg::Variables(nullptr, now);
  ASSIGN_OR_RETURN(
      c->ctx.collator,
      ResolveCollation(options.collation, engine->GetState(coll).get()));
  c->ctx.vars.set_collator(c->ctx.collator.get());
  c->access->collation_ =
      c->ctx.collator != nullptr
          ? c->ctx.collator->spec()
          : Value::MakeObject({Field("locale", Value::String("simple"))});
  agg::ParseContext pctx;
  if (!options.let.is_null()) {
    if (!options.let.is_object()) {
      return MongoError(absl::StatusCode::kInvalidArgument, kTypeMismatch,
                        "BSON field 'aggregate.let' is the wrong type, "
                        "expected type 'object'");
    }
    Value empty = Value::MakeObject();
    agg::Variables vars(&empty, now);
    for (const Field& f : options.let.object_fields()) {
      RETURN_IF_ERROR(agg::ValidateVariableName(f.first));
      ASSIGN_OR_RETURN(std::unique_ptr<agg::Expression> e,
                       agg::ParseExpression(f.second, &pctx));
      ASSIGN_OR_RETURN(std::optional<Value> v, e->Evaluate(empty, &vars));
      int id = pctx.Push(f.first);
      c->ctx.vars.Set(id, v.value_or(Value::Null()));
      vars.Set(id, v.value_or(Value::Null()));
    }
  }
  ASSIGN_OR_RETURN(c->pipeline, agg::Pipeline::Parse(*spec, &pctx));
  return c;
}

class EventPipelineImpl : public EventPipeline {
 public:
  absl::StatusOr<std::optional<Value>> Apply(Value event) override {
    if (cursor_->pipeline.stages().empty()) {
      return std::optional<Value>(std::move(event));
    }
    cursor_->ctx.vars = agg::Variables(
        nullptr, absl::ToUnixMillis(engine_->clock()->WallNow()));
    ASSIGN_OR_RETURN(
        std::unique_ptr<Cursor> out,
        cursor_->pipeline.OpenOver(std::make_unique<VectorCursor>(
                                       std::vector<Value>{std::move(event)}),
                                   &cursor_->ctx));
    return out->Next();
  }

  DbImpl* engine_ = nullptr;
  std::unique_ptr<AggregateCursor> cursor_;
};

}  // namespace

absl::StatusOr<std::unique_ptr<EventPipeline>> PrepareEventPipeline(
    DbImpl* engine, const std::string& coll, const Value& stages) {
  auto p = std::make_unique<EventPipelineImpl>();
  p->engine_ = engine;
  ASSIGN_OR_RETURN(
      p->cursor_,
      Prepare(engine, coll, stages.is_null() ? Value::MakeArray() : stages,
              AggregateOptions()));
  // Only stages that transform one event into at most one
  // (document_source_change_stream.cpp: the stages allowed after it).
  static constexpr absl::string_view kAllowed[] = {
      "$match", "$project",     "$addFields",   "$set",
      "$unset", "$replaceRoot", "$replaceWith", "$redact"};
  const Value& list = stages.is_null() ? Value::MakeArray() : stages;
  if (list.is_array()) {
    for (const Value& stage : list.array_items()) {
      if (!stage.is_object() || stage.object_fields().size() != 1) continue;
      const std::string& name = stage.object_fields()[0].first;
      bool allowed = false;
      for (absl::string_view a : kAllowed) allowed = allowed || name == a;
      if (!allowed) {
        return MongoError(
            absl::StatusCode::kInvalidArgument, kIllegalOperation,
            absl::StrCat(name,
                         " is not permitted in a $changeStream pipeline"));
      }
    }
  }
  return std::unique_ptr<EventPipeline>(std::move(p));
}

// Every view the pipeline reads besides its input ($lookup, $unionWith,
// ...) resolves before anything runs, as the aggregate command resolves its
// involved namespaces first (run_aggregate.cpp): a view past the depth
// limit fails the whole aggregate with 165 (views_validation.js), before
// any sub-pipeline runs.
static absl::Status ResolveInvolvedViews(DbImpl* engine,
                                         const DocArg& pipeline) {
  auto spec = pipeline.ResolveAny();
  if (!spec.ok() || !spec->is_array()) return absl::OkStatus();
  std::set<std::string> involved;
  InvolvedCollections(*spec, &involved);
  for (const std::string& name : involved) {
    RETURN_IF_ERROR(engine->ResolveView(name).status());
  }
  return absl::OkStatus();
}

absl::StatusOr<std::unique_ptr<Cursor>> Collection::Aggregate(
    const DocArg& pipeline, const AggregateOptions& options) {
  if (backend_ != nullptr) {
    // A collation is not passed on to the deployment yet.
    if (!options.collation.is_null()) {
      return MongoError(absl::StatusCode::kUnimplemented, kNotImplemented,
                        "collation is not supported on a mongodb:// database");
    }
    return backend_->Aggregate(pipeline, options);
  }
  RETURN_IF_ERROR(engine_->CheckOpen());
  RETURN_IF_ERROR(ResolveInvolvedViews(engine_, pipeline));
  {
    // On a view: its pipeline, then this one, over its collection
    // (view_catalog_helpers::resolveView).
    ASSIGN_OR_RETURN(auto view, engine_->ResolveView(name_));
    if (view.has_value()) {
      auto spec = pipeline.ResolveAny();
      if (spec.ok() && spec->is_array()) {
        Value::Array stages = view->pipeline.array_items();
        for (const Value& s : spec->array_items()) stages.push_back(s);
        return engine_->collection(view->collection)
            .Aggregate(Value::MakeArray(std::move(stages)), options);
      }
    }
  }
  ASSIGN_OR_RETURN(std::unique_ptr<AggregateCursor> c,
                   Prepare(engine_, name_, pipeline, options));
  ASSIGN_OR_RETURN(c->stream_, c->pipeline.Open(name_, &c->ctx));
  if (c->pipeline.writes()) {
    // $out / $merge: run now, so that errors surface here.
    while (true) {
      ASSIGN_OR_RETURN(std::optional<Value> d, c->Next());
      if (!d.has_value()) break;
    }
  }
  return std::unique_ptr<Cursor>(std::move(c));
}

absl::StatusOr<Value> Collection::ExplainAggregate(
    const DocArg& pipeline, const AggregateOptions& options) {
  if (backend_ != nullptr) return backend_->ExplainAggregate(pipeline, options);
  RETURN_IF_ERROR(engine_->CheckOpen());
  {
    ASSIGN_OR_RETURN(auto view, engine_->ResolveView(name_));
    if (view.has_value()) {
      auto spec = pipeline.ResolveAny();
      if (spec.ok() && spec->is_array()) {
        Value::Array stages = view->pipeline.array_items();
        for (const Value& s : spec->array_items()) stages.push_back(s);
        return engine_->collection(view->collection)
            .ExplainAggregate(Value::MakeArray(std::move(stages)), options);
      }
    }
  }
  ASSIGN_OR_RETURN(std::unique_ptr<AggregateCursor> c,
                   Prepare(engine_, name_, pipeline, options));
  return c->pipeline.Explain(name_, &c->ctx);
}

}  // namespace ttldb
