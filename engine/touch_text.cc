#include "engine/touch_text.h"

#include <atomic>

#include "absl/container/inlined_vector.h"
#include "absl/strings/str_cat.h"
#include "base/status.h"
#include "storage/doc_cache.h"
#include "storage/json_field_scan.h"
#include "storage/keys.h"
#include "storage/leveldb_status.h"
#include "ttldb/json.h"

namespace ttldb {
namespace {

std::atomic<bool> g_enabled{true};
std::atomic<uint64_t> g_sets{0};
std::atomic<bool> g_splice_hits{false};

bool ReadsOnlyId(const MatchExpr& e) {
  switch (e.kind) {
    case MatchExpr::Kind::kAnd:
    case MatchExpr::Kind::kOr:
    case MatchExpr::Kind::kNor:
      for (const MatchExpr& c : e.children) {
        if (!ReadsOnlyId(c)) return false;
      }
      return true;
    case MatchExpr::Kind::kExpr:
    case MatchExpr::Kind::kJsonSchema:
      return false;
    case MatchExpr::Kind::kAlwaysTrue:
    case MatchExpr::Kind::kAlwaysFalse:
      return true;
    default: {
      // A leaf (or $not / $elemMatch / $all, whose children are relative to
      // it): it reads its own path only.
      const absl::string_view path = e.path;
      return path.substr(0, path.find('.')) == "_id";
    }
  }
}

// Written by AppendJson without an escape, and no '$' to start: the key's
// storage form is the name between quotes.
bool IsPlainName(absl::string_view name) {
  if (name.empty() || name[0] == '$') return false;
  for (const char c : name) {
    if (c < 0x20 || c > 0x7e || c == '"' || c == '\\' || c == '.') {
      return false;
    }
  }
  return true;
}

// Adds `name` to `names` unless there.
void AddName(absl::string_view name,
             absl::InlinedVector<absl::string_view, 8>* names) {
  for (absl::string_view n : *names) {
    if (n == name) return;
  }
  names->push_back(name);
}

// False when an index reads more of a document than its key fields' top
// components (or its checks need the whole document); else adds those
// components to *names.
bool AddIndexFields(const IndexState& idx,
                    absl::InlinedVector<absl::string_view, 8>* names) {
  const IndexSpec& spec = idx.spec;
  if (idx.partial.has_value() || !spec.partial_filter_json.empty() ||
      spec.max_lifetime_seconds.has_value() || spec.reject_expired) {
    return false;
  }
  for (const auto& field : spec.key) {
    const absl::string_view path = field.path;
    AddName(path.substr(0, path.find('.')), names);
  }
  return true;
}

}  // namespace

bool FilterReadsOnlyId(const Filter& filter) {
  return ReadsOnlyId(filter.root());
}

void SetStoredTextSetEnabledForTesting(bool enabled) { g_enabled = enabled; }
void SetStoredTextSetOnCacheHitsForTesting(bool splice) {
  g_splice_hits = splice;
}
uint64_t StoredTextSetsForTesting() { return g_sets.load(); }

absl::StatusOr<TextSet> SetDateInStoredText(
    DbImpl* engine, const CollectionState& state, const Filter& filter,
    const std::string& encoded_id, const TextSetRequest& request,
    absl::Time now, const WriteOptions& options,
    DbImpl::ExpiredRemovals* removed) {
  // A validated collection takes the general path, which checks the whole
  // new document (engine/doc_validation.cc).
  if (!g_enabled.load(std::memory_order_relaxed) ||
      !IsPlainName(request.field) || request.field == "_id" ||
      state.validator != nullptr ||
      // Its pre-image is the whole document (engine/change_log.cc).
      state.info.change_stream_pre_and_post_images()) {
    return TextSet::kFallback;
  }
  // The fields the match, the hidden check and the index keys read.
  absl::InlinedVector<absl::string_view, 8> names;
  names.push_back("_id");
  AddName(request.field, &names);
  for (const auto& idx : state.indexes) {
    if (!AddIndexFields(*idx, &names)) return TextSet::kFallback;
  }
  for (const auto& idx : state.building) {
    if (!AddIndexFields(*idx, &names)) return TextSet::kFallback;
  }

  const std::string key = DocumentKey(state.info.id(), encoded_id);
  // Reused per thread, as ReadDocumentImpl's buffer.
  thread_local std::string json;
  if (json.capacity() > (1 << 20)) std::string().swap(json);
  bool from_cache = false;
  // A cached document: the general path has its tree already (measured
  // cheaper than serializing the tree to splice it, and it keeps the
  // document cached: docs/benchmarks-history.md "Round 5, session 8:
  // touch").
  if (engine->doc_cache() != nullptr) {
    if (std::shared_ptr<const Value> hit = engine->doc_cache()->Lookup(key)) {
      if (!g_splice_hits.load(std::memory_order_relaxed)) {
        return TextSet::kFallback;
      }
      json.clear();
      AppendJson(*hit, JsonFormat::kStorage, &json);
      from_cache = true;
    }
  }
  if (!from_cache) {
    leveldb::Status s = engine->db()->Get(storage::VerifiedRead(), key, &json);
    if (s.IsNotFound()) return TextSet::kNoMatch;
    if (!s.ok()) {
      return storage::FromLevelDB(
          s, absl::StrCat("reading collection '", state.info.name(), "'"));
    }
  }

  // The fields, in the order asked (_id first), as a small document.
  Value::Object fields;
  fields.reserve(names.size());
  absl::string_view old_text;  // the field's value text, if present
  bool found = false;
  for (absl::string_view name : names) {
    absl::string_view text;
    const FieldScan r = FindTopLevelField(json, name, &text);
    if (r == FieldScan::kUnsure) return TextSet::kFallback;
    if (r == FieldScan::kAbsent) continue;
    absl::StatusOr<Value> v = ParseValue(text, StoredJsonParseOptions());
    if (!v.ok()) return TextSet::kFallback;  // the full parse words it
    if (name == request.field) {
      old_text = text;
      found = true;
    }
    fields.emplace_back(std::string(name), *std::move(v));
  }
  Value old_doc = Value::MakeObject(std::move(fields));
  if (old_doc.Get("_id") == nullptr) return TextSet::kFallback;
  if (!filter.Matches(old_doc) ||
      engine->reader().IsHidden(state, old_doc, now)) {
    return TextSet::kNoMatch;
  }

  const Value* current = old_doc.Get(request.field);
  if (current != nullptr && current->is_date()) {
    const absl::Duration min = engine->options().touch_min_interval;
    if (request.touch && min > absl::ZeroDuration() &&
        absl::FromUnixMillis(current->date_millis()) > now - min) {
      return TextSet::kUnmodified;  // fresh enough: coalesced
    }
    if (current->date_millis() == request.millis) return TextSet::kUnmodified;
  } else if (json.size() > (1 << 20)) {
    // The BSON size changes: at most 1 MiB of storage text is at most ~8 MiB
    // of BSON (an array element "0," is 12 bytes), far below 16 MiB.
    return TextSet::kFallback;
  }

  const Value date = Value::Date(request.millis);
  std::string stored;
  stored.reserve(json.size() + request.field.size() + 48);
  if (found) {
    const size_t at = static_cast<size_t>(old_text.data() - json.data());
    stored.append(json, 0, at);
    AppendJson(date, JsonFormat::kStorage, &stored);
    stored.append(json, at + old_text.size(), std::string::npos);
  } else {
    // Value::Set appends a new field last: before the closing brace of the
    // storage form (compact, so the brace is the last byte).
    if (json.size() < 2 || json.back() != '}') return TextSet::kFallback;
    stored.append(json, 0, json.size() - 1);
    absl::StrAppend(&stored, ",\"", request.field, "\":");
    AppendJson(date, JsonFormat::kStorage, &stored);
    stored.push_back('}');
  }
  Value new_doc = old_doc;
  new_doc.Set(request.field, date);
  RETURN_IF_ERROR(engine->WriteDocumentLocked(
      state, &old_doc, &new_doc, options, removed, nullptr, nullptr, stored));
  g_sets.fetch_add(1, std::memory_order_relaxed);
  return TextSet::kModified;
}

}  // namespace ttldb
