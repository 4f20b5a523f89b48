// The write path: a document and every index entry it adds or removes go
// into one leveldb::WriteBatch, so documents and indexes never disagree,
// even after a crash.
#include <algorithm>
#include <optional>

#include "absl/container/inlined_vector.h"
#include "absl/strings/str_cat.h"
#include "absl/types/span.h"
#include "base/status.h"
#include "catalog/catalog_entries.h"
#include "catalog/compile.h"
#include "catalog/entry_edits.h"
#include "document/bson.h"
#include "document/compare.h"
#include "document/path.h"
#include "document/storable.h"
#include "engine/db_impl.h"
#include "index/key_codec.h"
#include "leveldb/write_batch.h"
#include "storage/document_writer.h"
#include "storage/insert_form.h"
#include "storage/keys.h"
#include "storage/leading_entries.h"
#include "storage/leveldb_status.h"
#include "storage/write_walk.h"
#include "ttl/expiry.h"
#include "ttl/lifetime.h"
#include "ttldb/duplicate_key_error.h"
#include "ttldb/json.h"

namespace ttldb {
namespace {

// True if `v` (an _id) holds an object with a '$'-prefixed field name at
// any depth; *name receives it.
bool HasDollarField(const Value& v, std::string* name) {
  if (v.is_object()) {
    for (const auto& [field, child] : v.object_fields()) {
      if (!field.empty() && field[0] == '$') {
        *name = field;
        return true;
      }
      if (HasDollarField(child, name)) return true;
    }
  } else if (v.is_array()) {
    for (const Value& item : v.array_items()) {
      if (HasDollarField(item, name)) return true;
    }
  }
  return false;
}

// Checks what MongoDB checks of a document before storing it.
// Codes and messages from mongod's insert.cpp fixDocumentForInsert and
// storage_validation.cpp: BadValue (2) for a '$'-prefixed top-level name and
// for a second _id, InvalidIdField (53) for an array or regex _id.
absl::Status ValidateForStorage(const Value& doc) {
  bool had_id = false;
  for (const auto& [name, value] : doc.object_fields()) {
    if (!name.empty() && name[0] == '$') {
      return MongoError(
          absl::StatusCode::kInvalidArgument, kBadValue,
          absl::StrCat("Document can't have $ prefixed field names: ", name));
    }
    if (name == "_id") {
      if (had_id) {
        return MongoError(absl::StatusCode::kInvalidArgument, kBadValue,
                          "can't have multiple _id fields in one document");
      }
      had_id = true;
    }
  }
  const Value* id = doc.Get("_id");
  if (id != nullptr) {
    switch (id->type()) {
      case ValueType::kArray:
        return MongoError(absl::StatusCode::kInvalidArgument, kInvalidIdField,
                          "The '_id' value cannot be of type array");
      case ValueType::kRegex:
        return MongoError(absl::StatusCode::kInvalidArgument, kInvalidIdField,
                          "The '_id' value cannot be of type regex");
      default:
        break;
    }
    std::string dollar;
    if (HasDollarField(*id, &dollar)) {
      // Found by tests/reliability/hostile_input_test.cc.
      return MongoError(absl::StatusCode::kInvalidArgument,
                        kDollarPrefixedFieldName,
                        absl::StrCat("_id fields may not contain '$'-prefixed "
                                     "fields: ",
                                     dollar, " is not valid for storage."));
    }
  }
  return absl::OkStatus();
}

}  // namespace

// A commit queued by WriteDocumentLocked for its GroupedWrite, with what
// the write does once its batch is in LevelDB.
struct DbImpl::GroupedWrite::Pending {
  explicit Pending(storage::CommitQueue* queue) : writer(queue) {}
  storage::CommitQueue::Writer writer;
  leveldb::WriteBatch batch;
  std::string doc_key;
  bool bracket = false;        // BeginWrite(doc_key) was called
  bool write_through = false;  // cache `cache_doc` on success
  std::shared_ptr<const Value> cache_doc;
  size_t charge = 0;
  // Entries below the Date bracket the write deletes (lowered after it).
  std::map<std::string, int64_t> below_dates;
  // The new version's expiry times, for the monitor's exact wake-up.
  std::vector<absl::Time> expiries;
};

namespace {
// The calling thread's innermost GroupedWrite (of any engine).
thread_local DbImpl::GroupedWrite* current_grouped_write = nullptr;
}  // namespace

DbImpl::GroupedWrite::GroupedWrite(DbImpl* engine)
    : engine_(engine), outer_(current_grouped_write) {
  current_grouped_write = this;
}

DbImpl::GroupedWrite::~GroupedWrite() {
  (void)Finish();
  current_grouped_write = outer_;
}

absl::Status DbImpl::GroupedWrite::Finish() {
  if (pending_ == nullptr) return absl::OkStatus();
  std::unique_ptr<Pending> p = std::move(pending_);
  const leveldb::Status s = engine_->commit_queue_.Await(&p->writer);
  DbImpl& e = *engine_;
  if (p->bracket) {
    // No later write of the key has begun: its writer waits for this one
    // (AwaitCommitsOfLocked) until Done below.
    if (s.ok() && p->write_through) {
      e.doc_cache_->EndWriteWith(p->doc_key, std::move(p->cache_doc),
                                 p->charge);
    } else {
      e.doc_cache_->EndWrite(p->doc_key);
    }
  }
  if (s.ok()) {
    for (const auto& [prefix, n] : p->below_dates) e.leading_.Add(prefix, -n);
    if (e.monitor_ != nullptr) {
      for (absl::Time t : p->expiries) e.monitor_->NotifyExpiry(t);
    }
  }
  e.commit_queue_.Done(&p->writer);
  if (!s.ok()) return storage::FromLevelDB(s, "write");
  return absl::OkStatus();
}

DbImpl::GroupedWrite* DbImpl::CurrentGroupedWrite() {
  for (GroupedWrite* g = current_grouped_write; g != nullptr; g = g->outer_) {
    if (g->engine_ == this) return g;
  }
  return nullptr;
}

DuplicateKeyInfo DupKeyInfo(const IndexState* index, const Value* doc,
                            absl::string_view key_part) {
  Value::Object pattern, value;
  if (index == nullptr) {
    const Value* id = doc != nullptr ? doc->Get("_id") : nullptr;
    pattern.emplace_back("_id", Value::Int32(1));
    value.emplace_back("_id", id ? *id : Value::Null());
    return DuplicateKeyInfo{Value::MakeObject(std::move(pattern)),
                            Value::MakeObject(std::move(value))};
  }
  absl::string_view in = key_part;
  if (!in.empty()) in.remove_prefix(index->prefix.size());
  for (const auto& field : index->spec.key) {
    std::optional<Value> decoded;
    if (!key_part.empty()) {
      absl::StatusOr<Value> v = DecodeKeyValue(&in, field.direction < 0);
      if (v.ok()) decoded = *std::move(v);
    }
    // The document's own value keeps its type (5 stays an int, as MongoDB's
    // key with its type bits does); where the path meets an array the key
    // holds the one element that collided, which MongoDB reports.
    const Value* v = doc != nullptr ? GetPath(*doc, field.path) : nullptr;
    pattern.emplace_back(field.path, Value::Int32(field.direction));
    if (v != nullptr && !v->is_array()) {
      value.emplace_back(field.path, *v);
    } else if (decoded.has_value()) {
      value.emplace_back(field.path, *std::move(decoded));
    } else {
      value.emplace_back(field.path, v ? *v : Value::Null());
    }
  }
  return DuplicateKeyInfo{Value::MakeObject(std::move(pattern)),
                          Value::MakeObject(std::move(value))};
}

absl::StatusOr<bool> DbImpl::MayHoldDocumentLocked(const CollectionState& state,
                                                   const std::string& doc_key) {
  auto bound = doc_key_bound_.find(state.info.id());
  if (bound == doc_key_bound_.end()) {
    // The collection's last document key (tombstones are skipped by the
    // iterator), or its bare prefix when it has none; with every queued
    // commit in LevelDB (a queued insert raised no bound yet).
    AwaitCommitsLocked();
    std::string last = state.doc_prefix;
    std::unique_ptr<leveldb::Iterator> it(
        db_->NewIterator(storage::VerifiedRead()));
    it->Seek(KeyPrefixEnd(state.doc_prefix));
    if (it->Valid()) {
      it->Prev();
    } else {
      it->SeekToLast();
    }
    if (!it->status().ok()) {
      return storage::FromLevelDB(
          it->status(),
          absl::StrCat("reading collection '", state.info.name(), "'"));
    }
    if (it->Valid() && it->key().starts_with(state.doc_prefix)) {
      last = it->key().ToString();
    }
    bound = doc_key_bound_.emplace(state.info.id(), std::move(last)).first;
  }
  return doc_key <= bound->second;
}

absl::StatusOr<std::string> DbImpl::FindUniqueConflictLocked(
    absl::string_view entry_key, absl::string_view encoded_id,
    const std::vector<std::string>& ignore) {
  // entry_key = prefix key encoded_id; another document holds the same key
  // if some entry starts with prefix+key and ends with another id. Key
  // encodings are self-delimiting, so prefix+key is a prefix of exactly the
  // entries with an equal key.
  absl::string_view key_part =
      entry_key.substr(0, entry_key.size() - encoded_id.size());
  AwaitCommitsOfLocked(key_part);
  const leveldb::Slice prefix(key_part.data(), key_part.size());
  std::unique_ptr<leveldb::Iterator> it(
      db_->NewIterator(storage::VerifiedRead()));
  for (it->Seek(prefix); it->Valid() && it->key().starts_with(prefix);
       it->Next()) {
    absl::string_view other_id =
        EntryValueId(absl::string_view(it->value().data(), it->value().size()));
    if (other_id != encoded_id &&
        std::find(ignore.begin(), ignore.end(), other_id) == ignore.end()) {
      return std::string(other_id);
    }
  }
  if (!it->status().ok()) {
    return storage::FromLevelDB(it->status(), "reading a unique index");
  }
  return std::string();
}

absl::Status DbImpl::CheckUniqueLocked(const CollectionState& state,
                                       const IndexState& index,
                                       absl::string_view entry_key,
                                       absl::string_view encoded_id) {
  ASSIGN_OR_RETURN(std::string other,
                   FindUniqueConflictLocked(entry_key, encoded_id, {}));
  if (!other.empty()) return absl::AlreadyExistsError("dup");
  return absl::OkStatus();
}

void DbImpl::DeliverExpiredRemovals(absl::string_view coll,
                                    ExpiredRemovals* removed) {
  if (removed->empty()) return;
  for (const Value& doc : *removed) {
    try {
      options_.expiry_listener(coll, doc);
    } catch (...) {
      // A failing listener never fails the write (already committed).
    }
  }
  removed->clear();
}

void DbImpl::NoteTtlEntryLocked(const IndexState& index,
                                const std::string& key) {
  TtlCursor& cursor = ttl_cursors_[index.prefix];
  if (cursor.min_added.empty() || key < cursor.min_added) {
    cursor.min_added = key;
  }
  if (!cursor.resume.empty() && key < cursor.resume) cursor.resume.clear();
}

absl::Status DbImpl::EvictLocked(const CollectionState& state,
                                 const std::string& encoded_id, Value doc,
                                 Evictions* evictions, bool expired) {
  DocumentWriter writer(state, &evictions->batch);
  RETURN_IF_ERROR(writer.Remove(encoded_id, doc, &evictions->removed));
  // A TTL deletion: its event says so (ttldb/change_stream.h).
  LogDocumentChangeLocked(state, &doc, nullptr, {}, /*replacement=*/false,
                          expired, &evictions->batch);
  evictions->ids.push_back(encoded_id);
  if (expired) evictions->docs.push_back(std::move(doc));
  return absl::OkStatus();
}

absl::Status DbImpl::WriteDocumentLocked(
    const CollectionState& state, const Value* old_doc, const Value* new_doc,
    const WriteOptions& options, ExpiredRemovals* removed_expired,
    std::shared_ptr<const Value> cache_new_doc,
    const proto::CollectionInfo* create, absl::string_view stored_json,
    bool replacement) {
  assert(new_doc == nullptr || removed_expired != nullptr);
  const Value* any = new_doc != nullptr ? new_doc : old_doc;
  const Value* id = any->Get("_id");
  assert(id != nullptr);
  const std::string encoded_id = EncodeId(*id);
  leveldb::WriteBatch batch;
  const std::string doc_key = DocumentKey(state.info.id(), encoded_id);
  // One queued commit per GroupedWrite: a second write in the same call
  // ends the first one's (it may name the same keys).
  GroupedWrite* group = CurrentGroupedWrite();
  if (group != nullptr) RETURN_IF_ERROR(group->Finish());
  // What this write reads of its document (and checks) must include every
  // queued commit of it.
  AwaitCommitsOfLocked(doc_key);
  // CheckStorable, the BSON size, ReparsesIdentically and the cache charge
  // of *new_doc in one walk (storage/write_walk.h); not needed for text
  // already in the storage form (storage/insert_form.h, engine/touch_text.h).
  std::optional<WriteWalk> walk;
  // The new version's storage JSON (in `json`, or the caller's
  // stored_json).
  std::string json;
  absl::string_view text;
  if (new_doc != nullptr) {
    // A Value built in code (not parsed from JSON) may hold what the storage
    // form cannot read back: refuse it rather than store an unreadable
    // document. JSON text is checked too: the parser accepts, for one, NUL
    // bytes in field names, which MongoDB forbids (found by fuzz/json).
    // Text already in the storage form was checked by its parse.
    if (stored_json.empty()) {
      walk = WalkForWrite(*new_doc);
      if (!walk->storable) {
        // Its message (the walk and CheckStorable decide alike).
        RETURN_IF_ERROR(CheckStorable(*new_doc));
        walk.reset();  // defensive: then the separate functions decide
      }
    }
    // MongoDB's 16 MiB limit is on the document's BSON size, whatever size
    // its storage JSON has: insert.cpp fixDocumentForInsert() (BadValue)
    // for inserts, update_stage.cpp (BSONObjectTooLarge) for updates.
    size_t bson_size = 0;
    if (walk.has_value()) {
      bson_size = walk->bson_size;
    } else if (stored_json.empty() ||
               stored_json.size() > kMaxJsonBytesWithinBsonLimit) {
      bson_size = BsonDocumentSize(*new_doc);
    }
    if (bson_size > kMaxDocumentBytes) {
      if (old_doc == nullptr) {
        return MongoError(
            absl::StatusCode::kInvalidArgument, kBadValue,
            absl::StrCat("object to insert too large. size in "
                         "bytes: ",
                         bson_size, ", max size: ", kMaxDocumentBytes));
      }
      return MongoError(absl::StatusCode::kInvalidArgument, kBSONObjectTooLarge,
                        absl::StrCat("Resulting document after update is "
                                     "larger than ",
                                     kMaxDocumentBytes));
    }
    if (!stored_json.empty()) {
      text = stored_json;
    } else {
      json.reserve(512);  // fewer regrowths while serializing
      AppendJson(*new_doc, JsonFormat::kStorage, &json);
      if (json.size() > kMaxStoredJsonBytes) {  // cannot happen: see json.h
        return MongoError(
            absl::StatusCode::kInvalidArgument, 10334,
            absl::StrCat("document's storage form is ", json.size(),
                         " bytes, over ", kMaxStoredJsonBytes));
      }
      text = json;
    }
    // Bounded lifetimes (beyond MongoDB): refuse, at every way in, a
    // document a TTL index would keep too long or has already expired.
    for (const auto& idx : state.indexes) {
      const IndexSpec& spec = idx->spec;
      if (!spec.max_lifetime_seconds.has_value() && !spec.reject_expired) {
        continue;
      }
      if (idx->partial.has_value() && !idx->partial->Matches(*new_doc)) {
        continue;
      }
      RETURN_IF_ERROR(CheckLifetime(spec, *new_doc, clock_->WallNow()));
    }
  }

  // The published indexes, then those being built (engine/index_build.h):
  // their keys are computed alike, and TTL entries list both as siblings.
  DocumentWriter writer(state, &batch);
  const bool building = writer.building();
  DocKeys old_keys, new_keys;
  if (new_doc != nullptr) {
    if (old_doc != nullptr) {
      RETURN_IF_ERROR(
          ComputeDocKeys(writer.indexes(), *old_doc, encoded_id, &old_keys));
      RETURN_IF_ERROR(ComputeDocKeys(writer.indexes(), *new_doc, encoded_id,
                                     &new_keys, old_doc, &old_keys));
    } else {
      RETURN_IF_ERROR(
          ComputeDocKeys(writer.indexes(), *new_doc, encoded_id, &new_keys));
    }
  }
  // Hidden means absent (docs/ttl.md): a document this write collides with
  // that reads already hide is removed by this write, in `evictions`, a
  // batch committed in front of the document's own (so that the new
  // document's puts of the same keys come after the deletes).
  Evictions evictions;
  const bool inserting = new_doc != nullptr && old_doc == nullptr;
  bool may_exist = false;
  if (inserting) {
    ASSIGN_OR_RETURN(may_exist, MayHoldDocumentLocked(state, doc_key));
  }
  if (may_exist) {
    ASSIGN_OR_RETURN(std::optional<Value> existing,
                     reader().Read(state, encoded_id));
    if (existing.has_value()) {
      if (!reader().IsHidden(state, *existing, clock_->WallNow())) {
        return DuplicateKeyError(
            absl::StrCat(options_.db_name, ".", state.info.name()), "_id_",
            DupKeyInfo(nullptr, new_doc, {}));
      }
      RETURN_IF_ERROR(
          EvictLocked(state, encoded_id, std::move(*existing), &evictions));
    }
  }
  // The catalog with the indexes this write makes multikey for the first
  // time; it goes into the document's batch (MongoDB's multikey flag).
  std::optional<proto::CollectionInfo> multikey_info;
  // Entries below the Date bracket this write adds, by index (raised just
  // before the commit, so a write that fails a later check leaves no trace),
  // and what it deletes of its own document (lowered after the commit).
  absl::InlinedVector<std::pair<const std::string*, int64_t>, 2> leading_up;
  DocumentWriter::Removed own;
  // The unique indexes' key values this write adds or deletes: a queued
  // commit names them (with the document key) for later writers' checks.
  std::vector<std::string> unique_values;
  // What the writer does not decide, per index, before the index's entries
  // go into the batch: the unique check (evicting hidden holders of the
  // key), the multikey flag, the build's notes and the Date bracket counts.
  auto check = [&](const DocumentWriter::IndexChange& change) -> absl::Status {
    // Called by writer.Insert/Replace/Remove below, on this thread, which
    // holds write_mu_ (the analysis does not follow a lambda's caller).
    write_mu_.AssertHeld();
    const IndexState& idx = change.index;
    const size_t i = change.i;
    if (change.building) {
      // The unique check and the multikey flag are left to the build.
      if (change.all.empty()) return absl::OkStatus();
      IndexBuildTracker* tracker = BuildTrackerLocked(idx);
      if (tracker == nullptr) return absl::OkStatus();
      if (new_keys.multikey[i]) tracker->multikey = true;
      if (idx.spec.unique) {
        for (const std::string& k : change.all) {
          tracker->unique_candidates.insert(
              k.substr(0, k.size() - encoded_id.size()));
        }
      }
      return absl::OkStatus();
    }
    if (new_keys.multikey[i] && !idx.multikey) {
      if (!multikey_info.has_value()) multikey_info = state.info;
      multikey_info->mutable_indexes(static_cast<int>(i))->set_multikey(true);
    }
    if (LeadingEntries::Eligible(idx)) {
      // Entries below the Date bracket (storage/leading_entries.h): added
      // ones are counted before the commit, removed ones after it.
      int64_t up = 0, down = 0;
      for (const std::string& k : change.added) {
        up += LeadingEntries::IsBelowDates(k, idx.prefix.size());
      }
      for (const std::string& k : change.removed) {
        down += LeadingEntries::IsBelowDates(k, idx.prefix.size());
      }
      if (up > 0) leading_up.emplace_back(&idx.prefix, up);
      if (down > 0) own.below_dates[idx.prefix] += down;
    }
    if (idx.spec.unique && group != nullptr) {
      for (const auto* keys : {&change.added, &change.removed}) {
        for (const std::string& k : *keys) {
          unique_values.push_back(k.substr(0, k.size() - encoded_id.size()));
        }
      }
    }
    for (const std::string& k : change.added) {
      while (idx.spec.unique) {
        ASSIGN_OR_RETURN(std::string other, FindUniqueConflictLocked(
                                                k, encoded_id, evictions.ids));
        if (other.empty()) break;
        AwaitCommitsOfLocked(DocumentKey(state.info.id(), other));
        ASSIGN_OR_RETURN(std::optional<Value> other_doc,
                         reader().Read(state, other));
        if (!other_doc.has_value() ||
            !reader().IsHidden(state, *other_doc, clock_->WallNow())) {
          return DuplicateKeyError(
              absl::StrCat(options_.db_name, ".", state.info.name()),
              idx.spec.name,
              DupKeyInfo(&idx, new_doc,
                         absl::string_view(k).substr(
                             0, k.size() - encoded_id.size())));
        }
        RETURN_IF_ERROR(
            EvictLocked(state, other, std::move(*other_doc), &evictions));
      }
      if (idx.ttl_seconds.has_value()) NoteTtlEntryLocked(idx, k);
    }
    return absl::OkStatus();
  };
  if (new_doc == nullptr) {
    RETURN_IF_ERROR(writer.Remove(encoded_id, *old_doc, &own));
  } else if (old_doc == nullptr) {
    RETURN_IF_ERROR(writer.Insert(encoded_id, text, new_keys, check));
  } else {
    RETURN_IF_ERROR(
        writer.Replace(encoded_id, old_keys, text, new_keys, check));
  }
  // A collection this insert creates: its create event first (MongoDB's
  // implicit create comes before the insert).
  if (create != nullptr) LogCreateLocked(*create, &batch);
  // A capped collection (engine/capped.cc): an insert deletes its oldest
  // documents past the bounds, in `evictions` (committed with this batch);
  // any other write leaves the totals to be counted again.
  std::optional<CappedTotals> capped_after;
  if (state.info.capped()) {
    if (inserting) {
      ASSIGN_OR_RETURN(
          capped_after,
          CappedDeleteLocked(state, encoded_id,
                             static_cast<int64_t>(text.size()), &evictions));
    }
    capped_totals_.erase(state.info.id());
  }
  // The change's event, in the same batch (engine/change_log.cc); after
  // the evictions' own (their batch goes first).
  LogDocumentChangeLocked(state, old_doc, new_doc, text, replacement,
                          /*expired=*/false, &batch);
  if (multikey_info.has_value()) {
    // Published before the commit: a reader that sees the new document in
    // a snapshot taken after the commit then also sees the flag (the
    // planner re-checks it after taking its snapshot). If the commit fails
    // the flag is merely conservative (and writes are refused from then on).
    ASSIGN_OR_RETURN(auto compiled, CompileCollection(*multikey_info));
    PutCollectionEntry(*multikey_info, &batch);
    Publish(multikey_info->name(), std::move(compiled));
  }
  leveldb::WriteOptions wo;
  wo.sync = options.sync;
  if (create != nullptr) {
    proto::DatabaseMeta meta = meta_;
    meta.set_next_collection_id(create->id() + 1);
    batch.Put(MetaKey(), meta.SerializeAsString());
    PutCollectionEntry(*create, &batch);
    wo.sync = true;  // catalog changes are always synced
  }
  // Written through only if a re-read would give exactly *new_doc;
  // otherwise readers load the stored form (see ReparsesIdentically). An
  // update always writes through (its document was just read, so it is
  // usually cached already and replaces itself); an insert only as the
  // cache admits a read miss (DocCache::Admit): always while the key's
  // shard has room, then one in 8, so a stream of inserts into a full
  // cache does not evict (and free, from cold memory) the least recently
  // used document at every insert. Measured: the eviction was a fifth of
  // a 256 B insert ("Round 5, session 7: writes" in
  // docs/benchmarks-history.md).
  size_t charge = 0;
  bool write_through = false;
  if (doc_cache_ != nullptr && cache_new_doc != nullptr) {
    const bool walked = walk.has_value() && cache_new_doc.get() == new_doc;
    charge = walked ? CacheChargeFromWalk(doc_key, *walk)
                    : CacheCharge(doc_key, *cache_new_doc);
    // Stored text in the storage form reads back as *new_doc (its
    // contract).
    write_through =
        (!inserting || doc_cache_->Admit(doc_key, charge)) &&
        (!stored_json.empty() ||
         (walked ? walk->reparses : ReparsesIdentically(*cache_new_doc)));
  }
  // An insert of a key that cannot be stored (above the collection's key
  // bound, so never written since open, hence never cached) and is not
  // written through needs no bracket: no entry of the key exists, and a
  // reader's LevelDB read gives either nothing (which it does not cache)
  // or the committed document.
  const bool bracket =
      doc_cache_ != nullptr && (write_through || may_exist || !inserting);
  if (group != nullptr && new_doc != nullptr && evictions.ids.empty() &&
      create == nullptr && !building && !multikey_info.has_value() &&
      !state.info.capped()) {
    // Queued: the caller's GroupedWrite::Finish awaits the commit once
    // write_mu_ is released and does what follows a commit. What a failed
    // commit leaves raised here (the Date-bracket counts, the floor, the key
    // bound) is conservative, as below.
    auto p = std::make_unique<GroupedWrite::Pending>(&commit_queue_);
    p->batch = std::move(batch);
    p->writer.batch = &p->batch;
    p->writer.sync = wo.sync;
    p->writer.keys.reserve(unique_values.size() + 1);
    for (const std::string& v : unique_values) {
      p->writer.keys.push_back(storage::CommitQueue::KeyHash(v));
    }
    p->writer.keys.push_back(storage::CommitQueue::KeyHash(doc_key));
    p->doc_key = doc_key;
    p->bracket = bracket;
    p->write_through = write_through;
    if (write_through) p->cache_doc = std::move(cache_new_doc);
    p->charge = charge;
    p->below_dates = std::move(own.below_dates);
    if (options_.ttl_exact_wakeup && monitor_ != nullptr) {
      for (const auto& idx : state.indexes) {
        if (!idx->ttl_seconds.has_value()) continue;
        std::optional<int64_t> earliest =
            EarliestIndexedDateMillis(idx->spec, *new_doc);
        if (earliest.has_value()) {
          p->expiries.push_back(ExpiryTime(*earliest, *idx->ttl_seconds));
        }
      }
    }
    for (const auto& [prefix, n] : leading_up) leading_.Add(*prefix, n);
    if (inserting && any_doc_floor_.load()) {
      LowerDocFloorLocked(state.info.id(), doc_key);
    }
    if (inserting) {
      // Raised now, not after the commit: a later insert of the key must
      // look for it (MayHoldDocumentLocked), and then waits for this one.
      auto bound = doc_key_bound_.find(state.info.id());
      if (bound != doc_key_bound_.end() && doc_key > bound->second) {
        bound->second = doc_key;
      }
    }
    if (bracket) doc_cache_->BeginWrite(doc_key);
    commit_queue_.Enqueue(&p->writer);
    group->pending_ = std::move(p);
    return absl::OkStatus();
  }
  leveldb::WriteBatch* commit = &batch;
  std::vector<std::string> evicted_keys;  // other documents' keys
  if (!evictions.ids.empty()) {
    evictions.batch.Append(batch);
    commit = &evictions.batch;
    for (const std::string& other : evictions.ids) {
      if (other != encoded_id) {
        evicted_keys.push_back(DocumentKey(state.info.id(), other));
      }
    }
  }
  for (const auto& [prefix, n] : leading_up) leading_.Add(*prefix, n);
  if (inserting && any_doc_floor_.load()) {
    // Before the commit (DbImpl::doc_floor_): a scan whose snapshot holds
    // this document then starts at or below it.
    LowerDocFloorLocked(state.info.id(), doc_key);
  }
  if (doc_cache_ != nullptr) {
    if (bracket) doc_cache_->BeginWrite(doc_key);
    if (!evicted_keys.empty()) doc_cache_->BeginWrites(evicted_keys);
  }
  leveldb::Status s = Commit(wo, commit);
  if (doc_cache_ != nullptr) {
    if (!evicted_keys.empty()) doc_cache_->EndWrites(evicted_keys);
    if (!bracket) {
      // Nothing to end (see `bracket`).
    } else if (s.ok() && write_through) {
      // A copy of the pointer: *new_doc is still read below, and the cache
      // may evict (and free) it at any time.
      doc_cache_->EndWriteWith(doc_key, cache_new_doc, charge);
    } else {
      doc_cache_->EndWrite(doc_key);
    }
  }
  if (!s.ok()) return storage::FromLevelDB(s, "write");
  if (capped_after.has_value()) capped_totals_[state.info.id()] = *capped_after;
  for (const auto& [prefix, n] : evictions.removed.below_dates) {
    leading_.Add(prefix, -n);
  }
  for (const auto& [prefix, n] : own.below_dates) leading_.Add(prefix, -n);
  if (inserting) {
    auto bound = doc_key_bound_.find(state.info.id());
    if (bound != doc_key_bound_.end() && doc_key > bound->second) {
      bound->second = doc_key;
    }
  }
  if (building) {
    NoteBuildWritesLocked(state, absl::MakeConstSpan(&doc_key, 1));
    if (!evicted_keys.empty()) NoteBuildWritesLocked(state, evicted_keys);
  }
  if (static_cast<int64_t>(evictions.ids.size()) > evictions.capped) {
    if (monitor_ != nullptr) {
      monitor_->CountDeletedByWrite(evictions.ids.size() - evictions.capped,
                                    evictions.removed.entries);
    }
    if (options_.expiry_listener) {
      for (Value& doc : evictions.docs)
        removed_expired->push_back(std::move(doc));
    }
  }
  // Exact wake-up: tell the monitor when this document will expire, so an
  // expireAt sooner than the next planned pass is honoured on time.
  if (new_doc != nullptr && options_.ttl_exact_wakeup && monitor_ != nullptr) {
    for (const auto& idx : state.indexes) {
      if (!idx->ttl_seconds.has_value()) continue;
      std::optional<int64_t> earliest =
          EarliestIndexedDateMillis(idx->spec, *new_doc);
      if (earliest.has_value()) {
        monitor_->NotifyExpiry(ExpiryTime(*earliest, *idx->ttl_seconds));
      }
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<Value> DbImpl::Insert(absl::string_view coll, Value doc,
                                     const WriteOptions& options,
                                     absl::string_view input_json) {
  RETURN_IF_ERROR(CheckWritable());
  // Outside the writers' lock: the _id first (generated when absent) and
  // the storage form, which InsertLocked then stores as it is (the text of
  // storage/insert_form.h: AppendJson's output, read back as exactly `doc`,
  // storable), so that the lock does not cover the serialization. A
  // document the walk refuses, or one InsertLocked changes (a top-level
  // Timestamp(0, 0)), takes the path under the lock as before.
  std::string prepared;
  if (input_json.empty() && doc.is_object() && ValidateForStorage(doc).ok()) {
    Value::Object& fields = doc.mutable_object_fields();
    auto id_it = std::find_if(fields.begin(), fields.end(),
                              [](const Field& f) { return f.first == "_id"; });
    if (id_it == fields.end()) {
      fields.insert(fields.begin(),
                    Field("_id", Value::Oid(ObjectId::Generate())));
    } else if (id_it != fields.begin()) {
      Field id_field = std::move(*id_it);
      fields.erase(id_it);
      fields.insert(fields.begin(), std::move(id_field));
    }
    const WriteWalk walk = WalkForWrite(doc);
    if (walk.storable && walk.reparses && walk.bson_size <= kMaxDocumentBytes) {
      prepared.reserve(512);
      AppendJson(doc, JsonFormat::kStorage, &prepared);
      if (prepared.size() <= kMaxJsonBytesWithinBsonLimit) {
        input_json = prepared;
      }
    }
  }
  ExpiredRemovals removed;
  absl::StatusOr<Value> id;
  GroupedWrite group(this);
  {
    WritersLock l(this, WritersLock::Grouped());
    id = InsertLocked(coll, std::move(doc), options, &removed, input_json);
  }
  absl::Status committed = group.Finish();
  if (id.ok() && !committed.ok()) id = std::move(committed);
  DeliverExpiredRemovals(coll, &removed);
  return id;
}

absl::StatusOr<Value> DbImpl::InsertLocked(absl::string_view coll, Value doc,
                                           const WriteOptions& options,
                                           ExpiredRemovals* removed,
                                           absl::string_view input_json) {
  // An existing collection's name is valid (checked when it was created).
  // The state cannot change before the write: catalog changes take
  // write_mu_ too.
  std::shared_ptr<const CollectionState> state = GetState(coll);
  if (state == nullptr) {
    RETURN_IF_ERROR(ValidateCollectionName(coll));
    RETURN_IF_ERROR(CheckCollection(coll));
  }
  if (!doc.is_object()) {
    return absl::InvalidArgumentError("a document must be an object");
  }
  RETURN_IF_ERROR(ValidateForStorage(doc));
  // _id first, as MongoDB stores it; generated when absent.
  Value::Object& fields = doc.mutable_object_fields();
  auto id_it = std::find_if(fields.begin(), fields.end(),
                            [](const Field& f) { return f.first == "_id"; });
  const bool id_was_absent = id_it == fields.end();
  const bool id_was_first = !id_was_absent && id_it == fields.begin();
  if (id_was_absent) {
    fields.insert(fields.begin(),
                  Field("_id", Value::Oid(ObjectId::Generate())));
  } else if (!id_was_first) {
    Field id_field = std::move(*id_it);
    fields.erase(id_it);
    fields.insert(fields.begin(), std::move(id_field));
  }
  const Value id = fields.front().second;
  // ops/insert.cpp fixDocumentForInsert(): a top-level Timestamp(0, 0)
  // becomes the current time, its increment counting up within a second.
  for (size_t k = 1; k < fields.size(); ++k) {
    Value& v = fields[k].second;
    if (v.type() != ValueType::kTimestamp || v.timestamp_value().t != 0 ||
        v.timestamp_value().i != 0) {
      continue;
    }
    const uint32_t now =
        static_cast<uint32_t>(absl::ToUnixSeconds(clock_->WallNow()));
    last_insert_ts_ = now > last_insert_ts_.t
                          ? Timestamp{now, 1}
                          : Timestamp{last_insert_ts_.t, last_insert_ts_.i + 1};
    v = Value::Ts(last_insert_ts_);
    input_json = {};  // the stored form differs from the input text
  }
  // The input text as stored, when it is already the storage form.
  std::string spliced;
  const absl::string_view stored_json = StoredInsertJson(
      input_json, id_was_first, id_was_absent ? &id : nullptr, &spliced);

  // Shared (not copied) with the document cache: a fresh document is often
  // read back soon.
  auto stored = std::make_shared<const Value>(std::move(doc));
  // A new collection is created by the document's own batch, so an
  // insert that fails (bad field name, too large, ...) creates nothing.
  std::optional<proto::CollectionInfo> create;
  if (state == nullptr) {
    RETURN_IF_ERROR(RefuseView(coll));  // 166: an insert into a view
    create = NewCollectionEntry(coll);
    create->set_id(meta_.next_collection_id());
    ASSIGN_OR_RETURN(state, CompileCollection(*create));
  }
  RETURN_IF_ERROR(CheckValidationLocked(*state, nullptr, *stored, options));
  RETURN_IF_ERROR(
      WriteDocumentLocked(*state, nullptr, stored.get(), options, removed,
                          stored, create ? &*create : nullptr, stored_json));
  if (create.has_value()) {
    meta_.set_next_collection_id(create->id() + 1);
    Publish(create->name(), state);
  }
  return id;
}

}  // namespace ttldb
