#include "remote/mongo_collection.h"

#include <mongoc/mongoc.h>

#include <algorithm>
#include <map>
#include <set>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "base/status.h"
#include "document/compare.h"
#include "remote/bson_doc.h"
#include "remote/mongo_change_stream.h"
#include "remote/mongo_cursor.h"
#include "remote/mongo_status.h"
#include "remote/reply.h"
#include "ttldb/duplicate_key_error.h"
#include "ttldb/json.h"

namespace ttldb {
namespace remote {
namespace {

// 60 s: MongoDB's ttlMonitorSleepSecs. A TTL index another client creates
// or changes is seen by the hidden-expired filters within one monitor
// period; this handle's own index calls refresh it at once.
constexpr absl::Duration kTtlRulesRefresh = absl::Seconds(60);

// 64: MongoDB's limit of indexes per collection. A document collides with
// at most one hidden holder per unique index, so a write that removes
// more holders than this for one document is not making progress.
constexpr int kMaxHolderRemovals = 64;

// The index options only ttldb has (docs/ttl.md, "Bounded lifetimes");
// MongoDB refuses them (197), so the backend names them instead.
constexpr const char* kTtldbOnlyIndexOptions[] = {"maxLifetimeSeconds",
                                                  "rejectExpired"};

// A collection handle on a client popped for one call.
class CollectionRef {
 public:
  static absl::StatusOr<CollectionRef> Open(const RemoteContext& context,
                                            const std::string& name) {
    ASSIGN_OR_RETURN(PooledClient client, PooledClient::Pop(context.pool));
    mongoc_collection_t* coll = mongoc_client_get_collection(
        client.get(), context.db_name.c_str(), name.c_str());
    return CollectionRef(std::move(client), coll);
  }
  CollectionRef(CollectionRef&& other) noexcept
      : client_(std::move(other.client_)), coll_(other.coll_) {
    other.coll_ = nullptr;
  }
  ~CollectionRef() {
    if (coll_ != nullptr) mongoc_collection_destroy(coll_);
  }
  mongoc_collection_t* get() const { return coll_; }
  PooledClient& client() { return client_; }

 private:
  CollectionRef(PooledClient client, mongoc_collection_t* coll)
      : client_(std::move(client)), coll_(coll) {}
  PooledClient client_;
  mongoc_collection_t* coll_;
};

absl::StatusOr<Value> ReplyValue(const Reply& reply) {
  return ToValue(reply.get());
}

int64_t Count(const Value& reply, absl::string_view name) {
  const Value* v = reply.is_object() ? reply.Get(name) : nullptr;
  return v != nullptr && v->is_number() ? static_cast<int64_t>(v->AsDouble())
                                        : 0;
}

bool IsEmptyObject(const Value& v) {
  return v.is_null() || (v.is_object() && v.object_fields().empty());
}

bool HasOperators(const Value& update) {
  return update.is_object() && !update.object_fields().empty() &&
         absl::StartsWith(update.object_fields()[0].first, "$");
}

// The document with an _id, generated (an ObjectId, first) when absent, as
// the embedded engine does: libmongoc would add one too but not return it.
Value WithId(Value doc, Value* id) {
  if (const Value* existing = doc.Get("_id"); existing != nullptr) {
    *id = *existing;
    return doc;
  }
  *id = Value::Oid(ObjectId::Generate());
  Value::Object fields;
  fields.reserve(doc.object_fields().size() + 1);
  fields.emplace_back("_id", *id);
  for (auto& f : doc.mutable_object_fields()) fields.push_back(std::move(f));
  return Value::MakeObject(std::move(fields));
}

absl::StatusOr<Value> ResolveObject(const DocArg& arg, absl::string_view what) {
  absl::StatusOr<Value> v = arg.Resolve();
  if (!v.ok()) {
    return MongoError(v.status().code(), ErrorCode(v.status()),
                      absl::StrCat(what, ": ", v.status().message()));
  }
  return v;
}

// The options of a write: bypassDocumentValidation, and for
// WriteOptions::sync the URI's write concern with j: true.
Value::Object WriteOpts(const RemoteContext& context,
                        const WriteOptions& options) {
  Value::Object opts;
  if (options.bypass_document_validation) {
    opts.emplace_back("bypassDocumentValidation", Value::Bool(true));
  }
  if (options.sync) {
    Value::Object wc;
    const mongoc_write_concern_t* uri_wc =
        mongoc_uri_get_write_concern(context.pool->uri());
    if (uri_wc != nullptr) {
      const int32_t w = mongoc_write_concern_get_w(uri_wc);
      if (mongoc_write_concern_get_wmajority(uri_wc)) {
        wc.emplace_back("w", Value::String("majority"));
      } else if (mongoc_write_concern_get_wtag(uri_wc) != nullptr) {
        wc.emplace_back("w",
                        Value::String(mongoc_write_concern_get_wtag(uri_wc)));
      } else if (w >= 0) {
        wc.emplace_back("w", Value::Int32(w));
      }
      const int64_t timeout = mongoc_write_concern_get_wtimeout_int64(uri_wc);
      if (timeout > 0) wc.emplace_back("wtimeout", Value::Int64(timeout));
    }
    wc.emplace_back("j", Value::Bool(true));
    opts.emplace_back("writeConcern", Value::MakeObject(std::move(wc)));
  }
  return opts;
}

absl::StatusOr<BsonDoc> OptsBson(Value::Object opts) {
  return BsonDoc::From(Value::MakeObject(std::move(opts)));
}

Value ArrayFilters(const std::vector<Value>& filters) {
  return Value::MakeArray(Value::Array(filters.begin(), filters.end()));
}

// The reply of a command without the fields the embedded engine's replies
// do not have.
Value StripReply(Value reply, bool keep_ok) {
  if (!reply.is_object()) return reply;
  if (!keep_ok) reply.Remove("ok");
  reply.Remove("$clusterTime");
  reply.Remove("operationTime");
  return reply;
}

// The aggregate command's options from AggregateOptions (the others are
// ttldb's: docs/migrating.md section 6).
Value AggregateOpts(const AggregateOptions& options) {
  Value::Object o;
  if (options.allow_disk_use) o.emplace_back("allowDiskUse", Value::Bool(true));
  if (options.bypass_document_validation) {
    o.emplace_back("bypassDocumentValidation", Value::Bool(true));
  }
  if (!options.let.is_null()) o.emplace_back("let", options.let);
  return Value::MakeObject(std::move(o));
}

}  // namespace

MongoCollection::MongoCollection(std::shared_ptr<const RemoteContext> context,
                                 std::string name)
    : context_(std::move(context)),
      name_(std::move(name)),
      name_status_(ValidateCollectionName(name_)) {}

void MongoCollection::InvalidateTtlRules() {
  MutexLock lock(&ttl_mu_);
  ttl_rules_.reset();
}

absl::StatusOr<std::vector<TtlRule>> MongoCollection::TtlRules() {
  const absl::Time now = absl::Now();
  {
    MutexLock lock(&ttl_mu_);
    if (ttl_rules_.has_value() && now - ttl_rules_time_ < kTtlRulesRefresh) {
      return *ttl_rules_;
    }
  }
  ASSIGN_OR_RETURN(std::vector<Value> indexes, ListIndexes());
  std::vector<TtlRule> rules = TtlRulesOf(indexes);
  MutexLock lock(&ttl_mu_);
  ttl_rules_ = rules;
  ttl_rules_time_ = now;
  return rules;
}

absl::StatusOr<Value> MongoCollection::VisibleFilter(const Value& filter) {
  if (!context_->hide_expired) return filter;
  ASSIGN_OR_RETURN(std::vector<TtlRule> rules, TtlRules());
  return WithVisibleCondition(filter, rules, context_->Now());
}

absl::StatusOr<bool> MongoCollection::RemoveExpiredHolder(
    const absl::Status& status, const WriteOptions& options) {
  if (!context_->hide_expired || ErrorCode(status) != kDuplicateKey) {
    return false;
  }
  std::optional<DuplicateKeyInfo> info = GetDuplicateKeyInfo(status);
  if (!info.has_value()) return false;
  ASSIGN_OR_RETURN(std::vector<TtlRule> rules, TtlRules());
  Value filter = ExpiredHolderFilter(info->key_value, rules, context_->Now());
  if (filter.is_null()) return false;
  ASSIGN_OR_RETURN(BsonDoc fb, BsonDoc::From(filter));
  ASSIGN_OR_RETURN(BsonDoc opts, OptsBson(WriteOpts(*context_, options)));
  ASSIGN_OR_RETURN(CollectionRef coll, CollectionRef::Open(*context_, name_));
  Reply reply;
  bson_error_t error;
  if (!mongoc_collection_delete_one(coll.get(), fb.get(), opts.get(),
                                    reply.out(), &error)) {
    return StatusFromMongoc(error, reply.get(), ns());
  }
  ASSIGN_OR_RETURN(Value r, ReplyValue(reply));
  return Count(r, "deletedCount") > 0;
}

absl::StatusOr<Value> MongoCollection::RunCommand(const Value& command,
                                                  bool keep_ok) {
  ASSIGN_OR_RETURN(BsonDoc cmd, BsonDoc::From(command));
  ASSIGN_OR_RETURN(PooledClient client, PooledClient::Pop(context_->pool));
  Reply reply;
  bson_error_t error;
  if (!mongoc_client_command_with_opts(client.get(), context_->db_name.c_str(),
                                       cmd.get(), nullptr, nullptr, reply.out(),
                                       &error)) {
    return StatusFromMongoc(error, reply.get(), ns());
  }
  ASSIGN_OR_RETURN(Value v, ReplyValue(reply));
  return StripReply(std::move(v), keep_ok);
}

// ---- Writes ----------------------------------------------------------------

absl::StatusOr<Value> MongoCollection::InsertOne(const DocArg& doc,
                                                 const WriteOptions& options) {
  RETURN_IF_ERROR(name_status_);
  ASSIGN_OR_RETURN(Value value, ResolveObject(doc, "document"));
  Value id;
  ASSIGN_OR_RETURN(BsonDoc b, BsonDoc::From(WithId(std::move(value), &id)));
  ASSIGN_OR_RETURN(BsonDoc opts, OptsBson(WriteOpts(*context_, options)));
  for (int removed = 0;; ++removed) {
    absl::Status s;
    {
      ASSIGN_OR_RETURN(CollectionRef coll,
                       CollectionRef::Open(*context_, name_));
      Reply reply;
      bson_error_t error;
      if (mongoc_collection_insert_one(coll.get(), b.get(), opts.get(),
                                       reply.out(), &error)) {
        return id;
      }
      s = StatusFromMongoc(error, reply.get(), ns());
    }
    if (removed == kMaxHolderRemovals) return s;
    ASSIGN_OR_RETURN(bool again, RemoveExpiredHolder(s, options));
    if (!again) return s;
  }
}

absl::Status MongoCollection::InsertMany(absl::Span<const DocArg> docs,
                                         std::vector<Value>* inserted_ids,
                                         const WriteOptions& options) {
  RETURN_IF_ERROR(name_status_);
  if (docs.empty()) return absl::OkStatus();
  std::vector<Value> ids(docs.size());
  std::vector<BsonDoc> bsons;
  bsons.reserve(docs.size());
  for (size_t i = 0; i < docs.size(); ++i) {
    absl::StatusOr<Value> v = docs[i].Resolve();
    if (!v.ok()) {
      return MongoError(
          v.status().code(), ErrorCode(v.status()),
          absl::StrCat("document ", i, ": ", v.status().message()));
    }
    ASSIGN_OR_RETURN(BsonDoc b, BsonDoc::From(WithId(std::move(*v), &ids[i])));
    bsons.push_back(std::move(b));
  }
  std::vector<const bson_t*> ptrs;
  ptrs.reserve(bsons.size());
  for (const BsonDoc& b : bsons) ptrs.push_back(b.get());
  ASSIGN_OR_RETURN(BsonDoc opts, OptsBson(WriteOpts(*context_, options)));
  // Ordered: the documents before a failing one are inserted. `done`
  // documents are in; after the removal of a hidden holder, the rest run
  // again from the one that collided.
  size_t done = 0;
  absl::Status s;
  for (int removed = 0;; ++removed) {
    {
      ASSIGN_OR_RETURN(CollectionRef coll,
                       CollectionRef::Open(*context_, name_));
      Reply reply;
      bson_error_t error;
      if (mongoc_collection_insert_many(coll.get(), ptrs.data() + done,
                                        ptrs.size() - done, opts.get(),
                                        reply.out(), &error)) {
        done = ptrs.size();
        break;
      }
      s = StatusFromMongoc(error, reply.get(), ns());
      absl::StatusOr<Value> r = ReplyValue(reply);
      if (r.ok()) done += static_cast<size_t>(Count(*r, "insertedCount"));
    }
    if (removed == kMaxHolderRemovals * static_cast<int>(docs.size())) break;
    absl::StatusOr<bool> again = RemoveExpiredHolder(s, options);
    if (!again.ok()) {
      s = again.status();
      break;
    }
    if (!*again) break;
    s = absl::OkStatus();
  }
  if (inserted_ids != nullptr) {
    for (size_t i = 0; i < done && i < ids.size(); ++i) {
      inserted_ids->push_back(std::move(ids[i]));
    }
  }
  if (s.ok()) return s;
  // The embedded engine's wording, payloads (keyPattern, keyValue) kept.
  absl::Status out =
      MongoError(s.code(), ErrorCode(s),
                 absl::StrCat(s.message(), " (document ", done, "; ", done,
                              " inserted before it)"));
  s.ForEachPayload([&out](absl::string_view url, const absl::Cord& payload) {
    out.SetPayload(url, payload);
  });
  return out;
}

absl::StatusOr<UpdateResult> MongoCollection::Update(
    const DocArg& filter, const DocArg& update, bool multi,
    bool replacement_only, const UpdateOptions& update_options,
    const WriteOptions& options) {
  RETURN_IF_ERROR(name_status_);
  ASSIGN_OR_RETURN(Value f, ResolveObject(filter, "filter"));
  ASSIGN_OR_RETURN(Value u, update.ResolveAny());
  ASSIGN_OR_RETURN(f, VisibleFilter(f));
  const bool pipeline = u.is_array();
  const bool replacement = !pipeline && !HasOperators(u);
  if (replacement_only && HasOperators(u)) {
    return MongoError(absl::StatusCode::kInvalidArgument, kFailedToParse,
                      "Replacement document must not use atomic operators");
  }
  if (multi && replacement) {
    return MongoError(absl::StatusCode::kInvalidArgument, kFailedToParse,
                      "multi update is not supported for replacement-style "
                      "update");
  }
  // libmongoc's update helpers take `let` but no statement constants.
  if (!update_options.constants.is_null() || update_options.upsert_supplied) {
    return MongoError(absl::StatusCode::kUnimplemented, kNotImplemented,
                      "ttldb does not send an update's constants (c) or "
                      "upsertSupplied to a MongoDB deployment");
  }
  Value::Object o = WriteOpts(*context_, options);
  if (update_options.upsert) o.emplace_back("upsert", Value::Bool(true));
  if (!update_options.array_filters.empty()) {
    o.emplace_back("arrayFilters", ArrayFilters(update_options.array_filters));
  }
  if (update_options.let.is_object()) o.emplace_back("let", update_options.let);
  ASSIGN_OR_RETURN(BsonDoc fb, BsonDoc::From(f));
  ASSIGN_OR_RETURN(BsonDoc ub,
                   pipeline ? BsonDoc::FromArray(u) : BsonDoc::From(u));
  ASSIGN_OR_RETURN(BsonDoc opts, OptsBson(std::move(o)));
  Value r;
  for (int removed = 0;; ++removed) {
    absl::Status s;
    {
      ASSIGN_OR_RETURN(CollectionRef coll,
                       CollectionRef::Open(*context_, name_));
      Reply reply;
      bson_error_t error;
      bool ok;
      if (replacement) {
        ok = mongoc_collection_replace_one(coll.get(), fb.get(), ub.get(),
                                           opts.get(), reply.out(), &error);
      } else if (multi) {
        ok = mongoc_collection_update_many(coll.get(), fb.get(), ub.get(),
                                           opts.get(), reply.out(), &error);
      } else {
        ok = mongoc_collection_update_one(coll.get(), fb.get(), ub.get(),
                                          opts.get(), reply.out(), &error);
      }
      if (ok) {
        ASSIGN_OR_RETURN(r, ReplyValue(reply));
        break;
      }
      s = StatusFromMongoc(error, reply.get(), ns());
    }
    // Not a multi update: one that failed part way has written its first
    // documents (MongoDB's updates are atomic per document), and running
    // it again would update them twice ($inc); it fails with 11000 as on
    // MongoDB (docs/migrating.md section 6).
    if (multi || removed == kMaxHolderRemovals) return s;
    ASSIGN_OR_RETURN(bool again, RemoveExpiredHolder(s, options));
    if (!again) return s;
  }
  UpdateResult result;
  result.matched_count = Count(r, "matchedCount");
  result.modified_count = Count(r, "modifiedCount");
  if (const Value* id = r.Get("upsertedId"); id != nullptr) {
    result.upserted_id = *id;
  }
  return result;
}

absl::StatusOr<int64_t> MongoCollection::Delete(const DocArg& filter,
                                                bool multi,
                                                const WriteOptions& options) {
  RETURN_IF_ERROR(name_status_);
  ASSIGN_OR_RETURN(Value f, ResolveObject(filter, "filter"));
  ASSIGN_OR_RETURN(f, VisibleFilter(f));
  ASSIGN_OR_RETURN(BsonDoc fb, BsonDoc::From(f));
  ASSIGN_OR_RETURN(BsonDoc opts, OptsBson(WriteOpts(*context_, options)));
  ASSIGN_OR_RETURN(CollectionRef coll, CollectionRef::Open(*context_, name_));
  Reply reply;
  bson_error_t error;
  const bool ok =
      multi ? mongoc_collection_delete_many(coll.get(), fb.get(), opts.get(),
                                            reply.out(), &error)
            : mongoc_collection_delete_one(coll.get(), fb.get(), opts.get(),
                                           reply.out(), &error);
  if (!ok) return StatusFromMongoc(error, reply.get(), ns());
  ASSIGN_OR_RETURN(Value r, ReplyValue(reply));
  return Count(r, "deletedCount");
}

absl::StatusOr<std::optional<Value>> MongoCollection::FindOneAndModify(
    absl::string_view kind, const DocArg& filter, const DocArg* update,
    const FindOneAndModifyOptions& fam, const WriteOptions& options) {
  RETURN_IF_ERROR(name_status_);
  ASSIGN_OR_RETURN(Value f, ResolveObject(filter, "filter"));
  ASSIGN_OR_RETURN(f, VisibleFilter(f));
  // The findAndModify command's own checks, as the embedded engine words
  // them (find_and_modify.cc).
  const bool remove = kind == "delete";
  if (remove && fam.return_new) {
    return MongoError(absl::StatusCode::kInvalidArgument, kFailedToParse,
                      "Cannot specify both new=true and remove=true; "
                      "'remove' always returns the deleted document");
  }
  if (remove && fam.upsert) {
    return MongoError(absl::StatusCode::kInvalidArgument, kFailedToParse,
                      "Cannot specify both upsert=true and remove=true");
  }
  if (remove && !fam.array_filters.empty()) {
    return MongoError(absl::StatusCode::kInvalidArgument, kFailedToParse,
                      "Cannot specify arrayFilters and remove=true");
  }
  Value u;
  if (!remove) {
    ASSIGN_OR_RETURN(u, ResolveObject(*update, "update"));
    if (kind == "replace" && HasOperators(u)) {
      return MongoError(absl::StatusCode::kInvalidArgument, kFailedToParse,
                        "Replacement document must not use atomic operators");
    }
  }
  // mongoc_collection_find_and_modify_with_opts: a retryable write.
  struct FamOptsDeleter {
    void operator()(mongoc_find_and_modify_opts_t* o) const {
      mongoc_find_and_modify_opts_destroy(o);
    }
  };
  std::unique_ptr<mongoc_find_and_modify_opts_t, FamOptsDeleter> opts(
      mongoc_find_and_modify_opts_new());
  std::optional<BsonDoc> sort, fields, ub;
  if (!IsEmptyObject(fam.sort)) {
    ASSIGN_OR_RETURN(sort, BsonDoc::From(fam.sort));
    mongoc_find_and_modify_opts_set_sort(opts.get(), sort->get());
  }
  if (!IsEmptyObject(fam.projection)) {
    ASSIGN_OR_RETURN(fields, BsonDoc::From(fam.projection));
    mongoc_find_and_modify_opts_set_fields(opts.get(), fields->get());
  }
  int flags = MONGOC_FIND_AND_MODIFY_NONE;
  if (remove) {
    flags |= MONGOC_FIND_AND_MODIFY_REMOVE;
  } else {
    ASSIGN_OR_RETURN(ub, BsonDoc::From(u));
    mongoc_find_and_modify_opts_set_update(opts.get(), ub->get());
    if (fam.return_new) flags |= MONGOC_FIND_AND_MODIFY_RETURN_NEW;
    if (fam.upsert) flags |= MONGOC_FIND_AND_MODIFY_UPSERT;
  }
  mongoc_find_and_modify_opts_set_flags(
      opts.get(), static_cast<mongoc_find_and_modify_flags_t>(flags));
  Value::Object extra = WriteOpts(*context_, options);
  if (!remove && !fam.array_filters.empty()) {
    extra.emplace_back("arrayFilters", ArrayFilters(fam.array_filters));
  }
  ASSIGN_OR_RETURN(BsonDoc eb, OptsBson(std::move(extra)));
  mongoc_find_and_modify_opts_append(opts.get(), eb.get());
  ASSIGN_OR_RETURN(BsonDoc fb, BsonDoc::From(f));
  Value r;
  for (int removed = 0;; ++removed) {
    absl::Status s;
    {
      ASSIGN_OR_RETURN(CollectionRef coll,
                       CollectionRef::Open(*context_, name_));
      Reply reply;
      bson_error_t error;
      if (mongoc_collection_find_and_modify_with_opts(
              coll.get(), fb.get(), opts.get(), reply.out(), &error)) {
        ASSIGN_OR_RETURN(r, ReplyValue(reply));
        break;
      }
      s = StatusFromMongoc(error, reply.get(), ns());
    }
    if (removed == kMaxHolderRemovals) return s;
    ASSIGN_OR_RETURN(bool again, RemoveExpiredHolder(s, options));
    if (!again) return s;
  }
  const Value* value = r.Get("value");
  if (value == nullptr || value->is_null()) return std::optional<Value>();
  return std::optional<Value>(*value);
}

absl::StatusOr<BulkWriteResult> MongoCollection::RunBulk(
    absl::Span<const WriteModel> ops, const std::vector<Value>& insert_docs,
    const std::vector<size_t>& which, bool ordered, const WriteOptions& options,
    std::map<int64_t, absl::Status>* statuses) {
  Value::Object o = WriteOpts(*context_, options);
  o.emplace_back("ordered", Value::Bool(ordered));
  ASSIGN_OR_RETURN(BsonDoc opts, OptsBson(std::move(o)));
  // The filters first: VisibleFilter may list the indexes, on a client of
  // its own, and this call must not hold two (maxPoolSize=1 would wait
  // for itself).
  std::vector<Value> filters(which.size());
  for (size_t k = 0; k < which.size(); ++k) {
    const WriteModel& op = ops[which[k]];
    if (op.kind == WriteModel::Kind::kInsertOne) continue;
    ASSIGN_OR_RETURN(filters[k], VisibleFilter(op.filter));
  }
  ASSIGN_OR_RETURN(CollectionRef coll, CollectionRef::Open(*context_, name_));
  mongoc_bulk_operation_t* bulk =
      mongoc_collection_create_bulk_operation_with_opts(coll.get(), opts.get());
  struct BulkDeleter {
    void operator()(mongoc_bulk_operation_t* b) const {
      mongoc_bulk_operation_destroy(b);
    }
  };
  std::unique_ptr<mongoc_bulk_operation_t, BulkDeleter> owned(bulk);
  // (position in this bulk, _id) of its inserts.
  std::vector<std::pair<int64_t, Value>> insert_ids;
  for (size_t k = 0; k < which.size(); ++k) {
    const size_t i = which[k];
    const WriteModel& op = ops[i];
    bson_error_t error;
    bool ok = true;
    if (op.kind == WriteModel::Kind::kInsertOne) {
      ASSIGN_OR_RETURN(BsonDoc d, BsonDoc::From(insert_docs[i]));
      insert_ids.emplace_back(static_cast<int64_t>(k),
                              *insert_docs[i].Get("_id"));
      ok = mongoc_bulk_operation_insert_with_opts(bulk, d.get(), nullptr,
                                                  &error);
    } else {
      ASSIGN_OR_RETURN(BsonDoc fb, BsonDoc::From(filters[k]));
      Value::Object uo;
      if (op.upsert) uo.emplace_back("upsert", Value::Bool(true));
      if (!op.array_filters.empty()) {
        uo.emplace_back("arrayFilters", ArrayFilters(op.array_filters));
      }
      ASSIGN_OR_RETURN(BsonDoc ob, OptsBson(std::move(uo)));
      switch (op.kind) {
        case WriteModel::Kind::kUpdateOne:
        case WriteModel::Kind::kUpdateMany:
        case WriteModel::Kind::kReplaceOne: {
          ASSIGN_OR_RETURN(BsonDoc ub, op.update.is_array()
                                           ? BsonDoc::FromArray(op.update)
                                           : BsonDoc::From(op.update));
          if (op.kind == WriteModel::Kind::kReplaceOne ||
              (op.kind == WriteModel::Kind::kUpdateOne &&
               !op.update.is_array() && !HasOperators(op.update))) {
            ok = mongoc_bulk_operation_replace_one_with_opts(
                bulk, fb.get(), ub.get(), ob.get(), &error);
          } else if (op.kind == WriteModel::Kind::kUpdateOne) {
            ok = mongoc_bulk_operation_update_one_with_opts(
                bulk, fb.get(), ub.get(), ob.get(), &error);
          } else {
            ok = mongoc_bulk_operation_update_many_with_opts(
                bulk, fb.get(), ub.get(), ob.get(), &error);
          }
          break;
        }
        case WriteModel::Kind::kDeleteOne:
          ok = mongoc_bulk_operation_remove_one_with_opts(bulk, fb.get(),
                                                          nullptr, &error);
          break;
        case WriteModel::Kind::kDeleteMany:
          ok = mongoc_bulk_operation_remove_many_with_opts(bulk, fb.get(),
                                                           nullptr, &error);
          break;
        case WriteModel::Kind::kInsertOne:
          break;
      }
    }
    if (!ok) {
      return MongoError(absl::StatusCode::kInvalidArgument, kBadValue,
                        absl::StrCat("operation ", i, ": ", error.message));
    }
  }
  Reply reply;
  bson_error_t error;
  const uint32_t ok = mongoc_bulk_operation_execute(bulk, reply.out(), &error);
  ASSIGN_OR_RETURN(Value r, ReplyValue(reply));
  // Positions in this bulk are `which`'s; the result speaks of `ops`'.
  auto caller_index = [&which](int64_t k) {
    return k >= 0 && static_cast<size_t>(k) < which.size()
               ? static_cast<int64_t>(which[static_cast<size_t>(k)])
               : k;
  };
  BulkWriteResult result;
  std::set<int64_t> failed;
  if (const Value* errors = r.Get("writeErrors");
      errors != nullptr && errors->is_array()) {
    for (const Value& e : errors->array_items()) {
      absl::Status s = StatusFromErrorDocument(e, ns());
      const int64_t k = Count(e, "index");
      failed.insert(k);
      result.write_errors.push_back(
          {caller_index(k), ErrorCode(s), std::string(s.message())});
      (*statuses)[caller_index(k)] = std::move(s);
    }
  }
  if (ok == 0 && result.write_errors.empty()) {
    return StatusFromMongoc(error, reply.get(), ns());
  }
  result.inserted_count = Count(r, "nInserted");
  result.matched_count = Count(r, "nMatched");
  result.modified_count = Count(r, "nModified");
  result.deleted_count = Count(r, "nRemoved");
  result.upserted_count = Count(r, "nUpserted");
  const int64_t first_failed = failed.empty() ? INT64_MAX : *failed.begin();
  for (auto& [k, id] : insert_ids) {
    if (failed.count(k) > 0 || (ordered && k > first_failed)) continue;
    result.inserted_ids.emplace_back(caller_index(k), std::move(id));
  }
  if (const Value* ups = r.Get("upserted"); ups != nullptr && ups->is_array()) {
    for (const Value& u : ups->array_items()) {
      const Value* id = u.Get("_id");
      result.upserted_ids.emplace_back(caller_index(Count(u, "index")),
                                       id != nullptr ? *id : Value::Null());
    }
  }
  return result;
}

absl::StatusOr<BulkWriteResult> MongoCollection::BulkWrite(
    absl::Span<const WriteModel> ops, bool ordered,
    const WriteOptions& options) {
  RETURN_IF_ERROR(name_status_);
  // The inserts' documents with their _ids, generated once (a run again
  // after a hidden holder's removal inserts the same _id).
  std::vector<Value> insert_docs(ops.size());
  for (size_t i = 0; i < ops.size(); ++i) {
    if (ops[i].kind != WriteModel::Kind::kInsertOne) continue;
    Value id;
    insert_docs[i] = WithId(ops[i].document, &id);
  }
  std::vector<size_t> which(ops.size());
  for (size_t i = 0; i < ops.size(); ++i) which[i] = i;
  BulkWriteResult total;
  const size_t max_rounds = kMaxHolderRemovals * (ops.size() + 1);
  for (size_t round = 0;; ++round) {
    std::map<int64_t, absl::Status> statuses;
    ASSIGN_OR_RETURN(BulkWriteResult r, RunBulk(ops, insert_docs, which,
                                                ordered, options, &statuses));
    total.inserted_count += r.inserted_count;
    total.matched_count += r.matched_count;
    total.modified_count += r.modified_count;
    total.deleted_count += r.deleted_count;
    total.upserted_count += r.upserted_count;
    for (auto& p : r.inserted_ids) total.inserted_ids.push_back(std::move(p));
    for (auto& p : r.upserted_ids) total.upserted_ids.push_back(std::move(p));
    // The operations that collided with a hidden holder, removed: they run
    // again (ordered: with every operation after them), as the embedded
    // engine's remove the holder instead of failing. Not an updateMany's:
    // it may have updated documents before it failed (Update's comment).
    std::vector<int64_t> again;
    for (BulkWriteError& e : r.write_errors) {
      const WriteModel::Kind kind = ops[static_cast<size_t>(e.index)].kind;
      bool removed = false;
      if (kind != WriteModel::Kind::kUpdateMany && round < max_rounds) {
        ASSIGN_OR_RETURN(removed,
                         RemoveExpiredHolder(statuses[e.index], options));
      }
      if (removed) {
        again.push_back(e.index);
      } else {
        total.write_errors.push_back(std::move(e));
      }
    }
    if (again.empty()) break;
    if (ordered) {
      // One error at most: the rest of the list from it.
      auto from = std::find(which.begin(), which.end(),
                            static_cast<size_t>(again.front()));
      which.erase(which.begin(), from);
    } else {
      which.assign(again.begin(), again.end());
    }
    if (which.empty()) break;  // (not reached: `again` is in `which`)
  }
  auto by_index = [](const auto& a, const auto& b) {
    return a.first < b.first;
  };
  std::sort(total.inserted_ids.begin(), total.inserted_ids.end(), by_index);
  std::sort(total.upserted_ids.begin(), total.upserted_ids.end(), by_index);
  std::sort(total.write_errors.begin(), total.write_errors.end(),
            [](const BulkWriteError& a, const BulkWriteError& b) {
              return a.index < b.index;
            });
  return total;
}

absl::StatusOr<UpdateResult> MongoCollection::Touch(
    const DocArg& filter, absl::string_view field,
    const WriteOptions& options) {
  RETURN_IF_ERROR(name_status_);
  if (field.empty() || field[0] == '$' || field == "_id") {
    return MongoError(absl::StatusCode::kInvalidArgument, kBadValue,
                      absl::StrCat("Touch: invalid field '", field, "'"));
  }
  const std::string f(field);
  if (context_->touch_min_interval <= absl::ZeroDuration()) {
    // MongoDB's counterpart: {$currentDate: {field: true}}.
    Value update = Value::MakeObject({Field(
        "$currentDate", Value::MakeObject({Field(f, Value::Bool(true))}))});
    return Update(filter, std::move(update), /*multi=*/true,
                  /*replacement_only=*/false, {}, options);
  }
  // With touch_min_interval: the update rewrites only the dates older than
  // the interval ({field: {$not: {$gte: now - interval}}}: older, missing
  // or not a date, as the engine's rule), and a count adds the skipped ones
  // to matched_count, as the engine counts them (counted first, so that
  // what the update refreshes is not counted twice; two commands, not one
  // step: a document can change between them; ttldb does not support the
  // pipeline update that would do it in one).
  ASSIGN_OR_RETURN(Value fv, ResolveObject(filter, "filter"));
  const Value cutoff = Value::Date(
      absl::ToUnixMillis(context_->Now() - context_->touch_min_interval));
  Value fresh =
      Value::MakeObject({Field(f, Value::MakeObject({Field("$gte", cutoff)}))});
  Value stale = Value::MakeObject(
      {Field(f, Value::MakeObject({Field(
                    "$not", Value::MakeObject({Field("$gte", cutoff)}))}))});
  Value update = Value::MakeObject({Field(
      "$currentDate", Value::MakeObject({Field(f, Value::Bool(true))}))});
  ASSIGN_OR_RETURN(int64_t skipped,
                   CountDocuments(Value::MakeObject({Field(
                       "$and", Value::MakeArray({fv, std::move(fresh)}))})));
  ASSIGN_OR_RETURN(
      UpdateResult result,
      Update(Value::MakeObject(
                 {Field("$and", Value::MakeArray({fv, std::move(stale)}))}),
             std::move(update), /*multi=*/true,
             /*replacement_only=*/false, {}, options));
  result.matched_count += skipped;
  return result;
}

// ---- Reads -----------------------------------------------------------------

absl::StatusOr<std::unique_ptr<Cursor>> MongoCollection::OpenCursor(
    bool aggregate, const Value& what, const Value& opts) {
  ASSIGN_OR_RETURN(BsonDoc wb,
                   aggregate ? BsonDoc::FromArray(what) : BsonDoc::From(what));
  ASSIGN_OR_RETURN(BsonDoc ob, BsonDoc::From(opts));
  ASSIGN_OR_RETURN(CollectionRef coll, CollectionRef::Open(*context_, name_));
  mongoc_cursor_t* cursor =
      aggregate ? mongoc_collection_aggregate(coll.get(), MONGOC_QUERY_NONE,
                                              wb.get(), ob.get(), nullptr)
                : mongoc_collection_find_with_opts(coll.get(), wb.get(),
                                                   ob.get(), nullptr);
  // The cursor keeps the client (a cursor runs on the client that opened
  // it), not the collection handle.
  auto out = std::make_unique<MongoCursor>(
      context_->pool, coll.client().Release(), cursor, ns());
  // The first batch now, so that a bad filter or pipeline fails here, as
  // the embedded Find and Aggregate fail, and not at the first Next.
  RETURN_IF_ERROR(out->Prime());
  return std::unique_ptr<Cursor>(std::move(out));
}

absl::StatusOr<Value> MongoCollection::FindById(const Value& id) {
  RETURN_IF_ERROR(name_status_);
  FindOptions one;
  one.limit = 1;
  ASSIGN_OR_RETURN(std::unique_ptr<Cursor> cursor,
                   Find(Value::MakeObject({Field("_id", id)}), one));
  ASSIGN_OR_RETURN(std::optional<Value> doc, cursor->Next());
  if (!doc.has_value()) {
    return absl::NotFoundError(
        absl::StrCat("no document with _id ", ToJson(id), " in ", name_));
  }
  return std::move(*doc);
}

absl::StatusOr<std::unique_ptr<Cursor>> MongoCollection::Find(
    const DocArg& filter, const FindOptions& options) {
  RETURN_IF_ERROR(name_status_);
  ASSIGN_OR_RETURN(Value f, ResolveObject(filter, "filter"));
  ASSIGN_OR_RETURN(f, VisibleFilter(f));
  Value::Object o;
  if (!IsEmptyObject(options.projection)) {
    o.emplace_back("projection", options.projection);
  }
  if (!IsEmptyObject(options.sort)) o.emplace_back("sort", options.sort);
  if (options.skip != 0) o.emplace_back("skip", Value::Int64(options.skip));
  if (options.limit != 0) o.emplace_back("limit", Value::Int64(options.limit));
  if (options.allow_disk_use) o.emplace_back("allowDiskUse", Value::Bool(true));
  if (options.batch_size > 0) {
    o.emplace_back("batchSize", Value::Int64(options.batch_size));
  }
  if (!options.hint.empty()) {
    o.emplace_back("hint", Value::String(options.hint));
  } else if (!IsEmptyObject(options.hint_keys)) {
    o.emplace_back("hint", options.hint_keys);
  }
  // find's min / max / returnKey / showRecordId, MongoDB's own.
  if (!IsEmptyObject(options.min)) o.emplace_back("min", options.min);
  if (!IsEmptyObject(options.max)) o.emplace_back("max", options.max);
  if (options.return_key) o.emplace_back("returnKey", Value::Bool(true));
  if (options.show_record_id) {
    o.emplace_back("showRecordId", Value::Bool(true));
  }
  return OpenCursor(/*aggregate=*/false, f, Value::MakeObject(std::move(o)));
}

absl::StatusOr<int64_t> MongoCollection::CountDocuments(const DocArg& filter) {
  RETURN_IF_ERROR(name_status_);
  ASSIGN_OR_RETURN(Value f, ResolveObject(filter, "filter"));
  ASSIGN_OR_RETURN(f, VisibleFilter(f));
  ASSIGN_OR_RETURN(BsonDoc fb, BsonDoc::From(f));
  ASSIGN_OR_RETURN(CollectionRef coll, CollectionRef::Open(*context_, name_));
  Reply reply;
  bson_error_t error;
  const int64_t n = mongoc_collection_count_documents(
      coll.get(), fb.get(), nullptr, nullptr, reply.out(), &error);
  if (n < 0) return StatusFromMongoc(error, reply.get(), ns());
  return n;
}

absl::StatusOr<int64_t> MongoCollection::EstimatedDocumentCount() {
  RETURN_IF_ERROR(name_status_);
  ASSIGN_OR_RETURN(CollectionRef coll, CollectionRef::Open(*context_, name_));
  Reply reply;
  bson_error_t error;
  const int64_t n = mongoc_collection_estimated_document_count(
      coll.get(), nullptr, nullptr, reply.out(), &error);
  if (n < 0) return StatusFromMongoc(error, reply.get(), ns());
  return n;
}

absl::StatusOr<std::vector<Value>> MongoCollection::Distinct(
    absl::string_view field, const DocArg& filter) {
  RETURN_IF_ERROR(name_status_);
  if (field.empty() || field[0] == '$') {
    return MongoError(absl::StatusCode::kInvalidArgument, kBadValue,
                      absl::StrCat("distinct: invalid key '", field, "'"));
  }
  ASSIGN_OR_RETURN(Value f, ResolveObject(filter, "filter"));
  ASSIGN_OR_RETURN(f, VisibleFilter(f));
  ASSIGN_OR_RETURN(
      Value r, RunCommand(Value::MakeObject(
                              {Field("distinct", Value::String(name_)),
                               Field("key", Value::String(std::string(field))),
                               Field("query", f)}),
                          /*keep_ok=*/false));
  std::vector<Value> values;
  if (const Value* v = r.Get("values"); v != nullptr && v->is_array()) {
    values = v->array_items();
  }
  // MongoDB's sort order, as the embedded engine returns them.
  std::sort(values.begin(), values.end(), ValueLess());
  return values;
}

absl::StatusOr<Value> MongoCollection::Explain(const DocArg& filter,
                                               const FindOptions& options) {
  RETURN_IF_ERROR(name_status_);
  ASSIGN_OR_RETURN(Value f, ResolveObject(filter, "filter"));
  ASSIGN_OR_RETURN(f, VisibleFilter(f));
  Value::Object find = {Field("find", Value::String(name_)),
                        Field("filter", f)};
  if (!IsEmptyObject(options.sort)) find.emplace_back("sort", options.sort);
  if (!IsEmptyObject(options.projection)) {
    find.emplace_back("projection", options.projection);
  }
  if (options.skip != 0) find.emplace_back("skip", Value::Int64(options.skip));
  if (options.limit != 0) {
    find.emplace_back("limit", Value::Int64(options.limit));
  }
  if (!options.hint.empty()) {
    find.emplace_back("hint", Value::String(options.hint));
  } else if (!IsEmptyObject(options.hint_keys)) {
    find.emplace_back("hint", options.hint_keys);
  }
  return RunCommand(
      Value::MakeObject({Field("explain", Value::MakeObject(std::move(find))),
                         Field("verbosity", Value::String("executionStats"))}),
      /*keep_ok=*/false);
}

absl::StatusOr<Value> MongoCollection::VisiblePipeline(const DocArg& pipeline) {
  ASSIGN_OR_RETURN(Value p, pipeline.ResolveAny());
  if (!p.is_array()) {
    return MongoError(absl::StatusCode::kInvalidArgument, kTypeMismatch,
                      "'pipeline' option must be specified as an array");
  }
  if (!context_->hide_expired) return p;
  // hide_expired: a leading $match with the visible condition, unless the
  // first stage must stay first ($documents, $collStats, $indexStats,
  // $changeStream, $geoNear, $search...: a stage whose name MongoDB
  // requires first, detected by the set below).
  static const std::set<std::string> kFirstOnly = {
      "$documents", "$collStats", "$indexStats", "$changeStream",
      "$geoNear",   "$search",    "$currentOp",  "$listSessions"};
  const Value::Array& stages = p.array_items();
  const bool first_only =
      !stages.empty() && stages[0].is_object() &&
      !stages[0].object_fields().empty() &&
      kFirstOnly.count(stages[0].object_fields()[0].first) > 0;
  if (first_only) return p;
  ASSIGN_OR_RETURN(Value visible, VisibleFilter(Value::MakeObject()));
  if (IsEmptyObject(visible)) return p;
  Value::Array with_match;
  with_match.reserve(stages.size() + 1);
  with_match.push_back(Value::MakeObject({Field("$match", visible)}));
  for (const Value& s : stages) with_match.push_back(s);
  return Value::MakeArray(std::move(with_match));
}

absl::StatusOr<std::unique_ptr<Cursor>> MongoCollection::Aggregate(
    const DocArg& pipeline, const AggregateOptions& options) {
  RETURN_IF_ERROR(name_status_);
  ASSIGN_OR_RETURN(Value p, VisiblePipeline(pipeline));
  return OpenCursor(/*aggregate=*/true, p, AggregateOpts(options));
}

// MongoDB's explain command of the aggregate Aggregate would run (the
// hidden-expired $match included): {explain: {aggregate, pipeline, cursor:
// {}, ...options}, verbosity: "queryPlanner"}, as the embedded
// ExplainAggregate, which runs nothing, reports the plan only. Nothing
// runs: an explained $out / $merge writes nothing.
absl::StatusOr<Value> MongoCollection::ExplainAggregate(
    const DocArg& pipeline, const AggregateOptions& options) {
  RETURN_IF_ERROR(name_status_);
  ASSIGN_OR_RETURN(Value p, VisiblePipeline(pipeline));
  Value::Object aggregate = {Field("aggregate", Value::String(name_)),
                             Field("pipeline", std::move(p)),
                             Field("cursor", Value::MakeObject())};
  Value opts = AggregateOpts(options);
  for (Field& f : opts.mutable_object_fields()) {
    aggregate.push_back(std::move(f));
  }
  return RunCommand(
      Value::MakeObject(
          {Field("explain", Value::MakeObject(std::move(aggregate))),
           Field("verbosity", Value::String("queryPlanner"))}),
      /*keep_ok=*/false);
}

// ---- Indexes ---------------------------------------------------------------

absl::StatusOr<std::string> MongoCollection::CreateIndex(
    const DocArg& keys, const DocArg& index_options,
    const IndexBuildProgress& progress) {
  RETURN_IF_ERROR(name_status_);
  ASSIGN_OR_RETURN(Value k, ResolveObject(keys, "keys"));
  ASSIGN_OR_RETURN(Value o, ResolveObject(index_options, "options"));
  for (const char* extra : kTtldbOnlyIndexOptions) {
    if (o.Get(extra) != nullptr) {
      return BackendUnsupported(
          absl::StrCat("the index option ", extra,
                       " (a ttldb extra with no MongoDB counterpart)"),
          Where());
    }
  }
  std::string name;
  if (const Value* n = o.Get("name"); n != nullptr && n->is_string()) {
    name = n->string_value();
  } else {
    ASSIGN_OR_RETURN(BsonDoc kb, BsonDoc::From(k));
    char* generated = mongoc_collection_keys_to_index_string(kb.get());
    if (generated != nullptr) {
      name = generated;
      bson_free(generated);
    }
  }
  Value::Object spec = {Field("key", k), Field("name", Value::String(name))};
  for (const Field& f : o.object_fields()) {
    if (f.first != "name") spec.push_back(f);
  }
  // The build's document count, taken before it as the embedded engine's
  // (its snapshot's documents, expired ones included): the collection's
  // count metadata, as EstimatedDocumentCount.
  int64_t total = 0;
  if (progress) {
    ASSIGN_OR_RETURN(total, EstimatedDocumentCount());
  }
  InvalidateTtlRules();
  ASSIGN_OR_RETURN(
      Value reply,
      RunCommand(
          Value::MakeObject(
              {Field("createIndexes", Value::String(name_)),
               Field("indexes",
                     Value::MakeArray({Value::MakeObject(std::move(spec))}))}),
          /*keep_ok=*/false));
  // MongoDB tells a build's progress only to currentOp (its progress.done /
  // total, which needs the inprog privilege and a second connection), not
  // to the client that waits for it: the backend reports the build once,
  // complete, on the calling thread, as the embedded engine reports its
  // last chunk; like it, not at all for an empty collection or an index
  // that already existed (docs/migrating.md section 6).
  if (progress && total > 0 &&
      Count(reply, "numIndexesAfter") > Count(reply, "numIndexesBefore")) {
    progress(total, total);
  }
  return name;
}

absl::Status MongoCollection::DropIndex(absl::string_view name) {
  RETURN_IF_ERROR(name_status_);
  InvalidateTtlRules();
  return RunCommand(Value::MakeObject(
                        {Field("dropIndexes", Value::String(name_)),
                         Field("index", Value::String(std::string(name)))}),
                    /*keep_ok=*/false)
      .status();
}

absl::Status MongoCollection::DropIndexByKey(const DocArg& keys) {
  RETURN_IF_ERROR(name_status_);
  ASSIGN_OR_RETURN(Value k, ResolveObject(keys, "keys"));
  InvalidateTtlRules();
  return RunCommand(
             Value::MakeObject({Field("dropIndexes", Value::String(name_)),
                                Field("index", k)}),
             /*keep_ok=*/false)
      .status();
}

absl::StatusOr<std::vector<Value>> MongoCollection::ListIndexes() {
  RETURN_IF_ERROR(name_status_);
  ASSIGN_OR_RETURN(CollectionRef coll, CollectionRef::Open(*context_, name_));
  mongoc_cursor_t* c =
      mongoc_collection_find_indexes_with_opts(coll.get(), nullptr);
  // libmongoc's listIndexes of a missing collection is an empty cursor, as
  // the embedded engine's is an empty list.
  MongoCursor cursor(context_->pool, coll.client().Release(), c, ns());
  std::vector<Value> out;
  while (true) {
    ASSIGN_OR_RETURN(std::optional<Value> spec, cursor.Next());
    if (!spec.has_value()) return out;
    spec->Remove("ns");  // MongoDB 4.2-'s field; the engine has none
    out.push_back(std::move(*spec));
  }
}

absl::StatusOr<Value> MongoCollection::Options() {
  RETURN_IF_ERROR(name_status_);
  ASSIGN_OR_RETURN(
      Value r,
      RunCommand(Value::MakeObject(
                     {Field("listCollections", Value::Int32(1)),
                      Field("filter", Value::MakeObject({Field(
                                          "name", Value::String(name_))}))}),
                 /*keep_ok=*/false));
  const Value* cursor = r.Get("cursor");
  const Value* batch = cursor != nullptr && cursor->is_object()
                           ? cursor->Get("firstBatch")
                           : nullptr;
  if (batch == nullptr || !batch->is_array() || batch->array_items().empty()) {
    return Value::MakeObject();
  }
  const Value* options = batch->array_items()[0].Get("options");
  return options != nullptr && options->is_object() ? *options
                                                    : Value::MakeObject();
}

absl::StatusOr<Value> MongoCollection::CollMod(const DocArg& command) {
  RETURN_IF_ERROR(name_status_);
  ASSIGN_OR_RETURN(Value c, ResolveObject(command, "collMod"));
  // As CreateIndex: the index options only ttldb has are named, not sent
  // (MongoDB would refuse them; `ttldb serve` would take them).
  if (const Value* index = c.Get("index");
      index != nullptr && index->is_object()) {
    for (const char* extra : kTtldbOnlyIndexOptions) {
      if (index->Get(extra) != nullptr) {
        return BackendUnsupported(
            absl::StrCat("collMod of the index option ", extra,
                         " (a ttldb extra with no MongoDB counterpart)"),
            Where());
      }
    }
  }
  Value::Object cmd = {Field("collMod", Value::String(name_))};
  for (const Field& f : c.object_fields()) cmd.push_back(f);
  InvalidateTtlRules();
  return RunCommand(Value::MakeObject(std::move(cmd)), /*keep_ok=*/false);
}

absl::StatusOr<std::unique_ptr<ChangeStream>> MongoCollection::Watch(
    const ChangeStreamOptions& options) {
  RETURN_IF_ERROR(name_status_);
  return OpenMongoChangeStream(context_, name_, options);
}

// ---- Maintenance -----------------------------------------------------------

absl::StatusOr<Value> MongoCollection::Validate() {
  RETURN_IF_ERROR(name_status_);
  return RunCommand(
      Value::MakeObject({Field("validate", Value::String(name_))}),
      /*keep_ok=*/false);
}

absl::StatusOr<Value> MongoCollection::Stats(int64_t scale) {
  RETURN_IF_ERROR(name_status_);
  return RunCommand(Value::MakeObject({Field("collStats", Value::String(name_)),
                                       Field("scale", Value::Int64(scale))}),
                    /*keep_ok=*/false);
}

absl::StatusOr<std::vector<Value>> MongoCollection::IndexStats() {
  RETURN_IF_ERROR(name_status_);
  ASSIGN_OR_RETURN(std::unique_ptr<Cursor> cursor,
                   OpenCursor(/*aggregate=*/true,
                              Value::MakeArray({Value::MakeObject({Field(
                                  "$indexStats", Value::MakeObject())})}),
                              Value::MakeObject()));
  return cursor->ToVector();
}

}  // namespace remote
}  // namespace ttldb
