#include "ttldb/repair.h"

#include <algorithm>
#include <map>
#include <memory>
#include <set>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "base/status.h"
#include "catalog/compile.h"
#include "engine/db_impl.h"
#include "index/key_codec.h"
#include "leveldb/db.h"
#include "leveldb/env.h"
#include "leveldb/write_batch.h"
#include "storage/entry_value.h"
#include "storage/keys.h"
#include "storage/leveldb_status.h"
#include "storage/rebuild_keys.h"
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

namespace {

uint32_t KeyId(const leveldb::Slice& key) { return DecodeU32(key.data() + 1); }

// The ids under which keys with `tag` ('D' or 'I') are stored, with how many
// keys each.
absl::StatusOr<std::map<uint32_t, int64_t>> IdsWithData(leveldb::DB* db,
                                                        char tag) {
  std::map<uint32_t, int64_t> out;
  std::unique_ptr<leveldb::Iterator> it(
      db->NewIterator(storage::VerifiedRead()));
  for (it->Seek(std::string(1, tag)); it->Valid() && it->key()[0] == tag;
       it->Next()) {
    if (it->key().size() < 5) continue;
    ++out[KeyId(it->key())];
  }
  if (!it->status().ok())
    return storage::FromLevelDB(it->status(), "reading the database");
  return out;
}

}  // namespace

// Friend of DbImpl: the catalog fixes and index rebuilds of RepairDatabase.
class Repairer {
 public:
  explicit Repairer(DbImpl* engine) : e_(engine) {}

  absl::Status FixCatalog(RepairReport* report);
  absl::Status Rebuild(const CollectionState& state,
                       RepairReport::CollectionRepair* out);

 private:
  // A fresh collection id (meta_ advanced). Requires write_mu_.
  uint32_t NewId() ABSL_EXCLUSIVE_LOCKS_REQUIRED(e_->write_mu_) {
    const uint32_t id = e_->meta_.next_collection_id();
    e_->meta_.set_next_collection_id(id + 1);
    return id;
  }

  DbImpl* const e_;
};

absl::Status Repairer::FixCatalog(RepairReport* report) {
  report->meta_rebuilt = e_->meta_rebuilt_;
  WritersLock wl(e_);
  std::map<std::string, std::string> damage = e_->CatalogDamage();
  std::set<uint32_t> known;
  for (const auto& [name, state] : e_->catalog_.Snapshot()) {
    known.insert(state->info.id());
  }
  leveldb::DB* db = e_->db();
  ASSIGN_OR_RETURN(auto doc_ids, IdsWithData(db, kDocumentTag));
  ASSIGN_OR_RETURN(auto index_ids, IdsWithData(db, kIndexTag));
  std::set<uint32_t> orphans;  // ids holding documents no entry names
  for (const auto& [id, n] : doc_ids) {
    if (known.count(id) == 0) orphans.insert(id);
  }

  leveldb::WriteBatch batch;
  auto put = [&](const proto::CollectionInfo& info) {
    batch.Put(CatalogKey(info.name()), info.SerializeAsString());
    known.insert(info.id());
    orphans.erase(info.id());
  };
  // Keeps the indexes of `info` that compile.
  auto keep_compiling_indexes = [&](proto::CollectionInfo* info,
                                    std::vector<std::string>* dropped) {
    proto::CollectionInfo kept = *info;
    kept.clear_indexes();
    uint32_t max_index_id = 0;
    for (const proto::IndexSpec& spec : info->indexes()) {
      proto::CollectionInfo one = kept;
      *one.add_indexes() = spec;
      if (CompileCollection(one).ok()) {
        *kept.add_indexes() = spec;
        max_index_id = std::max(max_index_id, spec.id());
      } else {
        dropped->push_back(spec.name());
      }
    }
    kept.set_next_index_id(std::max(kept.next_index_id(), max_index_id + 1));
    *info = std::move(kept);
  };

  // Entries that parse: grouped by id (a group of several shares storage).
  std::map<uint32_t, std::vector<proto::CollectionInfo>> parsed;
  std::vector<std::string> unknown;  // entries whose id cannot be known
  for (const auto& [name, what] : damage) {
    std::string bytes;
    proto::CollectionInfo info;
    leveldb::Status s =
        db->Get(storage::VerifiedRead(), CatalogKey(name), &bytes);
    if (s.ok() && info.ParseFromString(bytes) && info.name() == name &&
        info.id() != 0) {
      parsed[info.id()].push_back(std::move(info));
    } else {
      unknown.push_back(name);
    }
  }
  for (auto& [id, infos] : parsed) {
    std::sort(infos.begin(), infos.end(),
              [](const auto& a, const auto& b) { return a.name() < b.name(); });
    for (size_t i = 0; i < infos.size(); ++i) {
      proto::CollectionInfo info = infos[i];
      std::vector<std::string> dropped;
      keep_compiling_indexes(&info, &dropped);
      std::string line = absl::StrCat("collection '", info.name(),
                                      "': ", damage[info.name()], "; ");
      if (i == 0) {
        absl::StrAppend(&line, "kept its documents (id ", id, ")");
      } else {
        info.set_id(NewId());
        absl::StrAppend(&line, "the documents under id ", id, " stay in '",
                        infos[0].name(), "'; it is now empty (id ", info.id(),
                        ")");
      }
      if (!dropped.empty()) {
        absl::StrAppend(&line,
                        "; indexes dropped: ", absl::StrJoin(dropped, ", "));
      }
      put(info);
      report->catalog.push_back(std::move(line));
    }
  }
  // Entries that do not parse: their documents can be found only when a
  // single damaged entry meets a single id nobody names.
  const bool pair = unknown.size() == 1 && orphans.size() == 1;
  for (const std::string& name : unknown) {
    proto::CollectionInfo info;
    info.set_name(name);
    info.set_next_index_id(1);
    std::string line =
        absl::StrCat("collection '", name, "': ", damage[name], "; ");
    if (pair) {
      info.set_id(*orphans.begin());
      absl::StrAppend(&line, "given back the ", doc_ids[info.id()],
                      " documents stored under id ", info.id(),
                      ", the only id no catalog entry names; its indexes "
                      "(other than _id) are lost: create them again");
    } else {
      info.set_id(NewId());
      absl::StrAppend(&line,
                      "its documents cannot be told apart from others "
                      "nobody names; it is now empty (any documents are in "
                      "lost_and_found collections)");
    }
    put(info);
    report->catalog.push_back(std::move(line));
  }
  // Documents under ids no entry names: a lost_and_found collection each.
  for (uint32_t id : std::set<uint32_t>(orphans)) {
    proto::CollectionInfo info;
    info.set_id(id);
    info.set_next_index_id(1);
    std::string name = absl::StrCat("lost_and_found.", id);
    for (int n = 2; e_->GetState(name) != nullptr || damage.count(name); ++n) {
      name = absl::StrCat("lost_and_found.", id, "_", n);
    }
    info.set_name(name);
    put(info);
    report->catalog.push_back(absl::StrCat(
        "documents under id ", id, ", which no catalog entry names: ",
        doc_ids[id], " kept in new collection '", name, "'"));
  }
  // Index entries under ids no entry names: garbage.
  for (const auto& [id, n] : index_ids) {
    if (known.count(id) != 0) continue;
    RETURN_IF_ERROR(e_->DeleteRange(CollectionIndexPrefix(id),
                                    KeyPrefixEnd(CollectionIndexPrefix(id))));
    report->catalog.push_back(absl::StrCat(n, " index entries under id ", id,
                                           ", which no catalog entry names: "
                                           "deleted"));
  }
  if (batch.ApproximateSize() == leveldb::WriteBatch().ApproximateSize() &&
      !report->meta_rebuilt) {
    return absl::OkStatus();
  }
  RETURN_IF_ERROR(e_->SaveMetaLocked(&batch));
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
