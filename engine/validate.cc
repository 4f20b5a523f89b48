// Collection::Validate and EstimatedDocumentCount: a full consistency check
// of documents against index entries, and the number of documents stored.
#include <algorithm>
#include <map>
#include <set>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/types/span.h"
#include "base/status.h"
#include "engine/backend.h"
#include "engine/db_impl.h"
#include "index/key_codec.h"
#include "storage/entry_value.h"
#include "storage/keys.h"
#include "storage/leveldb_status.h"
#include "storage/storage_sizes.h"
#include "ttldb/collection.h"
#include "ttldb/json.h"

namespace ttldb {
namespace {

// Whether the entry value `v` of indexes[i] agrees with its document's keys
// (storage/entry_value.h): the plain form always does; a sibling list must
// come from a document with exactly this entry in indexes[i] and list, for
// every current index it names, exactly the document's keys there (indexes
// it does not name were created later; ids it names that are gone were
// dropped).
bool SiblingsAgree(absl::Span<const IndexState* const> indexes,
                   const DocKeys& keys, size_t i, const std::string& encoded_id,
                   absl::string_view v) {
  absl::string_view id;
  std::vector<SiblingIndex> siblings;
  if (!ParseSiblings(v, &id, &siblings)) return true;
  if (keys.keys[i].size() != 1 || keys.multikey[i]) return false;
  for (const SiblingIndex& sibling : siblings) {
    for (size_t j = 0; j < indexes.size(); ++j) {
      if (j == i || indexes[j]->spec.id != sibling.index_id) continue;
      const std::vector<std::string>& have = keys.keys[j];
      if (have.size() != sibling.keys.size()) return false;
      const size_t prefix = indexes[j]->prefix.size();
      for (size_t k = 0; k < have.size(); ++k) {
        absl::string_view key(have[k]);
        key = key.substr(prefix, key.size() - prefix - encoded_id.size());
        if (key != sibling.keys[k]) return false;
      }
    }
  }
  return true;
}

}  // namespace

absl::StatusOr<Value> Collection::Validate() {
  if (backend_ != nullptr) return backend_->Validate();
  RETURN_IF_ERROR(engine_->CheckCollection(name_));
  auto state = engine_->GetState(name_);
  Value::Array errors;
  Value::Array warnings;
  int64_t nrecords = 0;
  std::map<std::string, int64_t> expected_per_index;  // prefix -> count
  std::map<std::string, int64_t> actual_per_index;
  if (state != nullptr) {
    leveldb::DB* db = engine_->db();
    CatalogIds catalog_ids;
    const leveldb::Snapshot* snap =
        engine_->SnapshotWithCatalogIds(&catalog_ids);
    leveldb::ReadOptions ro = storage::VerifiedRead(snap);
    std::unique_ptr<leveldb::Iterator> it(db->NewIterator(ro));
    // An I/O error is the call's error, never a report of missing entries.
    auto io_error = [&](const leveldb::Status& s) {
      it.reset();
      db->ReleaseSnapshot(snap);
      return storage::FromLevelDB(
          s, absl::StrCat("reading collection '", name_, "'"));
    };
    std::vector<std::string> keys;
    std::vector<const IndexState*> indexes;
    for (const auto& idx : state->indexes) indexes.push_back(idx.get());
    DocKeys doc_keys;
    doc_keys.keys.resize(indexes.size());
    doc_keys.multikey.resize(indexes.size());
    // 1. Every document derives index entries that exist.
    for (it->Seek(state->doc_prefix);
         it->Valid() && it->key().starts_with(state->doc_prefix); it->Next()) {
      ++nrecords;
      std::string key = it->key().ToString();
      auto doc = ParseDocument(
          absl::string_view(it->value().data(), it->value().size()),
          StoredJsonParseOptions());
      if (!doc.ok()) {
        errors.push_back(Value::String(
            absl::StrCat("document at key ", absl::BytesToHexString(key),
                         " does not parse: ", doc.status().message())));
        continue;
      }
      const Value* id = doc->Get("_id");
      if (id == nullptr) {
        errors.push_back(Value::String(absl::StrCat(
            "document at key ", absl::BytesToHexString(key), " has no _id")));
        continue;
      }
      const std::string encoded_id = EncodeId(*id);
      if (key != DocumentKey(state->info.id(), encoded_id)) {
        errors.push_back(Value::String(absl::StrCat(
            "document _id ", ToJson(*id), " is stored under another key")));
      }
      bool keys_ok = true;
      for (size_t i = 0; i < indexes.size(); ++i) {
        const IndexState& idx = *indexes[i];
        bool multikey = false;
        absl::Status s =
            IndexEntryKeys(idx, *doc, encoded_id, &doc_keys.keys[i], &multikey);
        doc_keys.multikey[i] = multikey;
        std::sort(doc_keys.keys[i].begin(), doc_keys.keys[i].end());
        if (!s.ok()) {
          errors.push_back(Value::String(
              absl::StrCat("document _id ", ToJson(*id), ": index ",
                           idx.spec.name, ": ", s.message())));
          keys_ok = false;
        }
      }
      for (size_t i = 0; keys_ok && i < indexes.size(); ++i) {
        const IndexState& idx = *indexes[i];
        expected_per_index[idx.prefix] += doc_keys.keys[i].size();
        for (const std::string& k : doc_keys.keys[i]) {
          std::string v;
          leveldb::Status g = db->Get(ro, k, &v);
          if (!g.ok() && !g.IsNotFound()) return io_error(g);
          if (!g.ok() || EntryValueId(v) != encoded_id) {
            errors.push_back(Value::String(
                absl::StrCat("index ", idx.spec.name,
                             " is missing an entry for _id ", ToJson(*id))));
          } else if (!SiblingsAgree(indexes, doc_keys, i, encoded_id, v)) {
            errors.push_back(Value::String(absl::StrCat(
                "index ", idx.spec.name, ": the entry for _id ", ToJson(*id),
                " lists keys of other indexes that the document does not "
                "have")));
          }
        }
      }
    }
    if (!it->status().ok()) return io_error(it->status());
    // 2. Every index entry points at a document that derives it.
    for (const auto& idx : state->indexes) {
      for (it->Seek(idx->prefix);
           it->Valid() && it->key().starts_with(idx->prefix); it->Next()) {
        ++actual_per_index[idx->prefix];
      }
      if (!it->status().ok()) return io_error(it->status());
      if (actual_per_index[idx->prefix] == expected_per_index[idx->prefix]) {
        continue;  // all expected entries exist and no others
      }
      for (it->Seek(idx->prefix);
           it->Valid() && it->key().starts_with(idx->prefix); it->Next()) {
        std::string entry = it->key().ToString();
        std::string encoded_id(EntryValueId(
            absl::string_view(it->value().data(), it->value().size())));
        auto doc = engine_->reader().Read(*state, encoded_id, snap);
        if (!doc.ok() && !absl::IsInvalidArgument(doc.status()) &&
            !absl::IsDataLoss(doc.status())) {
          it.reset();
          db->ReleaseSnapshot(snap);
          return doc.status();
        }
        bool derived = false;
        if (doc.ok() && doc->has_value() &&
            IndexEntryKeys(*idx, **doc, encoded_id, &keys).ok()) {
          for (const std::string& k : keys) derived = derived || k == entry;
        }
        if (!derived) {
          errors.push_back(Value::String(absl::StrCat(
              "index ", idx->spec.name, " has an entry (",
              absl::BytesToHexString(entry.substr(idx->prefix.size())),
              ") that no document derives")));
        }
      }
      if (!it->status().ok()) return io_error(it->status());
    }
    // 3. Garbage: keys under this collection's id in index ids it does not
    // have, and under collection ids no collection has (warnings: no read
    // reaches them; storage/unknown_ranges.h).
    absl::StatusOr<std::vector<UnknownRange>> unknown =
        FindUnknownRanges(db, ro, catalog_ids);
    if (!unknown.ok()) {
      it.reset();
      db->ReleaseSnapshot(snap);
      return unknown.status();
    }
    for (const UnknownRange& range : *unknown) {
      const bool ours =
          range.index_id.has_value() && range.collection_id == state->info.id();
      const bool nobodys = !range.index_id.has_value();
      if (!ours && !nobodys) continue;
      absl::StatusOr<int64_t> n = CountKeys(db, ro, range);
      if (!n.ok()) {
        it.reset();
        db->ReleaseSnapshot(snap);
        return n.status();
      }
      std::string why =
          ours ? "which no index of this collection has (left by a dropped "
                 "index or an interrupted index build)"
               : "which no collection of the database has (left by a "
                 "dropped collection)";
      std::string fate =
          !range.reclaimable
              ? "not reclaimed automatically: the catalog is damaged; run "
                "`ttldb repair`"
          : engine_->options().read_only
              ? "reclaimed in the background once the database is opened "
                "writable"
              : "being reclaimed in the background";
      warnings.push_back(Value::String(absl::StrCat(
          range.Describe(), ", ", why, ": ", *n, " keys; ", fate)));
    }
    it.reset();
    db->ReleaseSnapshot(snap);
  }
  Value::Object keys_per_index;
  keys_per_index.emplace_back("_id_", Value::Int64(nrecords));
  if (state != nullptr) {
    for (const auto& idx : state->indexes) {
      keys_per_index.emplace_back(idx->spec.name,
                                  Value::Int64(actual_per_index[idx->prefix]));
    }
  }
  const bool valid = errors.empty();
  return Value::MakeObject({
      Field("ns", Value::String(name_)),
      Field("nrecords", Value::Int64(nrecords)),
      Field("nIndexes", Value::Int32(state ? 1 + state->indexes.size() : 0)),
      Field("keysPerIndex", Value::MakeObject(std::move(keys_per_index))),
      Field("valid", Value::Bool(valid)),
      Field("errors", Value::MakeArray(std::move(errors))),
      Field("warnings", Value::MakeArray(std::move(warnings))),
      Field("ok", Value::Int32(1)),
  });
}

absl::StatusOr<int64_t> Collection::EstimatedDocumentCount() {
  if (backend_ != nullptr) return backend_->EstimatedDocumentCount();
  RETURN_IF_ERROR(engine_->CheckCollection(name_));
  {
    // A view has no stored count: its documents are counted.
    ASSIGN_OR_RETURN(auto view, engine_->ResolveView(name_));
    if (view.has_value()) return CountDocuments();
  }
  auto state = engine_->GetState(name_);
  if (state == nullptr) return 0;
  // The documents stored, expired ones not yet deleted included: what
  // Stats()["count"] reports too, so that the two always agree.
  ASSIGN_OR_RETURN(RangeBytes docs,
                   CountRange(engine_->db(), state->doc_prefix));
  return docs.entries;
}

}  // namespace ttldb
