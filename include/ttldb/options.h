// Options for opening a ttldb database and for single calls.
#ifndef TTLDB_OPTIONS_H_
#define TTLDB_OPTIONS_H_

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "absl/time/time.h"
#include "ttldb/logger.h"
#include "ttldb/value.h"

namespace ttldb {

class Clock;

// Called after each committed TTL deletion with the collection name and the
// deleted document, exactly once per document: on the monitor's thread for
// the monitor's deletions, and on the writer's thread (after the commit,
// outside the writers' lock, before the write call returns) for an expired
// document a write removed because it collided with it while hidden
// (hide_expired). It may therefore run on two threads at once and must be
// thread-safe. It must not call back into the database synchronously; a slow
// listener delays later deletions of the same pass, or the return of that
// one write, never other writers. Exceptions must not escape it.
using ExpiryListener =
    std::function<void(absl::string_view collection, const Value& document)>;

struct Options {
  // Create the directory and an empty database if none exists.
  bool create_if_missing = true;
  // Fail if a database already exists.
  bool error_if_exists = false;
  // Open without writing: writes return FailedPrecondition and the TTL
  // monitor does not start. Nothing in the directory is created, changed or
  // removed, not even LevelDB's LOCK, log, MANIFEST or LOG files: what
  // LevelDB writes while opening (the replayed log's table) stays in memory
  // (storage/read_only_env.h). So a database on read-only media or a full
  // disk opens. The existing LOCK file is still locked when the medium
  // allows it, so a directory another Database has open is refused.
  bool read_only = false;
  // The database's name in MongoDB namespaces: error messages name a
  // collection as "<db_name>.<collection>" ("E11000 duplicate key error
  // collection: test.c ..."), as mongod does. "test": the database mongosh
  // and the drivers start in. `ttldb serve` opens each database under its
  // root with the directory's name here.
  std::string db_name = "test";

  // --- TTL monitor ---
  // Start the background TTL monitor thread at Open. Can be changed at run
  // time with Database::SetTtlMonitorEnabled.
  bool ttl_monitor_enabled = true;
  // 60 s: MongoDB's ttlMonitorSleepSecs default. The sleep is measured from
  // the end of the previous pass, on the steady clock. Must be > 0.
  absl::Duration ttl_monitor_sleep = absl::Seconds(60);
  // 50,000 documents or 1 s per visit of one index: MongoDB's
  // ttlIndexDeleteTargetDocs / ttlIndexDeleteTargetTimeMS defaults (>= 0;
  // 0 is unlimited). A pass visits TTL indexes round-robin, one batch each,
  // until none has expired documents, so one huge collection never starves
  // a small one. Changeable at run time (Database::SetTtlBatchDocsMax, ...).
  int64_t ttl_batch_docs_max = 50'000;
  absl::Duration ttl_batch_time_max = absl::Seconds(1);
  // MongoDB's ttlMonitorBatchDeletes: false removes every expired document
  // of an index in one visit, without the two limits above.
  bool ttl_batch_deletes = true;
  // 60 s: MongoDB's ttlMonitorSubPassTargetSecs (>= 0). A sub-pass loops
  // rounds over the indexes with work left until none is left or this
  // much time has passed; the next sub-pass lists the indexes afresh.
  absl::Duration ttl_sub_pass_target = absl::Seconds(60);
  // Beyond MongoDB: wake at the earliest actual expiry when it comes before
  // the regular interval, so expireAt documents go on time without polling.
  bool ttl_exact_wakeup = true;
  // Beyond MongoDB: at most this many TTL deletions per second (0: no cap),
  // so a mass expiry does not starve foreground work.
  double ttl_max_deletes_per_second = 0;
  // Beyond MongoDB: when the TTL passes have deleted at least this many
  // documents through one index since its swept range was last compacted,
  // the pass that finishes the index compacts (LevelDB CompactRange) the
  // key range of the expired index entries, and each long run of deleted
  // documents with no live one between them (time-ordered _ids such as
  // ObjectIds, where the expired documents are a prefix of the _id order;
  // deletions spread among live documents leave no such run and are not
  // compacted), so that later scans (from the low end of the index, of
  // the whole collection) do not step over the tombstones the deletions
  // left. With hide_expired, on the engine's compaction thread after the
  // pass returns (scans skip the swept range meanwhile: docs/ttl.md,
  // "Scans start past the tombstones"); without it, before the pass
  // returns, outside the writers' lock (engine/ttl_sweep.cc,
  // docs/benchmarks-history.md "Round 5, session 7: background
  // compaction"). 0 or less: never (LevelDB's own compactions remove the
  // tombstones eventually).
  int64_t ttl_compact_after_deletes = 20'000;
  // Beyond MongoDB: called after each committed TTL delete.
  ExpiryListener expiry_listener;

  // Beyond MongoDB: every read treats an expired document as absent, even
  // before the monitor deletes it, and so does every write: a write that
  // collides with it (its _id, a unique key) removes it in the write's own
  // atomic batch, as a TTL deletion (metrics, expiry_listener), instead of
  // failing with 11000. false gives MongoDB's exact behaviour (expired
  // documents are visible, and duplicates, until the sweep).
  bool hide_expired = true;
  // Beyond MongoDB: Collection::Touch skips the write when the stored date is
  // younger than this, so a hot session does not rewrite its document on
  // every request. Zero: always write. Must be at most half of every TTL
  // index's expireAfterSeconds (E = 0 indexes excepted): the effective idle
  // timeout is then between E - interval and E (ttl/touch_interval.h); Open,
  // createIndex and collMod refuse what breaks it.
  absl::Duration touch_min_interval = absl::ZeroDuration();

  // --- Storage ---
  // Beyond MongoDB: keep the whole database in memory (LevelDB's memenv):
  // no file is created or read, `path` is only a name, and everything is
  // gone when the Database closes. For tests and pure caches; TTL indexes
  // and the monitor work exactly as on disk. Cannot be combined with
  // read_only (there is nothing to read) or error_if_exists.
  bool in_memory = false;
  // 8 MiB: LevelDB's default block cache size. It holds the blocks LevelDB
  // copied out of the table files: compressed blocks once decompressed
  // (compress_blocks); uncompressed blocks of a table LevelDB maps into
  // memory (64-bit systems, up to 1000 tables) are read in place from the
  // OS page cache and not copied into it.
  size_t block_cache_bytes = 8 << 20;
  // 4 MiB: LevelDB's default memtable size.
  size_t write_buffer_bytes = 4 << 20;
  // 10 bits per key: about 1% false positives on point reads of absent keys.
  int bloom_bits_per_key = 10;
  // Beyond MongoDB: LevelDB's table block size (before compression), the
  // unit a point read fetches and checksums (every ttldb read verifies
  // checksums) and, compressed, decompresses. 1 KiB (LevelDB's default is
  // 4 KiB): an out-of-cache read of a 256 B document costs about half
  // (docs/benchmarks-history.md, "Block and cache options"); a range scan
  // reads more, smaller blocks. Must be between 512 B and 1 MiB. Applies to
  // the tables written from now on: a database opens tables of any block
  // size.
  size_t block_size_bytes = 1 << 10;
  // Beyond MongoDB: compress table blocks with snappy. false (the default;
  // LevelDB's is snappy): blocks are stored as they are, so a read neither
  // decompresses nor copies its block, at the price of larger files (about
  // 1.5x for 256 B JSON documents). Applies to the tables written from now
  // on; a database opens tables of either kind.
  bool compress_blocks = false;
  // Beyond MongoDB: a cache of parsed documents for point reads by _id
  // (FindById, and the re-read of a document a write by _id changes), so a
  // hot document skips LevelDB and the JSON parse. Bounds the heap its
  // entries hold (parsed trees, keys, the cache's own nodes: see
  // CacheCharge in storage/doc_cache.h), so 8 MiB holds about 6,000
  // documents of 256 B of JSON (tree and entry take ~5x the JSON).
  // Database::Memory reports its use. Coherent with every
  // write and TTL deletion (storage/doc_cache.h). 0 disables it.
  size_t doc_cache_bytes = 8 << 20;

  // --- Change log (change streams: ttldb/change_stream.h) ---
  // Beyond a standalone mongod: every committed insert, update, replace,
  // delete and TTL deletion appends its event to a log kept in the same
  // atomic WriteBatch (storage/change_log.h), which Collection::Watch,
  // Database::Watch and `$changeStream` read. Off by default in the
  // library: an embedded database that nobody watches does not pay for it
  // (in-process it costs inserts 20-30 % of their throughput at 256 B,
  // about half at 2 KiB: each insert event holds the whole document, as
  // MongoDB's oplog entry does; docs/change_streams.md, "Cost"). `ttldb
  // serve` and `ttldb shell` turn it on (commands::ServedDatabaseOptions),
  // as the drivers' watch() expects of a server. Off: no log is written,
  // and watching fails with 40573, as a standalone mongod answers. Opening
  // a database with it off deletes the log it had: every older resume
  // token is then 286 ChangeStreamHistoryLost (the events of the interval
  // were not written).
  bool change_log = false;
  // Retention, enforced after each TTL pass (and at open): events older
  // than change_log_retention, and the oldest ones beyond
  // change_log_max_bytes (counted as their keys and values), are deleted;
  // resuming before them fails with 286 ChangeStreamHistoryLost. 24 h and
  // 256 MiB: MongoDB's replSetResizeOplog minimum retention is hours and
  // its smallest oplog 990 MB; an embedded database keeps a quarter of
  // that by default. Zero or less: no bound of that kind.
  absl::Duration change_log_retention = absl::Hours(24);
  int64_t change_log_max_bytes = 256 << 20;

  // --- Queries ---
  // 100 MiB: MongoDB's internalQueryMaxBlockingSortMemoryUsageBytes. A find
  // whose sort no index provides keeps its documents in memory, each
  // counted as its BSON size plus its sort key's (document/bson.h).
  // With a limit only skip + limit documents are kept (a top-k sort);
  // beyond the cap the find fails with 292
  // QueryExceededMemoryLimitNoDiskUseAllowed. ttldb never spills to disk
  // (no allowDiskUse). Must be > 0.
  size_t max_blocking_sort_bytes = 100 << 20;

  // --- Logging ---
  // Beyond MongoDB: receives TTL monitor passes (debug; info when a pass
  // deleted documents), compactions (debug), errors ttldb recovered from
  // (warning: a failed TTL batch, an invalid TTL index skipped), a failed
  // write that makes the database refuse writes until reopened (error), and
  // LevelDB's own messages (debug; they then no longer go to the LOG file
  // in the database directory). Empty (the default): nothing is written.
  // See ttldb/logger.h for the threads it runs on.
  Logger logger;

  // --- Injected world (tests) ---
  // Wall clock for cutoffs and $currentDate, steady clock for the monitor's
  // sleep. nullptr: the real clock. Not owned; must outlive the database.
  Clock* clock = nullptr;
};

// The heap a database holds beyond the documents in flight
// (Database::Memory). All in bytes.
struct MemoryUsage {
  // The document cache: the charge of its entries (their heap, see
  // Options::doc_cache_bytes), its capacity, and how many it holds.
  int64_t doc_cache_bytes = 0;
  int64_t doc_cache_capacity = 0;
  int64_t doc_cache_entries = 0;
  // LevelDB's own: its block cache and memtables
  // ("leveldb.approximate-memory-usage"); bounded by
  // Options::block_cache_bytes + 2 x Options::write_buffer_bytes. Not
  // included: the table files LevelDB maps into memory, whose pages the OS
  // page cache holds (they count in the process's RSS once read).
  int64_t leveldb_bytes = 0;
};

// What Database::Backup copied.
struct BackupStats {
  int64_t keys = 0;   // LevelDB keys: documents, index entries, catalog
  int64_t bytes = 0;  // their keys and values
};

// MongoDB's document validation of a collection (the create command's
// validator, validationLevel and validationAction options; collMod changes
// them). Inserts and updates whose new document does not match `validator`
// fail with 121 DocumentValidationFailure "Document failed validation",
// carrying MongoDB 5.0+'s errInfo (GetDocumentValidationErrInfo), and
// write nothing. TTL deletions are never validated.
struct ValidationOptions {
  // A query filter ({a: {$exists: true}}, {$jsonSchema: {...}}, $expr...).
  // Null or {}: no validator. $where, $text, $near, $nearSphere and
  // $geoNear are refused (as MongoDB refuses them in a validator).
  Value validator;
  // "strict" (every insert and update), "moderate" (updates of documents
  // that already fail the validator are not checked), "off". Empty:
  // "strict".
  std::string validation_level;
  // "error" (refuse the write) or "warn" (write it, and report it through
  // WriteOptions::validation_warning or else Options::logger). Empty:
  // "error".
  std::string validation_action;
  // Not validation but the other collection option create and collMod
  // take: MongoDB's changeStreamPreAndPostImages {enabled: bool}. true:
  // the change log keeps each update's, replacement's and deletion's
  // document before the change (and each update's after it), TTL
  // deletions included, for ChangeStreamOptions::full_document_before_change
  // and full_document "whenAvailable" / "required". Unset: unchanged
  // (collMod), false (create).
  std::optional<bool> change_stream_pre_and_post_images;
  // Capped collections (create's capped/size/max; collMod's cappedSize /
  // cappedMax): `capped_size` set makes the collection capped, bounded to
  // that many bytes of documents (1 to 1 PiB, as create.idl), and
  // `capped_max` (< 2^31; <= 0: no bound) to that many documents. An
  // insert past either bound deletes the oldest documents (natural order)
  // in the same atomic write. Unset: unchanged (collMod), not capped
  // (create). collMod of either on a collection that is not capped: 72.
  std::optional<int64_t> capped_size;
  std::optional<int64_t> capped_max;
  // create only: the collection's default collation (MongoDB's create
  // `collation`, document/collator.h; errors are Collator::Make's), used
  // by every operation and index that names none. Null or {locale:
  // "simple"}: the binary comparison. listCollections shows it resolved.
  Value collation;
};

struct WriteOptions {
  // Skip document validation (MongoDB's bypassDocumentValidation).
  bool bypass_document_validation = false;
  // With validationAction "warn": called (under the writers' lock; it must
  // not call back into the database) with the errInfo of each document
  // written although it fails the validator ({failingDocumentId,
  // details}). Empty: the warning goes to Options::logger.
  std::function<void(const Value& err_info)> validation_warning;
  // Sync the LevelDB log before acknowledging: survives a machine crash, not
  // only a process crash. Slower.
  bool sync = false;
  // Checked between the documents of a multi-document write (InsertMany,
  // UpdateMany, DeleteMany): once it reads true the write stops there with
  // 11601 Interrupted, "operation was interrupted after N documents were
  // written"; the documents already written stay written (MongoDB's killOp
  // of a multi-document write). Not owned; null: never interrupted.
  const std::atomic<bool>* interrupt = nullptr;
};

}  // namespace ttldb

#endif  // TTLDB_OPTIONS_H_
