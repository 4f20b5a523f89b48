// Collection::Stats and Collection::IndexStats: MongoDB 8.0's storageStats
// (src/mongo/db/stats/storage_stats.cpp, appendCollectionStorageStats) and
// $indexStats (src/mongo/db/pipeline/document_source_index_stats.cpp) over
// the collection's key ranges (storage/storage_sizes.h says what each size
// means) and the engine's usage counters (engine/index_usage.h).
#include "engine/coll_stats.h"

#include <unistd.h>

#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "base/status.h"
#include "catalog/index_rules.h"
#include "document/idl_errors.h"
#include "engine/backend.h"
#include "engine/db_impl.h"
#include "engine/index_usage.h"
#include "storage/storage_sizes.h"
#include "ttldb/collection.h"

namespace ttldb {
namespace {

// A number as MongoDB's BSONObjBuilder::appendNumber(long long) writes it:
// an int below 2^30 in magnitude, else a long.
Value AppendNumber(int64_t n) {
  constexpr int64_t kMaxInt = int64_t{1} << 30;
  if (-kMaxInt < n && n < kMaxInt) return Value::Int32(static_cast<int32_t>(n));
  return Value::Int64(n);
}

std::string HostName(const StatsSource& source) {
  if (!source.host.empty()) return source.host;
  char buf[256] = {0};
  if (gethostname(buf, sizeof(buf) - 1) != 0 || buf[0] == '\0') {
    return "localhost";
  }
  return buf;
}

// latencyStats when nobody timed the collection's operations.
Value ZeroLatencyStats(bool histograms) {
  Value::Object out;
  for (const char* kind : {"reads", "writes", "commands", "transactions"}) {
    Value::Object h;
    if (histograms) h.emplace_back("histogram", Value::MakeArray());
    h.emplace_back("latency", Value::Int64(0));
    h.emplace_back("ops", Value::Int64(0));
    out.emplace_back(kind, Value::MakeObject(std::move(h)));
  }
  return Value::MakeObject(std::move(out));
}

// MongoDB's uassertStatusOKWithContext wording for a $collStats part.
absl::Status CollStatsPartError(absl::string_view part, int code,
                                absl::string_view ns) {
  return MongoError(
      absl::StatusCode::kNotFound, code,
      absl::StrCat("Unable to retrieve ", part,
                   " in $collStats stage :: caused by :: Collection [", ns,
                   "] not found."));
}

}  // namespace

absl::StatusOr<Value> CollStatsDocument(DbImpl* engine, absl::string_view coll,
                                        const Value& request,
                                        const StatsSource& source) {
  const std::string ns = absl::StrCat(engine->options().db_name, ".", coll);
  const bool exists = engine->GetState(coll) != nullptr;
  Collection& c = engine->collection(coll);
  Value::Object out = {
      {"ns", Value::String(ns)},
      {"host", Value::String(HostName(source))},
      {"localTime",
       Value::Date(absl::ToUnixMillis(engine->clock()->WallNow()))},
  };
  if (const Value* latency = request.Get("latencyStats")) {
    const Value* h = latency->Get("histograms");
    const bool histograms = h != nullptr && h->bool_value();
    out.emplace_back("latencyStats", source.latency_stats
                                         ? source.latency_stats(histograms)
                                         : ZeroLatencyStats(histograms));
  }
  if (const Value* storage = request.Get("storageStats")) {
    if (!exists)
      return CollStatsPartError("storageStats", kNamespaceNotFound, ns);
    const Value* scale = storage->Get("scale");
    ASSIGN_OR_RETURN(
        Value stats,
        c.Stats(scale != nullptr ? static_cast<int64_t>(scale->AsDouble())
                                 : 1));
    out.emplace_back("storageStats", std::move(stats));
  }
  if (request.Get("count") != nullptr) {
    if (!exists) return CollStatsPartError("count", kBadValue, ns);
    ASSIGN_OR_RETURN(int64_t count, c.EstimatedDocumentCount());
    out.emplace_back("count", AppendNumber(count));
  }
  if (request.Get("queryExecStats") != nullptr) {
    if (!exists) {
      return CollStatsPartError("queryExecStats", kNamespaceNotFound, ns);
    }
    ASSIGN_OR_RETURN(int64_t scans, c.CollectionScans());
    // ttldb has no tailable cursors: every scan is a non-tailable one.
    out.emplace_back(
        "queryExecStats",
        Value::MakeObject({Field(
            "collectionScans",
            Value::MakeObject({Field("total", Value::Int64(scans)),
                               Field("nonTailable", Value::Int64(scans))}))}));
  }
  return Value::MakeObject(std::move(out));
}

absl::StatusOr<std::vector<Value>> IndexStatsDocuments(
    DbImpl* engine, absl::string_view coll, const StatsSource& source) {
  ASSIGN_OR_RETURN(std::vector<Value> docs,
                   engine->collection(coll).IndexStats());
  const Value host = Value::String(HostName(source));
  for (Value& doc : docs) {
    Value::Object& fields = doc.mutable_object_fields();
    fields.insert(fields.begin() + 2, Field("host", host));  // after key
  }
  return docs;
}

Value MissingCollectionStats(int64_t scale) {
  return Value::MakeObject({
      Field("size", Value::Int32(0)),
      Field("count", Value::Int32(0)),
      Field("numOrphanDocs", Value::Int32(0)),
      Field("storageSize", Value::Int32(0)),
      Field("totalSize", Value::Int32(0)),
      Field("nindexes", Value::Int32(0)),
      Field("totalIndexSize", Value::Int32(0)),
      Field("indexDetails", Value::MakeObject()),
      Field("indexSizes", Value::MakeObject()),
      Field("scaleFactor", Value::Int32(static_cast<int32_t>(scale))),
  });
}

absl::Status CheckStatsScale(int64_t scale) {
  if (scale >= 1) return absl::OkStatus();
  // storage_stats_spec.idl / dbstats.idl: scale {validator: {gte: 1}}.
  return IdlBadValue("scale", ">= 1", scale);
}

absl::StatusOr<Value> Collection::MissingStats(int64_t scale) {
  RETURN_IF_ERROR(CheckStatsScale(scale));
  return MissingCollectionStats(scale);
}

absl::StatusOr<Value> Collection::Stats(int64_t scale) {
  if (backend_ != nullptr) return backend_->Stats(scale);
  RETURN_IF_ERROR(CheckStatsScale(scale));
  RETURN_IF_ERROR(engine_->CheckCollection(name_));
  auto state = engine_->GetState(name_);
  if (state == nullptr) return MissingCollectionStats(scale);
  ASSIGN_OR_RETURN(StorageSizes s, MeasureCollection(engine_->db(), *state));
  Value::Object out;
  out.emplace_back("size", AppendNumber(s.data_size / scale));
  out.emplace_back("count", AppendNumber(s.count));
  if (s.count > 0) {
    // Unscaled, as MongoDB's (Collection::averageObjectSize).
    out.emplace_back("avgObjSize", AppendNumber(s.data_size / s.count));
  }
  out.emplace_back("numOrphanDocs", Value::Int32(0));  // never sharded
  out.emplace_back("storageSize", AppendNumber(s.storage_size / scale));
  out.emplace_back("freeStorageSize",
                   AppendNumber(s.free_storage_size / scale));
  // storage_stats.cpp: a capped collection's max (0: none given) and
  // maxSize (scaled) after capped.
  out.emplace_back("capped", Value::Bool(state->info.capped()));
  if (state->info.capped()) {
    out.emplace_back("max", AppendNumber(state->info.capped_max()));
    out.emplace_back("maxSize",
                     AppendNumber(state->info.capped_size() / scale));
  }
  out.emplace_back("nindexes",
                   Value::Int32(static_cast<int32_t>(s.index_sizes.size())));
  // MongoDB's indexDetails are WiredTiger's per-index statistics; a storage
  // engine without such statistics leaves it empty, as LevelDB here.
  out.emplace_back("indexDetails", Value::MakeObject());
  Value::Array building;
  for (const std::string& name : s.building) {
    building.push_back(Value::String(name));
  }
  out.emplace_back("indexBuilds", Value::MakeArray(std::move(building)));
  const int64_t index_size = s.total_index_size();
  out.emplace_back("totalIndexSize", AppendNumber(index_size / scale));
  Value::Object sizes;
  for (const auto& [name, bytes] : s.index_sizes) {
    sizes.emplace_back(name, AppendNumber(bytes / scale));
  }
  out.emplace_back("indexSizes", Value::MakeObject(std::move(sizes)));
  out.emplace_back("totalSize",
                   AppendNumber((s.storage_size + index_size) / scale));
  out.emplace_back("scaleFactor", Value::Int32(static_cast<int32_t>(scale)));
  return Value::MakeObject(std::move(out));
}

absl::StatusOr<std::vector<Value>> Collection::IndexStats() {
  if (backend_ != nullptr) return backend_->IndexStats();
  RETURN_IF_ERROR(engine_->CheckCollection(name_));
  std::vector<Value> out;
  auto state = engine_->GetState(name_);
  if (state == nullptr) return out;
  const uint32_t id = state->info.id();
  auto entry = [&](const Value& spec, uint32_t index_id, bool building) {
    const IndexUsage::Accesses a = engine_->index_usage().Get(id, index_id);
    Value::Object doc = {
        {"name", *spec.Get("name")},
        {"key", *spec.Get("key")},
        {"accesses",
         Value::MakeObject(
             {Field("ops", Value::Int64(a.ops)),
              Field("since", Value::Date(absl::ToUnixMillis(a.since)))})},
        {"spec", spec},
    };
    if (building) doc.emplace_back("building", Value::Bool(true));
    out.push_back(Value::MakeObject(std::move(doc)));
  };
  entry(IdIndexSpec(), kIdIndexId, false);  // listIndexes' order
  for (const auto& index : state->indexes) {
    entry(ListedSpec(index->spec), index->spec.id, false);
  }
  for (const auto& index : state->building) {
    entry(ListedSpec(index->spec), index->spec.id, true);
  }
  return out;
}

absl::StatusOr<int64_t> Collection::CollectionScans() {
  if (backend_ != nullptr) return backend_->CollectionScans();
  RETURN_IF_ERROR(engine_->CheckCollection(name_));
  auto state = engine_->GetState(name_);
  if (state == nullptr) return 0;
  return engine_->index_usage().CollectionScans(state->info.id());
}

}  // namespace ttldb
