// The engine's side of the TTL monitor (ttl/ttl_store.h): find expired
// entries of a TTL index by one range scan, and delete their documents
// through the write path after re-checking them under the writers' lock.
#include <set>

#include "absl/strings/str_cat.h"
#include "base/status.h"
#include "base/sync_point.h"
#include "engine/engine.h"
#include "engine/keys.h"
#include "index/key_codec.h"
#include "leveldb/write_batch.h"
#include "ttl/expiry.h"

namespace ttldb {
namespace {

// Entries scanned per lock acquisition: a writer waits for at most this
// many document re-reads and one WriteBatch.
constexpr int kEntriesPerChunk = 256;
// Compact the swept key range after this many deletions, so later scans do
// not step over their tombstones (DESIGN.md, "Performance traps").
constexpr int64_t kCompactAfterDeletes = 20'000;

// The encoding of a Date in an index of this direction.
std::string EncodeDate(int64_t millis, bool descending) {
  std::string out;
  AppendKeyValue(Value::Date(millis), descending, &out);
  return out;
}

// The key range [begin, end) holding the entries of a single-field TTL index
// whose date is <= cutoff. All Dates share one type bracket whose first
// byte is the same for every date.
struct DateRange {
  std::string begin, end;
};

DateRange ExpiredRange(const std::string& prefix, bool descending,
                       int64_t cutoff_millis) {
  const std::string cutoff = EncodeDate(cutoff_millis, descending);
  const char tag = cutoff[0];
  DateRange r;
  if (!descending) {
    r.begin = prefix + tag;
    r.end = KeyPrefixEnd(prefix + cutoff);
  } else {
    // Complemented: later dates sort first; dates <= cutoff are the keys
    // from encode(cutoff) to the end of the bracket.
    r.begin = prefix + cutoff;
    r.end = KeyPrefixEnd(prefix + tag);
  }
  return r;
}

int64_t ToMillisSaturated(absl::Time t) {
  if (t == absl::InfiniteFuture()) return INT64_MAX;
  if (t == absl::InfinitePast()) return INT64_MIN;
  return absl::ToUnixMillis(t);
}

}  // namespace

leveldb::Status Engine::CommitDeletes(
    leveldb::WriteBatch* batch, const std::vector<std::string>& doc_keys) {
  if (doc_cache_ != nullptr) {
    for (const std::string& k : doc_keys) doc_cache_->BeginWrite(k);
  }
  leveldb::Status s = Commit(leveldb::WriteOptions(), batch);
  if (doc_cache_ != nullptr) {
    for (const std::string& k : doc_keys) doc_cache_->EndWrite(k);
  }
  return s;
}

std::vector<TtlIndexRef> Engine::ListTtlIndexes() {
  std::vector<TtlIndexRef> out;
  if (!CheckOpen().ok()) return out;
  MutexLock l(&catalog_mu_);
  for (const auto& [name, state] : states_) {
    for (const auto& idx : state->indexes) {
      if (!idx->spec.has_expire_after_seconds()) continue;
      TtlIndexRef ref;
      ref.collection = name;
      ref.collection_id = state->info.id();
      ref.index_id = idx->spec.id();
      ref.index_name = idx->spec.name();
      ref.expire_after_seconds = idx->ttl_seconds;
      out.push_back(std::move(ref));
    }
  }
  return out;
}

absl::StatusOr<TtlBatchResult> Engine::DeleteExpired(const TtlIndexRef& ref,
                                                     absl::Time cutoff,
                                                     int64_t max_docs,
                                                     absl::Time deadline) {
  RETURN_IF_ERROR(CheckWritable());
  TtlBatchResult result;
  auto state = GetState(ref.collection);
  if (state == nullptr || state->info.id() != ref.collection_id) return result;
  const IndexState* index = nullptr;
  for (const auto& idx : state->indexes) {
    if (idx->spec.id() == ref.index_id) index = idx.get();
  }
  if (index == nullptr || !index->ttl_seconds.has_value()) return result;
  const bool descending = index->spec.key(0).direction() < 0;
  const int64_t cutoff_millis = ToMillisSaturated(cutoff);
  const absl::Time now = cutoff + absl::Seconds(*index->ttl_seconds);
  DateRange range = ExpiredRange(index->prefix, descending, cutoff_millis);

  std::string start = range.begin;
  {
    MutexLock l(&write_mu_);
    TtlCursor& cursor = ttl_cursors_[index->prefix];
    if (!descending && !cursor.resume.empty() && cursor.resume > start) {
      start = cursor.resume;
    }
    cursor.min_added.clear();
  }

  // The fast path of a collection whose only index is this TTL index.
  const bool no_reread = state->indexes.size() == 1 &&
                         !index->partial.has_value() &&
                         !options_.expiry_listener;
  // Known non-multikey (catalog flag; a write that makes the index multikey
  // republishes the state, which the locked re-check below notices): each
  // document has exactly one entry, so the entry's presence under the lock
  // proves the document unchanged and it need not even be read.
  const bool no_read = no_reread && !index->multikey;
  std::set<std::string> multikey_seen;  // this call's parsed documents
  std::string last_visited;
  bool exhausted = false;
  while (result.deleted_documents < max_docs) {
    if (clock_->SteadyNow() >= deadline) break;
    if (no_read) {
      // Known non-multikey and alone: every entry in the expired range is a
      // document to delete, with nothing to re-check but the entry itself.
      // Scanning under the writers' lock makes that check free: no entry
      // can change between being seen and being deleted, so there is no
      // unlocked scan, no second walk and no copy of the entries. The lock
      // is held for one chunk (kEntriesPerChunk entries, microseconds).
      MutexLock l(&write_mu_);
      if (GetState(ref.collection) != state) return result;
      const int64_t want = std::min<int64_t>(
          kEntriesPerChunk, max_docs - result.deleted_documents);
      leveldb::WriteBatch batch;
      std::vector<std::string> deleted_keys;  // document keys
      deleted_keys.reserve(want);
      std::unique_ptr<leveldb::Iterator> it(
          db_->NewIterator(leveldb::ReadOptions()));
      const std::string doc_prefix = DocumentPrefix(state->info.id());
      for (it->Seek(start); it->Valid() && it->key().compare(range.end) < 0 &&
                            static_cast<int64_t>(deleted_keys.size()) < want;
           it->Next()) {
        std::string doc_key = doc_prefix;
        doc_key.append(it->value().data(), it->value().size());
        batch.Delete(doc_key);
        batch.Delete(it->key());
        last_visited.assign(it->key().data(), it->key().size());
        deleted_keys.push_back(std::move(doc_key));
      }
      if (!it->status().ok()) {
        return absl::InternalError(absl::StrCat("TTL scan of ", ref.collection,
                                                ".", ref.index_name, ": ",
                                                it->status().ToString()));
      }
      exhausted = !it->Valid() || it->key().compare(range.end) >= 0;
      it.reset();
      const int64_t n = deleted_keys.size();
      if (n > 0) {
        leveldb::Status s = CommitDeletes(&batch, deleted_keys);
        if (!s.ok()) {
          return absl::InternalError(
              absl::StrCat("TTL delete failed: ", s.ToString()));
        }
      }
      result.deleted_documents += n;
      result.deleted_keys += n;
      ttl_cursors_[index->prefix].deleted_since_compact += n;
      if (exhausted || n == 0) break;
      start = KeyPrefixEnd(last_visited);
      continue;
    }
    // Scan a chunk without holding the lock.
    std::vector<std::pair<std::string, std::string>> entries;  // key, id
    {
      std::unique_ptr<leveldb::Iterator> it(
          db_->NewIterator(leveldb::ReadOptions()));
      it->Seek(start);
      const int64_t want = std::min<int64_t>(
          kEntriesPerChunk, max_docs - result.deleted_documents);
      while (it->Valid() && it->key().compare(range.end) < 0 &&
             static_cast<int64_t>(entries.size()) < want) {
        entries.emplace_back(it->key().ToString(), it->value().ToString());
        it->Next();
      }
      if (!it->status().ok()) {
        return absl::InternalError(absl::StrCat("TTL scan of ", ref.collection,
                                                ".", ref.index_name, ": ",
                                                it->status().ToString()));
      }
      if (!it->Valid() || it->key().compare(range.end) >= 0) exhausted = true;
    }
    if (entries.empty()) break;
    TTLDB_SYNC_POINT("Engine::DeleteExpired:AfterScan");

    if (no_reread) {
      // Only the TTL index, no partial filter, no listener: a document's
      // keys are its document key and this entry, so the document need not
      // be parsed. Under the writers' lock, one locked iterator walk checks
      // that each scanned entry still exists (a touch or delete removes it
      // in the same atomic batch that changes the document), and one raw
      // read of the document checks that it holds no array (an array of
      // dates gives a document several entries: then the full re-check).
      MutexLock l(&write_mu_);
      auto current = GetState(ref.collection);
      if (current != state) return result;
      leveldb::WriteBatch batch;
      int64_t n = 0;
      std::unique_ptr<leveldb::Iterator> it(
          db_->NewIterator(leveldb::ReadOptions()));
      it->Seek(entries.front().first);
      std::string raw;
      std::vector<std::string> keys;
      std::vector<std::string> deleted_keys;  // document keys
      for (const auto& [entry_key, encoded_id] : entries) {
        while (it->Valid() && it->key().compare(entry_key) < 0) it->Next();
        if (!it->Valid() || it->key() != leveldb::Slice(entry_key)) {
          continue;  // touched or deleted meanwhile: kept, not counted
        }
        const std::string doc_key = DocumentKey(state->info.id(), encoded_id);
        leveldb::Status s = db_->Get(leveldb::ReadOptions(), doc_key, &raw);
        if (s.IsNotFound()) continue;
        if (!s.ok()) return absl::InternalError(s.ToString());
        if (raw.find('[') == std::string::npos) {
          deleted_keys.push_back(doc_key);
          batch.Delete(doc_key);
          batch.Delete(entry_key);
          ++result.deleted_keys;
          ++n;
          continue;
        }
        // Perhaps multikey: parse and delete every entry it derives (later
        // entries of the same document are then gone from the walk above
        // only after the write; skip them here).
        if (!multikey_seen.insert(encoded_id).second) continue;
        ASSIGN_OR_RETURN(std::optional<Value> doc,
                         ReadDocument(*state, encoded_id));
        if (!doc.has_value() ||
            !IsExpired(index->spec, *index->ttl_seconds, *doc, now)) {
          continue;
        }
        deleted_keys.push_back(doc_key);
        batch.Delete(doc_key);
        RETURN_IF_ERROR(IndexEntryKeys(*index, *doc, encoded_id, &keys));
        for (const std::string& k : keys) batch.Delete(k);
        result.deleted_keys += keys.size();
        ++n;
      }
      if (!it->status().ok()) {
        return absl::InternalError(it->status().ToString());
      }
      if (n > 0) {
        leveldb::Status s = CommitDeletes(&batch, deleted_keys);
        if (!s.ok()) {
          return absl::InternalError(
              absl::StrCat("TTL delete failed: ", s.ToString()));
        }
      }
      result.deleted_documents += n;
      last_visited = entries.back().first;
      ttl_cursors_[index->prefix].deleted_since_compact += n;
      if (exhausted) break;
      start = KeyPrefixEnd(last_visited);
      continue;
    }

    std::vector<Value> deleted;
    {
      MutexLock l(&write_mu_);
      // The catalog may have changed while unlocked (index dropped).
      auto current = GetState(ref.collection);
      if (current != state) return result;
      leveldb::WriteBatch batch;
      std::set<std::string> seen;
      std::vector<std::string> keys;
      std::vector<std::string> deleted_keys;  // document keys
      for (const auto& [entry_key, encoded_id] : entries) {
        if (!seen.insert(encoded_id).second) continue;
        ASSIGN_OR_RETURN(std::optional<Value> doc,
                         ReadDocument(*state, encoded_id));
        if (!doc.has_value()) continue;  // deleted meanwhile: not counted
        if (index->partial.has_value() && !index->partial->Matches(*doc)) {
          continue;
        }
        if (!IsExpired(index->spec, *index->ttl_seconds, *doc, now)) {
          continue;  // touched meanwhile: kept
        }
        deleted_keys.push_back(DocumentKey(state->info.id(), encoded_id));
        batch.Delete(deleted_keys.back());
        for (const auto& idx : state->indexes) {
          RETURN_IF_ERROR(IndexEntryKeys(*idx, *doc, encoded_id, &keys));
          for (const std::string& k : keys) batch.Delete(k);
          result.deleted_keys += keys.size();
        }
        deleted.push_back(std::move(*doc));
      }
      if (!deleted.empty()) {
        leveldb::Status s = CommitDeletes(&batch, deleted_keys);
        if (!s.ok()) {
          return absl::InternalError(
              absl::StrCat("TTL delete failed: ", s.ToString()));
        }
      }
      result.deleted_documents += deleted.size();
      last_visited = entries.back().first;
      ttl_cursors_[index->prefix].deleted_since_compact += deleted.size();
    }
    if (options_.expiry_listener) {
      for (const Value& doc : deleted) {
        try {
          options_.expiry_listener(ref.collection, doc);
        } catch (...) {
          // A failing listener never breaks the monitor.
        }
      }
    }
    if (exhausted) break;
    start = KeyPrefixEnd(last_visited);
  }
  result.more = !exhausted;

  bool compact = false;
  {
    MutexLock l(&write_mu_);
    TtlCursor& cursor = ttl_cursors_[index->prefix];
    if (!descending && !last_visited.empty()) {
      // A write that added an entry below where we stopped (an older date)
      // invalidates the resume point.
      if (!cursor.min_added.empty() && cursor.min_added <= last_visited) {
        cursor.resume.clear();
      } else {
        cursor.resume = KeyPrefixEnd(last_visited);
      }
    }
    if (cursor.deleted_since_compact >= kCompactAfterDeletes && !result.more) {
      cursor.deleted_since_compact = 0;
      compact = true;
    }
  }
  // On the compaction thread, not charged to this pass (nor to writers).
  if (compact) ScheduleCompaction(range.begin, range.end);
  return result;
}

std::optional<absl::Time> Engine::EarliestDate(const TtlIndexRef& ref) {
  if (!CheckOpen().ok()) return std::nullopt;
  auto state = GetState(ref.collection);
  if (state == nullptr || state->info.id() != ref.collection_id) {
    return std::nullopt;
  }
  const IndexState* index = nullptr;
  for (const auto& idx : state->indexes) {
    if (idx->spec.id() == ref.index_id) index = idx.get();
  }
  if (index == nullptr) return std::nullopt;
  const bool descending = index->spec.key(0).direction() < 0;
  const char tag = EncodeDate(0, descending)[0];
  const std::string bracket = index->prefix + tag;
  std::string start = bracket;
  if (!descending) {
    MutexLock l(&write_mu_);
    auto it = ttl_cursors_.find(index->prefix);
    if (it != ttl_cursors_.end() && it->second.resume > start) {
      start = it->second.resume;
    }
  }
  std::unique_ptr<leveldb::Iterator> it(
      db_->NewIterator(leveldb::ReadOptions()));
  if (!descending) {
    it->Seek(start);
  } else {
    it->Seek(KeyPrefixEnd(bracket));
    if (it->Valid()) {
      it->Prev();
    } else {
      it->SeekToLast();
    }
  }
  if (!it->Valid() || !it->key().starts_with(bracket)) return std::nullopt;
  absl::string_view key(it->key().data() + index->prefix.size(),
                        it->key().size() - index->prefix.size());
  auto date = DecodeKeyValue(&key, descending);
  if (!date.ok() || !date->is_date()) return std::nullopt;
  return absl::FromUnixMillis(date->date_millis());
}

}  // namespace ttldb
