// Opening, closing and the catalog of a ttldb database.
#include "engine/db_impl.h"

#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "base/start_thread.h"
#include "base/status.h"
#include "catalog/catalog_entries.h"
#include "catalog/compile.h"
#include "catalog/entry_edits.h"
#include "catalog/index_spec_proto.h"
#include "document/storable.h"
#include "index/index_spec.h"
#include "index/key_codec.h"
#include "leveldb/cache.h"
#include "leveldb/env.h"
#include "leveldb/filter_policy.h"
#include "leveldb/helpers/memenv.h"
#include "leveldb/write_batch.h"
#include "storage/keys.h"
#include "storage/leveldb_status.h"
#include "storage/log_sync_env.h"
#include "storage/read_only_env.h"
#include "storage/rebuild_keys.h"
#include "storage/spill_directory.h"
#include "ttl/touch_interval.h"
#include "ttl/ttl_spec.h"
#include "ttldb/json.h"

namespace ttldb {

namespace {

// Sends LevelDB's info log to Options::logger (debug).
class LevelDbLogger : public leveldb::Logger {
 public:
  explicit LevelDbLogger(ttldb::Logger logger) : logger_(std::move(logger)) {}
  void Logv(const char* format, va_list ap) override {
    char buf[512];
    va_list copy;
    va_copy(copy, ap);
    int n = vsnprintf(buf, sizeof(buf), format, copy);
    va_end(copy);
    if (n < 0) return;
    std::string message = "leveldb: ";
    if (static_cast<size_t>(n) < sizeof(buf)) {
      message.append(buf, n);
    } else {
      std::string big(n + 1, '\0');
      vsnprintf(big.data(), big.size(), format, ap);
      message.append(big.data(), n);
    }
    while (!message.empty() && message.back() == '\n') message.pop_back();
    logger_(LogLevel::kDebug, message);
  }

 private:
  const ttldb::Logger logger_;
};

}  // namespace

void DbImpl::Log(LogLevel level, absl::string_view message) const {
  if (options_.logger) options_.logger(level, message);
}

DbImpl::DbImpl(std::string path, const Options& options, leveldb::Env* env)
    : path_(std::move(path)),
      options_(options),
      clock_(options.clock != nullptr ? options.clock : Clock::Real()),
      env_(env),
      index_usage_(clock_) {
  if (options.doc_cache_bytes > 0) {
    doc_cache_ = std::make_unique<DocCache>(options.doc_cache_bytes);
  }
}

MonitorOptions DbImpl::MonitorOptionsFrom(const Options& options) {
  MonitorOptions config;
  config.sleep = options.ttl_monitor_sleep;
  config.batch_docs_max = options.ttl_batch_docs_max;
  config.batch_time_max = options.ttl_batch_time_max;
  config.batch_deletes = options.ttl_batch_deletes;
  config.sub_pass_target = options.ttl_sub_pass_target;
  config.exact_wakeup = options.ttl_exact_wakeup;
  config.max_deletes_per_second = options.ttl_max_deletes_per_second;
  config.enabled = options.ttl_monitor_enabled;
  config.logger = options.logger;
  // An injected clock may jump: re-read it often so Advance() is noticed.
  if (options.clock != nullptr) config.wait_slice = absl::Milliseconds(10);
  return config;
}

absl::StatusOr<std::unique_ptr<DbImpl>> DbImpl::Open(absl::string_view path,
                                                     const Options& options,
                                                     leveldb::Env* env,
                                                     bool repair) {
  // The TTL options: the monitor's own rules, before anything is opened.
  RETURN_IF_ERROR(TtlMonitor::ValidateOptions(MonitorOptionsFrom(options)));
  if (options.block_size_bytes < 512 || options.block_size_bytes > (1 << 20)) {
    return absl::InvalidArgumentError(
        absl::StrCat("block_size_bytes must be between 512 and 1048576, got ",
                     options.block_size_bytes));
  }
  if (options.in_memory && (options.read_only || options.error_if_exists)) {
    return absl::InvalidArgumentError(
        "in_memory cannot be combined with read_only or error_if_exists: an "
        "in-memory database starts empty");
  }
  std::unique_ptr<DbImpl> engine(new DbImpl(std::string(path), options, env));
  engine->repair_ = repair;
  RETURN_IF_ERROR(engine->Init());
  return engine;
}

absl::Status DbImpl::Init() {
  leveldb::Options lopts;
  lopts.create_if_missing = options_.create_if_missing && !options_.read_only;
  lopts.error_if_exists = options_.error_if_exists;
  lopts.write_buffer_size = options_.write_buffer_bytes;
  lopts.block_size = options_.block_size_bytes;
  lopts.compression = options_.compress_blocks ? leveldb::kSnappyCompression
                                               : leveldb::kNoCompression;
  block_cache_.reset(leveldb::NewLRUCache(options_.block_cache_bytes));
  lopts.block_cache = block_cache_.get();
  if (options_.bloom_bits_per_key > 0) {
    filter_policy_.reset(
        leveldb::NewBloomFilterPolicy(options_.bloom_bits_per_key));
    lopts.filter_policy = filter_policy_.get();
  }
  lopts.env = env_;
  if (options_.in_memory) {
    mem_env_.reset(leveldb::NewMemEnv(lopts.env));
    lopts.env = mem_env_.get();
  }
  if (options_.logger) {
    info_log_ = std::make_unique<LevelDbLogger>(options_.logger);
    lopts.info_log = info_log_.get();
  }
  if (options_.read_only) {
    // LevelDB writes at every open (LOCK, a new log and MANIFEST, the
    // replayed log's table): keep all of it in memory (read_only_env.h).
    read_only_env_ = std::make_unique<ReadOnlyEnv>(lopts.env);
    lopts.env = read_only_env_.get();
  } else {
    // A synced write covers the old log of a memtable switch too.
    log_sync_env_ = std::make_unique<LogSyncEnv>(lopts.env);
    lopts.env = log_sync_env_.get();
  }
  // Corruption found while recovering the log or compacting is an error,
  // never skipped data (docs/reliability.md).
  lopts.paranoid_checks = true;
  // Without CURRENT, LevelDB would create a new database over the old files
  // and delete them as obsolete: refuse before it touches anything.
  RETURN_IF_ERROR(CheckNotOrphaned(lopts.env));
  leveldb::DB* raw = nullptr;
  leveldb::Status s = leveldb::DB::Open(lopts, path_, &raw);
  if (!s.ok()) {
    return storage::FromLevelDB(s,
                                absl::StrCat("opening database '", path_, "'"));
  }
  db_.reset(raw);
  RETURN_IF_ERROR(LoadCatalog());
  // The change log's last and trimmed sequence numbers, then retention.
  RETURN_IF_ERROR(RecoverChangeLog());
  if (!options_.read_only && !repair_) {
    // A failure (a damaged block of the log) is reported, not fatal.
    absl::Status trimmed = TrimChangeLog(clock_->WallNow());
    if (!trimmed.ok()) {
      Log(LogLevel::kWarning,
          absl::StrCat("change log retention at open: ", trimmed.message()));
    }
  }
  // Spill files an aggregation left behind when the process died
  // (storage/spill_directory.h): nothing in <db>/_tmp outlives its cursor.
  if (!options_.read_only && !options_.in_memory) {
    RemoveSpillDirectory(path_);
  }
  {
    // touch_min_interval must be well below every TTL index's E
    // (ttl/touch_interval.h).
    for (const auto& [name, state] : catalog_.Snapshot()) {
      for (const auto& idx : state->indexes) {
        if (!idx->ttl_seconds.has_value()) continue;
        RETURN_IF_ERROR(CheckTouchInterval(options_.touch_min_interval,
                                           *idx->ttl_seconds, name,
                                           idx->spec.name, kBadValue));
      }
    }
  }
  {
    // Entries below the Date bracket of each ascending TTL index
    // (storage/leading_entries.h), once the keys are in the current
    // encoding; Publish keeps them up to date from here on.
    WritersLock wl(this);
    // Not in repair, which rewrites index entries after opening.
    if (!repair_) {
      for (const auto& [name, state] : catalog_.Snapshot()) {
        TrackLeading(nullptr, state.get());
      }
      leading_tracking_ = true;
    }
  }
  RETURN_IF_ERROR(StartThread(
      &compact_thread_, [this] { CompactionLoop(); }, "compactions"));
  // Garbage of drops and index builds a crash or Close interrupted: found
  // now, deleted in the background. Repair decides about unnamed ids
  // itself (ttldb/repair.h); read_only writes nothing.
  if (!options_.read_only && !repair_) RETURN_IF_ERROR(StartReclaimer());

  monitor_ =
      std::make_unique<TtlMonitor>(this, clock_, MonitorOptionsFrom(options_));
  if (!options_.read_only) RETURN_IF_ERROR(monitor_->Start());
  return absl::OkStatus();
}

absl::Status DbImpl::CheckNotOrphaned(leveldb::Env* env) const {
  if (env->FileExists(path_ + "/CURRENT")) return absl::OkStatus();
  std::vector<std::string> children;
  if (!env->GetChildren(path_, &children).ok()) return absl::OkStatus();
  std::vector<std::string> found;
  for (const std::string& f : children) {
    if (absl::EndsWith(f, ".ldb") || absl::EndsWith(f, ".sst") ||
        absl::EndsWith(f, ".log") || absl::StartsWith(f, "MANIFEST-")) {
      found.push_back(f);
    }
  }
  // LevelDB creates a database by writing MANIFEST-000001 and then CURRENT:
  // that manifest alone is a creation interrupted by a crash, with no data.
  if (found.empty() || (found.size() == 1 && found[0] == "MANIFEST-000001")) {
    return absl::OkStatus();
  }
  std::sort(found.begin(), found.end());
  if (found.size() > 5) {
    found.resize(5);
    found.push_back("...");
  }
  return MongoError(
      absl::StatusCode::kDataLoss, kDataCorruptionDetected,
      absl::StrCat("database '", path_, "' holds LevelDB files (",
                   absl::StrJoin(found, ", "),
                   ") but its CURRENT file is missing, so no database can be "
                   "opened; nothing was changed (creating a database here "
                   "would delete them): ",
                   storage::kRepairAdvice));
}

absl::Status DbImpl::LoadCatalog() {
  uint32_t stored_version = 0;  // 0: a new database
  std::string meta_value;
  leveldb::Status s = db_->Get(storage::VerifiedRead(), MetaKey(), &meta_value);
  WritersLock wl(this);
  auto persist_meta = [&]() -> absl::Status {
    // Held by wl, above: the thread-safety analysis does not see into lambdas.
    write_mu_.AssertHeld();
    leveldb::WriteBatch batch;
    SaveMetaLocked(&batch);
    leveldb::WriteOptions wo;
    wo.sync = true;
    leveldb::Status ws = Commit(wo, &batch);
    if (!ws.ok()) return storage::FromLevelDB(ws, "write");
    return absl::OkStatus();
  };
  if (s.IsNotFound()) {
    // A new database is empty: data without the meta record means the
    // metadata was lost, and starting ids again at 1 would hand an old
    // collection's documents to the next new collection.
    std::unique_ptr<leveldb::Iterator> any(
        db_->NewIterator(storage::VerifiedRead()));
    any->SeekToFirst();
    if (any->Valid() && !repair_) {
      return absl::DataLossError(absl::StrCat(
          "database '", path_,
          "' holds data but no metadata record; refusing to open it as a new "
          "database. Restore the directory from a backup, or run `ttldb "
          "repair` to rebuild the record from the catalog"));
    }
    if (!any->status().ok()) {
      return storage::FromLevelDB(any->status(), "reading the database");
    }
    // A new database; or, in repair, a lost record: its next collection id
    // is raised above every id in use below.
    meta_.set_format_version(kFormatVersion);
    meta_.set_next_collection_id(1);
    meta_rebuilt_ = any->Valid();
    if (!options_.read_only && !any->Valid()) {
      RETURN_IF_ERROR(persist_meta());
    }
  } else if (!s.ok()) {
    return storage::FromLevelDB(s, "reading the database metadata");
  } else {
    if (!meta_.ParseFromString(meta_value)) {
      return absl::DataLossError(
          absl::StrCat("database '", path_, "': corrupt metadata record"));
    }
    if (meta_.format_version() > kFormatVersion) {
      return absl::FailedPreconditionError(absl::StrCat(
          "database '", path_, "' has format version ", meta_.format_version(),
          "; this ttldb reads up to ", kFormatVersion));
    }
    stored_version = meta_.format_version();
  }
  // Format 3 changed the index encoding of every number (index/key_codec.cc):
  // older databases get their document and index keys rebuilt here. The
  // marker makes that restartable: written with the new version before the
  // first rebuilt key, deleted after the last, and a later open that finds
  // it rebuilds again. Format 2 only added a form of TTL entry value that
  // format 1 never wrote (storage/entry_value.h); the new version is written
  // before anything else so that an older ttldb refuses the database.
  std::vector<std::shared_ptr<const CollectionState>> loaded;
  std::string marker;
  const bool rekey_pending =
      (stored_version != 0 && stored_version < 3) ||
      db_->Get(storage::VerifiedRead(), RekeyMarkerKey(), &marker).ok();
  if (rekey_pending && options_.read_only) {
    return absl::FailedPreconditionError(absl::StrCat(
        "database '", path_, "' has format version ", stored_version,
        " and its index keys must be rebuilt for format ", kFormatVersion,
        "; open it once without read_only"));
  }
  if (stored_version != 0 && stored_version < kFormatVersion) {
    meta_.set_format_version(kFormatVersion);
    leveldb::WriteBatch batch;
    SaveMetaLocked(&batch);
    if (rekey_pending) storage::PutRekeyMarker(&batch);
    leveldb::WriteOptions wo;
    wo.sync = true;
    leveldb::Status ws = Commit(wo, &batch);
    if (!ws.ok()) return storage::FromLevelDB(ws, "write");
  }

  // The catalog (catalog/catalog_entries.h): a damaged entry is set aside
  // with what is wrong, and the healthy collections open.
  ASSIGN_OR_RETURN(LoadedCollections catalog, LoadCollections(db_.get()));
  // No new collection may reuse an id that holds data or is in the catalog
  // (a lost or stale meta record would hand it out again).
  ASSIGN_OR_RETURN(const uint32_t data_max_id,
                   MaxCollectionIdInData(db_.get()));
  const uint32_t needed = std::max(catalog.max_id, data_max_id) + 1;
  if (meta_.next_collection_id() < needed) {
    meta_.set_next_collection_id(needed);
    if (!options_.read_only) RETURN_IF_ERROR(persist_meta());
  }
  for (auto& [name, state] : catalog.healthy) {
    if (rekey_pending) loaded.push_back(state);
    Publish(name, std::move(state));
  }
  catalog_.SetDamaged(std::move(catalog.damaged),
                      std::move(catalog.damaged_ids));
  if (rekey_pending) {
    for (const auto& state : loaded) RETURN_IF_ERROR(RekeyLocked(*state));
    leveldb::WriteBatch batch;
    storage::DeleteRekeyMarker(&batch);
    leveldb::WriteOptions wo;
    wo.sync = true;
    leveldb::Status ws = Commit(wo, &batch);
    if (!ws.ok()) return storage::FromLevelDB(ws, "write");
  }
  RETURN_IF_ERROR(LoadViewsLocked());
  if (!options_.read_only) RETURN_IF_ERROR(CleanInterruptedBuildsLocked());
  return absl::OkStatus();
}

absl::Status DbImpl::RekeyLocked(const CollectionState& state) {
  const uint32_t id = state.info.id();
  RETURN_IF_ERROR(DeleteRange(CollectionIndexPrefix(id),
                              KeyPrefixEnd(CollectionIndexPrefix(id))));
  storage::RebuildStats stats;
  return storage::RebuildCollectionKeys(
      db_.get(), state, storage::Unreadable::kFail,
      [this](leveldb::WriteBatch* batch) {
        return Commit(leveldb::WriteOptions(), batch);
      },
      nullptr, &stats);
}

void DbImpl::Publish(const std::string& name,
                     std::shared_ptr<const CollectionState> state) {
  if (leading_tracking_) TrackLeading(GetState(name).get(), state.get());
  catalog_.Publish(name, std::move(state));
}

std::shared_ptr<const CollectionState> DbImpl::GetState(
    absl::string_view name) {
  return catalog_.Get(name);
}

Collection& DbImpl::collection(absl::string_view name) {
  MutexLock l(&catalog_mu_);
  auto it = handles_.find(name);
  if (it != handles_.end()) return *it->second;
  auto handle = std::make_unique<Collection>(this, std::string(name));
  Collection& ref = *handle;
  handles_.emplace(std::string(name), std::move(handle));
  return ref;
}

absl::Status DbImpl::CheckOpen() const {
  MutexLock l(&catalog_mu_);
  if (closed_) return absl::FailedPreconditionError("database is closed");
  return absl::OkStatus();
}

absl::Status DbImpl::CheckCollection(absl::string_view name) const {
  RETURN_IF_ERROR(CheckOpen());
  std::optional<std::string> damage = catalog_.Damage(name);
  if (!damage.has_value()) return absl::OkStatus();
  return MongoError(
      absl::StatusCode::kDataLoss, kDataCorruptionDetected,
      absl::StrCat("collection '", name, "' cannot be used: ", *damage,
                   ". Run `ttldb repair` on the database, or "
                   "drop the collection"));
}

std::map<std::string, std::string> DbImpl::CatalogDamage() const {
  return catalog_.AllDamage();
}

absl::Status DbImpl::CheckWritable() const {
  RETURN_IF_ERROR(CheckOpen());
  if (options_.read_only) {
    return absl::FailedPreconditionError(
        "database was opened read-only: writes are not allowed");
  }
  return write_error_.Refusal();
}

leveldb::Status DbImpl::Commit(const leveldb::WriteOptions& options,
                               leveldb::WriteBatch* batch) {
  return commit_queue_.Write(options, batch);
}

leveldb::Status DbImpl::CommitNow(const leveldb::WriteOptions& options,
                                  leveldb::WriteBatch* batch) {
  if (write_error_.IsSet()) return write_error_.RefusedWrite();
  if (options.sync) log_unsynced_.store(false);
  leveldb::Status s = db_->Write(options, batch);
  if (s.ok() && !options.sync) log_unsynced_.store(true);
  if (s.ok() && change_appended_.load(std::memory_order_relaxed) !=
                    change_committed_.load(std::memory_order_relaxed)) {
    PublishChanges();
  }
  if (!s.ok() && write_error_.Record(s)) {
    Log(LogLevel::kError,
        absl::StrCat(storage::FromLevelDB(s, "write").message(),
                     "; writes are refused until the database is reopened"));
  }
  return s;
}

absl::Status DbImpl::SyncIfRequested(const WriteOptions& options,
                                     absl::Status result) {
  if (!options.sync || !log_unsynced_.load()) return result;
  absl::Status s = [&]() -> absl::Status {
    WritersLock l(this);  // db_ stays open (Close takes it)
    RETURN_IF_ERROR(CheckWritable());
    if (!log_unsynced_.load()) return absl::OkStatus();
    leveldb::WriteOptions wo;
    wo.sync = true;
    leveldb::WriteBatch empty;
    leveldb::Status synced = Commit(wo, &empty);
    if (!synced.ok()) return storage::FromLevelDB(synced, "write");
    return absl::OkStatus();
  }();
  return result.ok() ? s : result;
}

void DbImpl::SaveMetaLocked(leveldb::WriteBatch* batch) {
  PutMetaEntry(meta_, batch);
}

absl::StatusOr<std::shared_ptr<const CollectionState>>
DbImpl::CommitCatalogLocked(const proto::CollectionInfo& info,
                            leveldb::WriteBatch* batch) {
  PutCollectionEntry(info, batch);
  leveldb::WriteOptions wo;
  wo.sync = true;
  leveldb::Status s = Commit(wo, batch);
  if (!s.ok()) {
    return storage::FromLevelDB(
        s, absl::StrCat("writing the catalog of '", info.name(), "'"));
  }
  ASSIGN_OR_RETURN(auto state, CompileCollection(info));
  Publish(info.name(), state);
  return state;
}

absl::StatusOr<std::shared_ptr<const CollectionState>>
DbImpl::GetOrCreateLocked(absl::string_view name) {
  if (auto state = GetState(name)) return state;
  RETURN_IF_ERROR(ValidateCollectionName(name));
  return CommitNewCollectionLocked(NewCollectionEntry(name));
}

absl::StatusOr<std::shared_ptr<const CollectionState>>
DbImpl::CommitNewCollectionLocked(proto::CollectionInfo info) {
  // A view's name is taken (createIndexes, an upsert on a view: 166).
  RETURN_IF_ERROR(RefuseView(info.name()));
  info.set_id(meta_.next_collection_id());
  meta_.set_next_collection_id(info.id() + 1);
  leveldb::WriteBatch batch;
  SaveMetaLocked(&batch);
  LogCreateLocked(info, &batch);
  auto state = CommitCatalogLocked(info, &batch);
  if (!state.ok()) {
    meta_.set_next_collection_id(info.id());
    return state;
  }
  index_usage_.Reset(info.id(), kIdIndexId);
  for (const proto::IndexSpec& spec : info.indexes()) {
    index_usage_.Reset(info.id(), spec.id());
  }
  return state;
}

absl::Status DbImpl::CreateCollection(absl::string_view name,
                                      bool must_not_exist) {
  return CreateCollection(name, must_not_exist, ValidationOptions());
}

absl::StatusOr<std::vector<std::string>> DbImpl::ListCollectionNames() {
  RETURN_IF_ERROR(CheckOpen());
  return catalog_.Names();
}

absl::Status DbImpl::DeleteRange(const std::string& begin,
                                 const std::string& end) {
  // In batches, so that a huge collection does not build a huge batch; each
  // batch resumes after the last key the previous one deleted. A crash
  // midway leaves keys under an id the catalog no longer names; ids are
  // never reused, so they are garbage, never data.
  std::string next = begin;
  while (true) {
    leveldb::WriteBatch batch;
    int n = 0;
    bool more = false;
    leveldb::Status read =
        Reclaimer::NextDeleteBatch(db_.get(), &next, end, &batch, &n, &more);
    if (!read.ok())
      return storage::FromLevelDB(read, "reading a dropped range");
    if (n > 0) {
      leveldb::Status s = Commit(leveldb::WriteOptions(), &batch);
      if (!s.ok()) return storage::FromLevelDB(s, "write");
    }
    if (!more) break;
  }
  leveldb::Slice b(begin), e(end);
  db_->CompactRange(&b, &e);
  return absl::OkStatus();
}

absl::StatusOr<bool> DbImpl::DropCollection(absl::string_view name) {
  RETURN_IF_ERROR(CheckWritable());
  uint32_t id = 0;
  {
    WritersLock l(this);
    ASSIGN_OR_RETURN(std::optional<uint32_t> dropped,
                     DropCollectionLocked(name));
    if (!dropped.has_value()) return false;
    id = *dropped;
  }
  // The catalog no longer names the id: its keys are deleted in the
  // background, off the writers' lock (issue 18 item 8).
  if (id != 0) RETURN_IF_ERROR(ReclaimCollection(id));
  return true;
}

absl::StatusOr<std::optional<uint32_t>> DbImpl::DropCollectionLocked(
    absl::string_view name) {
  auto state = GetState(name);
  if (state == nullptr) {
    // A view: its one catalog entry goes (nothing to reclaim).
    ASSIGN_OR_RETURN(bool view, DropViewLocked(name));
    if (view) return 0;
    // A collection whose catalog entry is damaged: dropping it removes the
    // entry (its data, under an id nobody knows, stays as garbage).
    if (!catalog_.Damage(name).has_value()) return std::nullopt;
    leveldb::WriteBatch batch;
    DeleteCollectionEntry(name, &batch);
    leveldb::WriteOptions wo;
    wo.sync = true;
    leveldb::Status s = Commit(wo, &batch);
    if (!s.ok()) return storage::FromLevelDB(s, "write");
    catalog_.ForgetDamaged(name);
    // Its data (if its id is known, perhaps shared with another entry) is
    // left to the next open, which reclaims what no entry names then.
    return 0;
  }
  // One synced write: after it, no reader or writer finds the collection,
  // and a new one of the same name gets a new id. Its drop event goes with
  // it (engine/change_log.cc).
  leveldb::WriteBatch batch;
  DeleteCollectionEntry(name, &batch);
  LogCatalogChangeLocked(name, "", &batch);
  leveldb::WriteOptions wo;
  wo.sync = true;
  leveldb::Status s = Commit(wo, &batch);
  if (!s.ok()) return storage::FromLevelDB(s, "write");
  Publish(std::string(name), nullptr);
  for (const auto& idx : state->indexes) ttl_cursors_.erase(idx->prefix);
  return state->info.id();
}

absl::Status DbImpl::ReclaimCollection(uint32_t id) {
  if (reclaimer_ == nullptr) {
    RETURN_IF_ERROR(
        DeleteRange(DocumentPrefix(id), KeyPrefixEnd(DocumentPrefix(id))));
    return DeleteRange(CollectionIndexPrefix(id),
                       KeyPrefixEnd(CollectionIndexPrefix(id)));
  }
  reclaimer_->Add(DocumentPrefix(id), KeyPrefixEnd(DocumentPrefix(id)),
                  absl::StrCat("the documents of dropped collection id ", id));
  reclaimer_->Add(
      CollectionIndexPrefix(id), KeyPrefixEnd(CollectionIndexPrefix(id)),
      absl::StrCat("the index entries of dropped collection id ", id));
  return absl::OkStatus();
}

absl::Status DbImpl::ReclaimIndex(uint32_t collection_id, uint32_t index_id) {
  const std::string prefix = IndexPrefix(collection_id, index_id);
  if (reclaimer_ == nullptr) return DeleteRange(prefix, KeyPrefixEnd(prefix));
  reclaimer_->Add(prefix, KeyPrefixEnd(prefix),
                  absl::StrCat("the entries of dropped index id ", index_id,
                               " of collection id ", collection_id));
  return absl::OkStatus();
}

absl::Status DbImpl::StartReclaimer() {
  Reclaimer::Hooks hooks;
  hooks.commit = [this](leveldb::WriteBatch* batch) {
    return Commit(leveldb::WriteOptions(), batch);
  };
  hooks.compact = [this](std::string begin, std::string end) {
    ScheduleCompaction(std::move(begin), std::move(end));
  };
  hooks.log = [this](LogLevel level, absl::string_view message) {
    Log(level, message);
  };
  reclaimer_ = std::make_unique<Reclaimer>(db_.get(), std::move(hooks));
  CatalogIds ids;
  {
    WritersLock l(this);
    ids = CatalogIdsLocked();
  }
  ASSIGN_OR_RETURN(std::vector<UnknownRange> ranges,
                   FindUnknownRanges(db_.get(), storage::VerifiedRead(), ids));
  for (const UnknownRange& r : ranges) {
    if (!r.reclaimable) {
      Log(LogLevel::kWarning,
          absl::StrCat(r.Describe(),
                       ": the catalog does not name them, but they are not "
                       "reclaimed: the catalog is damaged (run `ttldb "
                       "repair`)"));
      continue;
    }
    Log(LogLevel::kInfo, absl::StrCat("reclaiming ", r.Describe(),
                                      ", which the catalog does not name"));
    reclaimer_->Add(r.begin, r.end, r.Describe());
  }
  return absl::OkStatus();
}

CatalogIds DbImpl::CatalogIdsLocked() { return catalog_.Ids(); }

const leveldb::Snapshot* DbImpl::SnapshotWithCatalogIds(CatalogIds* ids) {
  WritersLock l(this);
  *ids = CatalogIdsLocked();
  return db_->GetSnapshot();
}

void DbImpl::WaitForReclaim() {
  if (reclaimer_ != nullptr) reclaimer_->WaitIdle();
}

Reclaimer::Stats DbImpl::ReclaimStats() const {
  return reclaimer_ != nullptr ? reclaimer_->stats() : Reclaimer::Stats();
}

absl::Status DbImpl::RenameCollection(absl::string_view from,
                                      absl::string_view to, bool drop_target) {
  RETURN_IF_ERROR(CheckWritable());
  RETURN_IF_ERROR(ValidateCollectionName(to));
  RETURN_IF_ERROR(CheckCollection(from));
  RETURN_IF_ERROR(CheckCollection(to));
  std::shared_ptr<const CollectionState> dropped;
  {
    WritersLock l(this);
    dropped = GetState(to);
    ASSIGN_OR_RETURN(proto::CollectionInfo info,
                     RenamedEntry(from, to, GetState(from).get(), dropped.get(),
                                  drop_target));
    // One synced batch: the target's catalog entry (if dropped) and the
    // source's go, the renamed entry comes.
    leveldb::WriteBatch batch;
    DeleteCollectionEntry(from, &batch);
    LogCatalogChangeLocked(from, to, &batch);
    RETURN_IF_ERROR(CommitCatalogLocked(info, &batch).status());
    Publish(std::string(from), nullptr);
    // The source's indexes are the target's (same prefixes): unpublishing
    // the source forgot their counts.
    if (leading_tracking_) TrackLeading(nullptr, GetState(to).get());
    if (dropped != nullptr) {
      for (const auto& idx : dropped->indexes) ttl_cursors_.erase(idx->prefix);
    }
  }
  if (dropped == nullptr) return absl::OkStatus();
  // The dropped target's data, as DropCollection removes it: no catalog
  // entry refers to its id any more.
  return ReclaimCollection(dropped->info.id());
}

absl::Status DbImpl::Close() {
  {
    MutexLock l(&catalog_mu_);
    if (closed_) return absl::OkStatus();
    closed_ = true;
  }
  if (monitor_ != nullptr) monitor_->Stop();
  // Change streams waiting for events wake and find the database closed.
  change_closing_.store(true);
  {
    MutexLock l(&change_mu_);
    change_cv_.SignalAll();
  }
  // The reclaimer stops after its current batch; the next open finds the
  // rest of its ranges again.
  if (reclaimer_ != nullptr) reclaimer_->Stop();
  // The compaction thread: queued ranges are dropped, one running is
  // finished; joined before db_ goes away.
  {
    MutexLock l(&compact_mu_);
    compact_stop_ = true;
    compact_queue_.clear();
    compact_tasks_.clear();
    compact_cv_.SignalAll();
  }
  if (compact_thread_.joinable()) compact_thread_.join();
  // Cursors release their snapshots and iterators now (a Next in progress
  // finishes first); their later Next calls fail.
  live_cursors_->CloseAll();
  WritersLock wl(this);  // wait for a write in progress
  // Index builds see closed_ at their next step and stop (reopen abandons
  // them: engine/index_build.h).
  while (running_builds_ > 0) builds_cv_.Wait();
  AwaitCommitsLocked();  // grouped writers may have queued meanwhile
  db_.reset();
  if (!options_.read_only && !options_.in_memory) {
    RemoveSpillDirectory(path_);
  }
  return absl::OkStatus();
}

void DbImpl::ScheduleCompaction(std::string begin, std::string end) {
  MutexLock l(&compact_mu_);
  if (compact_stop_) return;
  // Coalesce with every queued range it overlaps or touches.
  for (auto it = compact_queue_.begin(); it != compact_queue_.end();) {
    if (it->first <= end && begin <= it->second) {
      if (it->first < begin) begin = std::move(it->first);
      if (it->second > end) end = std::move(it->second);
      it = compact_queue_.erase(it);
    } else {
      ++it;
    }
  }
  compact_queue_.emplace_back(std::move(begin), std::move(end));
  compact_cv_.SignalAll();
}

void DbImpl::ScheduleCompactionTask(std::function<void()> task) {
  MutexLock l(&compact_mu_);
  if (compact_stop_) return;
  compact_tasks_.push_back(std::move(task));
  compact_cv_.SignalAll();
}

std::string DbImpl::DocScanStart(uint32_t coll_id,
                                 const std::string& doc_prefix) {
  if (!any_doc_floor_.load()) return doc_prefix;
  MutexLock l(&floor_mu_);
  auto it = doc_floor_.find(coll_id);
  if (it == doc_floor_.end() || it->second < doc_prefix) return doc_prefix;
  return it->second;
}

std::optional<std::string> DbImpl::DocFloorLocked(uint32_t coll_id) {
  MutexLock l(&floor_mu_);
  auto it = doc_floor_.find(coll_id);
  if (it == doc_floor_.end()) return std::nullopt;
  return it->second;
}

void DbImpl::SetDocFloorLocked(uint32_t coll_id, std::string key) {
  MutexLock l(&floor_mu_);
  doc_floor_[coll_id] = std::move(key);
  any_doc_floor_.store(true);
}

void DbImpl::LowerDocFloorLocked(uint32_t coll_id, const std::string& key) {
  MutexLock l(&floor_mu_);
  auto it = doc_floor_.find(coll_id);
  if (it != doc_floor_.end() && key < it->second) it->second = key;
}

void DbImpl::CountLeading(const IndexState& index) {
  const std::string end = LeadingEntries::DateBracket(index.prefix);
  std::unique_ptr<leveldb::Iterator> it(
      db_->NewIterator(storage::VerifiedRead()));
  int64_t n = 0;
  for (it->Seek(index.prefix); it->Valid() && it->key().compare(end) < 0 &&
                               n <= LeadingEntries::kMaxCounted;
       it->Next()) {
    ++n;
  }
  // Unreadable or too many: not tracked (never skipped).
  if (!it->status().ok() || n > LeadingEntries::kMaxCounted) {
    leading_.SetNotTracked(index.prefix);
  } else {
    leading_.Set(index.prefix, n);
  }
}

void DbImpl::TrackLeading(const CollectionState* before,
                          const CollectionState* after) {
  if (before != nullptr) {
    for (const auto& idx : before->indexes) {
      bool kept = false;
      if (after != nullptr) {
        for (const auto& now : after->indexes) {
          kept = kept ||
                 (now->prefix == idx->prefix && LeadingEntries::Eligible(*now));
        }
      }
      if (!kept) leading_.Erase(idx->prefix);
    }
  }
  if (after == nullptr) return;
  for (const auto& idx : after->indexes) {
    if (!LeadingEntries::Eligible(*idx)) continue;
    if (leading_.Known(idx->prefix)) continue;
    CountLeading(*idx);
  }
}

void DbImpl::WaitForCompactions() {
  MutexLock l(&compact_mu_);
  while ((!compact_queue_.empty() || !compact_tasks_.empty() ||
          compact_running_) &&
         !compact_stop_) {
    compact_cv_.Wait();
  }
}

void DbImpl::CompactionLoop() {
  MutexLock l(&compact_mu_);
  while (true) {
    while (compact_queue_.empty() && compact_tasks_.empty() && !compact_stop_) {
      compact_cv_.Wait();
    }
    if (compact_stop_) break;
    if (!compact_tasks_.empty()) {
      std::function<void()> task = std::move(compact_tasks_.front());
      compact_tasks_.erase(compact_tasks_.begin());
      compact_running_ = true;
      compact_mu_.Unlock();
      task();
      compact_mu_.Lock();
      compact_running_ = false;
      compact_cv_.SignalAll();
      continue;
    }
    std::pair<std::string, std::string> range =
        std::move(compact_queue_.front());
    compact_queue_.erase(compact_queue_.begin());
    compact_running_ = true;
    compact_mu_.Unlock();
    leveldb::Slice b(range.first), e(range.second);
    const absl::Time start = absl::Now();
    db_->CompactRange(&b, &e);
    Log(LogLevel::kDebug,
        absl::StrCat("compacted a swept key range in ",
                     absl::FormatDuration(absl::Now() - start)));
    compact_mu_.Lock();
    compact_running_ = false;
    compact_cv_.SignalAll();
  }
  compact_running_ = false;
  compact_cv_.SignalAll();
}

DbImpl::~DbImpl() { Close().IgnoreError(); }

}  // namespace ttldb
