#include "storage/storage_sizes.h"

#include <algorithm>
#include <memory>

#include "absl/strings/str_cat.h"
#include "base/status.h"
#include "index/key_codec.h"
#include "leveldb/db.h"
#include "storage/keys.h"
#include "storage/leveldb_status.h"

namespace ttldb {
namespace {

// LevelDB's estimate of the table-file bytes of the keys under `prefix`.
int64_t ApproximateBytes(leveldb::DB* db, const std::string& prefix) {
  const std::string end = KeyPrefixEnd(prefix);
  leveldb::Range range(prefix, end);
  uint64_t size = 0;
  db->GetApproximateSizes(&range, 1, &size);
  return static_cast<int64_t>(size);
}

}  // namespace

absl::StatusOr<RangeBytes> CountRange(leveldb::DB* db,
                                      const std::string& prefix) {
  RangeBytes out;
  std::unique_ptr<leveldb::Iterator> it(
      db->NewIterator(storage::VerifiedRead()));
  for (it->Seek(prefix); it->Valid() && it->key().starts_with(prefix);
       it->Next()) {
    ++out.entries;
    out.key_bytes += static_cast<int64_t>(it->key().size());
    out.value_bytes += static_cast<int64_t>(it->value().size());
  }
  if (!it->status().ok()) {
    return storage::FromLevelDB(it->status(),
                                "reading a collection's storage statistics");
  }
  return out;
}

int64_t StorageSizes::total_index_size() const {
  int64_t total = 0;
  for (const auto& [name, bytes] : index_sizes) total += bytes;
  return total;
}

absl::StatusOr<StorageSizes> MeasureCollection(leveldb::DB* db,
                                               const CollectionState& state) {
  StorageSizes s;
  ASSIGN_OR_RETURN(RangeBytes docs, CountRange(db, state.doc_prefix));
  s.count = docs.entries;
  s.data_size = docs.value_bytes;
  const int64_t exact = docs.key_bytes + docs.value_bytes;
  const int64_t approximate = ApproximateBytes(db, state.doc_prefix);
  s.storage_size = std::max(exact, approximate);
  s.free_storage_size = std::max<int64_t>(0, approximate - exact);
  s.index_sizes.emplace_back("_id_", docs.key_bytes);
  auto add = [&](const IndexState& index) -> absl::Status {
    ASSIGN_OR_RETURN(RangeBytes entries, CountRange(db, index.prefix));
    s.index_sizes.emplace_back(index.spec.name,
                               std::max(entries.key_bytes + entries.value_bytes,
                                        ApproximateBytes(db, index.prefix)));
    return absl::OkStatus();
  };
  for (const auto& index : state.indexes) RETURN_IF_ERROR(add(*index));
  for (const auto& index : state.building) {
    RETURN_IF_ERROR(add(*index));
    s.building.push_back(index->spec.name);
  }
  return s;
}

}  // namespace ttldb
