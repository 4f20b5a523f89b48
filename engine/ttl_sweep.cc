// The engine's side of the TTL monitor (ttl/ttl_store.h): find expired
// entries of a TTL index by one range scan under the writers' lock, and
// delete their documents with every index entry in one batch per chunk.
#include <algorithm>
#include <cstdlib>
#include <map>
#include <set>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "base/status.h"
#include "base/sync_point.h"
#include "engine/db_impl.h"
#include "index/key_codec.h"
#include "leveldb/cache.h"
#include "leveldb/write_batch.h"
#include "storage/document_writer.h"
#include "storage/entry_value.h"
#include "storage/keys.h"
#include "storage/leading_entries.h"
#include "storage/leveldb_status.h"
#include "ttl/expiry.h"

namespace ttldb {
namespace {

// Entries scanned per lock acquisition: a writer waits for at most this
// many document re-reads and one WriteBatch; once a writer waits, for at
// most kMinEntriesPerChunk more.
constexpr int kEntriesPerChunk = 256;
constexpr int kMinEntriesPerChunk = 4;

// The sample of deleted document keys kept per TTL index between
// compactions (TtlCursor::doc_sample): every kDocSampleStride-th deleted
// key, at most kMaxDocSample keys (then every other one is dropped and the
// stride doubles), so the sample's memory is bounded however many
// documents expire.
constexpr int64_t kDocSampleStride = 64;
constexpr size_t kMaxDocSample = 4096;
// A run of deleted documents (no live key between them) shorter than this
// costs a scan that crosses it well under a millisecond: not compacted.
constexpr int64_t kMinRunKeys = 1024;

// A mass expiry writes deletions as fast as LevelDB takes them; a foreground
// write behind it then meets LevelDB's own waits (DBImpl::MakeRoomForWrite):
// 1 ms once level 0 holds 8 files (config::kL0_SlowdownWritesTrigger), a
// full stop at 12, and, the longest (150-200 ms here), a switch to a new
// memtable while the previous one is still being flushed. So while a
// foreground writes, before each chunk the pass waits (1 ms at a time, at
// most kMaxRoomWait per chunk, so that it still finishes) while level 0
// holds kLevel0PassLimit files or more, or while a full memtable waits for
// its flush: the foreground's writes fill the current memtable slowly, and
// the pass no longer fills it for them (issue 29 item 5; the pacing of
// background writes RocksDB's WriteController does).
constexpr int kLevel0PassLimit = 6;
constexpr absl::Duration kMaxRoomWait = absl::Milliseconds(50);

// Whether LevelDB is behind: level 0 near its slowdown, or an immutable
// memtable not yet flushed (the memtables' memory is past one write
// buffer: `leveldb.approximate-memory-usage` counts the block cache, the
// memtable and the immutable one).
bool LevelDbBehind(leveldb::DB* db, leveldb::Cache* block_cache,
                   size_t write_buffer_bytes) {
  std::string value;
  if (db->GetProperty("leveldb.num-files-at-level0", &value) &&
      std::atoi(value.c_str()) >= kLevel0PassLimit) {
    return true;
  }
  if (!db->GetProperty("leveldb.approximate-memory-usage", &value)) {
    return false;
  }
  uint64_t usage = std::strtoull(value.c_str(), nullptr, 10);
  const uint64_t cached =
      block_cache != nullptr ? block_cache->TotalCharge() : 0;
  usage = usage > cached ? usage - cached : 0;
  return usage > write_buffer_bytes;
}

// Real time, not the injected clock: the wait is for LevelDB's compaction
// thread.
void WaitForWriteRoom(leveldb::DB* db, leveldb::Cache* block_cache,
                      size_t write_buffer_bytes) {
  const absl::Time give_up = absl::Now() + kMaxRoomWait;
  while (LevelDbBehind(db, block_cache, write_buffer_bytes) &&
         absl::Now() < give_up) {
    absl::SleepFor(absl::Milliseconds(1));
  }
}

// The encoding of a Date in an index of this direction.
std::string EncodeDate(int64_t millis, bool descending) {
  std::string out;
  AppendKeyValue(Value::Date(millis), descending, &out);
  return out;
}

// The key range [begin, end) holding the entries of a single-field TTL index
// whose date is <= cutoff.
struct DateRange {
  std::string begin, end;
};

DateRange ExpiredRange(const std::string& prefix, bool descending,
                       int64_t cutoff_millis) {
  auto keys = DatesAtOrBelowKeys(prefix, descending, cutoff_millis);
  return DateRange{std::move(keys.first), std::move(keys.second)};
}

int64_t ToMillisSaturated(absl::Time t) {
  if (t == absl::InfiniteFuture()) return INT64_MAX;
  if (t == absl::InfinitePast()) return INT64_MIN;
  return absl::ToUnixMillis(t);
}

}  // namespace

leveldb::Status DbImpl::CommitDeletes(
    leveldb::WriteBatch* batch, const std::vector<std::string>& doc_keys) {
  if (doc_cache_ != nullptr) doc_cache_->BeginWrites(doc_keys);
  leveldb::Status s = Commit(leveldb::WriteOptions(), batch);
  if (doc_cache_ != nullptr) doc_cache_->EndWrites(doc_keys);
  return s;
}

std::optional<TtlIndexRef> DbImpl::GetTtlIndex(const TtlIndexRef& ref) {
  if (!CheckOpen().ok()) return std::nullopt;
  std::shared_ptr<const CollectionState> state = GetState(ref.collection);
  if (state == nullptr || state->info.id() != ref.collection_id) {
    return std::nullopt;  // dropped or renamed: the next listing has it
  }
  for (const auto& idx : state->indexes) {
    if (idx->spec.id != ref.index_id) continue;
    if (!idx->spec.expire_after_seconds.has_value()) return std::nullopt;
    TtlIndexRef out = ref;
    out.index_name = idx->spec.name;
    out.expire_after_seconds = idx->ttl_seconds;
    return out;
  }
  return std::nullopt;
}

std::vector<TtlIndexRef> DbImpl::ListTtlIndexes() {
  std::vector<TtlIndexRef> out;
  if (!CheckOpen().ok()) return out;
  for (const auto& [name, state] : catalog_.Snapshot()) {
    for (const auto& idx : state->indexes) {
      if (!idx->spec.expire_after_seconds.has_value()) continue;
      TtlIndexRef ref;
      ref.collection = name;
      ref.collection_id = state->info.id();
      ref.index_id = idx->spec.id;
      ref.index_name = idx->spec.name;
      ref.expire_after_seconds = idx->ttl_seconds;
      out.push_back(std::move(ref));
    }
  }
  return out;
}

absl::StatusOr<TtlBatchResult> DbImpl::DeleteExpired(const TtlIndexRef& ref,
                                                     absl::Time cutoff,
                                                     int64_t max_docs,
                                                     absl::Time deadline) {
  RETURN_IF_ERROR(CheckWritable());
  TtlBatchResult result;
  auto state = GetState(ref.collection);
  if (state == nullptr || state->info.id() != ref.collection_id) return result;
  const IndexState* index = nullptr;
  for (const auto& idx : state->indexes) {
    if (idx->spec.id == ref.index_id) index = idx.get();
  }
  if (index == nullptr || !index->ttl_seconds.has_value()) return result;
  if (index->ttl_seconds != ref.expire_after_seconds) {
    // collMod since the monitor computed `cutoff`: never apply it.
    result.more = true;
    result.spec_changed = true;
    return result;
  }
  const bool descending = index->spec.key[0].direction < 0;
  const int64_t cutoff_millis = ToMillisSaturated(cutoff);
  const absl::Time now = cutoff + absl::Seconds(*index->ttl_seconds);
  DateRange range = ExpiredRange(index->prefix, descending, cutoff_millis);

  std::string start = range.begin;
  {
    WritersLock l(this);
    TtlCursor& cursor = ttl_cursors_[index->prefix];
    if (!descending && !cursor.resume.empty() && cursor.resume > start) {
      start = cursor.resume;
    }
    cursor.min_added.clear();
  }

  // Which entries can be deleted from the scan alone, without reading their
  // document: those that list the document's keys in every other current
  // index (storage/entry_value.h), and the plain entries of a TTL index that
  // is the collection's only index and known non-multikey (one entry per
  // document, nothing else to delete). Under the writers' lock an entry in
  // the expired range IS the document's current state: a write that changes
  // the date, the document's other keys or whether it matches a partial
  // filter rewrites or removes the entry in the same atomic batch. An expiry
  // listener needs the documents, so then every document is read.
  // A collection that keeps pre-images needs the documents too: their
  // delete events carry them (engine/change_log.cc).
  const bool listener =
      static_cast<bool>(options_.expiry_listener) ||
      (change_log_on() && state->info.change_stream_pre_and_post_images());
  // Indexes being built count as other indexes: an entry that does not
  // list one makes the monitor read the document (engine/index_build.h).
  const bool lone =
      state->indexes.size() == 1 && state->building.empty() && !index->multikey;
  std::vector<uint32_t> other_ids;
  for (const auto& idx : state->indexes) {
    if (idx.get() != index) other_ids.push_back(idx->spec.id);
  }
  for (const auto& idx : state->building) other_ids.push_back(idx->spec.id);
  auto covers = [&](const std::vector<SiblingIndex>& siblings) {
    for (uint32_t id : other_ids) {
      bool found = false;
      for (const SiblingIndex& s : siblings) found = found || s.index_id == id;
      if (!found) return false;  // an index created after the entry
    }
    return true;
  };
  const std::string doc_prefix = DocumentPrefix(state->info.id());
  std::string last_visited;
  bool exhausted = false;
  std::vector<SiblingIndex> siblings;
  // Whether a foreground writes beside the pass: the last chunk ended
  // early for a waiting writer, or another write was committed since it
  // (the commit queue's count beyond the chunk's own commit). Only then
  // does the pass leave LevelDB room (WaitForWriteRoom), as alone it would
  // only slow itself.
  bool foreground = false;
  int64_t commits_after_chunk = commit_queue_.batches_written();
  while (result.deleted_documents < max_docs) {
    if (clock_->SteadyNow() >= deadline) break;
    TTLDB_SYNC_POINT("DbImpl::DeleteExpired:BeforeChunk");
    // One chunk: scan and delete under the writers' lock in one walk, so no
    // entry can change between being seen and being deleted, and the lock
    // is held for at most kEntriesPerChunk entries, fewer when a writer
    // waits for it: then the chunk ends after kMinEntriesPerChunk, and the
    // next one lets the waiting writers go first, so that a foreground
    // write waits for a few deletions, not for a chunk of them (issue 29
    // item 5: tools/bench/expiry_stall_bench).
    std::vector<Value> deleted;  // for the listener
    int64_t visited = 0;
    foreground =
        foreground || commit_queue_.batches_written() != commits_after_chunk;
    if (foreground) {
      WaitForWriteRoom(db_.get(), block_cache_.get(),
                       options_.write_buffer_bytes);
    }
    {
      WritersLock l(this, WritersLock::Background());
      // The catalog may have changed while unlocked (collMod, index
      // dropped): stop; the monitor re-reads the index and goes on.
      if (GetState(ref.collection) != state) {
        result.more = true;
        result.spec_changed = true;
        return result;
      }
      const int64_t want = std::min<int64_t>(
          kEntriesPerChunk, max_docs - result.deleted_documents);
      leveldb::WriteBatch batch;
      DocumentWriter writer(*state, &batch);
      // The deleted document keys, entries, and entries below the Date
      // bracket (storage/leading_entries.h, subtracted after the commit).
      DocumentWriter::Removed removed;
      std::vector<std::string>& deleted_keys = removed.doc_keys;
      deleted_keys.reserve(want);
      std::set<std::string> seen;  // read documents (may have many entries)
      std::unique_ptr<leveldb::Iterator> it(
          db_->NewIterator(storage::VerifiedRead()));
      for (it->Seek(start);
           it->Valid() && it->key().compare(range.end) < 0 && visited < want &&
           !(visited >= kMinEntriesPerChunk && write_mu_.HasWaiters());
           it->Next()) {
        ++visited;
        ++result.examined_keys;
        last_visited.assign(it->key().data(), it->key().size());
        const absl::string_view value(it->value().data(), it->value().size());
        absl::string_view id;
        bool from_scan = false;
        if (ParseSiblings(value, &id, &siblings)) {
          from_scan = !listener && covers(siblings);
        } else {
          id = EntryValueId(value);
          siblings.clear();
          from_scan = !listener && lone;
        }
        if (from_scan) {
          writer.RemoveBySiblings(
              absl::string_view(it->key().data(), it->key().size()), id,
              siblings, &removed);
          LogExpiredKeyLocked(*state, id, &batch);
          continue;
        }
        // Read and re-check the document; delete every entry it derives.
        const std::string encoded_id(id);
        if (!seen.insert(encoded_id).second) continue;  // another entry
        TTLDB_SYNC_POINT("DbImpl::DeleteExpired:ReadDocument");
        ASSIGN_OR_RETURN(std::optional<Value> doc,
                         reader().Read(*state, encoded_id));
        ++result.examined_documents;
        if (!doc.has_value()) continue;  // not counted
        if (index->partial.has_value() && !index->partial->Matches(*doc)) {
          continue;
        }
        if (!IsExpired(index->spec, *index->ttl_seconds, *doc, now)) {
          continue;
        }
        RETURN_IF_ERROR(writer.Remove(encoded_id, *doc, &removed));
        LogDocumentChangeLocked(*state, &*doc, nullptr, {},
                                /*replacement=*/false, /*expired=*/true,
                                &batch);
        if (options_.expiry_listener) deleted.push_back(std::move(*doc));
      }
      if (!it->status().ok()) {
        return storage::FromLevelDB(
            it->status(), absl::StrCat("reading TTL index ", ref.collection,
                                       ".", ref.index_name));
      }
      exhausted = !it->Valid() || it->key().compare(range.end) >= 0;
      foreground = !exhausted && visited < want;
      it.reset();
      const int64_t n = deleted_keys.size();
      // The collection's floor (DbImpl::doc_floor_): known from the first
      // chunk on (one Seek), and moved past this chunk's deletions when
      // they include it, by a walk over the keys they delete (still live
      // here, before the commit); raised after the commit.
      std::string new_floor;
      if (n > 0) {
        std::optional<std::string> floor = DocFloorLocked(state->info.id());
        std::unique_ptr<leveldb::Iterator> fit;
        auto key_or_end = [&]() {
          return fit->Valid() && fit->key().starts_with(doc_prefix)
                     ? std::string(fit->key().data(), fit->key().size())
                     : KeyPrefixEnd(doc_prefix);
        };
        if (!floor.has_value()) {
          fit.reset(db_->NewIterator(storage::VerifiedRead()));
          fit->Seek(doc_prefix);
          floor = key_or_end();
          if (fit->status().ok()) SetDocFloorLocked(state->info.id(), *floor);
        }
        // Usually not: the walk is paid only when a prefix expires.
        if (std::find(deleted_keys.begin(), deleted_keys.end(), *floor) !=
            deleted_keys.end()) {
          std::vector<absl::string_view> sorted(deleted_keys.begin(),
                                                deleted_keys.end());
          std::sort(sorted.begin(), sorted.end());
          if (fit == nullptr)
            fit.reset(db_->NewIterator(storage::VerifiedRead()));
          for (fit->Seek(*floor);
               fit->Valid() && fit->key().starts_with(doc_prefix) &&
               std::binary_search(
                   sorted.begin(), sorted.end(),
                   absl::string_view(fit->key().data(), fit->key().size()));
               fit->Next()) {
          }
          if (fit->status().ok()) new_floor = key_or_end();
        }
      }
      if (n > 0) {
        leveldb::Status s = CommitDeletes(&batch, deleted_keys);
        if (!s.ok()) return storage::FromLevelDB(s, "TTL delete");
        if (!state->building.empty()) {
          NoteBuildWritesLocked(*state, deleted_keys);
        }
        for (const auto& [prefix, below] : removed.below_dates) {
          leading_.Add(prefix, -below);
        }
        if (!new_floor.empty()) {
          SetDocFloorLocked(state->info.id(), std::move(new_floor));
        }
      }
      result.deleted_documents += n;
      commits_after_chunk = commit_queue_.batches_written();
      result.deleted_keys += removed.entries;
      TtlCursor& swept = ttl_cursors_[index->prefix];
      for (std::string& k : deleted_keys) {
        if (swept.deleted_since_compact++ % swept.doc_sample_stride != 0) {
          continue;
        }
        swept.doc_sample.push_back(std::move(k));
        if (swept.doc_sample.size() >= kMaxDocSample) {
          size_t kept = 0;
          for (size_t i = 0; i < swept.doc_sample.size(); i += 2) {
            swept.doc_sample[kept++] = std::move(swept.doc_sample[i]);
          }
          swept.doc_sample.resize(kept);
          swept.doc_sample_stride *= 2;
        }
      }
    }
    for (const Value& doc : deleted) {
      try {
        options_.expiry_listener(ref.collection, doc);
      } catch (...) {
        // A failing listener never breaks the monitor.
      }
    }
    if (exhausted || visited == 0) break;
    start = KeyPrefixEnd(last_visited);
  }
  result.more = !exhausted;

  bool compact = false;
  std::vector<std::string> doc_sample;
  int64_t sample_stride = 0;
  {
    WritersLock l(this);
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
    const int64_t threshold = options_.ttl_compact_after_deletes;
    if (threshold > 0 && cursor.deleted_since_compact >= threshold &&
        !result.more) {
      cursor.deleted_since_compact = 0;
      doc_sample = std::move(cursor.doc_sample);
      sample_stride = cursor.doc_sample_stride;
      cursor.doc_sample.clear();
      cursor.doc_sample_stride = kDocSampleStride;
      compact = true;
    }
  }
  // With hide_expired, on the compaction thread after the pass returns
  // (issue 19, round 5 session 7: the compaction was most of the pass):
  // scans of the TTL index skip the expired Dates (SkipExpiredEntries) and,
  // when no entry lies below the Date bracket, start at the first live
  // Date (storage/leading_entries.h), so they do not step over the
  // tombstones meanwhile. Without hide_expired nothing keeps them off the
  // tombstones: compacted before the pass returns, as before, outside the
  // writers' lock.
  if (compact) {
    TTLDB_SYNC_POINT("DbImpl::DeleteExpired:Compact");
    if (options_.hide_expired) {
      ScheduleCompactionTask([this, begin = range.begin, end = range.end,
                              sample = std::move(doc_sample),
                              sample_stride]() mutable {
        CompactSwept(begin, end, std::move(sample), sample_stride);
      });
    } else {
      CompactSwept(range.begin, range.end, std::move(doc_sample),
                   sample_stride);
    }
  }
  return result;
}

// What the pass compacts, and why only that. A run of deleted keys traps a
// scan only when no live key lies between them: LevelDB's Seek and Next
// step over every tombstone (and the value it shadows) up to the next live
// key, about 1 us each, and nothing bounds that walk.
//  1. The expired range of the TTL index is always such a run (every entry
//     at or below the cutoff was deleted), and a query from the low end of
//     the index (oldest first) starts in it: compacted.
//  2. The deleted documents form runs only when their _ids are ordered like
//     their dates (ObjectIds, time-ordered keys: the expired documents are
//     a prefix of the _id order, and a collection scan or sort({_id: 1})
//     starts in it). With _ids unrelated to the dates (random, user keys),
//     the deleted keys are spread among live ones: no scan meets more than
//     a few tombstones in a row, and compacting their range rewrites every
//     live document in it (a whole-collection rewrite for nothing). So the
//     document range is not compacted as one; the pass finds the runs from
//     the sample of deleted keys (TtlCursor::doc_sample, sorted): Seek(s)
//     lands on the first live key L >= s, so every key in [s, L) is deleted,
//     and the samples below L belong to the same run. A run holding at least
//     kMinRunKeys deleted keys (samples x stride) is compacted as [s, L):
//     a range of deleted keys only, cheap to compact. Cost of the check: one
//     Seek per run (interleaved deletions: one per sample, each stopping a
//     few keys on) plus one walk over each run, which its compaction then
//     removes; bounded by the sample size (kMaxDocSample).
// No warm-up of what the compaction wrote: the first query after a big
// pass is slower (0.09-0.15 ms against 0.03), but a store the pass never
// touched, queried first, pays the same (docs/benchmarks-history.md, "What
// the pass compacts, the first query, the sweep"): the pass's work evicted
// the CPU caches, not the blocks a query needs; Seeks and Gets into the
// compacted ranges here did not change it.
void DbImpl::CompactSwept(const std::string& index_begin,
                          const std::string& index_end,
                          std::vector<std::string> doc_sample,
                          int64_t sample_stride) {
  const absl::Time start = absl::Now();
  // CompactRange first switches LevelDB's memtable and log, and the old log
  // is synced as it is closed (storage/log_sync_env.h) under LevelDB's
  // mutex: every read that needs it (a new iterator or snapshot, a Get)
  // waited for that fsync, 5-13 ms on a loaded VM, right after the pass
  // (docs/benchmarks-history.md, round 5 session 7). A synced empty write
  // first does the fsync with the mutex released (LevelDB syncs the log
  // outside it), leaving the close almost nothing to sync.
  if (log_unsynced_.load()) {
    leveldb::WriteOptions wo;
    wo.sync = true;
    leveldb::WriteBatch empty;
    // A failure is sticky (Commit) and logged; the compaction goes on.
    (void)Commit(wo, &empty);
  }
  leveldb::Slice ib(index_begin), ie(index_end);
  db_->CompactRange(&ib, &ie);
  ++ttl_compacted_index_ranges_;

  std::sort(doc_sample.begin(), doc_sample.end());
  doc_sample.erase(std::unique(doc_sample.begin(), doc_sample.end()),
                   doc_sample.end());
  std::vector<std::pair<std::string, std::string>> runs;
  {
    std::unique_ptr<leveldb::Iterator> it(
        db_->NewIterator(storage::VerifiedRead()));
    size_t i = 0;
    while (i < doc_sample.size()) {
      it->Seek(doc_sample[i]);
      ++ttl_checked_samples_;
      if (!it->status().ok()) break;  // reported by the reads that meet it
      size_t j = doc_sample.size();
      std::string live;
      if (it->Valid()) {
        live.assign(it->key().data(), it->key().size());
        j = std::lower_bound(doc_sample.begin() + i, doc_sample.end(), live) -
            doc_sample.begin();
      }
      j = std::max(j, i + 1);
      if (static_cast<int64_t>(j - i) * sample_stride >= kMinRunKeys) {
        runs.emplace_back(doc_sample[i], live.empty()
                                             ? KeyPrefixEnd(doc_sample[j - 1])
                                             : std::move(live));
      }
      i = j;
    }
  }
  for (const auto& [begin, end] : runs) {
    leveldb::Slice b(begin), e(end);
    db_->CompactRange(&b, &e);
    ++ttl_compacted_document_runs_;
  }
  Log(LogLevel::kDebug,
      absl::StrCat("compacted a swept TTL index range and ", runs.size(),
                   " runs of deleted documents in ",
                   absl::FormatDuration(absl::Now() - start)));
}

std::optional<absl::Time> DbImpl::EarliestDate(const TtlIndexRef& ref) {
  if (!CheckOpen().ok()) return std::nullopt;
  auto state = GetState(ref.collection);
  if (state == nullptr || state->info.id() != ref.collection_id) {
    return std::nullopt;
  }
  const IndexState* index = nullptr;
  for (const auto& idx : state->indexes) {
    if (idx->spec.id == ref.index_id) index = idx.get();
  }
  // An empty key pattern (only a damaged catalog holds one) has no entries.
  if (index == nullptr || index->spec.key.empty()) return std::nullopt;
  const bool descending = index->spec.key[0].direction < 0;
  const char tag = EncodeDate(0, descending)[0];
  const std::string bracket = index->prefix + tag;
  std::string start = bracket;
  if (!descending) {
    WritersLock l(this);
    auto it = ttl_cursors_.find(index->prefix);
    if (it != ttl_cursors_.end() && it->second.resume > start) {
      start = it->second.resume;
    }
  }
  std::unique_ptr<leveldb::Iterator> it(
      db_->NewIterator(storage::VerifiedRead()));
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
