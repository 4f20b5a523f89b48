// What the public API (engine/database.h) hides, for ttldb's own tests,
// tools and test-support library: the engine behind a Database (its
// leveldb::DB, write mutex, monitor) and a synchronous TTL pass. Internal:
// the Bazel target //engine:internal is visible only to ttldb's packages,
// and the CMake install does not ship this header.
//
// Replaces the former Database members:
//   db->engine()              ->  DatabaseInternal::engine(*db)
//   db->TEST_RunTtlPass(now)  ->  DatabaseInternal::RunTtlPass(*db, now)
#ifndef TTLDB_ENGINE_DATABASE_INTERNAL_H_
#define TTLDB_ENGINE_DATABASE_INTERNAL_H_

#ifndef TTLDB_INTERNAL
#error \
    "This header is internal to ttldb. Use the public API (engine/database.h; //:ttldb) or, in tests, testing/ttldb_testing.h (//testing:ttldb_testing)."
#endif

#include "absl/time/time.h"
#include "engine/database.h"
#include "engine/engine.h"
#include "ttl/metrics.h"

namespace ttldb {

class DatabaseInternal {
 public:
  // The engine behind `db`; valid for the Database's life.
  static Engine* engine(Database& db) { return db.engine_.get(); }

  // Runs one complete TTL pass synchronously with `now` as the wall time of
  // its cutoff, on the calling thread, as the monitor would. Safe while the
  // monitor runs (passes are serialized). Empty stats after Close.
  static TtlPassStats RunTtlPass(Database& db, absl::Time now) {
    return db.engine_->monitor()->RunPass(now);
  }
};

}  // namespace ttldb

#endif  // TTLDB_ENGINE_DATABASE_INTERNAL_H_
