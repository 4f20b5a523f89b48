// Background index builds: register, scan a snapshot, check unique keys,
// commit. The protocol and its invariants are in engine/index_build.h.
#include <time.h>

#include <algorithm>
#include <set>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "base/status.h"
#include "base/sync_point.h"
#include "catalog/entry_edits.h"
#include "catalog/index_spec_proto.h"
#include "engine/db_impl.h"
#include "index/index_spec.h"
#include "index/key_codec.h"
#include "leveldb/write_batch.h"
#include "storage/entry_value.h"
#include "storage/keys.h"
#include "storage/leveldb_status.h"
#include "ttldb/duplicate_key_error.h"
#include "ttldb/json.h"

namespace ttldb {
namespace {

// Documents per chunk of the scan (at most kScanChunkDocs, or as many as
// reach kScanChunkBytes of stored JSON): their entries are committed in one
// WriteBatch under the writers' lock, so this bounds a writer's wait (about
// 3 ms for 2,000 documents of 256 bytes and two indexes). Each commit first
// waits for the writer holding the lock; 500-document chunks spent twice as
// long waiting (docs/benchmarks-history.md, round 5).
constexpr size_t kScanChunkDocs = 2000;
constexpr size_t kScanChunkBytes = 4 << 20;
// Unique candidates re-checked without the lock until at most this many
// remain for the final, locked check (or kMaxRecheckRounds have run).
constexpr size_t kFinalCandidatesMax = 256;
constexpr int kMaxRecheckRounds = 8;

std::vector<uint32_t> IndexIds(const CollectionState& state) {
  std::vector<uint32_t> ids;
  for (const auto& idx : state.indexes) ids.push_back(idx->spec.id);
  return ids;
}

const IndexState* FindBuilding(const CollectionState& state, uint32_t id) {
  for (const auto& idx : state.building) {
    if (idx->spec.id == id) return idx.get();
  }
  return nullptr;
}

absl::Status ShutdownError() {
  return MongoError(absl::StatusCode::kAborted, kInterruptedAtShutdown,
                    "Index build interrupted at shutdown");
}

// One scanned document's part of a chunk: its entries, [begin, end) of
// ScanChunk::puts.
struct ScanDoc {
  std::string doc_key;
  Value doc;
  std::string encoded_id;
  size_t begin = 0, end = 0;
};

struct ScanChunk {
  std::vector<std::pair<std::string, std::string>> puts;
  bool multikey = false;
};

// The calling thread's CPU time: with the scan's wall time, tells waiting
// for a core from working.
absl::Duration ThreadCpuTime() {
  timespec ts;
  if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0)
    return absl::ZeroDuration();
  return absl::DurationFromTimespec(ts);
}

}  // namespace

IndexBuildTracker* DbImpl::BuildTrackerLocked(const IndexState& index) {
  auto it = index_builds_.find(index.prefix);
  return it == index_builds_.end() ? nullptr : &it->second;
}

void DbImpl::NoteBuildWritesLocked(const CollectionState& state,
                                   absl::Span<const std::string> doc_keys) {
  for (const auto& idx : state.building) {
    IndexBuildTracker* tracker = BuildTrackerLocked(*idx);
    if (tracker == nullptr) continue;
    for (const std::string& key : doc_keys) {
      if (key > tracker->scanned_to) tracker->touched.insert(key);
    }
  }
}

std::shared_ptr<const CollectionState> DbImpl::StateByIdLocked(
    uint32_t coll_id) {
  return catalog_.GetById(coll_id);
}

absl::StatusOr<std::shared_ptr<const CollectionState>> DbImpl::BuildStateLocked(
    uint32_t coll_id, uint32_t index_id) {
  if (!CheckOpen().ok()) return ShutdownError();
  std::shared_ptr<const CollectionState> state = StateByIdLocked(coll_id);
  if (state == nullptr || FindBuilding(*state, index_id) == nullptr ||
      index_builds_.count(IndexPrefix(coll_id, index_id)) == 0) {
    return MongoError(absl::StatusCode::kAborted, kIndexBuildAborted,
                      "Index build aborted: the collection was dropped");
  }
  return state;
}

absl::StatusOr<DbImpl::IndexBuildStart> DbImpl::RegisterIndexBuildLocked(
    const CollectionState& state, IndexSpec spec) {
  // The id is reserved durably with the registration: a crash during the
  // build leaves entries under an id that is never handed out again, and
  // the catalog entry says whose they are.
  proto::CollectionInfo info = state.info;
  AddBuildingIndex(&spec, &info);
  leveldb::WriteBatch batch;
  ASSIGN_OR_RETURN(auto published, CommitCatalogLocked(info, &batch));
  index_builds_[IndexPrefix(info.id(), spec.id)] = IndexBuildTracker();
  ++running_builds_;
  IndexBuildStart start;
  start.spec = std::move(spec);
  start.state = std::move(published);
  // Under write_mu_: every write committed after S sees the build.
  start.snapshot = db_->GetSnapshot();
  return start;
}

absl::StatusOr<std::string> DbImpl::RunIndexBuild(
    IndexBuildStart start, const IndexBuildProgress& progress) {
  const uint32_t coll_id = start.state->info.id();
  const uint32_t index_id = start.spec.id;
  absl::Status status = ScanIntoIndexBuild(start, progress);
  db_->ReleaseSnapshot(start.snapshot);
  start.snapshot = nullptr;
  if (status.ok() && start.spec.unique) status = CheckUniqueBuild(start);
  TTLDB_SYNC_POINT("DbImpl::RunIndexBuild:BeforeCommit");
  if (status.ok()) status = CommitIndexBuild(start);
  if (!status.ok() && ErrorCode(status) != kInterruptedAtShutdown) {
    absl::Status abandoned = AbandonIndexBuild(coll_id, index_id);
    if (!abandoned.ok()) {
      Log(LogLevel::kWarning,
          absl::StrCat("index build of '", start.spec.name,
                       "' failed and its entries could not all be deleted "
                       "(the next open deletes them): ",
                       abandoned.message()));
    }
  }
  {
    WritersLock l(this, MutexLock::First());
    index_builds_.erase(IndexPrefix(coll_id, index_id));
    --running_builds_;
    builds_cv_.SignalAll();
  }
  if (!status.ok()) return status;
  if (start.spec.expire_after_seconds.has_value() && monitor_ != nullptr) {
    monitor_->NotifyExpiry(clock_->WallNow());
  }
  return start.spec.name;
}

absl::Status DbImpl::ScanIntoIndexBuild(const IndexBuildStart& start,
                                        const IndexBuildProgress& progress) {
  const uint32_t coll_id = start.state->info.id();
  const uint32_t index_id = start.spec.id;
  const std::string prefix = IndexPrefix(coll_id, index_id);
  const std::string& doc_prefix = start.state->doc_prefix;
  const std::string& coll = start.state->info.name();
  leveldb::ReadOptions ro = storage::VerifiedRead(start.snapshot);
  ro.fill_cache = false;  // one pass over everything: keep the working set

  int64_t total = 0;
  if (progress) {
    std::unique_ptr<leveldb::Iterator> it(db_->NewIterator(ro));
    for (it->Seek(doc_prefix); it->Valid() && it->key().starts_with(doc_prefix);
         it->Next()) {
      ++total;
    }
  }

  // The published indexes the chunk's entries were computed for: if they
  // change before the commit (an index dropped or published meanwhile),
  // the chunk is computed again.
  std::shared_ptr<const CollectionState> state = start.state;
  std::unique_ptr<leveldb::Iterator> it(db_->NewIterator(ro));
  it->Seek(doc_prefix);
  std::vector<ScanDoc> docs;
  std::vector<std::string> entry_keys;
  DocKeys doc_keys;
  int64_t done = 0;
  // How long the chunks waited for the writers' lock (issue 19: a plain
  // mutex let a busy writer keep it; logged, see docs/benchmarks-history.md
  // "Why the build is slow under a busy writer").
  int64_t chunks = 0;
  absl::Duration lock_wait, max_lock_wait, read_time, key_time, commit_time;
  const absl::Time scan_start = absl::Now();
  const absl::Duration cpu_start = ThreadCpuTime();
  while (true) {
    docs.clear();
    absl::Time phase = absl::Now();
    size_t chunk_bytes = 0;
    for (; it->Valid() && it->key().starts_with(doc_prefix) &&
           docs.size() < kScanChunkDocs && chunk_bytes < kScanChunkBytes;
         it->Next()) {
      chunk_bytes += it->value().size();
      auto doc = ParseDocument(
          absl::string_view(it->value().data(), it->value().size()),
          StoredJsonParseOptions());
      if (!doc.ok()) return absl::DataLossError(doc.status().message());
      const Value* id = doc->Get("_id");
      if (id == nullptr) continue;
      ScanDoc d;
      d.doc_key = it->key().ToString();
      d.encoded_id = EncodeId(*id);
      d.doc = *std::move(doc);
      docs.push_back(std::move(d));
    }
    if (!it->status().ok()) {
      return storage::FromLevelDB(
          it->status(), absl::StrCat("reading collection '", coll, "'"));
    }
    if (docs.empty()) break;
    read_time += absl::Now() - phase;

    for (int attempt = 0;; ++attempt) {
      phase = absl::Now();
      if (!CheckOpen().ok()) return ShutdownError();
      const IndexState* self = FindBuilding(*state, index_id);
      if (self == nullptr) {
        return MongoError(absl::StatusCode::kAborted, kIndexBuildAborted,
                          "Index build aborted");
      }
      // TTL entries carry their document's keys in every other index
      // (storage/entry_value.h): the new index's entries list the published
      // ones, and the published TTL indexes' entries are rewritten to list
      // the new one.
      std::vector<const IndexState*> all;
      bool any_ttl = self->spec.expire_after_seconds.has_value();
      for (const auto& idx : state->indexes) {
        all.push_back(idx.get());
        any_ttl = any_ttl || idx->spec.expire_after_seconds.has_value();
      }
      all.push_back(self);
      const size_t me = all.size() - 1;
      ScanChunk chunk;
      for (ScanDoc& d : docs) {
        d.begin = chunk.puts.size();
        bool doc_multikey = false;
        absl::Status ks = IndexEntryKeys(*self, d.doc, d.encoded_id,
                                         &entry_keys, &doc_multikey);
        if (!ks.ok()) {
          return MongoError(
              absl::StatusCode::kInvalidArgument, ErrorCode(ks),
              absl::StrCat("Index build failed: ", ks.message(),
                           " (document _id ", ToJson(*d.doc.Get("_id")), ")"));
        }
        if (doc_multikey) chunk.multikey = true;
        std::string value = d.encoded_id;
        if (any_ttl) {
          all.pop_back();
          absl::Status others =
              ComputeDocKeys(all, d.doc, d.encoded_id, &doc_keys);
          all.push_back(self);
          if (!others.ok()) {
            return absl::DataLossError(absl::StrCat(
                "Index build failed: stored document _id ",
                ToJson(*d.doc.Get("_id")),
                " no longer derives its keys: ", others.message()));
          }
          std::sort(entry_keys.begin(), entry_keys.end());
          doc_keys.keys.push_back(entry_keys);
          doc_keys.multikey.push_back(doc_multikey);
          for (size_t t = 0; t < me; ++t) {
            if (!all[t]->spec.expire_after_seconds.has_value() ||
                doc_keys.keys[t].size() != 1) {
              continue;
            }
            chunk.puts.emplace_back(
                doc_keys.keys[t][0],
                EntryValueFor(all, doc_keys, t, d.encoded_id));
          }
          value = EntryValueFor(all, doc_keys, me, d.encoded_id);
        }
        for (std::string& k : entry_keys) {
          chunk.puts.emplace_back(std::move(k), value);
        }
        d.end = chunk.puts.size();
      }
      leveldb::WriteBatch batch;
      for (const auto& [k, v] : chunk.puts) batch.Put(k, v);

      key_time += absl::Now() - phase;
      TTLDB_SYNC_POINT("DbImpl::ScanIntoIndexBuild:BeforeChunkCommit");
      const absl::Time wait_start = absl::Now();
      WritersLock l(this, MutexLock::First());
      const absl::Duration waited = absl::Now() - wait_start;
      lock_wait += waited;
      max_lock_wait = std::max(max_lock_wait, waited);
      ++chunks;
      ASSIGN_OR_RETURN(auto current, BuildStateLocked(coll_id, index_id));
      if (IndexIds(*current) != IndexIds(*state)) {
        state = std::move(current);
        continue;  // unlocks; computes the chunk again
      }
      state = std::move(current);
      IndexBuildTracker& tracker = index_builds_[prefix];
      // Documents written since S: their entries are the writers' (and
      // current); the snapshot's version must not overwrite them.
      bool skip_any = false;
      for (const ScanDoc& d : docs) {
        skip_any = skip_any || tracker.touched.count(d.doc_key) > 0;
      }
      if (skip_any) {
        batch.Clear();
        for (const ScanDoc& d : docs) {
          if (tracker.touched.count(d.doc_key) > 0) continue;
          for (size_t i = d.begin; i < d.end; ++i) {
            batch.Put(chunk.puts[i].first, chunk.puts[i].second);
          }
        }
      }
      phase = absl::Now();
      leveldb::Status s = Commit(leveldb::WriteOptions(), &batch);
      commit_time += absl::Now() - phase;
      if (!s.ok()) return storage::FromLevelDB(s, "write");
      tracker.scanned_to = docs.back().doc_key;
      tracker.touched.erase(tracker.touched.begin(),
                            tracker.touched.upper_bound(tracker.scanned_to));
      if (chunk.multikey) tracker.multikey = true;
      break;
    }
    done += docs.size();
    if (progress) progress(done, total);
  }
  Log(LogLevel::kInfo,
      absl::StrCat("index build of '", start.spec.name, "': scanned ", done,
                   " documents in ", chunks, " chunk commits, ",
                   absl::FormatDuration(absl::Now() - scan_start), " (",
                   absl::FormatDuration(ThreadCpuTime() - cpu_start),
                   " on the CPU; reading ", absl::FormatDuration(read_time),
                   ", computing keys ", absl::FormatDuration(key_time),
                   ", committing ", absl::FormatDuration(commit_time),
                   "); waited for the writers' lock ",
                   absl::FormatDuration(lock_wait), " (longest ",
                   absl::FormatDuration(max_lock_wait), ")"));
  // Every document is now the writers' to maintain.
  WritersLock l(this, MutexLock::First());
  RETURN_IF_ERROR(BuildStateLocked(coll_id, index_id).status());
  IndexBuildTracker& tracker = index_builds_[prefix];
  tracker.scanned_to = KeyPrefixEnd(doc_prefix);
  tracker.touched.clear();
  return absl::OkStatus();
}

absl::Status DbImpl::CheckUniqueBuild(const IndexBuildStart& start) {
  const uint32_t coll_id = start.state->info.id();
  const uint32_t index_id = start.spec.id;
  const std::string prefix = IndexPrefix(coll_id, index_id);
  leveldb::ReadOptions ro = storage::VerifiedRead();
  ro.fill_cache = false;
  // Whether two documents hold entries starting with `key_part` now.
  auto held_twice = [&](const std::string& key_part) -> absl::StatusOr<bool> {
    std::unique_ptr<leveldb::Iterator> it(
        db_->NewIterator(storage::VerifiedRead()));
    int n = 0;
    for (it->Seek(key_part); it->Valid() && it->key().starts_with(key_part);
         it->Next()) {
      if (++n > 1) return true;
    }
    if (!it->status().ok())
      return storage::FromLevelDB(it->status(), "reading a unique index");
    return false;
  };
  // 1. Every key the scan gave two documents. Entry keys end with the
  // encoded _id (the entry value), so equal keys are adjacent.
  std::set<std::string> found;
  {
    std::unique_ptr<leveldb::Iterator> it(db_->NewIterator(ro));
    std::string previous;
    int64_t n = 0;
    for (it->Seek(prefix); it->Valid() && it->key().starts_with(prefix);
         it->Next()) {
      if (++n % 4096 == 0 && !CheckOpen().ok()) return ShutdownError();
      const absl::string_view id = EntryValueId(
          absl::string_view(it->value().data(), it->value().size()));
      if (id.size() > it->key().size()) continue;
      std::string key_part(it->key().data(), it->key().size() - id.size());
      if (key_part == previous) found.insert(key_part);
      previous = std::move(key_part);
    }
    if (!it->status().ok())
      return storage::FromLevelDB(it->status(), "reading a unique index");
  }
  {
    WritersLock l(this, MutexLock::First());
    RETURN_IF_ERROR(BuildStateLocked(coll_id, index_id).status());
    index_builds_[prefix].unique_candidates.insert(found.begin(), found.end());
  }
  // 2. Re-check the candidates (and those writers added) without the lock,
  // keeping the keys still duplicated, until few are left for the commit.
  for (int round = 0; round < kMaxRecheckRounds; ++round) {
    std::set<std::string> candidates;
    {
      WritersLock l(this, MutexLock::First());
      RETURN_IF_ERROR(BuildStateLocked(coll_id, index_id).status());
      std::set<std::string>& pending = index_builds_[prefix].unique_candidates;
      if (pending.size() <= kFinalCandidatesMax) break;
      candidates.swap(pending);
    }
    std::set<std::string> still;
    for (const std::string& key_part : candidates) {
      ASSIGN_OR_RETURN(bool dup, held_twice(key_part));
      if (dup) still.insert(key_part);
      if (still.size() > kFinalCandidatesMax) break;  // fails at the commit
    }
    WritersLock l(this, MutexLock::First());
    RETURN_IF_ERROR(BuildStateLocked(coll_id, index_id).status());
    index_builds_[prefix].unique_candidates.insert(still.begin(), still.end());
    if (!still.empty()) break;  // a duplicate now: the commit decides
  }
  return absl::OkStatus();
}

absl::Status DbImpl::CommitIndexBuild(const IndexBuildStart& start) {
  const uint32_t coll_id = start.state->info.id();
  const uint32_t index_id = start.spec.id;
  const std::string prefix = IndexPrefix(coll_id, index_id);
  WritersLock l(this, MutexLock::First());
  ASSIGN_OR_RETURN(auto state, BuildStateLocked(coll_id, index_id));
  IndexBuildTracker& tracker = index_builds_[prefix];
  const IndexState* self = FindBuilding(*state, index_id);
  // MongoDB checks the keys its duplicate key tracker recorded when it
  // commits, under the exclusive lock
  // (src/mongo/db/index_builds/index_build_interceptor.cpp,
  // checkDuplicateKeyConstraints): a key two documents hold now fails it.
  for (const std::string& key_part : tracker.unique_candidates) {
    std::unique_ptr<leveldb::Iterator> it(
        db_->NewIterator(storage::VerifiedRead()));
    int n = 0;
    for (it->Seek(key_part);
         it->Valid() && it->key().starts_with(key_part) && n < 2; it->Next()) {
      ++n;
    }
    if (!it->status().ok())
      return storage::FromLevelDB(it->status(), "reading a unique index");
    if (n > 1) {
      return DuplicateKeyError(
          absl::StrCat(options_.db_name, ".", state->info.name()),
          start.spec.name, DupKeyInfo(self, nullptr, key_part),
          "Index build failed: ");
    }
  }
  proto::CollectionInfo info = state->info;
  // Multikey: known from the scan and every write since registration.
  MarkIndexBuilt(index_id, tracker.multikey, &info);
  index_builds_.erase(prefix);
  leveldb::WriteBatch batch;
  // commitIndexBuild's createIndexes event (showExpandedEvents).
  LogDdlLocked(
      ChangeOp::kCreateIndexes, info.name(),
      Value::MakeObject(
          {{"indexes", Value::MakeArray({IndexSpecToValue(start.spec)})}}),
      &batch);
  RETURN_IF_ERROR(CommitCatalogLocked(info, &batch).status());
  index_usage_.Reset(coll_id, index_id);
  return absl::OkStatus();
}

absl::Status DbImpl::AbandonIndexBuild(uint32_t coll_id, uint32_t index_id) {
  const std::string prefix = IndexPrefix(coll_id, index_id);
  auto move_to_abandoned = [&]() -> absl::Status {
    WritersLock l(this, MutexLock::First());
    index_builds_.erase(prefix);
    std::shared_ptr<const CollectionState> state = StateByIdLocked(coll_id);
    if (state == nullptr) return absl::OkStatus();  // gone, entries and all
    proto::CollectionInfo info = state->info;
    if (!AbandonBuildingIndex(index_id, &info)) return absl::OkStatus();
    leveldb::WriteBatch batch;
    return CommitCatalogLocked(info, &batch).status();
  };
  RETURN_IF_ERROR(move_to_abandoned());
  // No writer touches the range any more: delete it in bounded batches.
  RETURN_IF_ERROR(DeleteRange(prefix, KeyPrefixEnd(prefix)));
  WritersLock l(this, MutexLock::First());
  std::shared_ptr<const CollectionState> state = StateByIdLocked(coll_id);
  if (state == nullptr) return absl::OkStatus();
  proto::CollectionInfo info = state->info;
  if (!ForgetAbandonedIndex(index_id, &info)) return absl::OkStatus();
  leveldb::WriteBatch batch;
  return CommitCatalogLocked(info, &batch).status();
}

absl::Status DbImpl::CleanInterruptedBuildsLocked() {
  std::vector<std::shared_ptr<const CollectionState>> states;
  for (const auto& [name, state] : catalog_.Snapshot()) {
    if (!state->info.building_indexes().empty() ||
        !state->info.abandoned_index_ids().empty()) {
      states.push_back(state);
    }
  }
  for (const auto& state : states) {
    proto::CollectionInfo info = state->info;
    for (const proto::IndexSpec& spec : AbandonAllBuildingIndexes(&info)) {
      Log(LogLevel::kWarning,
          absl::StrCat("index build of '", spec.name(), "' on collection '",
                       info.name(),
                       "' was interrupted; its entries are deleted (run "
                       "createIndex again)"));
    }
    leveldb::WriteBatch batch;
    RETURN_IF_ERROR(CommitCatalogLocked(info, &batch).status());
    for (uint32_t index_id : info.abandoned_index_ids()) {
      const std::string prefix = IndexPrefix(info.id(), index_id);
      RETURN_IF_ERROR(DeleteRange(prefix, KeyPrefixEnd(prefix)));
    }
    info.clear_abandoned_index_ids();
    leveldb::WriteBatch done;
    RETURN_IF_ERROR(CommitCatalogLocked(info, &done).status());
  }
  return absl::OkStatus();
}

}  // namespace ttldb
