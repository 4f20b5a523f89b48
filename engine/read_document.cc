// The decoded read path: a document by encoded _id, parsed straight into
// the Value the caller hands out (Collection::FindById, ReadDocument).
#include <memory>
#include <string>

#include "absl/strings/str_cat.h"
#include "base/status.h"
#include "document/json.h"
#include "engine/doc_cache.h"
#include "engine/engine.h"
#include "engine/keys.h"
#include "engine/read_options.h"

namespace ttldb {

absl::StatusOr<bool> Engine::ReadDocumentInto(const CollectionState& state,
                                              absl::string_view encoded_id,
                                              const leveldb::Snapshot* snapshot,
                                              Value* out) {
  const leveldb::ReadOptions ro = VerifiedRead(snapshot);
  // The cache holds the latest committed documents: never for a snapshot.
  DocCache* cache = snapshot == nullptr ? doc_cache_.get() : nullptr;
  const std::string key = DocumentKey(state.info.id(), encoded_id);
  DocCache::Miss miss;
  if (cache != nullptr) {
    // On a miss, the ticket is taken before the read (doc_cache.h).
    if (std::shared_ptr<const Value> hit = cache->Lookup(key, &miss)) {
      *out = *hit;  // the cache keeps its own
      return true;
    }
  }
  // One buffer per thread: LevelDB assigns the value into it, reusing its
  // capacity, so a read allocates no copy of the stored bytes.
  thread_local std::string json;
  if (json.capacity() > (1 << 20)) std::string().swap(json);
  leveldb::Status s = db_->Get(ro, key, &json);
  if (s.IsNotFound()) return false;
  if (!s.ok()) {
    return ReadFailure(s, absl::StrCat("collection '", state.info.name(), "'"));
  }
  auto parse_into = [&](Value* v) -> absl::Status {
    absl::Status st = ParseDocumentInto(json, StoredJsonParseOptions(), v);
    if (st.ok()) return st;
    return absl::DataLossError(
        absl::StrCat("collection '", state.info.name(),
                     "': stored document is corrupt: ", st.message()));
  };
  if (cache != nullptr && miss.admit) {
    // Admitted: the cache and the caller each hold one.
    auto shared = std::make_shared<Value>();
    RETURN_IF_ERROR(parse_into(shared.get()));
    cache->Insert(key, shared, CacheCharge(key, *shared), miss.ticket);
    *out = *shared;
    return true;
  }
  // Not admitted (most misses of a working set larger than the cache, and
  // every snapshot read): the tree is built where the caller keeps it, with
  // no shared allocation and no move of the tree.
  RETURN_IF_ERROR(parse_into(out));
  return true;
}

}  // namespace ttldb
