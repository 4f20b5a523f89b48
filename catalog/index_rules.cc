#include "catalog/index_rules.h"

#include <cmath>
#include <string>

#include "absl/strings/str_cat.h"
#include "base/status.h"
#include "catalog/index_spec_proto.h"
#include "index/index_spec.h"
#include "query/filter.h"
#include "query/partial_filter_check.h"
#include "ttl/touch_interval.h"
#include "ttl/ttl_spec.h"
#include "ttldb/json.h"

namespace ttldb {

Value IdIndexSpec() {
  return Value::MakeObject(
      {Field("v", Value::Int32(2)),
       Field("key", Value::MakeObject({Field("_id", Value::Int32(1))})),
       Field("name", Value::String("_id_"))});
}

bool IsIdIndexKey(const IndexSpec& spec) {
  return spec.key.size() == 1 && spec.key[0].path == "_id" &&
         !spec.key[0].hashed;
}

absl::Status CheckLifetimeOptions(const IndexSpec& spec, int code) {
  const bool bounded =
      spec.max_lifetime_seconds.has_value() || spec.reject_expired;
  if (!bounded) return absl::OkStatus();
  if (!spec.expire_after_seconds.has_value()) {
    return MongoError(absl::StatusCode::kInvalidArgument, code,
                      "maxLifetimeSeconds and rejectExpired are only valid on "
                      "a TTL index (with expireAfterSeconds)");
  }
  if (spec.max_lifetime_seconds.has_value()) {
    if (*spec.max_lifetime_seconds < 0) {
      return MongoError(absl::StatusCode::kInvalidArgument, code,
                        absl::StrCat("maxLifetimeSeconds must be a "
                                     "non-negative integer, got ",
                                     *spec.max_lifetime_seconds));
    }
    if (*spec.max_lifetime_seconds < *spec.expire_after_seconds) {
      return MongoError(
          absl::StatusCode::kInvalidArgument, code,
          absl::StrCat("maxLifetimeSeconds (", *spec.max_lifetime_seconds,
                       ") must be at least expireAfterSeconds (",
                       static_cast<int64_t>(*spec.expire_after_seconds), ")"));
    }
  }
  return absl::OkStatus();
}

absl::Status CheckIdIndexOptions(const IndexSpec& spec,
                                 absl::string_view spec_text) {
  if (spec.unique || spec.sparse || !spec.partial_filter_json.empty()) {
    return MongoError(absl::StatusCode::kInvalidArgument,
                      kInvalidIndexSpecificationOption,
                      absl::StrCat("The _id index cannot be unique, sparse "
                                   "or partial. Specification: ",
                                   spec_text));
  }
  return absl::OkStatus();
}

absl::Status CheckPartialFilterSpec(const IndexSpec& spec,
                                    absl::string_view spec_text) {
  if (spec.partial_filter_json.empty()) return absl::OkStatus();
  ASSIGN_OR_RETURN(Value pf, ParseDocument(spec.partial_filter_json));
  auto f = Filter::Parse(pf);
  if (!f.ok()) {
    return MongoError(absl::StatusCode::kInvalidArgument, kCannotCreateIndex,
                      absl::StrCat("Error in specification ", spec_text,
                                   " :: caused by :: ", f.status().message()));
  }
  // Only MongoDB's partial filter operators: no regex, negation or other
  // costly or unindexable predicate runs under the writers' lock. An index
  // already in the catalog is not checked again (it keeps working).
  absl::Status allowed = CheckPartialFilter(*f);
  if (!allowed.ok()) {
    return MongoError(absl::StatusCode::kInvalidArgument, kCannotCreateIndex,
                      absl::StrCat("Error in specification ", spec_text,
                                   " :: caused by :: ", allowed.message()));
  }
  return absl::OkStatus();
}

namespace {

// MongoDB's wording: "<what>. Requested index: <spec>, existing index:
// <existing>".
absl::Status Conflict(int code, absl::string_view what,
                      absl::string_view spec_text, const Value& existing) {
  return MongoError(absl::StatusCode::kAlreadyExists, code,
                    absl::StrCat(what, ". Requested index: ", spec_text,
                                 ", existing index: ", ToJson(existing)));
}

}  // namespace

absl::Status CheckIndexConflicts(
    const IndexSpec& spec, absl::string_view spec_text,
    const std::vector<const IndexState*>& existing_indexes) {
  if (spec.name == "_id_") {
    // Its key is not {_id: 1} (that case returned above): kDifferent.
    return Conflict(
        kIndexKeySpecsConflict,
        "An existing index has the same name as the requested index", spec_text,
        IdIndexSpec());
  }
  for (const IndexState* idx : existing_indexes) {
    const IndexSpec& existing = idx->spec;
    if (existing.name != spec.name) continue;
    switch (CompareIndexOptions(spec, existing)) {
      case IndexComparison::kIdentical:
        return absl::OkStatus();  // already there: a no-op
      case IndexComparison::kEquivalent:
        return Conflict(kIndexOptionsConflict,
                        "An equivalent index already exists with the same name "
                        "but different options",
                        spec_text, IndexSpecToValue(existing));
      case IndexComparison::kDifferent:
        return Conflict(
            kIndexKeySpecsConflict,
            "An existing index has the same name as the requested index",
            spec_text, IndexSpecToValue(existing));
    }
  }
  for (const IndexState* idx : existing_indexes) {
    const IndexSpec& existing = idx->spec;
    switch (CompareIndexOptions(spec, existing)) {
      case IndexComparison::kDifferent:
        continue;  // may coexist (another key, or another partial filter)
      case IndexComparison::kEquivalent:
        return Conflict(kIndexOptionsConflict,
                        "An equivalent index already exists with a different "
                        "name and options",
                        spec_text, IndexSpecToValue(existing));
      case IndexComparison::kIdentical:
        return MongoError(absl::StatusCode::kAlreadyExists,
                          kIndexOptionsConflict,
                          absl::StrCat("Index already exists with a different "
                                       "name: ",
                                       existing.name));
    }
  }
  return absl::OkStatus();
}

absl::Status CheckIndexCount(size_t existing, absl::string_view coll,
                             const Value& keys) {
  if (existing + 1 < kMaxIndexes) return absl::OkStatus();
  return MongoError(absl::StatusCode::kResourceExhausted, kCannotCreateIndex,
                    absl::StrCat("add index fails, too many indexes for ", coll,
                                 " key:", ToJson(keys)));
}

std::vector<const IndexSpec*> IndexesWithKey(const CollectionState& state,
                                             const IndexSpec& wanted) {
  std::vector<const IndexSpec*> matches;
  for (const auto& idx : state.indexes) {
    if (SameKeyPattern(idx->spec, wanted)) matches.push_back(&idx->spec);
  }
  return matches;
}

absl::StatusOr<CreateIndexRequest> PrepareCreateIndex(
    const Value& keys, const Value& options, absl::Duration touch_min_interval,
    absl::string_view coll) {
  CreateIndexRequest request;
  ASSIGN_OR_RETURN(request.spec, ParseIndexSpec(keys, options));
  IndexSpec& spec = request.spec;
  request.spec_text = ToJson(IndexSpecToValue(spec));
  if (spec.expire_after_seconds.has_value()) {
    RETURN_IF_ERROR(NormalizeTtlSpec(&spec, request.spec_text));
    RETURN_IF_ERROR(CheckTouchInterval(
        touch_min_interval, static_cast<int64_t>(*spec.expire_after_seconds),
        coll, spec.name, kCannotCreateIndex));
  }
  RETURN_IF_ERROR(CheckLifetimeOptions(spec, kCannotCreateIndex));
  if (IsIdIndexKey(spec) && !spec.expire_after_seconds.has_value()) {
    // {_id: 1} and {_id: -1} both name the _id index (MongoDB's
    // IndexDescriptor::isIdIndexPattern; its _fixIndexSpec makes the key
    // {_id: 1} and the name "_id_").
    RETURN_IF_ERROR(CheckIdIndexOptions(spec, request.spec_text));
    request.id_index = true;
    return request;
  }
  RETURN_IF_ERROR(CheckPartialFilterSpec(spec, request.spec_text));
  return request;
}

absl::Status ApplyCollectionToIndex(const CollectionState& state,
                                    const Value& options, IndexSpec* spec) {
  if (!options.is_object() || options.Get("collation") == nullptr) {
    spec->collation_json = state.info.collation_json();
  }
  if (state.info.capped() && spec->expire_after_seconds.has_value()) {
    return MongoError(absl::StatusCode::kInvalidArgument, kCannotCreateIndex,
                      "Cannot create TTL index on a capped collection");
  }
  return absl::OkStatus();
}

absl::StatusOr<const IndexState*> FindIndexToDrop(const CollectionState* state,
                                                  absl::string_view coll,
                                                  absl::string_view name) {
  if (name == "_id_") {
    return MongoError(absl::StatusCode::kInvalidArgument, kInvalidOptions,
                      "cannot drop _id index");
  }
  if (state == nullptr) {
    return MongoError(absl::StatusCode::kNotFound, kNamespaceNotFound,
                      absl::StrCat("ns not found ", coll));
  }
  const IndexState* index = state->FindIndex(name);
  if (index == nullptr) {
    return MongoError(absl::StatusCode::kNotFound, kIndexNotFound,
                      absl::StrCat("index not found with name [", name, "]"));
  }
  return index;
}

absl::StatusOr<std::string> IndexNameForKey(const CollectionState* state,
                                            const Value& keys) {
  ASSIGN_OR_RETURN(IndexSpec wanted, ParseIndexSpec(keys, Value::MakeObject()));
  if (IsIdIndexKey(wanted)) return std::string("_id_");
  if (state != nullptr) {
    std::vector<const IndexSpec*> matches = IndexesWithKey(*state, wanted);
    if (matches.size() > 1) {
      return MongoError(
          absl::StatusCode::kInvalidArgument, kAmbiguousIndexKeyPattern,
          absl::StrCat(matches.size(), " indexes found for key: ", ToJson(keys),
                       ", identify by name instead. Conflicting indexes: ",
                       ToJson(IndexSpecToValue(*matches[0])), ", ",
                       ToJson(IndexSpecToValue(*matches[1]))));
    }
    if (matches.size() == 1) return matches[0]->name;
  }
  return MongoError(absl::StatusCode::kNotFound, kIndexNotFound,
                    absl::StrCat("can't find index with key: ", ToJson(keys)));
}

absl::StatusOr<CollModIndex> ParseCollModIndex(const Value& index) {
  if (!index.is_object()) {
    return MongoError(absl::StatusCode::kInvalidArgument, kInvalidOptions,
                      "collMod: 'index' must be an object");
  }
  CollModIndex out;
  out.name = index.Get("name");
  out.key_pattern = index.Get("keyPattern");
  if ((out.name == nullptr) == (out.key_pattern == nullptr)) {
    return MongoError(absl::StatusCode::kInvalidArgument, kInvalidOptions,
                      "collMod: must specify exactly one of 'name' or "
                      "'keyPattern' in 'index'");
  }
  for (const auto& [name, value] : index.object_fields()) {
    if (name == "name" || name == "keyPattern") continue;
    if (name == "expireAfterSeconds") {
      // CollModIndex declares it safeInt (src/mongo/db/coll_mod.idl): a
      // non-number is the IDL parser's 14 TypeMismatch; null is absent.
      if (value.is_null()) continue;
      if (!value.is_number()) {
        return MongoError(
            absl::StatusCode::kInvalidArgument, kTypeMismatch,
            absl::StrCat("BSON field 'collMod.index.expireAfterSeconds' is the "
                         "wrong type '",
                         TypeName(value.type()),
                         "', expected types '[long, int, decimal, double]'"));
      }
      auto e = ParseExpireAfterSeconds(value);
      if (!e.ok()) {
        return MongoError(absl::StatusCode::kInvalidArgument, kInvalidOptions,
                          e.status().message());
      }
      out.expire_after_seconds = *e;
    } else if (name == "hidden") {
      if (value.type() != ValueType::kBool) {
        return MongoError(absl::StatusCode::kInvalidArgument, kInvalidOptions,
                          "collMod: 'hidden' must be a boolean");
      }
      out.hidden = value.bool_value();
    } else if (name == "maxLifetimeSeconds") {
      // As createIndex takes it (index/index_spec.cc): an integer, or an
      // integral number below 9.2e18 (a larger double, NaN or infinity
      // would not convert to int64_t).
      bool integral = false;
      int64_t n = 0;
      if (value.type() == ValueType::kInt32 ||
          value.type() == ValueType::kInt64) {
        n = value.int64_value();
        integral = true;
      } else if (value.is_number()) {
        const double d = value.AsDouble();
        integral = std::trunc(d) == d && std::abs(d) < 9.2e18;
        if (integral) n = static_cast<int64_t>(d);
      }
      if (value.is_null()) {
        out.max_lifetime_seconds = -1;
      } else if (!integral || n < 0) {
        return MongoError(absl::StatusCode::kInvalidArgument, kInvalidOptions,
                          "collMod: 'maxLifetimeSeconds' must be a "
                          "non-negative integer (or null to remove it)");
      } else {
        out.max_lifetime_seconds = n;
      }
    } else if (name == "rejectExpired") {
      if (value.type() != ValueType::kBool) {
        return MongoError(absl::StatusCode::kInvalidArgument, kInvalidOptions,
                          "collMod: 'rejectExpired' must be a boolean");
      }
      out.reject_expired = value.bool_value();
    } else {
      return MongoError(
          absl::StatusCode::kInvalidArgument, kInvalidOptions,
          absl::StrCat("collMod: unknown index option '", name, "'"));
    }
  }
  if (!out.expire_after_seconds.has_value() && !out.hidden.has_value() &&
      !out.max_lifetime_seconds.has_value() &&
      !out.reject_expired.has_value()) {
    return MongoError(absl::StatusCode::kInvalidArgument, kInvalidOptions,
                      "collMod: no expireAfterSeconds, hidden, "
                      "maxLifetimeSeconds or rejectExpired field");
  }

  return out;
}

absl::StatusOr<const IndexSpec*> FindCollModIndex(const CollectionState& state,
                                                  const CollModIndex& request,
                                                  absl::string_view coll) {
  // The implicit _id index: found by name or key pattern as MongoDB finds
  // it (src/mongo/db/catalog/coll_mod.cpp), then refused per option.
  bool id_index = false;
  std::vector<const IndexSpec*> matches;
  std::optional<IndexSpec> wanted_key;
  if (request.key_pattern != nullptr && request.key_pattern->is_object()) {
    auto parsed = ParseIndexSpec(*request.key_pattern, Value::MakeObject());
    if (parsed.ok()) wanted_key = *std::move(parsed);
  }
  if (request.name != nullptr) {
    id_index =
        request.name->is_string() && request.name->string_value() == "_id_";
  } else if (wanted_key.has_value()) {
    id_index = IsIdIndexKey(*wanted_key) && wanted_key->key[0].direction == 1;
  }
  for (const auto& idx : state.indexes) {
    const IndexSpec& spec = idx->spec;
    if (request.name != nullptr) {
      if (request.name->is_string() &&
          spec.name == request.name->string_value()) {
        matches.push_back(&spec);
      }
    } else if (wanted_key.has_value() && SameKeyPattern(*wanted_key, spec)) {
      matches.push_back(&spec);
    }
  }
  if (id_index) {
    if (request.expire_after_seconds.has_value()) {
      return MongoError(absl::StatusCode::kInvalidArgument, kInvalidOptions,
                        "the _id field does not support TTL indexes");
    }
    if (request.hidden.has_value()) {
      return MongoError(absl::StatusCode::kInvalidArgument, kBadValue,
                        "can't hide _id index");
    }
    return MongoError(absl::StatusCode::kInvalidArgument, kInvalidOptions,
                      "maxLifetimeSeconds and rejectExpired are only valid on "
                      "a TTL index (with expireAfterSeconds)");
  }
  if (matches.size() > 1) {
    // Several indexes share the key pattern (different partial filters).
    return MongoError(
        absl::StatusCode::kInvalidArgument, kAmbiguousIndexKeyPattern,
        absl::StrCat("index keyPattern ", ToJson(*request.key_pattern),
                     " matches ", matches.size(),
                     " indexes, must use index name. Conflicting indexes:",
                     ToJson(IndexSpecToValue(*matches[0])), ", ",
                     ToJson(IndexSpecToValue(*matches[1]))));
  }
  if (matches.empty()) {
    return MongoError(
        absl::StatusCode::kNotFound, kIndexNotFound,
        absl::StrCat("cannot find index ",
                     request.name != nullptr ? ToJson(*request.name)
                                             : ToJson(*request.key_pattern),
                     " for ns ", coll));
  }
  return matches[0];
}

absl::StatusOr<Value::Object> ApplyCollModIndex(
    const IndexSpec& current, const CollModIndex& request,
    absl::Duration touch_min_interval, absl::string_view coll,
    proto::IndexSpec* target) {
  Value::Object reply;
  if (request.expire_after_seconds.has_value()) {
    if (current.key.size() != 1 || current.key[0].path == "_id" ||
        current.key[0].hashed) {
      return MongoError(absl::StatusCode::kInvalidArgument, kInvalidOptions,
                        "collMod: expireAfterSeconds is only valid on a "
                        "single-field, not hashed index other than _id");
    }
    if (current.expire_after_seconds.has_value()) {
      double old = *current.expire_after_seconds;
      reply.emplace_back("expireAfterSeconds_old",
                         old == static_cast<int64_t>(old)
                             ? Value::Int64(static_cast<int64_t>(old))
                             : Value::Double(old));
    }
    RETURN_IF_ERROR(CheckTouchInterval(touch_min_interval,
                                       *request.expire_after_seconds, coll,
                                       current.name, kInvalidOptions));
    target->set_expire_after_seconds(
        static_cast<double>(*request.expire_after_seconds));
    reply.emplace_back("expireAfterSeconds_new",
                       Value::Int64(*request.expire_after_seconds));
  }
  if (request.hidden.has_value()) {
    reply.emplace_back("hidden_old", Value::Bool(current.hidden));
    target->set_hidden(*request.hidden);
    reply.emplace_back("hidden_new", Value::Bool(*request.hidden));
  }
  if (request.max_lifetime_seconds.has_value()) {
    if (current.max_lifetime_seconds.has_value()) {
      reply.emplace_back("maxLifetimeSeconds_old",
                         Value::Int64(*current.max_lifetime_seconds));
    }
    if (*request.max_lifetime_seconds < 0) {
      target->clear_max_lifetime_seconds();
    } else {
      target->set_max_lifetime_seconds(*request.max_lifetime_seconds);
      reply.emplace_back("maxLifetimeSeconds_new",
                         Value::Int64(*request.max_lifetime_seconds));
    }
  }
  if (request.reject_expired.has_value()) {
    reply.emplace_back("rejectExpired_old",
                       Value::Bool(current.reject_expired));
    target->set_reject_expired(*request.reject_expired);
    reply.emplace_back("rejectExpired_new",
                       Value::Bool(*request.reject_expired));
  }
  RETURN_IF_ERROR(
      CheckLifetimeOptions(IndexSpecFromProto(*target), kInvalidOptions));
  return reply;
}

}  // namespace ttldb
