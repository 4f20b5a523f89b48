#include "storage/document_reader.h"

#include <algorithm>
#include <charconv>
#include <memory>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "base/status.h"
#include "storage/json_field_scan.h"
#include "storage/keys.h"
#include "storage/leveldb_status.h"
#include "ttl/expiry.h"
#include "ttldb/json.h"

namespace ttldb {
namespace {

// The first half of every decoded read: the document cache (never for a
// snapshot: it holds the latest committed documents), then LevelDB.
struct StoredRead {
  std::string key;
  DocCache* cache = nullptr;
  DocCache::Miss miss;                // on a miss, the ticket is taken first
  std::shared_ptr<const Value> hit;   // a cache hit, or
  const std::string* json = nullptr;  // the stored text (null if absent)
};

absl::Status ReadStored(leveldb::DB* db, DocCache* doc_cache,
                        const CollectionState& state,
                        absl::string_view encoded_id,
                        const leveldb::Snapshot* snapshot, StoredRead* r) {
  r->key = DocumentKey(state.info.id(), encoded_id);
  r->cache = snapshot == nullptr ? doc_cache : nullptr;
  if (r->cache != nullptr) {
    r->hit = r->cache->Lookup(r->key, &r->miss);
    if (r->hit != nullptr) return absl::OkStatus();
  }
  // One buffer per thread: LevelDB assigns the value into it, reusing its
  // capacity, so a read allocates no copy of the stored bytes (a 2 KB
  // allocation per read also made glibc consolidate its free lists).
  thread_local std::string json;
  if (json.capacity() > (1 << 20)) std::string().swap(json);
  leveldb::Status s = db->Get(storage::VerifiedRead(snapshot), r->key, &json);
  if (s.IsNotFound()) return absl::OkStatus();
  if (!s.ok()) {
    return storage::FromLevelDB(
        s, absl::StrCat("reading collection '", state.info.name(), "'"));
  }
  r->json = &json;
  return absl::OkStatus();
}

absl::Status CorruptDocument(const CollectionState& state,
                             const absl::Status& st) {
  return absl::DataLossError(
      absl::StrCat("collection '", state.info.name(),
                   "': stored document is corrupt: ", st.message()));
}

bool IsDollarFieldName(absl::string_view s) {
  return !s.empty() && s[0] == '$';
}

// The two values a stored document holds most, decoded without the parser
// when their text is exactly the storage form's: a string of printable
// ASCII without escapes, and {"$date":{"$numberLong":"<ms>"}}. False for
// anything else (the parser decides it).
bool DecodeCommonValue(absl::string_view text, Value* out) {
  if (text.size() >= 2 && text.front() == '"' && text.back() == '"') {
    const absl::string_view body = text.substr(1, text.size() - 2);
    for (const char c : body) {
      const unsigned char u = static_cast<unsigned char>(c);
      if (u < 0x20 || u >= 0x80 || c == '\\' || c == '"') return false;
    }
    *out = Value::String(std::string(body));
    return true;
  }
  constexpr absl::string_view kDate = R"({"$date":{"$numberLong":")";
  constexpr absl::string_view kEnd = R"("}})";
  if (absl::StartsWith(text, kDate) && absl::EndsWith(text, kEnd)) {
    const absl::string_view digits =
        text.substr(kDate.size(), text.size() - kDate.size() - kEnd.size());
    const absl::string_view magnitude =
        absl::StartsWith(digits, "-") ? digits.substr(1) : digits;
    if (magnitude.empty() || magnitude.size() > 18 ||
        (magnitude.size() > 1 && magnitude[0] == '0')) {
      return false;
    }
    int64_t ms = 0;
    const auto r =
        std::from_chars(digits.data(), digits.data() + digits.size(), ms);
    if (r.ec != std::errc() || r.ptr != digits.data() + digits.size()) {
      return false;
    }
    *out = Value::Date(ms);
    return true;
  }
  return false;
}

// The fields of stored text that `fields` names, parsed into *out (an
// object, in the text's order). False when the scan is unsure of the text,
// a top-level name starts with '$' (the whole parse decides what that
// is), a name repeats, or a value does not parse: the caller then parses
// the whole text, which words any error.
bool ParseSomeFields(absl::string_view json, const TopLevelFields& fields,
                     Value* out) {
  Value::Object kept;
  bool ok = true;
  const bool read = ScanTopLevelFields(json, [&](absl::string_view name,
                                                 absl::string_view text) {
    if (IsDollarFieldName(name)) {
      ok = false;
      return false;
    }
    if (!fields.Contains(name)) return true;
    for (const Field& f : kept) {
      if (f.first == name) {
        ok = false;
        return false;
      }
    }
    Value v;
    if (!DecodeCommonValue(text, &v)) {
      absl::StatusOr<Value> parsed = ParseValue(text, StoredJsonParseOptions());
      if (!parsed.ok()) {
        ok = false;
        return false;
      }
      v = *std::move(parsed);
    }
    kept.emplace_back(std::string(name), std::move(v));
    return true;
  });
  if (!read || !ok) return false;
  *out = Value::MakeObject(std::move(kept));
  return true;
}

}  // namespace

absl::Status DocumentReader::ParseStored(const CollectionState& state,
                                         absl::string_view json,
                                         const TopLevelFields* fields,
                                         Value* out) {
  if (fields != nullptr && !fields->all() &&
      ParseSomeFields(json, *fields, out)) {
    return absl::OkStatus();
  }
  absl::Status st = ParseDocumentInto(json, StoredJsonParseOptions(), out);
  if (st.ok()) return st;
  return CorruptDocument(state, st);
}

absl::StatusOr<std::optional<Value>> DocumentReader::Read(
    const CollectionState& state, absl::string_view encoded_id,
    const leveldb::Snapshot* snapshot, const TopLevelFields* fields) const {
  std::optional<Value> doc(std::in_place);
  ASSIGN_OR_RETURN(bool found,
                   ReadInto(state, encoded_id, snapshot, &*doc, fields));
  if (!found) doc.reset();
  return doc;
}

absl::StatusOr<bool> DocumentReader::ReadInto(
    const CollectionState& state, absl::string_view encoded_id,
    const leveldb::Snapshot* snapshot, Value* out,
    const TopLevelFields* fields) const {
  StoredRead r;
  RETURN_IF_ERROR(ReadStored(db_, cache_, state, encoded_id, snapshot, &r));
  if (r.hit != nullptr) {
    *out = *r.hit;  // the cache keeps its own
    return true;
  }
  if (r.json == nullptr) return false;
  if (r.cache != nullptr && r.miss.admit) {
    // Admitted: the cache and the caller each hold one.
    auto shared = std::make_shared<Value>();
    RETURN_IF_ERROR(ParseStored(state, *r.json, nullptr, shared.get()));
    r.cache->Insert(r.key, shared, CacheCharge(r.key, *shared), r.miss.ticket);
    *out = *shared;
    return true;
  }
  // Not admitted (most misses of a working set larger than the cache, and
  // every snapshot read): the tree is built where the caller keeps it, with
  // no shared allocation and no move of the tree.
  RETURN_IF_ERROR(ParseStored(state, *r.json, fields, out));
  return true;
}

absl::Status DocumentReader::ReadBatch(
    const CollectionState& state, const std::vector<std::string>& encoded_ids,
    const leveldb::Snapshot* snapshot, const TopLevelFields* fields,
    std::vector<std::optional<Value>>* out) const {
  out->clear();
  out->resize(encoded_ids.size());
  std::vector<std::pair<std::string, size_t>> keys;
  keys.reserve(encoded_ids.size());
  for (size_t i = 0; i < encoded_ids.size(); ++i) {
    keys.emplace_back(DocumentKey(state.info.id(), encoded_ids[i]), i);
  }
  std::sort(keys.begin(), keys.end());
  const leveldb::ReadOptions ro = storage::VerifiedRead(snapshot);
  thread_local std::string json;
  for (const auto& [key, i] : keys) {
    leveldb::Status s = db_->Get(ro, key, &json);
    if (s.IsNotFound()) continue;
    if (!s.ok()) {
      return storage::FromLevelDB(
          s, absl::StrCat("reading collection '", state.info.name(), "'"));
    }
    RETURN_IF_ERROR(ParseStored(state, json, fields, &(*out)[i].emplace()));
  }
  return absl::OkStatus();
}

absl::StatusOr<std::shared_ptr<const Value>> DocumentReader::ReadShared(
    const CollectionState& state, absl::string_view encoded_id,
    bool* parsed_here) const {
  if (parsed_here != nullptr) *parsed_here = false;
  StoredRead r;
  RETURN_IF_ERROR(ReadStored(db_, cache_, state, encoded_id, nullptr, &r));
  if (r.hit != nullptr) return r.hit;
  if (r.json == nullptr) return std::shared_ptr<const Value>();
  // One allocation, shared by the cache and the caller.
  auto shared = std::make_shared<Value>();
  RETURN_IF_ERROR(ParseStored(state, *r.json, nullptr, shared.get()));
  if (parsed_here != nullptr) *parsed_here = true;
  // Not admitted (most misses of a working set larger than the cache): no
  // charge to compute (a walk of the tree), no second lock.
  if (r.cache != nullptr && r.miss.admit) {
    r.cache->Insert(r.key, shared, CacheCharge(r.key, *shared), r.miss.ticket);
  }
  return std::shared_ptr<const Value>(std::move(shared));
}

absl::StatusOr<bool> DocumentReader::ReadJson(const CollectionState& state,
                                              absl::string_view encoded_id,
                                              std::string* json) const {
  const std::string key = DocumentKey(state.info.id(), encoded_id);
  json->clear();
  if (cache_ != nullptr) {
    if (std::shared_ptr<const Value> hit = cache_->Lookup(key)) {
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

bool DocumentReader::IsHidden(const CollectionState& state, const Value& doc,
                              absl::Time now) const {
  if (!hide_expired_) return false;
  for (const auto& idx : state.indexes) {
    if (!idx->ttl_seconds.has_value()) continue;
    if (idx->partial.has_value() && !idx->partial->Matches(doc)) continue;
    if (IsExpired(idx->spec, *idx->ttl_seconds, doc, now)) return true;
  }
  return false;
}

TopLevelFields DocumentReader::HidingFields(const CollectionState& state) {
  TopLevelFields fields;
  for (const auto& idx : state.indexes) {
    if (!idx->ttl_seconds.has_value()) continue;
    if (idx->partial.has_value()) return TopLevelFields::All();
    for (const auto& k : idx->spec.key) fields.AddPath(k.path);
  }
  return fields;
}

absl::StatusOr<bool> DocumentReader::IsHiddenJson(const CollectionState& state,
                                                  absl::string_view json,
                                                  absl::Time now) const {
  if (!hide_expired_ || !state.has_active_ttl()) return false;
  // The TTL indexes' fields alone, as a small document IsHidden can judge.
  const TopLevelFields fields = HidingFields(state);
  Value doc;
  RETURN_IF_ERROR(ParseStored(state, json, &fields, &doc));
  return IsHidden(state, doc, now);
}

}  // namespace ttldb
