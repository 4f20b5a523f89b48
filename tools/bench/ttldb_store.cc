// ttldb through its public API (ttldb/database.h, ttldb/collection.h),
// with the monitor off and sweeps run by DatabaseInternal::RunTtlPass at a
// fixed "now".
#include <memory>

#include "absl/strings/str_cat.h"
#include "engine/database_internal.h"
#include "engine/db_impl.h"
#include "leveldb/db.h"
#include "tools/bench/bench_util.h"
#include "tools/bench/store.h"
#include "ttldb/clock.h"
#include "ttldb/database.h"

namespace ttldb {
namespace bench {
namespace {

class TtldbStore : public Store {
 public:
  explicit TtldbStore(bool change_log) : change_log_(change_log) {}
  const char* name() const override {
    return change_log_ ? "ttldb-log" : "ttldb";
  }

  void Open(const std::string& dir, const StoreConfig& config) override {
    config_ = config;
    clock_ = std::make_unique<FakeClock>(absl::FromUnixMillis(kNowMillis));
    Options options;
    options.ttl_monitor_enabled = false;
    options.clock = clock_.get();
    options.change_log = change_log_;
    if (config.doc_cache_bytes >= 0) {
      options.doc_cache_bytes = config.doc_cache_bytes;
    }
    if (config.ttl_compact_after_deletes >= 0) {
      options.ttl_compact_after_deletes = config.ttl_compact_after_deletes;
    }
    if (config.block_cache_bytes >= 0) {
      options.block_cache_bytes = config.block_cache_bytes;
    }
    if (config.block_size_bytes >= 0) {
      options.block_size_bytes = config.block_size_bytes;
    }
    if (!config.compression.empty()) {
      options.compress_blocks = config.compression != "none";
    }
    auto db = Database::Open(dir, options);
    if (!db.ok()) Die(db.status().ToString());
    db_ = std::move(*db);
    coll_ = &db_->collection("sessions");
    Check(coll_
              ->CreateIndex(R"({"accessTime": 1})",
                            absl::StrCat(R"({"expireAfterSeconds": )",
                                         kExpireAfterSeconds, "}"))
              .status());
    if (config.extra_indexes == 2) {
      Check(coll_->CreateIndex(R"({"userId": 1})").status());
      Check(coll_->CreateIndex(R"({"group": 1})").status());
    }
  }

  void Close() override {
    if (db_ != nullptr) Check(db_->Close());
    db_.reset();
  }

  void Insert(int64_t, const std::string& json, int64_t) override {
    Check(coll_->InsertOne(json).status());
  }

  void Touch(int64_t i, int64_t now_millis, const std::string&) override {
    clock_->SetWall(absl::FromUnixMillis(now_millis));
    const Value filter =
        Value::MakeObject({Field("_id", Value::String(DocId(i)))});
    auto r = coll_->Touch(filter, "accessTime");
    Check(r.status());
    if (r->modified_count != 1) Die(absl::StrCat("touch missed ", DocId(i)));
  }

  void UpdateAccess(int64_t i, int64_t now_millis,
                    const std::string&) override {
    clock_->SetWall(absl::FromUnixMillis(now_millis));
    const Value filter =
        Value::MakeObject({Field("_id", Value::String(DocId(i)))});
    const Value update = Value::MakeObject({Field(
        "$set",
        Value::MakeObject({Field("accessTime", Value::Date(now_millis))}))});
    auto r = coll_->UpdateOne(filter, update);
    Check(r.status());
    if (r->modified_count != 1) Die(absl::StrCat("update missed ", DocId(i)));
  }

  bool Get(int64_t i, int64_t now_millis) override {
    (void)now_millis;  // the FakeClock says "now"
    auto doc = coll_->FindById(Value::String(DocId(i)));
    if (doc.ok()) return true;
    if (!absl::IsNotFound(doc.status())) Die(doc.status().ToString());
    return false;
  }

  bool GetRaw(int64_t i, int64_t) override {
    auto json = coll_->FindByIdJson(Value::String(DocId(i)));
    if (json.ok()) return true;
    if (!absl::IsNotFound(json.status())) Die(json.status().ToString());
    return false;
  }

  void CompactAll() override {
    DatabaseInternal::engine(*db_)->db()->CompactRange(nullptr, nullptr);
  }
  std::vector<std::pair<std::string, double>> SizeBreakdown() override {
    auto stats = coll_->Stats(1);
    Check(stats.status());
    std::vector<std::pair<std::string, double>> out;
    for (const char* field : {"size", "storageSize", "totalIndexSize"}) {
      const Value* v = stats->Get(field);
      if (v != nullptr && v->is_number()) {
        out.emplace_back(absl::StrCat(field, "_mib"),
                         v->AsDouble() / 1048576.0);
      }
    }
    return out;
  }

  double CacheMiB() override {
    auto m = db_->Memory();
    Check(m.status());
    return m->doc_cache_bytes / 1048576.0;
  }

  int FindGroup(int64_t g, int64_t) override {
    const Value filter = Value::MakeObject({Field("group", Value::Int64(g))});
    auto cursor = coll_->Find(filter);
    Check(cursor.status());
    int n = 0;
    while (true) {
      auto doc = (*cursor)->Next();
      Check(doc.status());
      if (!doc->has_value()) return n;
      ++n;
    }
  }

  int64_t Sweep(int64_t now_millis) override {
    TtlPassStats s =
        DatabaseInternal::RunTtlPass(*db_, absl::FromUnixMillis(now_millis));
    if (s.failed_batches != 0) Die("TTL pass had failed batches");
    return s.deleted_documents;
  }

 private:
  static void Check(const absl::Status& s) {
    if (!s.ok()) Die(s.ToString());
  }

  std::unique_ptr<FakeClock> clock_;
  const bool change_log_;
  std::unique_ptr<Database> db_;
  Collection* coll_ = nullptr;
};

}  // namespace

std::unique_ptr<Store> NewTtldbStore(bool change_log) {
  return std::make_unique<TtldbStore>(change_log);
}

}  // namespace bench
}  // namespace ttldb
