#include "engine/find_key_options.h"

#include <algorithm>
#include <cstdint>
#include <vector>

#include "absl/strings/str_cat.h"
#include "base/status.h"
#include "engine/query_exec.h"
#include "index/key_codec.h"
#include "index/key_gen.h"
#include "storage/keys.h"

namespace ttldb {
namespace {

absl::Status Err(int code, absl::string_view message) {
  return MongoError(absl::StatusCode::kInvalidArgument, code, message);
}

bool NonEmptyObject(const Value& v) {
  return v.is_object() && !v.object_fields().empty();
}

// indexCompatibleMaxMin (query_planner.cpp): the bound names exactly the
// index's key fields, in order.
bool CompatibleBound(const IndexSpec& spec, const Value& bound) {
  const auto& fields = bound.object_fields();
  if (fields.size() != spec.key.size()) return false;
  for (size_t i = 0; i < spec.key.size(); ++i) {
    if (fields[i].first != spec.key[i].path) return false;
  }
  return true;
}

std::string EncodeBound(const IndexSpec& spec, const Value& bound) {
  std::string out;
  const auto& fields = bound.object_fields();
  for (size_t i = 0; i < spec.key.size(); ++i) {
    AppendKeyValue(fields[i].second, spec.key[i].direction < 0, &out);
  }
  return out;
}

bool Within(const KeyOptions& keys, const std::string& key) {
  if (keys.has_min && key < keys.min_key) return false;
  if (keys.has_max && key >= keys.max_key) return false;
  return true;
}

// FNV-1a, 64 bits: stable across builds and restarts (absl::Hash is not).
int64_t RecordId(const Value& doc) {
  const Value* id = doc.Get("_id");
  const std::string encoded = id != nullptr ? EncodeId(*id) : std::string();
  uint64_t h = 14695981039346656037ull;
  for (unsigned char c : encoded) {
    h ^= c;
    h *= 1099511628211ull;
  }
  const int64_t positive = static_cast<int64_t>(h & 0x7fffffffffffffffull);
  return positive == 0 ? 1 : positive;
}

}  // namespace

absl::StatusOr<KeyOptions> ParseKeyOptions(const FindOptions& options) {
  KeyOptions k;
  k.return_key = options.return_key;
  k.show_record_id = options.show_record_id;
  for (const Value* v : {&options.min, &options.max}) {
    if (!v->is_null() && !v->is_object()) {
      return MongoError(absl::StatusCode::kInvalidArgument, kTypeMismatch,
                        absl::StrCat(v == &options.min ? "min" : "max",
                                     " must be an object"));
    }
  }
  const bool has_min = NonEmptyObject(options.min);
  const bool has_max = NonEmptyObject(options.max);
  if (has_min) k.min = options.min;
  if (has_max) k.max = options.max;
  if (has_min && has_max) {
    const auto& a = options.min.object_fields();
    const auto& b = options.max.object_fields();
    bool same = a.size() == b.size();
    for (size_t i = 0; same && i < a.size(); ++i) {
      same = a[i].first == b[i].first;
    }
    if (!same) return Err(51176, "min and max must have the same field names");
  }
  if (has_min || has_max) {
    const bool natural = options.hint_keys.is_object() &&
                         options.hint_keys.Get("$natural") != nullptr;
    if (natural) {
      // A $natural hint is a collection scan: no index to bound.
      return MongoError(absl::StatusCode::kInvalidArgument,
                        kNoQueryExecutionPlans,
                        "min and max cannot be used with a $natural hint");
    }
    if (options.hint.empty() && !NonEmptyObject(options.hint_keys)) {
      return Err(51173,
                 "When using min()/max() a hint of which index to use must "
                 "be provided");
    }
  }
  return k;
}

absl::Status ResolveKeyBounds(QueryPlan* plan, KeyOptions* keys) {
  const bool has_min = NonEmptyObject(keys->min);
  const bool has_max = NonEmptyObject(keys->max);
  if (!has_min && !has_max) return absl::OkStatus();
  if (plan->kind != QueryPlan::Kind::kIndexScan ||
      plan->index_state == nullptr) {
    // The hint named the _id index, answered by _id lookups: bounds on a
    // collection scan are not ttldb's (its documents are in _id order, but
    // the planner does not give min/max to that plan).
    return MongoError(absl::StatusCode::kInvalidArgument,
                      kNoQueryExecutionPlans,
                      "min and max need a hinted secondary index");
  }
  const IndexSpec& spec = plan->index_state->spec;
  if ((has_min && !CompatibleBound(spec, keys->min)) ||
      (has_max && !CompatibleBound(spec, keys->max))) {
    return Err(51174, "The index chosen is not compatible with min/max");
  }
  keys->has_min = has_min;
  keys->has_max = has_max;
  if (has_min) keys->min_key = EncodeBound(spec, keys->min);
  if (has_max) keys->max_key = EncodeBound(spec, keys->max);
  if (has_min && has_max && keys->min_key >= keys->max_key) {
    return Err(51175,
               "The value provided for min() does not come before the value "
               "provided for max() in the hinted index");
  }
  // The scan reads only [min, max): entries are prefix + key + _id, so an
  // entry of key == max sorts after prefix + max and is left out.
  const std::string& prefix = plan->index_state->prefix;
  const std::string lo = prefix + keys->min_key;  // == prefix without min
  const std::string hi =
      has_max ? prefix + keys->max_key : std::string();  // empty: none
  auto narrow = [&](std::vector<std::pair<std::string, std::string>>* ranges) {
    std::vector<std::pair<std::string, std::string>> out;
    for (auto& [b, e] : *ranges) {
      std::string nb = std::max(b, lo);
      std::string ne = has_max ? std::min(e, hi) : e;
      if (nb < ne) out.emplace_back(std::move(nb), std::move(ne));
    }
    *ranges = std::move(out);
  };
  narrow(&plan->ranges);
  if (plan->multikey_ranges.has_value()) narrow(&*plan->multikey_ranges);
  return absl::OkStatus();
}

absl::StatusOr<bool> InKeyBounds(const IndexState& index,
                                 const KeyOptions& keys, const Value& doc) {
  if (!keys.bounded()) return true;
  std::vector<std::string> encoded;
  RETURN_IF_ERROR(GenerateIndexKeys(index.spec, doc, &encoded));
  for (const std::string& k : encoded) {
    if (Within(keys, k)) return true;
  }
  return false;
}

absl::StatusOr<Value> KeyOptionsOutput(const QueryPlan& plan,
                                       const KeyOptions& keys, const Value& doc,
                                       Value out) {
  if (keys.return_key) {
    // find's returnKey (return_key_stage.cpp): the key the scan found the
    // document under, named by the key pattern.
    Value key = Value::MakeObject();
    if (plan.kind == QueryPlan::Kind::kIdLookup) {
      if (const Value* id = doc.Get("_id")) key.Set("_id", *id);
    } else if (plan.kind == QueryPlan::Kind::kIndexScan &&
               plan.index_state != nullptr) {
      const IndexSpec& spec = plan.index_state->spec;
      std::vector<std::string> encoded;
      RETURN_IF_ERROR(GenerateIndexKeys(spec, doc, &encoded));
      const std::string* chosen = nullptr;
      for (const std::string& k : encoded) {
        if (Within(keys, k)) {
          chosen = &k;
          break;
        }
      }
      if (chosen != nullptr) {
        absl::string_view in(*chosen);
        for (size_t i = 0; i < spec.key.size(); ++i) {
          ASSIGN_OR_RETURN(Value v,
                           DecodeKeyValue(&in, spec.key[i].direction < 0));
          key.mutable_object_fields().emplace_back(spec.key[i].path,
                                                   std::move(v));
        }
      }
    }
    out = std::move(key);
  }
  if (keys.show_record_id && out.is_object()) {
    out.mutable_object_fields().emplace_back("$recordId",
                                             Value::Int64(RecordId(doc)));
  }
  return out;
}

}  // namespace ttldb
