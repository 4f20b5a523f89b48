// FindOneAndUpdate / FindOneAndReplace / FindOneAndDelete: MongoDB's
// findAndModify, one atomic read-modify-write.
//
// Unlike UpdateOne (which finds candidates on a snapshot without the lock
// and re-checks each under it), the whole operation runs under the
// writers' lock: the planner's search (in sort order), the update and the
// write, or the upsert's insert. A snapshot taken while holding write_mu_
// sees every committed write and no other write can commit before this one,
// so what is read is what is written over.
#include "absl/cleanup/cleanup.h"
#include "absl/strings/str_cat.h"
#include "base/status.h"
#include "base/sync_point.h"
#include "document/compare.h"
#include "engine/backend.h"
#include "engine/db_impl.h"
#include "engine/query_exec.h"
#include "engine/update_parse.h"
#include "query/projection.h"
#include "query/update.h"
#include "query/upsert_retry.h"
#include "storage/keys.h"
#include "ttldb/collection.h"
#include "ttldb/duplicate_key_error.h"

namespace ttldb {
namespace {

enum class FamKind { kUpdate, kReplace, kDelete };

absl::Status FamError(absl::string_view message) {
  return MongoError(absl::StatusCode::kInvalidArgument, kFailedToParse,
                    message);
}

absl::StatusOr<Value> ResolveFamArg(const DocArg& arg, absl::string_view what,
                                    bool any = false) {
  auto v = any ? arg.ResolveAny() : arg.Resolve();
  if (!v.ok()) {
    return MongoError(
        v.status().code(), ErrorCode(v.status()),
        absl::StrCat("invalid ", what, ": ", v.status().message()));
  }
  return v;
}

// 66, as ApplyToDocument in collection.cc says it for updates.
absl::Status CheckIdUnchanged(const Value& before, const Value& after) {
  const Value* old_id = before.Get("_id");
  const Value* new_id = after.Get("_id");
  if (new_id == nullptr || old_id == nullptr ||
      !ValuesEqual(*old_id, *new_id) || old_id->type() != new_id->type()) {
    return MongoError(absl::StatusCode::kInvalidArgument, kImmutableField,
                      "Performing an update on the path '_id' would modify "
                      "the immutable field '_id'");
  }
  return absl::OkStatus();
}

// One try of FindAndModify below. *upsert_collided is set when the upsert's
// insert failed on a duplicate key that MongoDB's rule
// (query/upsert_retry.h) says another upsert of the same document caused.
absl::StatusOr<std::optional<Value>> FindAndModifyOnce(
    DbImpl* engine, const std::string& coll, FamKind kind,
    const DocArg& filter_arg, const DocArg* update_arg,
    const FindOneAndModifyOptions& fam, const WriteOptions& options,
    bool* upsert_collided) {
  *upsert_collided = false;
  RETURN_IF_ERROR(engine->CheckWritable());
  RETURN_IF_ERROR(ValidateCollectionName(coll));
  // Everything is parsed before the lock: bad input writes nothing.
  ASSIGN_OR_RETURN(Value filter_doc, ResolveFamArg(filter_arg, "filter"));
  FindOptions find;
  find.sort = fam.sort;
  find.limit = 1;
  find.collation = fam.collation;
  ASSIGN_OR_RETURN(Query query,
                   ParseQuery(filter_doc, find, engine->GetState(coll).get()));
  std::optional<Projection> projection;
  if (!fam.projection.is_null()) {
    if (!fam.projection.is_object()) {
      return MongoError(absl::StatusCode::kInvalidArgument, kTypeMismatch,
                        "projection must be an object");
    }
    if (!fam.projection.object_fields().empty()) {
      ASSIGN_OR_RETURN(projection,
                       Projection::Parse(fam.projection, &query.filter));
      // get_executor.cpp: findAndModify has no sort key to project.
      if (projection->wants_sort_key()) {
        return MongoError(absl::StatusCode::kInvalidArgument, kBadValue,
                          "Cannot use a $meta sortKey projection in "
                          "findAndModify commands.");
      }
    }
  }
  std::optional<Update> update;
  if (update_arg != nullptr) {
    ASSIGN_OR_RETURN(
        Value v,
        ResolveFamArg(*update_arg,
                      kind == FamKind::kReplace ? "replacement" : "update",
                      /*any=*/kind == FamKind::kUpdate));
    // An array is a pipeline-style update (engine/update_parse.h).
    UpdateParseArgs parse_args;
    parse_args.array_filters = &fam.array_filters;
    parse_args.let = fam.let;
    parse_args.upsert = fam.upsert;
    parse_args.now_millis = absl::ToUnixMillis(engine->clock()->WallNow());
    ASSIGN_OR_RETURN(update, ParseUpdateArg(v, parse_args));
    if (kind == FamKind::kReplace && !update->is_replacement()) {
      return FamError(
          "the replacement document must not contain update operators");
    }
  }
  const Filter filter = query.filter;
  auto project = [&](Value doc) -> absl::StatusOr<std::optional<Value>> {
    if (!projection.has_value()) return std::optional<Value>(std::move(doc));
    ASSIGN_OR_RETURN(Value out, projection->Apply(doc));
    return std::optional<Value>(std::move(out));
  };

  DbImpl::ExpiredRemovals removed;
  absl::Cleanup deliver = [&] {
    engine->DeliverExpiredRemovals(coll, &removed);
  };
  TTLDB_SYNC_POINT("FindAndModify:BeforeLock");
  WritersLock l(engine);
  RETURN_IF_ERROR(engine->CheckWritable());
  const absl::Time now = engine->clock()->WallNow();
  std::shared_ptr<const CollectionState> state = engine->GetState(coll);
  std::optional<Value> doc;
  if (state != nullptr) {
    const SortSpec* sort = query.sort.has_value() ? &*query.sort : nullptr;
    ASSIGN_OR_RETURN(QueryPlan plan,
                     PlanQuery(*state, filter, sort, query.hint));
    if (plan.kind == QueryPlan::Kind::kIdLookup &&
        (sort == nullptr || plan.encoded_ids.size() <= 1)) {
      RecordPlanUse(engine, *state, plan);  // ExecuteQuery records its own
      // By _id: under the lock the latest committed documents are what a
      // snapshot would hold, so they are read through the document cache
      // (a snapshot read parses the stored JSON every time).
      for (const std::string& id : plan.encoded_ids) {
        ASSIGN_OR_RETURN(std::optional<Value> candidate,
                         engine->reader().Read(*state, id));
        if (candidate.has_value() && filter.Matches(*candidate) &&
            !engine->reader().IsHidden(*state, *candidate, now)) {
          doc = std::move(candidate);
          break;
        }
      }
    } else {
      // Hidden (expired) documents are skipped by the cursor itself.
      ASSIGN_OR_RETURN(auto cursor, ExecuteQuery(engine, state, query, now));
      ASSIGN_OR_RETURN(doc, cursor->Next());
    }
  }
  // A test holds the lock here, between the read and the write, while
  // another writer tries to come in.
  TTLDB_SYNC_POINT("FindAndModify:AfterRead");
  const int64_t now_millis = absl::ToUnixMillis(now);

  if (!doc.has_value()) {
    if (!fam.upsert) return std::optional<Value>();
    // The filter's equalities, then the update (or the replacement).
    ASSIGN_OR_RETURN(Value seed, UpsertSeed(filter));
    bool modified = false;
    if (update->is_replacement()) {
      RETURN_IF_ERROR(
          ApplyReplacement(update->replacement(), &seed, &modified));
    } else {
      RETURN_IF_ERROR(
          update->Apply(&seed, now_millis, /*is_insert=*/true, &modified));
    }
    absl::StatusOr<Value> inserted =
        engine->InsertLocked(coll, std::move(seed), options, &removed);
    if (!inserted.ok()) {
      std::optional<DuplicateKeyInfo> dup =
          GetDuplicateKeyInfo(inserted.status());
      *upsert_collided =
          dup.has_value() && ShouldRetryUpsertDuplicateKey(
                                 filter, dup->key_pattern, dup->key_value);
      return inserted.status();
    }
    const Value& id = *inserted;
    if (!fam.return_new) return std::optional<Value>();
    // The stored form: _id first (generated if the seed had none).
    state = engine->GetState(coll);
    std::optional<Value> stored;
    if (state != nullptr) {
      ASSIGN_OR_RETURN(stored, engine->reader().Read(*state, EncodeId(id)));
    }
    if (!stored.has_value()) {
      return absl::InternalError("upserted document not found");
    }
    return project(std::move(*stored));
  }

  if (kind == FamKind::kDelete) {
    RETURN_IF_ERROR(
        engine->WriteDocumentLocked(*state, &*doc, nullptr, options, nullptr));
    return project(std::move(*doc));
  }
  auto updated_ptr = std::make_shared<Value>(*doc);
  bool modified = false;
  if (update->is_replacement()) {
    RETURN_IF_ERROR(
        ApplyReplacement(update->replacement(), updated_ptr.get(), &modified));
  } else {
    // "$" in the update needs the array position the filter matched.
    MatchDetails details;
    if (update->needs_matched_position()) filter.Matches(*doc, &details);
    RETURN_IF_ERROR(update->Apply(updated_ptr.get(), now_millis,
                                  /*is_insert=*/false, &modified,
                                  details.elem_match_key));
  }
  if (modified) {
    RETURN_IF_ERROR(CheckIdUnchanged(*doc, *updated_ptr));
    RETURN_IF_ERROR(
        engine->CheckValidationLocked(*state, &*doc, *updated_ptr, options));
    RETURN_IF_ERROR(engine->WriteDocumentLocked(
        *state, &*doc, updated_ptr.get(), options, &removed, updated_ptr,
        /*create=*/nullptr, /*stored_json=*/{},
        /*replacement=*/update->is_replacement()));
  }
  return project(fam.return_new ? Value(*updated_ptr) : std::move(*doc));
}

// MongoDB's findAndModify retries an upsert that lost the race to insert
// as an update does (query/upsert_retry.h). Here the match and the insert
// are both under the writers' lock, so no other writer can come between
// them; the retry is kept for the rule's sake, bounded as in collection.cc.
absl::StatusOr<std::optional<Value>> FindAndModify(
    DbImpl* engine, const std::string& coll, FamKind kind,
    const DocArg& filter_arg, const DocArg* update_arg,
    const FindOneAndModifyOptions& fam, const WriteOptions& options) {
  RETURN_IF_ERROR(engine->RefuseView(coll));
  constexpr int kUpsertAttempts = 100;
  for (int attempt = 1;; ++attempt) {
    bool upsert_collided = false;
    absl::StatusOr<std::optional<Value>> r =
        FindAndModifyOnce(engine, coll, kind, filter_arg, update_arg, fam,
                          options, &upsert_collided);
    if (r.ok() || !upsert_collided || attempt == kUpsertAttempts) return r;
  }
}

}  // namespace

absl::StatusOr<std::optional<Value>> Collection::FindOneAndUpdate(
    const DocArg& filter, const DocArg& update,
    const FindOneAndModifyOptions& fam_options, const WriteOptions& options) {
  if (backend_ != nullptr) {
    // A collation is not passed on to the deployment yet.
    if (!fam_options.collation.is_null()) {
      return MongoError(absl::StatusCode::kUnimplemented, kNotImplemented,
                        "collation is not supported on a mongodb:// database");
    }
    return backend_->FindOneAndModify("update", filter, &update, fam_options,
                                      options);
  }
  return engine_->SyncIfRequested(
      options, FindAndModify(engine_, name_, FamKind::kUpdate, filter, &update,
                             fam_options, options));
}

absl::StatusOr<std::optional<Value>> Collection::FindOneAndReplace(
    const DocArg& filter, const DocArg& replacement,
    const FindOneAndModifyOptions& fam_options, const WriteOptions& options) {
  if (backend_ != nullptr) {
    // A collation is not passed on to the deployment yet.
    if (!fam_options.collation.is_null()) {
      return MongoError(absl::StatusCode::kUnimplemented, kNotImplemented,
                        "collation is not supported on a mongodb:// database");
    }
    return backend_->FindOneAndModify("replace", filter, &replacement,
                                      fam_options, options);
  }
  return engine_->SyncIfRequested(
      options, FindAndModify(engine_, name_, FamKind::kReplace, filter,
                             &replacement, fam_options, options));
}

absl::StatusOr<std::optional<Value>> Collection::FindOneAndDelete(
    const DocArg& filter, const FindOneAndModifyOptions& fam_options,
    const WriteOptions& options) {
  if (backend_ != nullptr) {
    // A collation is not passed on to the deployment yet.
    if (!fam_options.collation.is_null()) {
      return MongoError(absl::StatusCode::kUnimplemented, kNotImplemented,
                        "collation is not supported on a mongodb:// database");
    }
    return backend_->FindOneAndModify("delete", filter, nullptr, fam_options,
                                      options);
  }
  // find_and_modify.cpp (the command's request validation).
  if (fam_options.return_new) {
    return FamError(
        "Cannot specify both new=true and remove=true; 'remove' always "
        "returns the deleted document");
  }
  if (fam_options.upsert) {
    return FamError("Cannot specify both upsert=true and remove=true");
  }
  if (!fam_options.array_filters.empty()) {
    return FamError("Cannot specify arrayFilters and remove=true");
  }
  return engine_->SyncIfRequested(
      options, FindAndModify(engine_, name_, FamKind::kDelete, filter, nullptr,
                             fam_options, options));
}

}  // namespace ttldb
