// Index DDL, the engine's side: createIndexes (with a build over the
// existing documents, engine/index_build.cc), dropIndexes, listIndexes and
// collMod's index options. Each command takes the writers' lock, asks the
// catalog's rules (catalog/index_rules.h) and edits the entry
// (catalog/entry_edits.h), then commits and publishes it and hands what it
// dropped to the reclaimer.
#include <algorithm>
#include <optional>
#include <vector>

#include "absl/strings/str_cat.h"
#include "base/status.h"
#include "catalog/entry_edits.h"
#include "catalog/index_rules.h"
#include "catalog/index_spec_proto.h"
#include "engine/backend.h"
#include "engine/db_impl.h"
#include "index/index_spec.h"
#include "leveldb/write_batch.h"
#include "storage/leveldb_status.h"
#include "ttl/ttl_spec.h"
#include "ttldb/json.h"

namespace ttldb {

absl::StatusOr<std::string> DbImpl::CreateIndex(
    absl::string_view coll, const Value& keys, const Value& options,
    const IndexBuildProgress& progress) {
  RETURN_IF_ERROR(CheckWritable());
  RETURN_IF_ERROR(ValidateCollectionName(coll));
  RETURN_IF_ERROR(CheckCollection(coll));
  ASSIGN_OR_RETURN(
      CreateIndexRequest request,
      PrepareCreateIndex(keys, options, options_.touch_min_interval, coll));
  IndexSpec& spec = request.spec;
  const std::string& spec_text = request.spec_text;
  if (request.id_index) {
    // The _id index every collection has: nothing to build. As for any
    // createIndexes, a missing collection is created
    // (jstests/core/index_id_desc.js: after ensureIndex({_id: -1}) on a
    // dropped collection, getIndexes() lists exactly the _id index).
    WritersLock l(this);
    RETURN_IF_ERROR(GetOrCreateLocked(coll).status());
    return std::string("_id_");
  }

  std::optional<IndexBuildStart> start;
  {
    // First: a writer in a loop would otherwise re-take the lock ahead of us.
    WritersLock l(this, MutexLock::First());
    std::shared_ptr<const CollectionState> state = GetState(coll);
    if (state == nullptr) return CreateCollectionWithIndexLocked(coll, spec);
    RETURN_IF_ERROR(ApplyCollectionToIndex(*state, options, &spec));
    // MongoDB's IndexCatalogImpl::_doesSpecConflictWithExisting
    // (src/mongo/db/catalog/index_catalog_impl.cpp): first an index with the
    // same name, then one with the same key and identifying options. An
    // index being built counts as existing, except that a request identical
    // to it waits for its build and then looks again, as createIndexes
    // waits for an identical in-progress build
    // (IndexBuildsCoordinator::_filterSpecsAndRegisterBuild).
    for (bool waited = true; waited;) {
      waited = false;
      std::vector<const IndexState*> existing_indexes;
      for (const auto& idx : state->indexes)
        existing_indexes.push_back(idx.get());
      for (const auto& idx : state->building) {
        if (CompareIndexOptions(spec, idx->spec) ==
            IndexComparison::kIdentical) {
          while (index_builds_.count(idx->prefix) > 0) builds_cv_.Wait();
          AwaitCommitsLocked();  // queued while waiting
          waited = true;
          break;
        }
        existing_indexes.push_back(idx.get());
      }
      if (waited) {
        state = GetState(coll);
        if (state == nullptr)
          return CreateCollectionWithIndexLocked(coll, spec);
        continue;
      }
      RETURN_IF_ERROR(CheckIndexConflicts(spec, spec_text, existing_indexes));
      for (const IndexState* idx : existing_indexes) {
        if (CompareIndexOptions(spec, idx->spec) ==
                IndexComparison::kIdentical &&
            idx->spec.name == spec.name) {
          return idx->spec.name;  // already there: a no-op
        }
      }
      RETURN_IF_ERROR(CheckIndexCount(existing_indexes.size(), coll, keys));
    }
    ASSIGN_OR_RETURN(start, RegisterIndexBuildLocked(*state, spec));
  }
  return RunIndexBuild(*std::move(start), progress);
}

absl::StatusOr<std::string> DbImpl::CreateCollectionWithIndexLocked(
    absl::string_view coll, IndexSpec spec) {
  // A missing collection is created with its first index in one synced
  // batch, as MongoDB creates both in one WriteUnitOfWork
  // (create_indexes.cpp, runCreateIndexesOnNewCollection): a refused spec or
  // a crash or power loss during the call leaves no collection behind
  // (tests/reliability/power_cut_test.cc). It has no documents: nothing to
  // build, so the index is published at once.
  RETURN_IF_ERROR(
      CheckIndexConflicts(spec, ToJson(IndexSpecToValue(spec)), {}));
  RETURN_IF_ERROR(
      CommitNewCollectionLocked(NewCollectionEntry(coll, &spec)).status());
  if (spec.expire_after_seconds.has_value() && monitor_ != nullptr) {
    monitor_->NotifyExpiry(clock_->WallNow());
  }
  return spec.name;
}

absl::Status DbImpl::DropIndex(absl::string_view coll, absl::string_view name) {
  RETURN_IF_ERROR(CheckWritable());
  RETURN_IF_ERROR(CheckCollection(coll));
  uint32_t coll_id = 0, dropped_id = 0;
  {
    WritersLock l(this);
    auto state = GetState(coll);
    ASSIGN_OR_RETURN(const IndexState* dropped,
                     FindIndexToDrop(state.get(), coll, name));
    proto::CollectionInfo info = state->info;
    RemoveIndex(dropped->spec.id, &info);
    // One synced catalog write under the lock; the entries are deleted in
    // the background (issue 18 item 8).
    leveldb::WriteBatch batch;
    LogDdlLocked(
        ChangeOp::kDropIndexes, coll,
        Value::MakeObject(
            {{"indexes", Value::MakeArray({IndexSpecToValue(dropped->spec)})}}),
        &batch);
    RETURN_IF_ERROR(CommitCatalogLocked(info, &batch).status());
    ttl_cursors_.erase(dropped->prefix);
    coll_id = info.id();
    dropped_id = dropped->spec.id;
  }
  return ReclaimIndex(coll_id, dropped_id);
}

absl::StatusOr<Value> DbImpl::CollMod(absl::string_view coll,
                                      const Value& command) {
  RETURN_IF_ERROR(CheckWritable());
  RETURN_IF_ERROR(CheckCollection(coll));
  const Value* index_arg = command.Get("index");
  bool validation = false;
  for (const auto& [name, value] : command.object_fields()) {
    if (name == "validator" || name == "validationLevel" ||
        name == "validationAction" || name == "changeStreamPreAndPostImages" ||
        name == "cappedSize" || name == "cappedMax") {
      validation = true;
    } else if (name != "index" && name != "collMod") {
      return MongoError(absl::StatusCode::kInvalidArgument, kInvalidOptions,
                        absl::StrCat("unknown option to collMod: ", name));
    }
  }
  // The validation options (engine/doc_validation.cc), then the index's.
  if (validation) {
    ASSIGN_OR_RETURN(Value reply, CollModValidation(coll, command));
    if (index_arg == nullptr) return reply;
  }
  if (index_arg == nullptr) {
    return MongoError(absl::StatusCode::kInvalidArgument, kInvalidOptions,
                      "collMod: 'index' must be an object");
  }
  ASSIGN_OR_RETURN(CollModIndex request, ParseCollModIndex(*index_arg));
  WritersLock l(this);
  auto state = GetState(coll);
  if (state == nullptr) {
    return MongoError(absl::StatusCode::kNotFound, kNamespaceNotFound,
                      absl::StrCat("ns does not exist: ", coll));
  }
  ASSIGN_OR_RETURN(const IndexSpec* current,
                   FindCollModIndex(*state, request, coll));
  // The options are changed in the catalog entry itself, so that the
  // fields this code does not know (a newer ttldb's) are written back as
  // they were.
  proto::CollectionInfo info = state->info;
  proto::IndexSpec* target = FindStoredIndex(&info, current->id);
  ASSIGN_OR_RETURN(
      Value::Object reply,
      ApplyCollModIndex(*current, request, options_.touch_min_interval, coll,
                        target));
  leveldb::WriteBatch batch;
  RETURN_IF_ERROR(CommitCatalogLocked(info, &batch).status());
  if (request.expire_after_seconds.has_value() && monitor_ != nullptr) {
    monitor_->NotifyExpiry(clock_->WallNow());
  }
  reply.emplace_back("ok", Value::Int32(1));
  return Value::MakeObject(std::move(reply));
}

// ---- Collection wrappers ---------------------------------------------------

absl::StatusOr<std::string> Collection::CreateIndex(
    const DocArg& keys, const DocArg& index_options,
    const IndexBuildProgress& progress) {
  if (backend_ != nullptr) {
    return backend_->CreateIndex(keys, index_options, progress);
  }
  RETURN_IF_ERROR(engine_->RefuseView(name_));
  ASSIGN_OR_RETURN(Value k, keys.Resolve());
  ASSIGN_OR_RETURN(Value o, index_options.Resolve());
  return engine_->CreateIndex(name_, k, o, progress);
}

absl::Status Collection::DropIndex(absl::string_view name) {
  if (backend_ != nullptr) return backend_->DropIndex(name);
  RETURN_IF_ERROR(engine_->RefuseView(name_));
  return engine_->DropIndex(name_, name);
}

absl::Status Collection::DropIndexByKey(const DocArg& keys) {
  if (backend_ != nullptr) return backend_->DropIndexByKey(keys);
  RETURN_IF_ERROR(engine_->RefuseView(name_));
  ASSIGN_OR_RETURN(Value k, keys.Resolve());
  ASSIGN_OR_RETURN(std::string name,
                   IndexNameForKey(engine_->GetState(name_).get(), k));
  return DropIndex(name);
}

absl::StatusOr<std::vector<Value>> Collection::ListIndexes() {
  if (backend_ != nullptr) return backend_->ListIndexes();
  RETURN_IF_ERROR(engine_->CheckCollection(name_));
  RETURN_IF_ERROR(engine_->RefuseView(name_));
  std::vector<Value> out;
  auto state = engine_->GetState(name_);
  if (state == nullptr) return out;
  out.push_back(IdIndexSpec());
  for (const auto& idx : state->indexes) out.push_back(ListedSpec(idx->spec));
  return out;
}

Value ListedSpec(const IndexSpec& index) {
  Value spec = IndexSpecToValue(index);
  // An invalid stored expireAfterSeconds is listed as 2147483647, as
  // MongoDB's listIndexes repairs it (index_key_validate::repairIndexSpec),
  // so that the listed spec (and an export of it) can be created again.
  if (index.expire_after_seconds.has_value() &&
      !IsValidStoredExpireAfterSeconds(*index.expire_after_seconds)) {
    spec.Set("expireAfterSeconds",
             Value::Int32(kExpireAfterSecondsForInactiveTtlIndex));
  }
  return spec;
}

absl::StatusOr<Value> Collection::CollMod(const DocArg& command) {
  if (backend_ != nullptr) return backend_->CollMod(command);
  RETURN_IF_ERROR(engine_->RefuseView(name_));
  ASSIGN_OR_RETURN(Value c, command.Resolve());
  return engine_->CollMod(name_, c);
}

}  // namespace ttldb
