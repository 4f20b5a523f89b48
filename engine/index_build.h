// Background index builds (engine/index_build.cc), after MongoDB's hybrid
// index builds (src/mongo/db/index_builds/, "Index Builds on Populated
// Collections" in the manual): the writers' lock is held only to register
// the build and, at the end, to check unique constraints and publish.
//
//  1. Register (under write_mu_): the spec goes into the collection's
//     catalog entry as `building_indexes` (synced), the recompiled state
//     lists it in CollectionState::building, an IndexBuildTracker is
//     created, and a LevelDB snapshot S is taken. From then on every writer
//     (insert, update, delete, eviction of a hidden document, TTL delete)
//     maintains the building index in its own WriteBatch: it deletes the
//     keys the old version had and the new one has not, and puts ALL keys
//     of the new version (idempotent: the scan may not have put the older
//     ones yet). Writers never check a building index's unique constraint;
//     they record the keys they put (MongoDB's duplicate key tracker).
//  2. Scan S without the lock, computing each document's keys; each chunk
//     is committed under the lock, leaving out the documents written since
//     S (`touched`): their entries are the writers' and already current. A
//     writer notes a document as touched only if the scan has not yet
//     committed past it (`scanned_to`), so the set stays small.
//  3. Unique indexes: one pass over the built entries (no lock) adds every
//     key held by two documents to the candidates; candidates are re-checked
//     without the lock until few remain.
//  4. Commit (under the lock): the remaining candidates are checked (11000
//     if a key is still duplicated), and the spec moves from
//     `building_indexes` to `indexes` with the multikey flag the scan and
//     the writers saw. Queries, listIndexes and the TTL monitor see an index
//     only from here on.
//
// A failed or interrupted build moves its id to `abandoned_index_ids`,
// deletes its entries in bounded batches, then removes the id. Open treats
// every building or abandoned index it finds (a crash or Close during a
// build) the same way before anything else is written, so the catalog never
// publishes a half-built index.
#ifndef TTLDB_ENGINE_INDEX_BUILD_H_
#define TTLDB_ENGINE_INDEX_BUILD_H_

#include <cstdint>
#include <set>
#include <string>

namespace ttldb {

// The in-memory state of one index build, kept by the DbImpl by index
// prefix. Protected by DbImpl::write_mu_.
struct IndexBuildTracker {
  // Document keys <= this were committed by the scan (or the scan is over:
  // every key is below it); writers maintain them like any index.
  std::string scanned_to;
  // Document keys > scanned_to written since the scan's snapshot.
  std::set<std::string> touched;
  // Whether some document gave the index several keys (scan or writers).
  bool multikey = false;
  // Unique indexes: key prefixes (index prefix + encoded key) that may be
  // held by two documents.
  std::set<std::string> unique_candidates;
};

}  // namespace ttldb

#endif  // TTLDB_ENGINE_INDEX_BUILD_H_
