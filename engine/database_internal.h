// What the public API (ttldb/database.h) hides, for ttldb's own tests,
// tools and test-support library: the engine behind a Database (its
// leveldb::DB, write mutex, monitor), a synchronous TTL pass, and an Open
// with what only tests inject (TestingOptions). Internal: the Bazel target
// //engine:internal is visible only to ttldb's packages, and the CMake
// install does not ship this header.
//
// Replaces the former Database members and Options field:
//   db->engine()              ->  DatabaseInternal::engine(*db)
//   db->TEST_RunTtlPass(now)  ->  DatabaseInternal::RunTtlPass(*db, now)
//   options.env = env; Database::Open(path, options)
//       ->  testing.env = env; DatabaseInternal::Open(path, options, testing)
#ifndef TTLDB_ENGINE_DATABASE_INTERNAL_H_
#define TTLDB_ENGINE_DATABASE_INTERNAL_H_

#ifndef TTLDB_INTERNAL
#error \
    "This header is internal to ttldb. Use the public API (ttldb/database.h; //:ttldb) or, in tests, ttldb/testing/ttldb_testing.h (//testing:ttldb_testing)."
#endif

#include <memory>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "engine/db_impl.h"
#include "leveldb/env.h"
#include "ttldb/database.h"
#include "ttldb/options.h"
#include "ttldb/ttl_metrics.h"

namespace ttldb {

// What a test injects into a database beyond Options, which a user never
// sets: the world as LevelDB sees it.
struct TestingOptions {
  // The Env the database's files are read and written through: a fault-
  // injecting or power-cut Env (tests/reliability/). nullptr:
  // leveldb::Env::Default(). With Options::in_memory, the memory Env is
  // layered over it (it then only serves the clock and threads). Not owned;
  // must outlive the database.
  leveldb::Env* env = nullptr;
};

class DatabaseInternal {
 public:
  // Database::Open of a directory (not a mongodb:// URI), with `testing`.
  static absl::StatusOr<std::unique_ptr<Database>> Open(
      absl::string_view path, const Options& options,
      const TestingOptions& testing);

  // The engine behind `db`; valid for the Database's life.
  static DbImpl* engine(Database& db) { return db.engine_.get(); }

  // Runs one complete TTL pass synchronously with `now` as the wall time of
  // its cutoff, on the calling thread, as the monitor would. Safe while the
  // monitor runs (passes are serialized). Empty stats after Close.
  static TtlPassStats RunTtlPass(Database& db, absl::Time now) {
    return db.engine_->monitor()->RunPass(now);
  }
};

}  // namespace ttldb

#endif  // TTLDB_ENGINE_DATABASE_INTERNAL_H_
