// Collection: documents in, documents out. Reads plan and stream from a
// snapshot (query_exec.cc); writes go through DbImpl::WriteDocumentLocked.
#include "ttldb/collection.h"

#include <algorithm>
#include <set>

#include "absl/cleanup/cleanup.h"
#include "absl/strings/str_cat.h"
#include "base/op_deadline.h"
#include "base/status.h"
#include "base/sync_point.h"
#include "document/compare.h"
#include "document/path.h"
#include "engine/backend.h"
#include "engine/db_impl.h"
#include "engine/doc_arg_internal.h"
#include "engine/query_exec.h"
#include "engine/touch_text.h"
#include "engine/update_parse.h"
#include "query/update.h"
#include "query/upsert_retry.h"
#include "storage/keys.h"
#include "ttldb/duplicate_key_error.h"
#include "ttldb/json.h"

namespace ttldb {
namespace {

absl::StatusOr<Value> ResolveArg(const DocArg& arg, absl::string_view what,
                                 absl::string_view* storage_json = nullptr) {
  auto v = storage_json != nullptr
               ? DocArgInternal::ResolveNotingForm(arg, storage_json)
               : arg.Resolve();
  if (!v.ok()) {
    return MongoError(
        v.status().code(), ErrorCode(v.status()),
        absl::StrCat("invalid ", what, ": ", v.status().message()));
  }
  return v;
}

// As ResolveArg, for an argument that may also be an array (a
// pipeline-style update).
absl::StatusOr<Value> ResolveAnyArg(const DocArg& arg, absl::string_view what) {
  auto v = arg.ResolveAny();
  if (!v.ok()) {
    return MongoError(
        v.status().code(), ErrorCode(v.status()),
        absl::StrCat("invalid ", what, ": ", v.status().message()));
  }
  return v;
}

// A collation through the MongoDB backend (//remote) is not passed on yet.
absl::Status RemoteCollationRefused() {
  return MongoError(absl::StatusCode::kUnimplemented, kNotImplemented,
                    "collation is not supported on a mongodb:// database");
}

}  // namespace

absl::StatusOr<Value> DocArg::Resolve() const {
  if (value_ != nullptr) {
    if (!value_->is_object()) {
      return absl::InvalidArgumentError(
          absl::StrCat("expected an object, got ", TypeName(value_->type())));
    }
    return *value_;
  }
  return ParseDocument(json_);
}

absl::StatusOr<Value> DocArgInternal::ResolveNotingForm(
    const DocArg& arg, absl::string_view* storage_json) {
  *storage_json = absl::string_view();
  if (arg.value_ != nullptr) return arg.Resolve();
  bool storage_form = false;
  ASSIGN_OR_RETURN(Value v, ParseDocumentNotingForm(arg.json_, &storage_form));
  if (storage_form) *storage_json = arg.json_;
  return v;
}

absl::StatusOr<Value> DocArg::ResolveAny() const {
  if (value_ != nullptr) return *value_;
  return ParseValue(json_);
}

// ---- Writes ----------------------------------------------------------------

absl::StatusOr<Value> Collection::InsertOne(const DocArg& doc,
                                            const WriteOptions& options) {
  if (backend_ != nullptr) return backend_->InsertOne(doc, options);
  absl::string_view storage_json;
  ASSIGN_OR_RETURN(Value value, ResolveArg(doc, "document", &storage_json));
  return engine_->SyncIfRequested(
      options, engine_->Insert(name_, std::move(value), options, storage_json));
}

// InsertMany without the final sync (DbImpl::SyncIfRequested).
static absl::Status InsertManyUnsynced(DbImpl* engine, const std::string& name,
                                       absl::Span<const DocArg> docs,
                                       std::vector<Value>* inserted_ids,
                                       const WriteOptions& options) {
  // Parse everything first: a malformed document fails the call before
  // anything is written.
  std::vector<Value> values;
  std::vector<absl::string_view> storage_json(docs.size());
  values.reserve(docs.size());
  for (size_t i = 0; i < docs.size(); ++i) {
    auto v = DocArgInternal::ResolveNotingForm(docs[i], &storage_json[i]);
    if (!v.ok()) {
      return MongoError(
          v.status().code(), ErrorCode(v.status()),
          absl::StrCat("document ", i, ": ", v.status().message()));
    }
    values.push_back(std::move(*v));
  }
  for (size_t i = 0; i < values.size(); ++i) {
    if (i > 0 && options.interrupt != nullptr && options.interrupt->load()) {
      return MongoError(
          absl::StatusCode::kAborted, kInterrupted,
          absl::StrCat("operation was interrupted after ", i, " of ",
                       values.size(), " documents were inserted"));
    }
    auto id =
        engine->Insert(name, std::move(values[i]), options, storage_json[i]);
    if (!id.ok()) {
      absl::Status s =
          MongoError(id.status().code(), ErrorCode(id.status()),
                     absl::StrCat(id.status().message(), " (document ", i, "; ",
                                  i, " inserted before it)"));
      // Keeps the duplicate key's keyPattern / keyValue.
      id.status().ForEachPayload(
          [&s](absl::string_view url, const absl::Cord& payload) {
            s.SetPayload(url, payload);
          });
      return s;
    }
    if (inserted_ids != nullptr) inserted_ids->push_back(std::move(*id));
  }
  return absl::OkStatus();
}

absl::Status Collection::InsertMany(absl::Span<const DocArg> docs,
                                    std::vector<Value>* inserted_ids,
                                    const WriteOptions& options) {
  if (backend_ != nullptr) {
    return backend_->InsertMany(docs, inserted_ids, options);
  }
  return engine_->SyncIfRequested(
      options, InsertManyUnsynced(engine_, name_, docs, inserted_ids, options));
}

namespace {

enum class WriteKind { kUpdate, kReplace, kDelete, kTouch };

struct WriteRequest {
  WriteKind kind;
  bool multi = false;
  bool upsert = false;
  const Update* update = nullptr;      // kUpdate
  const Value* replacement = nullptr;  // kReplace
  std::string touch_field;             // kTouch
  // kUpdate that is exactly {$set: {<set_field>: <Date set_millis>}}, a
  // top-level field: engine/touch_text.h may patch the stored text.
  std::string set_field;
  int64_t set_millis = 0;
};

}  // namespace

// Applies `request` to one document (under write_mu_). Returns whether it
// was modified (or deleted).
static absl::StatusOr<bool> ApplyToDocument(
    DbImpl* engine, const CollectionState& state, const WriteRequest& request,
    const Value& doc, absl::Time now, const WriteOptions& options,
    std::optional<size_t> matched, DbImpl::ExpiredRemovals* removed)
    ABSL_EXCLUSIVE_LOCKS_REQUIRED(engine->write_lock()) {
  if (request.kind == WriteKind::kDelete) {
    RETURN_IF_ERROR(
        engine->WriteDocumentLocked(state, &doc, nullptr, options, nullptr));
    return true;
  }
  const int64_t now_millis = absl::ToUnixMillis(now);
  if (request.kind == WriteKind::kTouch) {
    const Value* current = GetPath(doc, request.touch_field);
    const absl::Duration min = engine->options().touch_min_interval;
    if (current != nullptr && current->is_date() &&
        min > absl::ZeroDuration() &&
        absl::FromUnixMillis(current->date_millis()) > now - min) {
      return false;  // fresh enough: coalesced
    }
    // A top-level field: what $set does to it, without parsing an update
    // or copying the document twice (Value::Set replaces the first field
    // of the name or appends, as $set's SetPath; an identical value is no
    // modification, as Update::Apply's ExactEqual of the whole document).
    if (request.touch_field.find('.') == std::string::npos &&
        !(current != nullptr && current->is_date() &&
          current->date_millis() == now_millis)) {
      auto updated_ptr = std::make_shared<Value>(doc);
      updated_ptr->Set(request.touch_field, Value::Date(now_millis));
      RETURN_IF_ERROR(
          engine->CheckValidationLocked(state, &doc, *updated_ptr, options));
      RETURN_IF_ERROR(engine->WriteDocumentLocked(
          state, &doc, updated_ptr.get(), options, removed, updated_ptr));
      return true;
    }
  }
  // Shared with the document cache after the write (no second copy).
  auto updated_ptr = std::make_shared<Value>(doc);
  Value& updated = *updated_ptr;
  bool modified = false;
  switch (request.kind) {
    case WriteKind::kUpdate:
      // `updated` is a copy already: no second one inside the update.
      RETURN_IF_ERROR(request.update->ApplyToCopy(doc, &updated, now_millis,
                                                  false, &modified, matched));
      break;
    case WriteKind::kReplace:
      RETURN_IF_ERROR(
          ApplyReplacement(*request.replacement, &updated, &modified));
      break;
    case WriteKind::kTouch: {
      // A dotted field (or a value already identical): the general $set.
      Value set = Value::MakeObject(
          {Field(request.touch_field, Value::Date(now_millis))});
      ASSIGN_OR_RETURN(Update touch,
                       Update::Parse(Value::MakeObject({Field("$set", set)})));
      RETURN_IF_ERROR(touch.Apply(&updated, now_millis, false, &modified));
      break;
    }
    case WriteKind::kDelete:
      break;
  }
  if (!modified) return false;
  const Value* old_id = doc.Get("_id");
  const Value* new_id = updated.Get("_id");
  if (new_id == nullptr || old_id == nullptr ||
      !ValuesEqual(*old_id, *new_id) || old_id->type() != new_id->type()) {
    return MongoError(absl::StatusCode::kInvalidArgument, kImmutableField,
                      "Performing an update on the path '_id' would modify "
                      "the immutable field '_id'");
  }
  RETURN_IF_ERROR(engine->CheckValidationLocked(state, &doc, updated, options));
  RETURN_IF_ERROR(engine->WriteDocumentLocked(
      state, &doc, &updated, options, removed, std::move(updated_ptr),
      /*create=*/nullptr, /*stored_json=*/{},
      /*replacement=*/request.kind == WriteKind::kReplace));
  return true;
}

// Applies `request` to the documents `filter` matches (the first one unless
// multi), each under the writers' lock.
static absl::StatusOr<UpdateResult> ApplyToMatches(
    DbImpl* engine, const std::string& coll, const Filter& filter,
    const WriteRequest& request, absl::Time now, const WriteOptions& options,
    DbImpl::ExpiredRemovals* removed) {
  UpdateResult result;
  auto state = engine->GetState(coll);
  // Candidates from a snapshot, without the lock; each is re-read and
  // re-matched under the lock before it is written, so a document changed
  // meanwhile is judged on its current contents. A single-document write
  // whose candidate changed before the lock looks again (a few times), as
  // MongoDB retries a write conflict, instead of reporting no match while
  // another document matches.
  constexpr int kSingleWriteAttempts = 3;
  // A touch, or a $set of one top-level Date, by _id: patched in the stored
  // text where that gives exactly the general path's result.
  TextSetRequest text_request;
  bool text_set = false;
  if (request.kind == WriteKind::kTouch) {
    text_request.field = request.touch_field;
    text_request.millis = absl::ToUnixMillis(now);
    text_request.touch = true;
    text_set = request.touch_field.find('.') == std::string::npos;
  } else if (request.kind == WriteKind::kUpdate && !request.set_field.empty()) {
    text_request.field = request.set_field;
    text_request.millis = request.set_millis;
    text_set = true;
  }
  text_set = text_set && FilterReadsOnlyId(filter);
  for (int attempt = 1;; ++attempt) {
    ASSIGN_OR_RETURN(
        std::vector<std::string> ids,
        MatchingIds(engine, state, filter, request.multi ? 0 : 1, now));
    TTLDB_SYNC_POINT("Collection::RunWrite:AfterMatch");
    for (const std::string& id : ids) {
      // maxTimeMS between the documents of a multi-document write.
      RETURN_IF_ERROR(CheckOpDeadline());
      if (options.interrupt != nullptr && options.interrupt->load()) {
        return MongoError(
            absl::StatusCode::kAborted, kInterrupted,
            absl::StrCat(
                "operation was interrupted after ", result.modified_count,
                " of ", ids.size(), " matching documents were ",
                request.kind == WriteKind::kDelete ? "deleted" : "modified"));
      }
      // Under the lock (grouped: this document's commit is awaited after
      // it, so the next writer's checks overlap this one's LevelDB write),
      // after the queued commits of this document (DbImpl::GroupedWrite).
      DbImpl::GroupedWrite group(engine);
      bool gone = false;
      absl::Status one = [&]() -> absl::Status {
        WritersLock l(engine, WritersLock::Grouped());
        auto current = engine->GetState(coll);
        if (current == nullptr) {
          gone = true;
          return absl::OkStatus();
        }
        engine->AwaitCommitsOfLocked(DocumentKey(current->info.id(), id));
        if (text_set) {
          ASSIGN_OR_RETURN(TextSet r, SetDateInStoredText(
                                          engine, *current, filter, id,
                                          text_request, now, options, removed));
          if (r == TextSet::kNoMatch) return absl::OkStatus();
          if (r != TextSet::kFallback) {
            ++result.matched_count;
            if (r == TextSet::kModified) ++result.modified_count;
            return absl::OkStatus();
          }
        }
        // Shared with the document cache, not copied: the update copies it.
        ASSIGN_OR_RETURN(std::shared_ptr<const Value> doc,
                         engine->reader().ReadShared(*current, id));
        // "$" in the update needs the array position the filter matched.
        MatchDetails details;
        const bool positional = request.update != nullptr &&
                                request.update->needs_matched_position();
        if (doc == nullptr ||
            !(positional ? filter.Matches(*doc, &details)
                         : filter.Matches(*doc)) ||
            engine->reader().IsHidden(*current, *doc, now)) {
          return absl::OkStatus();
        }
        ++result.matched_count;
        ASSIGN_OR_RETURN(
            bool modified,
            ApplyToDocument(engine, *current, request, *doc, now, options,
                            details.elem_match_key, removed));
        if (modified) ++result.modified_count;
        return absl::OkStatus();
      }();
      absl::Status committed = group.Finish();
      RETURN_IF_ERROR(one);
      RETURN_IF_ERROR(committed);
      if (gone) break;
    }
    if (request.multi || ids.empty() || result.matched_count > 0 ||
        attempt == kSingleWriteAttempts) {
      return result;
    }
    state = engine->GetState(coll);
  }
}

// The shared body of update, replace, delete and touch.
static absl::StatusOr<UpdateResult> RunWrite(DbImpl* engine,
                                             const std::string& coll,
                                             const Filter& filter,
                                             const WriteRequest& request,
                                             const WriteOptions& options) {
  RETURN_IF_ERROR(engine->CheckWritable());
  RETURN_IF_ERROR(ValidateCollectionName(coll));
  RETURN_IF_ERROR(engine->CheckCollection(coll));
  RETURN_IF_ERROR(engine->RefuseView(coll));
  const absl::Time now = engine->clock()->WallNow();
  // Hidden documents this call's writes removed: handed to the expiry
  // listener when the call returns, outside the writers' lock.
  DbImpl::ExpiredRemovals removed;
  absl::Cleanup deliver = [&] {
    engine->DeliverExpiredRemovals(coll, &removed);
  };
  // An upsert that lost the race to insert matches again (below). MongoDB
  // retries without a limit, as the winner's document is there to match;
  // the bound only ends a loop that could never match what it collides
  // with.
  constexpr int kUpsertAttempts = 100;
  for (int attempt = 1;; ++attempt) {
    ASSIGN_OR_RETURN(
        UpdateResult result,
        ApplyToMatches(engine, coll, filter, request, now, options, &removed));
    if (result.matched_count > 0 || !request.upsert) return result;

    // Upsert: the filter's equalities, then the update (or the replacement).
    ASSIGN_OR_RETURN(Value seed, UpsertSeed(filter));
    bool modified = false;
    if (request.kind == WriteKind::kReplace) {
      RETURN_IF_ERROR(ApplyReplacement(*request.replacement, &seed, &modified));
    } else {
      RETURN_IF_ERROR(request.update->Apply(&seed, absl::ToUnixMillis(now),
                                            /*is_insert=*/true, &modified));
    }
    // The match ran without the lock, so another upsert of the same
    // document may have inserted it since. If the duplicate key says so by
    // MongoDB's rule (query/upsert_retry.h), match again: this time the
    // update applies to that document.
    TTLDB_SYNC_POINT("Collection::RunWrite:BeforeUpsertInsert");
    absl::StatusOr<Value> id = engine->Insert(coll, std::move(seed), options);
    if (id.ok()) {
      result.upserted_id = std::move(*id);
      return result;
    }
    if (request.multi || attempt == kUpsertAttempts) return id.status();
    std::optional<DuplicateKeyInfo> dup = GetDuplicateKeyInfo(id.status());
    if (!dup.has_value() || !ShouldRetryUpsertDuplicateKey(
                                filter, dup->key_pattern, dup->key_value)) {
      return id.status();
    }
  }
}

// A write's filter, comparing strings in `collation` (null: the collection's
// default).
static absl::StatusOr<Filter> ParseFilterArg(DbImpl* engine,
                                             const std::string& name,
                                             const DocArg& arg,
                                             const Value& collation) {
  ASSIGN_OR_RETURN(Value v, ResolveArg(arg, "filter"));
  std::shared_ptr<const CollectionState> state = engine->GetState(name);
  ASSIGN_OR_RETURN(std::shared_ptr<const Collator> collator,
                   ResolveCollation(collation, state.get()));
  return Filter::Parse(v, absl::Now(), std::move(collator));
}

// The body of UpdateOne, UpdateMany and ReplaceOne. `doc` (named `what` in
// errors) may be an update-operator document or a replacement; UpdateMany
// (multi) takes only the first, ReplaceOne (replacement_only) only the
// second.
static absl::StatusOr<UpdateResult> UpdateCall(
    DbImpl* engine, const std::string& name, const DocArg& filter,
    const DocArg& doc, absl::string_view what, bool multi,
    bool replacement_only, const UpdateOptions& update_options,
    const WriteOptions& options) {
  ASSIGN_OR_RETURN(
      Filter f, ParseFilterArg(engine, name, filter, update_options.collation));
  // An array is a pipeline-style update (engine/update_parse.h); ReplaceOne
  // takes a document only.
  ASSIGN_OR_RETURN(Value v, replacement_only ? ResolveArg(doc, what)
                                             : ResolveAnyArg(doc, what));
  UpdateParseArgs parse_args;
  parse_args.array_filters = &update_options.array_filters;
  parse_args.constants = update_options.constants;
  parse_args.let = update_options.let;
  parse_args.upsert = update_options.upsert;
  parse_args.upsert_supplied = update_options.upsert_supplied;
  parse_args.now_millis = absl::ToUnixMillis(engine->clock()->WallNow());
  ASSIGN_OR_RETURN(Update parsed, ParseUpdateArg(v, parse_args));
  if (multi && parsed.is_replacement()) {
    return MongoError(absl::StatusCode::kInvalidArgument, kFailedToParse,
                      "multi update is not supported for replacement-style "
                      "update");
  }
  if (replacement_only && !parsed.is_replacement()) {
    return MongoError(absl::StatusCode::kInvalidArgument, kFailedToParse,
                      "the replacement document must not contain update "
                      "operators");
  }
  WriteRequest req{parsed.is_replacement() ? WriteKind::kReplace
                                           : WriteKind::kUpdate};
  req.multi = multi;
  req.upsert = update_options.upsert;
  if (parsed.is_replacement()) {
    req.replacement = &parsed.replacement();
  } else {
    req.update = &parsed;
    // {$set: {f: <date>}}, f top-level: engine/touch_text.h.
    if (update_options.array_filters.empty() && v.is_object() &&
        v.object_fields().size() == 1 && v.object_fields()[0].first == "$set" &&
        v.object_fields()[0].second.is_object() &&
        v.object_fields()[0].second.object_fields().size() == 1) {
      const auto& [field, value] =
          v.object_fields()[0].second.object_fields()[0];
      if (value.is_date() && field.find('.') == std::string::npos) {
        req.set_field = field;
        req.set_millis = value.date_millis();
      }
    }
  }
  return engine->SyncIfRequested(options,
                                 RunWrite(engine, name, f, req, options));
}

absl::StatusOr<UpdateResult> Collection::UpdateOne(
    const DocArg& filter, const DocArg& update,
    const UpdateOptions& update_options, const WriteOptions& options) {
  if (backend_ != nullptr) {
    if (!update_options.collation.is_null()) return RemoteCollationRefused();
    return backend_->Update(filter, update, /*multi=*/false,
                            /*replacement_only=*/false, update_options,
                            options);
  }
  return UpdateCall(engine_, name_, filter, update, "update", /*multi=*/false,
                    /*replacement_only=*/false, update_options, options);
}

absl::StatusOr<UpdateResult> Collection::UpdateMany(
    const DocArg& filter, const DocArg& update,
    const UpdateOptions& update_options, const WriteOptions& options) {
  if (backend_ != nullptr) {
    if (!update_options.collation.is_null()) return RemoteCollationRefused();
    return backend_->Update(filter, update, /*multi=*/true,
                            /*replacement_only=*/false, update_options,
                            options);
  }
  return UpdateCall(engine_, name_, filter, update, "update", /*multi=*/true,
                    /*replacement_only=*/false, update_options, options);
}

absl::StatusOr<UpdateResult> Collection::ReplaceOne(
    const DocArg& filter, const DocArg& replacement,
    const UpdateOptions& update_options, const WriteOptions& options) {
  if (backend_ != nullptr) {
    if (!update_options.collation.is_null()) return RemoteCollationRefused();
    return backend_->Update(filter, replacement, /*multi=*/false,
                            /*replacement_only=*/true, update_options, options);
  }
  return UpdateCall(engine_, name_, filter, replacement, "replacement",
                    /*multi=*/false, /*replacement_only=*/true, update_options,
                    options);
}

absl::StatusOr<int64_t> Collection::DeleteOne(const DocArg& filter,
                                              const WriteOptions& options) {
  return DeleteOne(filter, DeleteOptions(), options);
}

absl::StatusOr<int64_t> Collection::DeleteOne(
    const DocArg& filter, const DeleteOptions& delete_options,
    const WriteOptions& options) {
  if (backend_ != nullptr) {
    if (!delete_options.collation.is_null()) return RemoteCollationRefused();
    return backend_->Delete(filter, /*multi=*/false, options);
  }
  ASSIGN_OR_RETURN(Filter f, ParseFilterArg(engine_, name_, filter,
                                            delete_options.collation));
  WriteRequest req{WriteKind::kDelete};
  ASSIGN_OR_RETURN(UpdateResult r,
                   engine_->SyncIfRequested(
                       options, RunWrite(engine_, name_, f, req, options)));
  return r.modified_count;
}

absl::StatusOr<int64_t> Collection::DeleteMany(const DocArg& filter,
                                               const WriteOptions& options) {
  return DeleteMany(filter, DeleteOptions(), options);
}

absl::StatusOr<int64_t> Collection::DeleteMany(
    const DocArg& filter, const DeleteOptions& delete_options,
    const WriteOptions& options) {
  if (backend_ != nullptr) {
    if (!delete_options.collation.is_null()) return RemoteCollationRefused();
    return backend_->Delete(filter, /*multi=*/true, options);
  }
  ASSIGN_OR_RETURN(Filter f, ParseFilterArg(engine_, name_, filter,
                                            delete_options.collation));
  WriteRequest req{WriteKind::kDelete};
  req.multi = true;
  ASSIGN_OR_RETURN(UpdateResult r,
                   engine_->SyncIfRequested(
                       options, RunWrite(engine_, name_, f, req, options)));
  return r.modified_count;
}

absl::StatusOr<UpdateResult> Collection::Touch(const DocArg& filter,
                                               absl::string_view field,
                                               const WriteOptions& options) {
  if (backend_ != nullptr) return backend_->Touch(filter, field, options);
  ASSIGN_OR_RETURN(Filter f, ParseFilterArg(engine_, name_, filter, Value()));
  if (field.empty() || field[0] == '$' || field == "_id") {
    return MongoError(absl::StatusCode::kInvalidArgument, kBadValue,
                      absl::StrCat("Touch: invalid field '", field, "'"));
  }
  WriteRequest req{WriteKind::kTouch};
  req.multi = true;
  req.touch_field = std::string(field);
  return engine_->SyncIfRequested(options,
                                  RunWrite(engine_, name_, f, req, options));
}

// ---- Reads -----------------------------------------------------------------

absl::StatusOr<Value> Collection::FindById(const Value& id) {
  if (backend_ != nullptr) return backend_->FindById(id);
  RETURN_IF_ERROR(engine_->CheckCollection(name_));
  {
    ASSIGN_OR_RETURN(auto view, engine_->ResolveView(name_));
    if (view.has_value()) {
      // Through the view's pipeline, as a find of {_id: id}.
      Value f = Value::MakeObject(
          {Field("_id", Value::MakeObject({Field("$eq", id)}))});
      ASSIGN_OR_RETURN(std::optional<Value> doc, FindOne(f));
      if (!doc.has_value()) {
        return absl::NotFoundError(
            absl::StrCat("no document with _id ", ToJson(id), " in ", name_));
      }
      return *std::move(doc);
    }
  }
  auto state = engine_->GetState(name_);
  auto not_found = [&] {
    return absl::NotFoundError(
        absl::StrCat("no document with _id ", ToJson(id), " in ", name_));
  };
  if (state == nullptr) return not_found();
  // Decoded straight into the result (storage/document_reader.h).
  absl::StatusOr<Value> doc(absl::in_place);
  ASSIGN_OR_RETURN(bool found, engine_->reader().ReadInto(*state, EncodeId(id),
                                                          nullptr, &*doc));
  if (!found ||
      engine_->reader().IsHidden(*state, *doc, engine_->clock()->WallNow())) {
    return not_found();
  }
  return doc;
}

absl::StatusOr<std::string> Collection::FindByIdJson(const Value& id) {
  if (backend_ != nullptr) {
    // The deployment sends BSON: the document in the storage form's text.
    ASSIGN_OR_RETURN(Value doc, backend_->FindById(id));
    return ToJson(doc, JsonFormat::kStorage);
  }
  RETURN_IF_ERROR(engine_->CheckCollection(name_));
  {
    ASSIGN_OR_RETURN(auto view, engine_->ResolveView(name_));
    if (view.has_value()) {
      ASSIGN_OR_RETURN(Value doc, FindById(id));
      return ToJson(doc, JsonFormat::kStorage);
    }
  }
  auto state = engine_->GetState(name_);
  auto not_found = [&] {
    return absl::NotFoundError(
        absl::StrCat("no document with _id ", ToJson(id), " in ", name_));
  };
  if (state == nullptr) return not_found();
  std::string json;
  ASSIGN_OR_RETURN(bool found,
                   engine_->reader().ReadJson(*state, EncodeId(id), &json));
  if (!found) return not_found();
  ASSIGN_OR_RETURN(bool hidden, engine_->reader().IsHiddenJson(
                                    *state, json, engine_->clock()->WallNow()));
  if (hidden) return not_found();
  return json;
}

absl::Status Collection::CheckQuery(const Value& filter,
                                    const FindOptions& options) {
  return ParseQuery(filter, options).status();
}

absl::StatusOr<std::unique_ptr<Cursor>> Collection::Find(
    const DocArg& filter, const FindOptions& options) {
  if (backend_ != nullptr) {
    if (!options.collation.is_null()) return RemoteCollationRefused();
    return backend_->Find(filter, options);
  }
  RETURN_IF_ERROR(engine_->CheckCollection(name_));
  ASSIGN_OR_RETURN(Value f, ResolveArg(filter, "filter"));
  return FindLocal(engine_, name_, f, options, TopLevelFields::All());
}

absl::StatusOr<std::optional<Value>> Collection::FindOne(
    const DocArg& filter, const FindOptions& options) {
  FindOptions one = options;
  one.limit = 1;
  ASSIGN_OR_RETURN(auto cursor, Find(filter, one));
  return cursor->Next();
}

absl::StatusOr<int64_t> Collection::CountDocuments(const DocArg& filter) {
  if (backend_ != nullptr) return backend_->CountDocuments(filter);
  RETURN_IF_ERROR(engine_->CheckCollection(name_));
  ASSIGN_OR_RETURN(Value f, ResolveArg(filter, "filter"));
  {
    ASSIGN_OR_RETURN(auto view, engine_->ResolveView(name_));
    if (view.has_value()) {
      ASSIGN_OR_RETURN(auto cursor, Find(f));
      int64_t n = 0;
      while (true) {
        ASSIGN_OR_RETURN(std::optional<Value> doc, cursor->Next());
        if (!doc.has_value()) return n;
        ++n;
      }
    }
  }
  FindOptions opts;
  opts.projection = Value::MakeObject({Field("_id", Value::Int32(1))});
  std::shared_ptr<const CollectionState> state = engine_->GetState(name_);
  ASSIGN_OR_RETURN(Query q, ParseQuery(f, opts, state.get()));
  ASSIGN_OR_RETURN(auto cursor, engine_->live_cursors()->Open([&] {
    return ExecuteQuery(engine_, std::move(state), std::move(q),
                        engine_->clock()->WallNow());
  }));
  int64_t n = 0;
  while (true) {
    ASSIGN_OR_RETURN(std::optional<Value> doc, cursor->Next());
    if (!doc.has_value()) return n;
    ++n;
  }
}

absl::StatusOr<std::vector<Value>> Collection::Distinct(absl::string_view field,
                                                        const DocArg& filter) {
  return Distinct(field, filter, FindOptions());
}

absl::StatusOr<std::vector<Value>> Collection::Distinct(
    absl::string_view field, const DocArg& filter, const FindOptions& options) {
  if (backend_ != nullptr) {
    if (!options.collation.is_null()) return RemoteCollationRefused();
    return backend_->Distinct(field, filter);
  }
  if (field.empty() || field[0] == '$') {
    return MongoError(absl::StatusCode::kInvalidArgument, kBadValue,
                      absl::StrCat("distinct: invalid key '", field, "'"));
  }
  // 31032: query/parsed_distinct_command.cpp parseCanonicalQuery.
  if (field.find('\0') != absl::string_view::npos) {
    return MongoError(absl::StatusCode::kInvalidArgument, kDistinctKeyNullByte,
                      "Key field cannot contain an embedded null byte");
  }
  FindOptions find;
  find.collation = options.collation;
  ASSIGN_OR_RETURN(auto cursor, Find(filter, find));
  // Values equal in the collation are one value (the first met).
  std::shared_ptr<const CollectionState> state = engine_->GetState(name_);
  ASSIGN_OR_RETURN(std::shared_ptr<const Collator> collator,
                   ResolveCollation(options.collation, state.get()));
  const Collator* raw = collator.get();
  auto less = [raw](const Value& a, const Value& b) {
    return CompareValues(a, b, raw) < 0;
  };
  std::set<Value, decltype(less)> values(less);
  std::vector<const Value*> found;
  while (true) {
    ASSIGN_OR_RETURN(std::optional<Value> doc, cursor->Next());
    if (!doc.has_value()) break;
    found.clear();
    CollectPathValues(*doc, field, &found);
    for (const Value* v : found) {
      if (v->is_array()) {
        for (const Value& item : v->array_items()) values.insert(item);
      } else {
        values.insert(*v);
      }
    }
  }
  return std::vector<Value>(values.begin(), values.end());
}

absl::StatusOr<Value> Collection::Explain(const DocArg& filter,
                                          const FindOptions& options) {
  if (backend_ != nullptr) {
    if (!options.collation.is_null()) return RemoteCollationRefused();
    return backend_->Explain(filter, options);
  }
  RETURN_IF_ERROR(engine_->CheckCollection(name_));
  ASSIGN_OR_RETURN(Value f, ResolveArg(filter, "filter"));
  {
    // A find on a view is explained as the aggregate it runs.
    ASSIGN_OR_RETURN(auto view, engine_->ResolveView(name_));
    if (view.has_value()) {
      return engine_->collection(view->collection)
          .ExplainAggregate(FindAsViewPipeline(view->pipeline, f, options));
    }
  }
  auto state = engine_->GetState(name_);
  ASSIGN_OR_RETURN(Query q, ParseQuery(f, options, state.get()));
  const absl::Time now = engine_->clock()->WallNow();
  Value::Object plan_doc;
  if (state == nullptr) {
    plan_doc.emplace_back("stage", Value::String("EOF"));
  } else {
    const SortSpec* sort = q.sort.has_value() ? &*q.sort : nullptr;
    ASSIGN_OR_RETURN(QueryPlan plan, PlanQuery(*state, q.filter, sort, q.hint));
    SkipExpiredEntries(*engine_, now, &plan);
    // MongoDB's COLLSCAN and IXSCAN say which way they scan.
    const Value direction =
        Value::String(plan.backward ? "backward" : "forward");
    switch (plan.kind) {
      case QueryPlan::Kind::kCollectionScan:
        plan_doc.emplace_back("stage", Value::String("COLLSCAN"));
        plan_doc.emplace_back("direction", direction);
        break;
      case QueryPlan::Kind::kIdLookup:
        plan_doc.emplace_back("stage", Value::String("IDHACK"));
        break;
      case QueryPlan::Kind::kIndexScan: {
        plan_doc.emplace_back("stage", Value::String("IXSCAN"));
        plan_doc.emplace_back("indexName",
                              Value::String(plan.index_state->spec.name));
        Value::Object key;
        for (const auto& k : plan.index_state->spec.key) {
          key.emplace_back(k.path, k.hashed ? Value::String("hashed")
                                            : Value::Int32(k.direction));
        }
        plan_doc.emplace_back("keyPattern", Value::MakeObject(std::move(key)));
        plan_doc.emplace_back("isMultiKey",
                              Value::Bool(plan.index_state->multikey));
        plan_doc.emplace_back("direction", direction);
        plan_doc.emplace_back("indexBounds", plan.bounds);
        if (!plan.skipped_expired_bounds.is_null()) {
          // ttldb only: the expired entries hidden documents hold.
          plan_doc.emplace_back("skippedExpiredBounds",
                                plan.skipped_expired_bounds);
        }
        break;
      }
    }
    if (!plan.provides_sort) {
      // A blocking sort (MongoDB's SORT stage), with ttldb's reason why the
      // scan below could not provide the order.
      plan_doc = {
          Field("stage", Value::String("SORT")),
          Field("sortPattern", options.sort),
          Field("sortNotProvidedReason", Value::String(plan.sort_reason)),
          Field("inputStage", Value::MakeObject(std::move(plan_doc)))};
    }
  }
  ExecStats stats;
  ASSIGN_OR_RETURN(auto cursor, engine_->live_cursors()->Open([&] {
    return ExecuteQuery(engine_, state, std::move(q), now, &stats);
  }));
  while (true) {
    ASSIGN_OR_RETURN(std::optional<Value> doc, cursor->Next());
    if (!doc.has_value()) break;
  }
  return Value::MakeObject({
      Field("queryPlanner",
            Value::MakeObject({Field("namespace", Value::String(name_)),
                               Field("winningPlan",
                                     Value::MakeObject(std::move(plan_doc)))})),
      Field(
          "executionStats",
          Value::MakeObject(
              {Field("nReturned", Value::Int64(stats.returned)),
               Field("totalKeysExamined", Value::Int64(stats.keys_examined)),
               Field("totalDocsExamined", Value::Int64(stats.docs_examined))})),
  });
}

absl::StatusOr<ExpiryRules> Collection::TtlRules() {
  ASSIGN_OR_RETURN(std::vector<Value> specs, ListIndexes());
  return ExpiryRules::FromIndexSpecs(specs);
}

absl::StatusOr<std::optional<absl::Time>> Collection::ExpiresAt(
    const Value& doc) {
  ASSIGN_OR_RETURN(ExpiryRules rules, TtlRules());
  return rules.ExpiresAt(doc);
}

}  // namespace ttldb
