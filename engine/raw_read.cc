// The raw read path: a document's stored JSON text handed out without a
// parse (Collection::FindByIdJson), for services that forward JSON.
#include "absl/strings/str_cat.h"
#include "base/status.h"
#include "engine/db_impl.h"
#include "storage/json_field_scan.h"
#include "storage/keys.h"
#include "storage/leveldb_status.h"
#include "ttl/expiry.h"
#include "ttldb/json.h"

namespace ttldb {

absl::StatusOr<bool> DbImpl::ReadDocumentJson(const CollectionState& state,
                                              absl::string_view encoded_id,
                                              std::string* json) {
  const std::string key = DocumentKey(state.info.id(), encoded_id);
  json->clear();
  if (doc_cache_ != nullptr) {
    if (std::shared_ptr<const Value> hit = doc_cache_->Lookup(key)) {
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

absl::StatusOr<bool> DbImpl::IsHiddenJson(const CollectionState& state,
                                          absl::string_view json,
                                          absl::Time now) const {
  if (!options_.hide_expired) return false;
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
  if (!doc.ok()) {
    return absl::DataLossError(absl::StrCat(
        "collection '", state.info.name(),
        "': stored document is corrupt: ", doc.status().message()));
  }
  return IsHidden(state, *doc, now);
}

}  // namespace ttldb
