#include "storage/document_reader.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "base/status.h"
#include "storage/json_field_scan.h"
#include "storage/keys.h"
#include "storage/leveldb_status.h"
#include "ttl/expiry.h"
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

absl::Status CorruptDocument(const CollectionState& state,
                             const absl::Status& st) {
  return absl::DataLossError(
      absl::StrCat("collection '", state.info.name(),
                   "': stored document is corrupt: ", st.message()));
}

// Parses stored text into *out; a stored text that does not parse is data
// loss, said with its collection.
absl::Status ParseStored(const CollectionState& state, const std::string& json,
                         Value* out) {
  absl::Status st = ParseDocumentInto(json, StoredJsonParseOptions(), out);
  if (st.ok()) return st;
  return CorruptDocument(state, st);
}

}  // namespace

absl::StatusOr<std::optional<Value>> DocumentReader::Read(
    const CollectionState& state, absl::string_view encoded_id,
    const leveldb::Snapshot* snapshot) const {
  std::optional<Value> doc(std::in_place);
  ASSIGN_OR_RETURN(bool found, ReadInto(state, encoded_id, snapshot, &*doc));
  if (!found) doc.reset();
  return doc;
}

absl::StatusOr<bool> DocumentReader::ReadInto(const CollectionState& state,
                                              absl::string_view encoded_id,
                                              const leveldb::Snapshot* snapshot,
                                              Value* out) const {
  StoredRead r;
  RETURN_IF_ERROR(ReadStored(db_, cache_, state, encoded_id, snapshot, &r));
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

absl::StatusOr<std::shared_ptr<const Value>> DocumentReader::ReadShared(
    const CollectionState& state, absl::string_view encoded_id,
    bool* parsed_here) const {
  if (parsed_here != nullptr) *parsed_here = false;
  StoredRead r;
  RETURN_IF_ERROR(ReadStored(db_, cache_, state, encoded_id, nullptr, &r));
  if (r.hit != nullptr) return r.hit;
  if (r.json == nullptr) return std::shared_ptr<const Value>();
  // One allocation, shared by the cache and the caller.
  auto shared = std::make_shared<Value>();
  RETURN_IF_ERROR(ParseStored(state, *r.json, shared.get()));
  if (parsed_here != nullptr) *parsed_here = true;
  // Not admitted (most misses of a working set larger than the cache): no
  // charge to compute (a walk of the tree), no second lock.
  if (r.cache != nullptr && r.miss.admit) {
    r.cache->Insert(r.key, shared, CacheCharge(r.key, *shared), r.miss.ticket);
  }
  return std::shared_ptr<const Value>(std::move(shared));
}

absl::StatusOr<bool> DocumentReader::ReadJson(const CollectionState& state,
                                              absl::string_view encoded_id,
                                              std::string* json) const {
  const std::string key = DocumentKey(state.info.id(), encoded_id);
  json->clear();
  if (cache_ != nullptr) {
    if (std::shared_ptr<const Value> hit = cache_->Lookup(key)) {
      AppendJson(*hit, JsonFormat::kStorage, json);
      return true;
    }
  }
  // Nothing is inserted into the cache: this path parses nothing to cache.
  leveldb::Status s = db_->Get(storage::VerifiedRead(), key, json);
  if (s.IsNotFound()) return false;
  if (!s.ok()) {
    return storage::FromLevelDB(
        s, absl::StrCat("reading collection '", state.info.name(), "'"));
  }
  return true;
}

bool DocumentReader::IsHidden(const CollectionState& state, const Value& doc,
                              absl::Time now) const {
  if (!hide_expired_) return false;
  for (const auto& idx : state.indexes) {
    if (!idx->ttl_seconds.has_value()) continue;
    if (idx->partial.has_value() && !idx->partial->Matches(doc)) continue;
    if (IsExpired(idx->spec, *idx->ttl_seconds, doc, now)) return true;
  }
  return false;
}

absl::StatusOr<bool> DocumentReader::IsHiddenJson(const CollectionState& state,
                                                  absl::string_view json,
                                                  absl::Time now) const {
  if (!hide_expired_) return false;
  // The TTL indexes' fields alone, as a small document IsHidden can judge.
  Value::Object fields;
  bool whole = false;
  for (const auto& idx : state.indexes) {
    if (!idx->ttl_seconds.has_value()) continue;
    if (idx->partial.has_value() || idx->spec.key.size() != 1 ||
        idx->spec.key[0].path.find('.') != std::string::npos) {
      whole = true;  // the filter or the path needs more of the document
      break;
    }
    const std::string& path = idx->spec.key[0].path;
    absl::string_view text;
    const FieldScan r = FindTopLevelField(json, path, &text);
    if (r == FieldScan::kUnsure) {
      whole = true;
      break;
    }
    if (r == FieldScan::kAbsent) continue;
    absl::StatusOr<Value> v = ParseValue(text, StoredJsonParseOptions());
    if (!v.ok()) {
      whole = true;  // the full parse words the error
      break;
    }
    fields.emplace_back(path, std::move(*v));
  }
  if (!whole) {
    if (fields.empty()) return false;
    return IsHidden(state, Value::MakeObject(std::move(fields)), now);
  }
  absl::StatusOr<Value> doc = ParseDocument(json, StoredJsonParseOptions());
  if (!doc.ok()) return CorruptDocument(state, doc.status());
  return IsHidden(state, *doc, now);
}

}  // namespace ttldb
