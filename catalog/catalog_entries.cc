#include "catalog/catalog_entries.h"

#include <algorithm>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "base/status.h"
#include "catalog/compile.h"
#include "storage/keys.h"
#include "storage/leveldb_status.h"
#include "ttldb/json.h"

namespace ttldb {

void PutMetaEntry(const proto::DatabaseMeta& meta, leveldb::WriteBatch* batch) {
  batch->Put(MetaKey(), meta.SerializeAsString());
}

void PutCollectionEntry(const proto::CollectionInfo& info,
                        leveldb::WriteBatch* batch) {
  batch->Put(CatalogKey(info.name()), info.SerializeAsString());
}

void DeleteCollectionEntry(absl::string_view name, leveldb::WriteBatch* batch) {
  batch->Delete(CatalogKey(name));
}

absl::Status PutViewEntry(const ViewDefinition& view,
                          leveldb::WriteBatch* batch) {
  // ViewGraph::kMaxViewPipelineSizeBytes: 16 MB of stored pipeline.
  constexpr size_t kMaxViewPipelineBytes = 16 * 1000 * 1000;
  proto::ViewInfo info;
  info.set_name(view.name);
  info.set_view_on(view.view_on);
  info.set_pipeline_json(ToJson(view.pipeline, JsonFormat::kRelaxed));
  if (info.pipeline_json().size() > kMaxViewPipelineBytes) {
    return MongoError(absl::StatusCode::kInvalidArgument, kBSONObjectTooLarge,
                      "View pipeline is too large and exceeds the maximum "
                      "size of 16000000 bytes");
  }
  batch->Put(ViewKey(info.name()), info.SerializeAsString());
  return absl::OkStatus();
}

void DeleteViewEntry(absl::string_view name, leveldb::WriteBatch* batch) {
  batch->Delete(ViewKey(name));
}

absl::StatusOr<LoadedCollections> LoadCollections(leveldb::DB* db) {
  LoadedCollections out;
  std::unique_ptr<leveldb::Iterator> it(
      db->NewIterator(storage::VerifiedRead()));
  const std::string prefix(1, kCatalogTag);
  std::map<uint32_t, std::vector<std::string>> names_by_id;
  for (it->Seek(prefix); it->Valid() && it->key().starts_with(prefix);
       it->Next()) {
    const std::string name = it->key().ToString().substr(1);
    proto::CollectionInfo info;
    if (!info.ParseFromArray(it->value().data(), it->value().size())) {
      out.damaged[name] = "its catalog entry is corrupt (it does not parse)";
      out.damaged_ids.unparsed_entry = true;
      continue;
    }
    out.max_id = std::max(out.max_id, info.id());
    if (info.name() != name || info.id() == 0) {
      out.damaged[name] =
          absl::StrCat("its catalog entry is corrupt (it names collection '",
                       info.name(), "' with id ", info.id(), ")");
      out.damaged_ids.Add(info, /*damaged=*/true);
      continue;
    }
    absl::StatusOr<std::shared_ptr<const CollectionState>> state =
        CompileCollection(info);
    if (!state.ok()) {
      out.damaged[name] = absl::StrCat("its catalog entry is corrupt (",
                                       state.status().message(), ")");
      out.damaged_ids.Add(info, /*damaged=*/true);
      continue;
    }
    names_by_id[info.id()].push_back(name);
    out.healthy[name] = *std::move(state);
  }
  if (!it->status().ok()) {
    return storage::FromLevelDB(it->status(), "reading the catalog");
  }
  for (const auto& [id, names] : names_by_id) {
    if (names.size() < 2) continue;
    for (const std::string& name : names) {
      out.damaged[name] =
          absl::StrCat("its catalog entry gives it collection id ", id,
                       ", which collections '", absl::StrJoin(names, "', '"),
                       "' share, so their documents cannot be told apart");
      out.damaged_ids.Add(out.healthy[name]->info, /*damaged=*/true);
      out.healthy.erase(name);
    }
  }
  return out;
}

absl::StatusOr<LoadedViews> LoadViews(leveldb::DB* db) {
  LoadedViews out;
  std::unique_ptr<leveldb::Iterator> it(
      db->NewIterator(storage::VerifiedRead()));
  const std::string prefix(1, kViewTag);
  for (it->Seek(prefix); it->Valid() && it->key().starts_with(prefix);
       it->Next()) {
    std::string name = it->key().ToString().substr(1);
    proto::ViewInfo info;
    absl::StatusOr<Value> pipeline = absl::InternalError("unparsed");
    if (info.ParseFromArray(it->value().data(), it->value().size()) &&
        info.name() == name) {
      pipeline = ParseValue(info.pipeline_json());
    }
    if (!pipeline.ok() || !pipeline->is_array()) {
      out.damaged.push_back(std::move(name));
      continue;
    }
    out.views.push_back(
        ViewDefinition{std::move(name), info.view_on(), *std::move(pipeline)});
  }
  if (!it->status().ok()) {
    return storage::FromLevelDB(it->status(), "reading the views");
  }
  return out;
}

absl::StatusOr<uint32_t> MaxCollectionIdInData(leveldb::DB* db) {
  uint32_t max_id = 0;
  std::unique_ptr<leveldb::Iterator> it(
      db->NewIterator(storage::VerifiedRead()));
  for (char tag : {kDocumentTag, kIndexTag}) {
    // The last key with this tag: its id is the highest.
    it->Seek(std::string(1, static_cast<char>(tag + 1)));
    if (it->Valid()) {
      it->Prev();
    } else {
      it->SeekToLast();
    }
    if (!it->status().ok()) {
      return storage::FromLevelDB(it->status(), "reading the database");
    }
    if (!it->Valid()) continue;
    const leveldb::Slice key = it->key();
    if (key.size() < 5 || key[0] != tag) continue;
    max_id = std::max(max_id, DecodeU32(key.data() + 1));
  }
  return max_id;
}

}  // namespace ttldb
