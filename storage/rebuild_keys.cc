#include "storage/rebuild_keys.h"

#include <memory>
#include <set>
#include <utility>

#include "absl/strings/str_cat.h"
#include "base/status.h"
#include "document/storable.h"
#include "index/key_codec.h"
#include "storage/index_keys.h"
#include "storage/keys.h"
#include "storage/leveldb_status.h"
#include "ttldb/json.h"

namespace ttldb {
namespace storage {

absl::Status RebuildCollectionKeys(
    leveldb::DB* db, const CollectionState& state, Unreadable unreadable,
    const std::function<leveldb::Status(leveldb::WriteBatch*)>& commit,
    const std::function<void(absl::string_view encoded_id)>& kept,
    RebuildStats* stats) {
  const uint32_t id = state.info.id();
  std::vector<const IndexState*> all;
  for (const auto& idx : state.indexes) all.push_back(idx.get());
  stats->multikey.assign(all.size(), false);
  // Repair's second copies of an _id (under another key).
  std::set<std::string> kept_ids;
  std::unique_ptr<leveldb::Iterator> it(db->NewIterator(VerifiedRead()));
  leveldb::WriteBatch batch;
  int in_batch = 0;
  auto flush = [&]() -> absl::Status {
    leveldb::Status s = commit(&batch);
    if (!s.ok()) return FromLevelDB(s, "write");
    batch.Clear();
    in_batch = 0;
    return absl::OkStatus();
  };
  auto drop = [&](const leveldb::Slice& key) {
    batch.Delete(key);
    ++stats->unreadable_documents;
    ++in_batch;
  };
  DocKeys doc_keys;
  for (it->Seek(state.doc_prefix);
       it->Valid() && it->key().starts_with(state.doc_prefix); it->Next()) {
    const absl::string_view json(it->value().data(), it->value().size());
    absl::StatusOr<Value> parsed =
        ParseDocument(json, StoredJsonParseOptions());
    if (!parsed.ok() && unreadable == Unreadable::kFail) {
      return absl::DataLossError(parsed.status().message());
    }
    const Value* doc_id =
        parsed.ok() && parsed->is_object() ? parsed->Get("_id") : nullptr;
    if (doc_id == nullptr) {
      if (unreadable == Unreadable::kDelete) drop(it->key());
      continue;
    }
    const std::string encoded_id = EncodeId(*doc_id);
    if (unreadable == Unreadable::kDelete &&
        !kept_ids.insert(encoded_id).second) {
      drop(it->key());
      continue;
    }
    const std::string key = DocumentKey(id, encoded_id);
    if (key != it->key().ToString()) {
      batch.Delete(it->key());
      batch.Put(key, it->value());
      ++stats->moved_documents;
      ++in_batch;
    }
    ++stats->documents;
    if (kept) kept(encoded_id);
    RETURN_IF_ERROR(ComputeDocKeys(all, *parsed, encoded_id, &doc_keys));
    for (size_t t = 0; t < all.size(); ++t) {
      if (doc_keys.multikey[t]) stats->multikey[t] = true;
      for (const std::string& k : doc_keys.keys[t]) {
        batch.Put(k, EntryValueFor(all, doc_keys, t, encoded_id));
        ++stats->index_entries;
        ++in_batch;
      }
    }
    if (in_batch >= 1000) RETURN_IF_ERROR(flush());
  }
  if (!it->status().ok()) {
    return FromLevelDB(it->status(), absl::StrCat("reading collection '",
                                                  state.info.name(), "'"));
  }
  return flush();
}

void PutRekeyMarker(leveldb::WriteBatch* batch) {
  batch->Put(RekeyMarkerKey(), "");
}

void DeleteRekeyMarker(leveldb::WriteBatch* batch) {
  batch->Delete(RekeyMarkerKey());
}

}  // namespace storage
}  // namespace ttldb
