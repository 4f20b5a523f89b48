// Database::Stats: MongoDB's dbStats over every collection of the database.
#include <sys/statvfs.h>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "base/status.h"
#include "engine/backend.h"
#include "engine/db_impl.h"
#include "storage/storage_sizes.h"
#include "ttldb/database.h"

namespace ttldb {

absl::StatusOr<Value> Database::Stats(int64_t scale,
                                      absl::string_view db_name) {
  if (backend_ != nullptr) return backend_->Stats(scale, db_name);
  RETURN_IF_ERROR(engine_->CheckOpen());
  RETURN_IF_ERROR(CheckStatsScale(scale));
  ASSIGN_OR_RETURN(std::vector<std::string> names,
                   engine_->ListCollectionNames());
  int64_t objects = 0, data_size = 0, storage_size = 0, indexes = 0,
          index_size = 0;
  int64_t collections = 0;
  for (const std::string& name : names) {
    std::shared_ptr<const CollectionState> state = engine_->GetState(name);
    if (state == nullptr) continue;  // dropped meanwhile
    ++collections;
    // The sizes collStats reports (storage/storage_sizes.h), summed.
    ASSIGN_OR_RETURN(StorageSizes sizes,
                     MeasureCollection(engine_->db(), *state));
    objects += sizes.count;
    data_size += sizes.data_size;
    storage_size += sizes.storage_size;
    indexes += static_cast<int64_t>(sizes.index_sizes.size());
    index_size += sizes.total_index_size();
  }
  double fs_used = 0, fs_total = 0;
  struct statvfs fs;
  if (statvfs(engine_->path().c_str(), &fs) == 0) {
    fs_total = static_cast<double>(fs.f_blocks) * fs.f_frsize;
    fs_used = static_cast<double>(fs.f_blocks - fs.f_bfree) * fs.f_frsize;
  }
  auto scaled = [scale](double bytes) {
    return Value::Double(
        static_cast<double>(static_cast<int64_t>(bytes) / scale));
  };
  return Value::MakeObject({
      Field("db", Value::String(std::string(db_name))),
      Field("collections", Value::Int64(collections)),
      Field("views",
            Value::Int64(static_cast<int64_t>(engine_->ListViews().size()))),
      Field("objects", Value::Int64(objects)),
      // Unscaled, as MongoDB's (dataSize / objects in bytes).
      Field("avgObjSize",
            Value::Double(objects ? static_cast<double>(data_size) / objects
                                  : 0)),
      Field("dataSize", scaled(data_size)),
      Field("storageSize", scaled(storage_size)),
      Field("indexes", Value::Int64(indexes)),
      Field("indexSize", scaled(index_size)),
      Field("totalSize", scaled(storage_size + index_size)),
      Field("scaleFactor", Value::Int64(scale)),
      Field("fsUsedSize", scaled(fs_used)),
      Field("fsTotalSize", scaled(fs_total)),
      Field("ok", Value::Double(1)),
  });
}

absl::StatusOr<MemoryUsage> Database::Memory() {
  if (backend_ != nullptr) return backend_->Memory();
  RETURN_IF_ERROR(engine_->CheckOpen());
  MemoryUsage m;
  if (DocCache* cache = engine_->doc_cache()) {
    m.doc_cache_bytes = static_cast<int64_t>(cache->charged_bytes());
    m.doc_cache_capacity = static_cast<int64_t>(cache->capacity_bytes());
    m.doc_cache_entries = static_cast<int64_t>(cache->size());
  }
  std::string v;
  if (engine_->db()->GetProperty("leveldb.approximate-memory-usage", &v)) {
    int64_t n = 0;
    if (absl::SimpleAtoi(v, &n)) m.leveldb_bytes = n;
  }
  return m;
}

}  // namespace ttldb
