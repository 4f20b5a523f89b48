// Index management: create (with a build over existing documents), drop,
// list and collMod.
#include <algorithm>
#include <optional>
#include <vector>

#include "absl/strings/str_cat.h"
#include "base/status.h"
#include "catalog/index_rules.h"
#include "catalog/index_spec_proto.h"
#include "engine/backend.h"
#include "engine/db_impl.h"
#include "index/index_spec.h"
#include "index/key_codec.h"
#include "leveldb/write_batch.h"
#include "query/partial_filter_check.h"
#include "storage/keys.h"
#include "storage/leveldb_status.h"
#include "ttl/touch_interval.h"
#include "ttl/ttl_spec.h"
#include "ttldb/json.h"

namespace ttldb {

absl::StatusOr<std::string> DbImpl::CreateIndex(
    absl::string_view coll, const Value& keys, const Value& options,
    const IndexBuildProgress& progress) {
  RETURN_IF_ERROR(CheckWritable());
  RETURN_IF_ERROR(ValidateCollectionName(coll));
  RETURN_IF_ERROR(CheckCollection(coll));
  ASSIGN_OR_RETURN(IndexSpec spec, ParseIndexSpec(keys, options));
  const std::string spec_text = ToJson(IndexSpecToValue(spec));
  if (spec.expire_after_seconds.has_value()) {
    RETURN_IF_ERROR(NormalizeTtlSpec(&spec, spec_text));
    RETURN_IF_ERROR(
        CheckTouchInterval(options_.touch_min_interval,
                           static_cast<int64_t>(*spec.expire_after_seconds),
                           coll, spec.name, kCannotCreateIndex));
  }
  RETURN_IF_ERROR(CheckLifetimeOptions(spec, kCannotCreateIndex));
  if (IsIdIndexKey(spec) && !spec.expire_after_seconds.has_value()) {
    RETURN_IF_ERROR(CheckIdIndexOptions(spec, spec_text));
    // {_id: 1} and {_id: -1} both name the _id index, which every
    // collection has (MongoDB's IndexDescriptor::isIdIndexPattern; its
    // _fixIndexSpec makes the key {_id: 1} and the name "_id_"): nothing to
    // build. As for any createIndexes, a missing collection is created
    // (jstests/core/index_id_desc.js: after ensureIndex({_id: -1}) on a
    // dropped collection, getIndexes() lists exactly the _id_ index).
    WritersLock l(this);
    RETURN_IF_ERROR(GetOrCreateLocked(coll).status());
    return std::string("_id_");
  }
  RETURN_IF_ERROR(CheckPartialFilterSpec(spec, spec_text));

  std::optional<IndexBuildStart> start;
  {
    // First: a writer in a loop would otherwise re-take the lock ahead of us.
    WritersLock l(this, MutexLock::First());
    std::shared_ptr<const CollectionState> state = GetState(coll);
    if (state == nullptr) return CreateCollectionWithIndexLocked(coll, spec);
    // An index created without a collation has the collection's default
    // (MongoDB's index_key_validate.cpp; {locale: "simple"} opts out).
    if (!options.is_object() || options.Get("collation") == nullptr) {
      spec.collation_json = state->info.collation_json();
    }
    // index_key_validate.cpp / index_catalog_impl.cpp _isSpecOk: no TTL
    // index on a capped collection.
    if (state->info.capped() && spec.expire_after_seconds.has_value()) {
      return MongoError(absl::StatusCode::kInvalidArgument, kCannotCreateIndex,
                        "Cannot create TTL index on a capped collection");
    }
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
  proto::CollectionInfo info;
  info.set_name(std::string(coll));
  spec.id = 1;
  spec.multikey = false;
  info.set_next_index_id(2);
  IndexSpecToProto(spec, info.add_indexes());
  RETURN_IF_ERROR(CommitNewCollectionLocked(std::move(info)).status());
  if (spec.expire_after_seconds.has_value() && monitor_ != nullptr) {
    monitor_->NotifyExpiry(clock_->WallNow());
  }
  return spec.name;
}

absl::Status DbImpl::DropIndex(absl::string_view coll, absl::string_view name) {
  RETURN_IF_ERROR(CheckWritable());
  RETURN_IF_ERROR(CheckCollection(coll));
  if (name == "_id_") {
    return MongoError(absl::StatusCode::kInvalidArgument, kInvalidOptions,
                      "cannot drop _id index");
  }
  uint32_t coll_id = 0, dropped_id = 0;
  {
    WritersLock l(this);
    auto state = GetState(coll);
    if (state == nullptr) {
      return MongoError(absl::StatusCode::kNotFound, kNamespaceNotFound,
                        absl::StrCat("ns not found ", coll));
    }
    const IndexState* dropped = state->FindIndex(name);
    if (dropped == nullptr) {
      return MongoError(absl::StatusCode::kNotFound, kIndexNotFound,
                        absl::StrCat("index not found with name [", name, "]"));
    }
    const uint32_t index_id = dropped->spec.id;
    proto::CollectionInfo info = state->info;
    auto* indexes = info.mutable_indexes();
    for (int i = 0; i < indexes->size(); ++i) {
      if (indexes->Get(i).id() == index_id) {
        indexes->DeleteSubrange(i, 1);
        break;
      }
    }
    // One synced catalog write under the lock; the entries are deleted in
    // the background (issue 18 item 8). TTL entries of the collection that
    // list the index among their siblings keep it there: dropped ids in a
    // list are skipped (docs/format.md).
    leveldb::WriteBatch batch;
    LogDdlLocked(
        ChangeOp::kDropIndexes, coll,
        Value::MakeObject(
            {{"indexes", Value::MakeArray({IndexSpecToValue(dropped->spec)})}}),
        &batch);
    RETURN_IF_ERROR(CommitCatalogLocked(info, &batch).status());
    ttl_cursors_.erase(IndexPrefix(info.id(), index_id));
    coll_id = info.id();
    dropped_id = index_id;
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
  proto::IndexSpec* target = nullptr;
  for (proto::IndexSpec& stored : *info.mutable_indexes()) {
    if (stored.id() == current->id) target = &stored;
  }
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
  ASSIGN_OR_RETURN(IndexSpec wanted, ParseIndexSpec(k, Value::MakeObject()));
  if (IsIdIndexKey(wanted)) return DropIndex("_id_");
  auto state = engine_->GetState(name_);
  if (state != nullptr) {
    std::vector<const IndexSpec*> matches = IndexesWithKey(*state, wanted);
    if (matches.size() > 1) {
      // MongoDB's dropIndexes (src/mongo/db/catalog/drop_indexes.cpp).
      return MongoError(
          absl::StatusCode::kInvalidArgument, kAmbiguousIndexKeyPattern,
          absl::StrCat(matches.size(), " indexes found for key: ", ToJson(k),
                       ", identify by name instead. Conflicting indexes: ",
                       ToJson(IndexSpecToValue(*matches[0])), ", ",
                       ToJson(IndexSpecToValue(*matches[1]))));
    }
    if (matches.size() == 1) return DropIndex(matches[0]->name);
  }
  return MongoError(absl::StatusCode::kNotFound, kIndexNotFound,
                    absl::StrCat("can't find index with key: ", ToJson(k)));
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
