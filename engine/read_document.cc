// The decoded read path: a document by encoded _id, from the document
// cache or parsed from LevelDB, either shared with the cache
// (ReadDocumentImpl) or straight into the Value the caller hands out
// (ReadDocumentInto: Collection::FindById, ReadDocument).
#include <memory>
#include <string>

#include "absl/strings/str_cat.h"
#include "base/status.h"
#include "engine/db_impl.h"
#include "storage/doc_cache.h"
#include "storage/keys.h"
#include "storage/leveldb_status.h"
#include "ttldb/json.h"

namespace ttldb {
namespace {

// The first half of every decoded read: the document cache (never for a
// snapshot: it holds the latest committed documents), then LevelDB.
struct StoredRead {
  std::string key;
  DocCache* cache = nullptr;
  DocCache::Miss miss;                // on a miss, the ticket is taken first
  std::shared_ptr<const Value> hit;   // a cache hit, or
  const std::string* json = nullptr;  // the stored text (null if absent)
};

absl::Status ReadStored(leveldb::DB* db, DocCache* doc_cache,
                        const CollectionState& state,
                        absl::string_view encoded_id,
                        const leveldb::Snapshot* snapshot, StoredRead* r) {
  r->key = DocumentKey(state.info.id(), encoded_id);
  r->cache = snapshot == nullptr ? doc_cache : nullptr;
  if (r->cache != nullptr) {
    r->hit = r->cache->Lookup(r->key, &r->miss);
    if (r->hit != nullptr) return absl::OkStatus();
  }
  // One buffer per thread: LevelDB assigns the value into it, reusing its
  // capacity, so a read allocates no copy of the stored bytes (a 2 KB
  // allocation per read also made glibc consolidate its free lists).
  thread_local std::string json;
  if (json.capacity() > (1 << 20)) std::string().swap(json);
  leveldb::Status s = db->Get(storage::VerifiedRead(snapshot), r->key, &json);
  if (s.IsNotFound()) return absl::OkStatus();
  if (!s.ok()) {
    return storage::FromLevelDB(
        s, absl::StrCat("reading collection '", state.info.name(), "'"));
  }
  r->json = &json;
  return absl::OkStatus();
}

// Parses stored text into *out; a stored text that does not parse is data
// loss, said with its collection.
absl::Status ParseStored(const CollectionState& state, const std::string& json,
                         Value* out) {
  absl::Status st = ParseDocumentInto(json, StoredJsonParseOptions(), out);
  if (st.ok()) return st;
  return absl::DataLossError(
      absl::StrCat("collection '", state.info.name(),
                   "': stored document is corrupt: ", st.message()));
}

}  // namespace

absl::StatusOr<bool> DbImpl::ReadDocumentInto(const CollectionState& state,
                                              absl::string_view encoded_id,
                                              const leveldb::Snapshot* snapshot,
                                              Value* out) {
  StoredRead r;
  RETURN_IF_ERROR(
      ReadStored(db_.get(), doc_cache_.get(), state, encoded_id, snapshot, &r));
  if (r.hit != nullptr) {
    *out = *r.hit;  // the cache keeps its own
    return true;
  }
  if (r.json == nullptr) return false;
  if (r.cache != nullptr && r.miss.admit) {
    // Admitted: the cache and the caller each hold one.
    auto shared = std::make_shared<Value>();
    RETURN_IF_ERROR(ParseStored(state, *r.json, shared.get()));
    r.cache->Insert(r.key, shared, CacheCharge(r.key, *shared), r.miss.ticket);
    *out = *shared;
    return true;
  }
  // Not admitted (most misses of a working set larger than the cache, and
  // every snapshot read): the tree is built where the caller keeps it, with
  // no shared allocation and no move of the tree.
  RETURN_IF_ERROR(ParseStored(state, *r.json, out));
  return true;
}

absl::StatusOr<std::shared_ptr<const Value>> DbImpl::ReadDocumentImpl(
    const CollectionState& state, absl::string_view encoded_id,
    const leveldb::Snapshot* snapshot, bool* parsed_here) {
  *parsed_here = false;
  StoredRead r;
  RETURN_IF_ERROR(
      ReadStored(db_.get(), doc_cache_.get(), state, encoded_id, snapshot, &r));
  if (r.hit != nullptr) return r.hit;
  if (r.json == nullptr) return std::shared_ptr<const Value>();
  // One allocation, shared by the cache and the caller; not const, so that
  // ReadDocument may move it out when it is the only owner.
  auto shared = std::make_shared<Value>();
  RETURN_IF_ERROR(ParseStored(state, *r.json, shared.get()));
  *parsed_here = true;
  // Not admitted (most misses of a working set larger than the cache): no
  // charge to compute (a walk of the tree), no second lock.
  if (r.cache != nullptr && r.miss.admit) {
    r.cache->Insert(r.key, shared, CacheCharge(r.key, *shared), r.miss.ticket);
  }
  return std::shared_ptr<const Value>(std::move(shared));
}

}  // namespace ttldb
