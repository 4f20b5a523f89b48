// Index management: create (with a build over existing documents), drop,
// list and collMod.
#include <algorithm>
#include <optional>
#include <vector>

#include "absl/strings/str_cat.h"
#include "base/status.h"
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
namespace {

// 64 indexes per collection, _id included: MongoDB's limit.
constexpr int kMaxIndexes = 64;

// maxLifetimeSeconds and rejectExpired only make sense on a TTL index, and
// a cap below expireAfterSeconds would reject every fresh document.
absl::Status ValidateLifetimeOptions(const IndexSpec& spec, int code) {
  const bool bounded =
      spec.max_lifetime_seconds.has_value() || spec.reject_expired;
  if (!bounded) return absl::OkStatus();
  if (!spec.expire_after_seconds.has_value()) {
    return MongoError(absl::StatusCode::kInvalidArgument, code,
                      "maxLifetimeSeconds and rejectExpired are only valid on "
                      "a TTL index (with expireAfterSeconds)");
  }
  if (spec.max_lifetime_seconds.has_value()) {
    if (*spec.max_lifetime_seconds < 0) {
      return MongoError(absl::StatusCode::kInvalidArgument, code,
                        absl::StrCat("maxLifetimeSeconds must be a "
                                     "non-negative integer, got ",
                                     *spec.max_lifetime_seconds));
    }
    if (*spec.max_lifetime_seconds < *spec.expire_after_seconds) {
      return MongoError(
          absl::StatusCode::kInvalidArgument, code,
          absl::StrCat("maxLifetimeSeconds (", *spec.max_lifetime_seconds,
                       ") must be at least expireAfterSeconds (",
                       static_cast<int64_t>(*spec.expire_after_seconds), ")"));
    }
  }
  return absl::OkStatus();
}

bool IsIdKey(const IndexSpec& spec) {
  return spec.key.size() == 1 && spec.key[0].path == "_id" &&
         !spec.key[0].hashed;
}

// MongoDB's IndexCatalogImpl::_doesSpecConflictWithExisting: OK when `spec`
// may be created beside `existing` or is identical to the one of its name.
absl::Status CheckIndexConflicts(
    const IndexSpec& spec, const std::string& spec_text,
    const std::vector<const IndexState*>& existing_indexes) {
  const Value id_index_spec = Value::MakeObject(
      {Field("v", Value::Int32(2)),
       Field("key", Value::MakeObject({Field("_id", Value::Int32(1))})),
       Field("name", Value::String("_id_"))});
  if (spec.name == "_id_") {
    // Its key is not {_id: 1} (that case returned above): kDifferent.
    return MongoError(
        absl::StatusCode::kAlreadyExists, kIndexKeySpecsConflict,
        absl::StrCat("An existing index has the same name as the requested "
                     "index. Requested index: ",
                     spec_text, ", existing index: ", ToJson(id_index_spec)));
  }
  for (const IndexState* idx : existing_indexes) {
    const IndexSpec& existing = idx->spec;
    if (existing.name != spec.name) continue;
    switch (CompareIndexOptions(spec, existing)) {
      case IndexComparison::kIdentical:
        return absl::OkStatus();  // already there: a no-op
      case IndexComparison::kEquivalent:
        return MongoError(
            absl::StatusCode::kAlreadyExists, kIndexOptionsConflict,
            absl::StrCat("An equivalent index already exists with the same "
                         "name but different options. Requested index: ",
                         spec_text, ", existing index: ",
                         ToJson(IndexSpecToValue(existing))));
      case IndexComparison::kDifferent:
        return MongoError(
            absl::StatusCode::kAlreadyExists, kIndexKeySpecsConflict,
            absl::StrCat("An existing index has the same name as the "
                         "requested index. Requested index: ",
                         spec_text, ", existing index: ",
                         ToJson(IndexSpecToValue(existing))));
    }
  }
  for (const IndexState* idx : existing_indexes) {
    const IndexSpec& existing = idx->spec;
    switch (CompareIndexOptions(spec, existing)) {
      case IndexComparison::kDifferent:
        continue;  // may coexist (another key, or another partial filter)
      case IndexComparison::kEquivalent:
        return MongoError(
            absl::StatusCode::kAlreadyExists, kIndexOptionsConflict,
            absl::StrCat("An equivalent index already exists with a "
                         "different name and options. Requested index: ",
                         spec_text, ", existing index: ",
                         ToJson(IndexSpecToValue(existing))));
      case IndexComparison::kIdentical:
        return MongoError(absl::StatusCode::kAlreadyExists,
                          kIndexOptionsConflict,
                          absl::StrCat("Index already exists with a different "
                                       "name: ",
                                       existing.name));
    }
  }
  return absl::OkStatus();
}

}  // namespace

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
  RETURN_IF_ERROR(ValidateLifetimeOptions(spec, kCannotCreateIndex));
  if (IsIdKey(spec) && !spec.expire_after_seconds.has_value()) {
    if (spec.unique || spec.sparse || !spec.partial_filter_json.empty()) {
      return MongoError(absl::StatusCode::kInvalidArgument,
                        kInvalidIndexSpecificationOption,
                        absl::StrCat("The _id index cannot be unique, sparse "
                                     "or partial. Specification: ",
                                     spec_text));
    }
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
  if (!spec.partial_filter_json.empty()) {
    ASSIGN_OR_RETURN(Value pf, ParseDocument(spec.partial_filter_json));
    auto f = Filter::Parse(pf);
    if (!f.ok()) {
      return MongoError(
          absl::StatusCode::kInvalidArgument, kCannotCreateIndex,
          absl::StrCat("Error in specification ", spec_text,
                       " :: caused by :: ", f.status().message()));
    }
    // Only MongoDB's partial filter operators: no regex, negation or other
    // costly or unindexable predicate runs under the writers' lock. An
    // index already in the catalog is not checked again (it keeps working).
    absl::Status allowed = CheckPartialFilter(*f);
    if (!allowed.ok()) {
      return MongoError(absl::StatusCode::kInvalidArgument, kCannotCreateIndex,
                        absl::StrCat("Error in specification ", spec_text,
                                     " :: caused by :: ", allowed.message()));
    }
  }

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
      if (existing_indexes.size() + 1 >= kMaxIndexes) {
        return MongoError(absl::StatusCode::kResourceExhausted,
                          kCannotCreateIndex,
                          absl::StrCat("add index fails, too many indexes for ",
                                       coll, " key:", ToJson(keys)));
      }
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
  if (index_arg == nullptr || !index_arg->is_object()) {
    return MongoError(absl::StatusCode::kInvalidArgument, kInvalidOptions,
                      "collMod: 'index' must be an object");
  }
  const Value* by_name = index_arg->Get("name");
  const Value* by_key = index_arg->Get("keyPattern");
  if ((by_name == nullptr) == (by_key == nullptr)) {
    return MongoError(absl::StatusCode::kInvalidArgument, kInvalidOptions,
                      "collMod: must specify exactly one of 'name' or "
                      "'keyPattern' in 'index'");
  }
  std::optional<int64_t> new_expire;
  std::optional<bool> new_hidden;
  std::optional<int64_t> new_max_lifetime;  // -1: remove the cap
  std::optional<bool> new_reject_expired;
  for (const auto& [name, value] : index_arg->object_fields()) {
    if (name == "name" || name == "keyPattern") continue;
    if (name == "expireAfterSeconds") {
      // CollModIndex declares it safeInt (src/mongo/db/coll_mod.idl): a
      // non-number is the IDL parser's 14 TypeMismatch; null is absent.
      if (value.is_null()) continue;
      if (!value.is_number()) {
        return MongoError(
            absl::StatusCode::kInvalidArgument, kTypeMismatch,
            absl::StrCat("BSON field 'collMod.index.expireAfterSeconds' is the "
                         "wrong type '",
                         TypeName(value.type()),
                         "', expected types '[long, int, decimal, double]'"));
      }
      auto e = ParseExpireAfterSeconds(value);
      if (!e.ok()) {
        return MongoError(absl::StatusCode::kInvalidArgument, kInvalidOptions,
                          e.status().message());
      }
      new_expire = *e;
    } else if (name == "hidden") {
      if (value.type() != ValueType::kBool) {
        return MongoError(absl::StatusCode::kInvalidArgument, kInvalidOptions,
                          "collMod: 'hidden' must be a boolean");
      }
      new_hidden = value.bool_value();
    } else if (name == "maxLifetimeSeconds") {
      // As createIndex takes it (index/index_spec.cc): an integer, or an
      // integral number below 9.2e18 (a larger double, NaN or infinity
      // would not convert to int64_t).
      bool integral = false;
      int64_t n = 0;
      if (value.type() == ValueType::kInt32 ||
          value.type() == ValueType::kInt64) {
        n = value.int64_value();
        integral = true;
      } else if (value.is_number()) {
        const double d = value.AsDouble();
        integral = std::trunc(d) == d && std::abs(d) < 9.2e18;
        if (integral) n = static_cast<int64_t>(d);
      }
      if (value.is_null()) {
        new_max_lifetime = -1;
      } else if (!integral || n < 0) {
        return MongoError(absl::StatusCode::kInvalidArgument, kInvalidOptions,
                          "collMod: 'maxLifetimeSeconds' must be a "
                          "non-negative integer (or null to remove it)");
      } else {
        new_max_lifetime = n;
      }
    } else if (name == "rejectExpired") {
      if (value.type() != ValueType::kBool) {
        return MongoError(absl::StatusCode::kInvalidArgument, kInvalidOptions,
                          "collMod: 'rejectExpired' must be a boolean");
      }
      new_reject_expired = value.bool_value();
    } else {
      return MongoError(
          absl::StatusCode::kInvalidArgument, kInvalidOptions,
          absl::StrCat("collMod: unknown index option '", name, "'"));
    }
  }
  if (!new_expire.has_value() && !new_hidden.has_value() &&
      !new_max_lifetime.has_value() && !new_reject_expired.has_value()) {
    return MongoError(absl::StatusCode::kInvalidArgument, kInvalidOptions,
                      "collMod: no expireAfterSeconds, hidden, "
                      "maxLifetimeSeconds or rejectExpired field");
  }

  WritersLock l(this);
  auto state = GetState(coll);
  if (state == nullptr) {
    return MongoError(absl::StatusCode::kNotFound, kNamespaceNotFound,
                      absl::StrCat("ns does not exist: ", coll));
  }
  // The implicit _id index: found by name or key pattern as MongoDB finds
  // it (src/mongo/db/catalog/coll_mod.cpp), then refused per option.
  bool id_index = false;
  std::vector<const IndexSpec*> matches;
  std::optional<IndexSpec> wanted_key;
  if (by_key != nullptr && by_key->is_object()) {
    auto parsed = ParseIndexSpec(*by_key, Value::MakeObject());
    if (parsed.ok()) wanted_key = *std::move(parsed);
  }
  if (by_name != nullptr) {
    id_index = by_name->is_string() && by_name->string_value() == "_id_";
  } else if (wanted_key.has_value()) {
    id_index = IsIdKey(*wanted_key) && wanted_key->key[0].direction == 1;
  }
  for (const auto& idx : state->indexes) {
    const IndexSpec& spec = idx->spec;
    if (by_name != nullptr) {
      if (by_name->is_string() && spec.name == by_name->string_value()) {
        matches.push_back(&spec);
      }
    } else if (wanted_key.has_value() && SameKeyPattern(*wanted_key, spec)) {
      matches.push_back(&spec);
    }
  }
  if (id_index) {
    if (new_expire.has_value()) {
      return MongoError(absl::StatusCode::kInvalidArgument, kInvalidOptions,
                        "the _id field does not support TTL indexes");
    }
    if (new_hidden.has_value()) {
      return MongoError(absl::StatusCode::kInvalidArgument, kBadValue,
                        "can't hide _id index");
    }
    return MongoError(absl::StatusCode::kInvalidArgument, kInvalidOptions,
                      "maxLifetimeSeconds and rejectExpired are only valid on "
                      "a TTL index (with expireAfterSeconds)");
  }
  if (matches.size() > 1) {
    // Several indexes share the key pattern (different partial filters).
    return MongoError(
        absl::StatusCode::kInvalidArgument, kAmbiguousIndexKeyPattern,
        absl::StrCat("index keyPattern ", ToJson(*by_key), " matches ",
                     matches.size(),
                     " indexes, must use index name. Conflicting indexes:",
                     ToJson(IndexSpecToValue(*matches[0])), ", ",
                     ToJson(IndexSpecToValue(*matches[1]))));
  }
  if (matches.empty()) {
    return MongoError(
        absl::StatusCode::kNotFound, kIndexNotFound,
        absl::StrCat("cannot find index ",
                     by_name != nullptr ? ToJson(*by_name) : ToJson(*by_key),
                     " for ns ", coll));
  }
  // The options are read from the compiled spec and changed in the
  // catalog entry itself, so that the fields this code does not know (a
  // newer ttldb's) are written back as they were.
  const IndexSpec& current = *matches[0];
  proto::CollectionInfo info = state->info;
  proto::IndexSpec* target = nullptr;
  for (proto::IndexSpec& stored : *info.mutable_indexes()) {
    if (stored.id() == current.id) target = &stored;
  }
  Value::Object reply;
  if (new_expire.has_value()) {
    if (current.key.size() != 1 || current.key[0].path == "_id" ||
        current.key[0].hashed) {
      return MongoError(absl::StatusCode::kInvalidArgument, kInvalidOptions,
                        "collMod: expireAfterSeconds is only valid on a "
                        "single-field, not hashed index other than _id");
    }
    if (current.expire_after_seconds.has_value()) {
      double old = *current.expire_after_seconds;
      reply.emplace_back("expireAfterSeconds_old",
                         old == static_cast<int64_t>(old)
                             ? Value::Int64(static_cast<int64_t>(old))
                             : Value::Double(old));
    }
    RETURN_IF_ERROR(CheckTouchInterval(options_.touch_min_interval, *new_expire,
                                       coll, current.name, kInvalidOptions));
    target->set_expire_after_seconds(static_cast<double>(*new_expire));
    reply.emplace_back("expireAfterSeconds_new", Value::Int64(*new_expire));
  }
  if (new_hidden.has_value()) {
    reply.emplace_back("hidden_old", Value::Bool(current.hidden));
    target->set_hidden(*new_hidden);
    reply.emplace_back("hidden_new", Value::Bool(*new_hidden));
  }
  if (new_max_lifetime.has_value()) {
    if (current.max_lifetime_seconds.has_value()) {
      reply.emplace_back("maxLifetimeSeconds_old",
                         Value::Int64(*current.max_lifetime_seconds));
    }
    if (*new_max_lifetime < 0) {
      target->clear_max_lifetime_seconds();
    } else {
      target->set_max_lifetime_seconds(*new_max_lifetime);
      reply.emplace_back("maxLifetimeSeconds_new",
                         Value::Int64(*new_max_lifetime));
    }
  }
  if (new_reject_expired.has_value()) {
    reply.emplace_back("rejectExpired_old",
                       Value::Bool(current.reject_expired));
    target->set_reject_expired(*new_reject_expired);
    reply.emplace_back("rejectExpired_new", Value::Bool(*new_reject_expired));
  }
  RETURN_IF_ERROR(
      ValidateLifetimeOptions(IndexSpecFromProto(*target), kInvalidOptions));
  leveldb::WriteBatch batch;
  RETURN_IF_ERROR(CommitCatalogLocked(info, &batch).status());
  if (new_expire.has_value() && monitor_ != nullptr) {
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
  if (IsIdKey(wanted)) return DropIndex("_id_");
  auto state = engine_->GetState(name_);
  if (state != nullptr) {
    std::vector<const IndexSpec*> matches;
    for (const auto& idx : state->indexes) {
      if (SameKeyPattern(idx->spec, wanted)) matches.push_back(&idx->spec);
    }
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

Value IdIndexSpec() {
  return Value::MakeObject(
      {Field("v", Value::Int32(2)),
       Field("key", Value::MakeObject({Field("_id", Value::Int32(1))})),
       Field("name", Value::String("_id_"))});
}

absl::StatusOr<Value> Collection::CollMod(const DocArg& command) {
  if (backend_ != nullptr) return backend_->CollMod(command);
  RETURN_IF_ERROR(engine_->RefuseView(name_));
  ASSIGN_OR_RETURN(Value c, command.Resolve());
  return engine_->CollMod(name_, c);
}

}  // namespace ttldb
