#include "ttldb/repair.h"

#include <map>
#include <memory>
#include <set>
#include <utility>

#include "absl/strings/str_cat.h"
#include "base/status.h"
#include "catalog/catalog_entries.h"
#include "catalog/catalog_repair.h"
#include "engine/db_impl.h"
#include "index/key_codec.h"
#include "leveldb/db.h"
#include "leveldb/env.h"
#include "leveldb/write_batch.h"
#include "storage/entry_value.h"
#include "storage/keys.h"
#include "storage/leveldb_status.h"
#include "storage/rebuild_keys.h"
#include "storage/unknown_ranges.h"
#include "ttldb/database.h"
#include "ttldb/json.h"

namespace ttldb {
namespace {

// A count as MongoDB replies it: int when it fits, else long.
Value Count(int64_t n) {
  return n >= INT32_MIN && n <= INT32_MAX
             ? Value::Int32(static_cast<int32_t>(n))
             : Value::Int64(n);
}

}  // namespace

bool RepairReport::AllValid() const {
  for (const auto& c : collections) {
    if (!c.valid) return false;
  }
  return true;
}

Value RepairReport::ToValue() const {
  Value::Array lines;
  for (const std::string& line : catalog) lines.push_back(Value::String(line));
  Value::Array colls;
  for (const auto& c : collections) {
    Value::Array errors;
    for (const std::string& e : c.validate_errors) {
      errors.push_back(Value::String(e));
    }
    colls.push_back(Value::MakeObject({
        {"name", Value::String(c.name)},
        {"documents", Count(c.documents)},
        {"unreadableDocumentsDeleted", Count(c.unreadable_documents)},
        {"documentsMoved", Count(c.moved_documents)},
        {"documentsLost", Count(c.lost_documents)},
        {"indexEntriesBefore", Count(c.index_entries_before)},
        {"indexEntriesRebuilt", Count(c.index_entries_rebuilt)},
        {"valid", Value::Bool(c.valid)},
        {"errors", Value::MakeArray(std::move(errors))},
    }));
  }
  return Value::MakeObject({
      {"metaRebuilt", Value::Bool(meta_rebuilt)},
      {"catalog", Value::MakeArray(std::move(lines))},
      {"collections", Value::MakeArray(std::move(colls))},
  });
}

// Friend of DbImpl: the catalog fixes and index rebuilds of RepairDatabase.
class Repairer {
 public:
  explicit Repairer(DbImpl* engine) : e_(engine) {}

  absl::Status FixCatalog(RepairReport* report);
  absl::Status Rebuild(const CollectionState& state,
                       RepairReport::CollectionRepair* out);

 private:
  DbImpl* const e_;
};

absl::Status Repairer::FixCatalog(RepairReport* report) {
  report->meta_rebuilt = e_->meta_rebuilt_;
  WritersLock wl(e_);
  leveldb::DB* db = e_->db();
  CatalogRepairInput input;
  input.damage = e_->CatalogDamage();
  for (const auto& [name, what] : input.damage) {
    std::string bytes;
    leveldb::Status s =
        db->Get(storage::VerifiedRead(), CatalogKey(name), &bytes);
    input.damaged_entries[name] =
        s.ok() ? std::optional<std::string>(std::move(bytes)) : std::nullopt;
  }
  for (const auto& [name, state] : e_->catalog_.Snapshot()) {
    input.known_ids.insert(state->info.id());
  }
  ASSIGN_OR_RETURN(input.document_ids, KeyCountsById(db, kDocumentTag));
  ASSIGN_OR_RETURN(input.index_ids, KeyCountsById(db, kIndexTag));
  input.next_collection_id = e_->meta_.next_collection_id();
  CatalogRepairPlan plan =
      PlanCatalogRepair(input, [this](const std::string& name) {
        return e_->GetState(name) != nullptr;
      });
  e_->meta_.set_next_collection_id(plan.next_collection_id);

  leveldb::WriteBatch batch;
  for (const proto::CollectionInfo& info : plan.entries) {
    PutCollectionEntry(info, &batch);
  }
  report->catalog = std::move(plan.report);
  for (const auto& [id, n] : plan.garbage_index_ids) {
    RETURN_IF_ERROR(e_->DeleteRange(CollectionIndexPrefix(id),
                                    KeyPrefixEnd(CollectionIndexPrefix(id))));
    report->catalog.push_back(GarbageIndexLine(id, n));
  }
  if (plan.entries.empty() && !report->meta_rebuilt) return absl::OkStatus();
  e_->SaveMetaLocked(&batch);
  leveldb::WriteOptions wo;
  wo.sync = true;
  leveldb::Status s = e_->Commit(wo, &batch);
  if (!s.ok()) return storage::FromLevelDB(s, "write");
  return absl::OkStatus();
}

absl::Status Repairer::Rebuild(const CollectionState& state,
                               RepairReport::CollectionRepair* out) {
  WritersLock wl(e_);
  leveldb::DB* db = e_->db();
  const uint32_t id = state.info.id();
  const std::string index_prefix = CollectionIndexPrefix(id);
  // The documents the old index entries name: those gone are lost.
  std::set<std::string> named;
  {
    std::unique_ptr<leveldb::Iterator> it(
        db->NewIterator(storage::VerifiedRead()));
    for (it->Seek(index_prefix);
         it->Valid() && it->key().starts_with(index_prefix); it->Next()) {
      ++out->index_entries_before;
      const absl::string_view value(it->value().data(), it->value().size());
      named.insert(std::string(EntryValueId(value)));
    }
    if (!it->status().ok()) {
      return storage::FromLevelDB(
          it->status(),
          absl::StrCat("reading collection '", state.info.name(), "'"));
    }
  }
  RETURN_IF_ERROR(e_->DeleteRange(index_prefix, KeyPrefixEnd(index_prefix)));

  storage::RebuildStats stats;
  RETURN_IF_ERROR(storage::RebuildCollectionKeys(
      db, state, storage::Unreadable::kDelete,
      [this](leveldb::WriteBatch* batch) {
        return e_->Commit(leveldb::WriteOptions(), batch);
      },
      [&named](absl::string_view encoded_id) {
        named.erase(std::string(encoded_id));
      },
      &stats));
  out->documents = stats.documents;
  out->unreadable_documents = stats.unreadable_documents;
  out->moved_documents = stats.moved_documents;
  out->index_entries_rebuilt = stats.index_entries;
  out->lost_documents = static_cast<int64_t>(named.size());
  // Multikey flags as the documents now are.
  proto::CollectionInfo info = state.info;
  bool changed = false;
  for (int i = 0; i < info.indexes_size(); ++i) {
    proto::IndexSpec* spec = info.mutable_indexes(i);
    for (size_t t = 0; t < state.indexes.size(); ++t) {
      if (state.indexes[t]->spec.id != spec->id()) continue;
      if (!spec->has_multikey() || spec->multikey() != stats.multikey[t]) {
        spec->set_multikey(stats.multikey[t]);
        changed = true;
      }
    }
  }
  if (changed) {
    leveldb::WriteBatch cb;
    RETURN_IF_ERROR(e_->CommitCatalogLocked(info, &cb).status());
  }
  return absl::OkStatus();
}

absl::StatusOr<RepairReport> RepairDatabase(absl::string_view path_view,
                                            const Options& options) {
  const std::string path(path_view);
  leveldb::Env* env = leveldb::Env::Default();
  RepairReport report;
  {
    // RepairDB does not lock: hold the lock so that a Database that has the
    // directory open is not repaired under it.
    leveldb::FileLock* lock = nullptr;
    leveldb::Status ls = env->LockFile(path + "/LOCK", &lock);
    if (!ls.ok()) {
      return storage::FromLevelDB(
          ls, absl::StrCat("locking database '", path, "' to repair it"));
    }
    leveldb::Options lo;
    lo.env = env;
    lo.paranoid_checks = true;  // drop what fails its checksum, keep the rest
    leveldb::Status s = leveldb::RepairDB(path, lo);
    env->UnlockFile(lock);
    if (!s.ok()) {
      return storage::FromLevelDB(
          s, absl::StrCat("LevelDB's repair of '", path, "'"));
    }
  }
  Options eo = options;
  eo.read_only = false;
  eo.create_if_missing = false;
  eo.error_if_exists = false;
  eo.ttl_monitor_enabled = false;
  eo.hide_expired = false;  // keep and index every stored document
  eo.touch_min_interval = absl::ZeroDuration();
  {
    ASSIGN_OR_RETURN(auto engine, DbImpl::Open(path, eo, env, /*repair=*/true));
    Repairer repairer(engine.get());
    RETURN_IF_ERROR(repairer.FixCatalog(&report));
    RETURN_IF_ERROR(engine->Close());
  }
  {
    ASSIGN_OR_RETURN(auto engine, DbImpl::Open(path, eo, env, /*repair=*/true));
    Repairer repairer(engine.get());
    ASSIGN_OR_RETURN(std::vector<std::string> names,
                     engine->ListCollectionNames());
    for (const std::string& name : names) {
      auto state = engine->GetState(name);
      if (state == nullptr) continue;
      RepairReport::CollectionRepair c;
      c.name = name;
      RETURN_IF_ERROR(repairer.Rebuild(*state, &c));
      report.collections.push_back(std::move(c));
    }
    RETURN_IF_ERROR(engine->Close());
  }
  // The repaired database as any user opens it.
  ASSIGN_OR_RETURN(auto db, Database::Open(path, eo));
  if (!db->CatalogDamage().empty()) {
    return absl::InternalError(absl::StrCat("database '", path,
                                            "' still has damaged catalog "
                                            "entries after the repair"));
  }
  for (auto& c : report.collections) {
    ASSIGN_OR_RETURN(Value v, db->collection(c.name).Validate());
    const Value* valid = v.Get("valid");
    c.valid = valid != nullptr && valid->type() == ValueType::kBool &&
              valid->bool_value();
    if (const Value* errors = v.Get("errors"); errors && errors->is_array()) {
      for (const Value& e : errors->array_items()) {
        c.validate_errors.push_back(e.is_string() ? e.string_value()
                                                  : ToJson(e));
      }
    }
  }
  RETURN_IF_ERROR(db->Close());
  return report;
}

}  // namespace ttldb
