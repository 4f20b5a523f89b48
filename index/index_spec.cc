#include "index/index_spec.h"

#include <cmath>
#include <cstring>
#include <limits>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "base/status.h"
#include "document/collator.h"
#include "ttldb/json.h"

namespace ttldb {
namespace {

absl::Status CannotCreate(absl::string_view msg) {
  return MongoError(absl::StatusCode::kInvalidArgument, kCannotCreateIndex,
                    msg);
}

absl::Status IndexFieldWrongType(absl::string_view field,
                                 absl::string_view want, const Value& got) {
  return MongoError(absl::StatusCode::kInvalidArgument, kTypeMismatch,
                    absl::StrCat("The field '", field, "' must be ", want,
                                 ", not ", TypeName(got.type())));
}

// The specification as MongoDB echoes it in errors: {key, name, options...}.
std::string SpecText(const Value& key_pattern, const Value& options) {
  Value spec = Value::MakeObject();
  spec.Set("key", key_pattern);
  if (options.is_object()) {
    for (const Field& f : options.object_fields()) spec.Set(f.first, f.second);
  }
  return ToJson(spec);
}

// The direction a key pattern value stands for, or 0 if it is not 1 or -1.
int Direction(const Value& v) {
  switch (v.type()) {
    case ValueType::kInt32:
    case ValueType::kInt64:
      return v.int64_value() == 1 ? 1 : (v.int64_value() == -1 ? -1 : 0);
    case ValueType::kDouble:
      return v.double_value() == 1.0 ? 1 : (v.double_value() == -1.0 ? -1 : 0);
    default:
      return 0;
  }
}

absl::Status ParseKeyPattern(const Value& key_pattern, IndexSpec* spec) {
  if (!key_pattern.is_object()) {
    return CannotCreate(
        absl::StrCat("The index key pattern must be an object, not ",
                     TypeName(key_pattern.type())));
  }
  const Value::Object& fields = key_pattern.object_fields();
  if (fields.empty()) return CannotCreate("Index keys cannot be empty.");
  if (fields.size() > kMaxIndexKeyFields) {
    return CannotCreate(absl::StrCat("Index key pattern has ", fields.size(),
                                     " fields; the maximum is ",
                                     kMaxIndexKeyFields));
  }
  absl::flat_hash_set<std::string> seen;
  for (const Field& f : fields) {
    const std::string& path = f.first;
    if (path.empty())
      return CannotCreate("Index keys cannot be an empty field.");
    for (absl::string_view part : absl::StrSplit(path, '.')) {
      if (part.empty()) {
        return CannotCreate(
            absl::StrCat("Index key contains an illegal field name: '", path,
                         "' has an empty path component."));
      }
      if (part[0] == '$') {
        return CannotCreate(absl::StrCat(
            "Index key contains an illegal field name: field name starts "
            "with '$': '",
            path, "'."));
      }
    }
    if (!seen.insert(path).second) {
      return CannotCreate(absl::StrCat("Index key pattern names the field '",
                                       path, "' twice."));
    }
    int dir = Direction(f.second);
    if (f.second.is_string() && f.second.string_value() == "hashed") {
      // MongoDB's hashed key (4.4+: one hashed field, compound allowed;
      // index_key_validate.cpp / hash_access_method.cpp).
      spec->key.push_back({path, /*direction=*/1, /*hashed=*/true});
      continue;
    }
    if (dir == 0) {
      if (f.second.is_string()) {
        return CannotCreate(
            absl::StrCat("Index type '", f.second.string_value(),
                         "' is not supported: ttldb has "
                         "ascending (1), descending (-1) and hashed "
                         "indexes only"));
      }
      return CannotCreate(absl::StrCat(
          "Values in the index key pattern must be 1 or -1; field '", path,
          "' has ", ToJson(f.second)));
    }
    spec->key.push_back({path, dir, /*hashed=*/false});
  }
  return absl::OkStatus();
}

// A bool option: true/false, or a number read as its truth value.
absl::Status ParseBool(absl::string_view name, const Value& v, bool* out) {
  if (v.type() == ValueType::kBool) {
    *out = v.bool_value();
  } else if (v.is_number()) {
    *out = v.AsDouble() != 0;
  } else {
    return IndexFieldWrongType(name, "a boolean", v);
  }
  return absl::OkStatus();
}

absl::Status ParseOption(const Field& f, const Value& key_pattern,
                         const Value& options, IndexSpec* spec) {
  const std::string& name = f.first;
  const Value& v = f.second;
  if (name == "name") {
    if (!v.is_string()) return IndexFieldWrongType(name, "a string", v);
    if (v.string_value().empty()) {
      return CannotCreate("The index name cannot be empty.");
    }
    spec->name = v.string_value();
  } else if (name == "unique") {
    bool b;
    RETURN_IF_ERROR(ParseBool(name, v, &b));
    spec->unique = b;
  } else if (name == "sparse") {
    bool b;
    RETURN_IF_ERROR(ParseBool(name, v, &b));
    spec->sparse = b;
  } else if (name == "hidden") {
    bool b;
    RETURN_IF_ERROR(ParseBool(name, v, &b));
    spec->hidden = b;
  } else if (name == "rejectExpired") {
    bool b;
    RETURN_IF_ERROR(ParseBool(name, v, &b));
    spec->reject_expired = b;
  } else if (name == "partialFilterExpression") {
    if (!v.is_object()) return IndexFieldWrongType(name, "an object", v);
    spec->partial_filter_json = ToJson(v, JsonFormat::kRelaxed);
  } else if (name == "expireAfterSeconds") {
    if (!v.is_number()) {
      return CannotCreate(absl::StrCat(
          "TTL index 'expireAfterSeconds' option must be numeric, but "
          "received a type of '",
          TypeName(v.type()),
          "'. Index spec: ", SpecText(key_pattern, options)));
    }
    double d = v.AsDouble();
    if (std::isnan(d)) {
      return CannotCreate(absl::StrCat(
          "TTL index 'expireAfterSeconds' option must not be NaN. Index "
          "spec: ",
          SpecText(key_pattern, options)));
    }
    spec->expire_after_seconds = d;
  } else if (name == "maxLifetimeSeconds") {
    int64_t n;
    if (v.type() == ValueType::kInt32 || v.type() == ValueType::kInt64) {
      n = v.int64_value();
    } else if (v.type() == ValueType::kDouble &&
               std::trunc(v.double_value()) == v.double_value() &&
               std::abs(v.double_value()) < 9.2e18) {
      n = static_cast<int64_t>(v.double_value());
    } else {
      return IndexFieldWrongType(name, "an integer", v);
    }
    spec->max_lifetime_seconds = n;
  } else if (name == "v") {
    if (!v.is_number() || v.AsDouble() != 2) {
      return CannotCreate(absl::StrCat("Index version v: ", ToJson(v),
                                       " is not supported; ttldb indexes "
                                       "are v: 2"));
    }
  } else if (name == "collation") {
    if (!v.is_object()) return IndexFieldWrongType(name, "an object", v);
    ASSIGN_OR_RETURN(std::shared_ptr<const Collator> collator,
                     Collator::Make(v));
    // {locale: "simple"}: no collation (an empty collation_json).
    if (collator != nullptr) {
      spec->collation_json = ToJson(collator->spec(), JsonFormat::kRelaxed);
    }
  } else if (name == "background") {
    // Ignored, as MongoDB 4.2+ does: builds never block other operations.
  } else {
    return MongoError(absl::StatusCode::kInvalidArgument,
                      kInvalidIndexSpecificationOption,
                      absl::StrCat("The field '", name,
                                   "' is not valid for an index specification. "
                                   "Specification: ",
                                   SpecText(key_pattern, options)));
  }
  return absl::OkStatus();
}

bool SameDouble(double a, double b) {
  return a == b || (std::isnan(a) && std::isnan(b));
}

}  // namespace

absl::StatusOr<IndexSpec> ParseIndexSpec(const Value& key_pattern,
                                         const Value& options) {
  IndexSpec spec;
  RETURN_IF_ERROR(ParseKeyPattern(key_pattern, &spec));
  if (!options.is_null()) {
    if (!options.is_object()) {
      return MongoError(absl::StatusCode::kInvalidArgument, kTypeMismatch,
                        absl::StrCat("Index options must be an object, not ",
                                     TypeName(options.type())));
    }
    for (const Field& f : options.object_fields()) {
      RETURN_IF_ERROR(ParseOption(f, key_pattern, options, &spec));
    }
  }
  int hashed = 0;
  for (const IndexKeyField& kf : spec.key) hashed += kf.hashed ? 1 : 0;
  if (hashed > 1) {
    // expression_params.cpp parseHashParams (31303).
    return MongoError(absl::StatusCode::kInvalidArgument, kTooManyHashedFields,
                      absl::StrCat("A maximum of one index field is allowed to "
                                   "be hashed but found ",
                                   hashed, " for 'key' ", ToJson(key_pattern)));
  }
  if (hashed > 0 && spec.unique) {
    // hash_access_method.cpp / index_key_validate.cpp (16764).
    return MongoError(absl::StatusCode::kInvalidArgument, kHashedIndexUnique,
                      "Currently hashed indexes cannot guarantee uniqueness. "
                      "Use a regular index.");
  }
  if (hashed > 0 && spec.expire_after_seconds.has_value()) {
    // MongoDB creates it, and its TTL monitor then skips it ("special index
    // can't be used as a TTL index, skipping TTL job", ttl.cpp): refused
    // here, so that no index looks like a TTL index that never expires.
    return CannotCreate(
        "TTL indexes cannot be hashed: a hashed index holds no dates to "
        "expire by (MongoDB's TTL monitor skips such an index)");
  }
  if (spec.name.empty()) spec.name = DefaultIndexName(spec);
  return spec;
}

std::string DefaultIndexName(const IndexSpec& spec) {
  std::string name;
  for (const IndexKeyField& kf : spec.key) {
    if (!name.empty()) name.push_back('_');
    if (kf.hashed) {
      absl::StrAppend(&name, kf.path, "_hashed");
    } else {
      absl::StrAppend(&name, kf.path, "_", kf.direction);
    }
  }
  return name;
}

Value KeyPatternToValue(const IndexSpec& spec) {
  Value::Object fields;
  for (const IndexKeyField& kf : spec.key) {
    fields.emplace_back(kf.path, kf.hashed ? Value::String("hashed")
                                           : Value::Int32(kf.direction));
  }
  return Value::MakeObject(std::move(fields));
}

Value IndexSpecToValue(const IndexSpec& spec) {
  Value out = Value::MakeObject();
  out.Set("v", Value::Int32(2));
  out.Set("key", KeyPatternToValue(spec));
  out.Set("name", Value::String(spec.name));
  if (spec.unique) out.Set("unique", Value::Bool(true));
  if (spec.sparse) out.Set("sparse", Value::Bool(true));
  if (spec.hidden) out.Set("hidden", Value::Bool(true));
  if (!spec.partial_filter_json.empty()) {
    absl::StatusOr<Value> filter = ParseValue(spec.partial_filter_json);
    // Stored by ParseIndexSpec from a Value, so it parses; show the raw text
    // rather than nothing if a damaged catalog says otherwise.
    out.Set("partialFilterExpression",
            filter.ok() ? *std::move(filter)
                        : Value::String(spec.partial_filter_json));
  }
  if (spec.expire_after_seconds.has_value()) {
    double e = *spec.expire_after_seconds;
    if (std::trunc(e) == e && e >= std::numeric_limits<int32_t>::min() &&
        e <= std::numeric_limits<int32_t>::max()) {
      out.Set("expireAfterSeconds", Value::Int32(static_cast<int32_t>(e)));
    } else {
      out.Set("expireAfterSeconds", Value::Double(e));
    }
  }
  if (spec.max_lifetime_seconds.has_value()) {
    int64_t m = *spec.max_lifetime_seconds;
    out.Set("maxLifetimeSeconds",
            m >= std::numeric_limits<int32_t>::min() &&
                    m <= std::numeric_limits<int32_t>::max()
                ? Value::Int32(static_cast<int32_t>(m))
                : Value::Int64(m));
  }
  if (spec.reject_expired) out.Set("rejectExpired", Value::Bool(true));
  if (!spec.collation_json.empty()) {
    absl::StatusOr<Value> collation = ParseValue(spec.collation_json);
    out.Set("collation", collation.ok() ? *std::move(collation)
                                        : Value::String(spec.collation_json));
  }
  return out;
}

bool SameKeyPattern(const IndexSpec& a, const IndexSpec& b) {
  if (a.key.size() != b.key.size()) return false;
  for (size_t i = 0; i < a.key.size(); ++i) {
    if (a.key[i].path != b.key[i].path ||
        a.key[i].direction != b.key[i].direction ||
        a.key[i].hashed != b.key[i].hashed) {
      return false;
    }
  }
  return true;
}

bool SameOptions(const IndexSpec& a, const IndexSpec& b) {
  if (a.unique != b.unique || a.sparse != b.sparse || a.hidden != b.hidden ||
      a.reject_expired != b.reject_expired ||
      a.partial_filter_json != b.partial_filter_json ||
      a.collation_json != b.collation_json) {
    return false;
  }
  if (a.expire_after_seconds.has_value() !=
      b.expire_after_seconds.has_value()) {
    return false;
  }
  if (a.expire_after_seconds.has_value() &&
      !SameDouble(*a.expire_after_seconds, *b.expire_after_seconds)) {
    return false;
  }
  if (a.max_lifetime_seconds.has_value() !=
      b.max_lifetime_seconds.has_value()) {
    return false;
  }
  return !a.max_lifetime_seconds.has_value() ||
         *a.max_lifetime_seconds == *b.max_lifetime_seconds;
}

}  // namespace ttldb

namespace ttldb {

IndexComparison CompareIndexOptions(const IndexSpec& candidate,
                                    const IndexSpec& existing) {
  if (!SameKeyPattern(candidate, existing) ||
      candidate.unique != existing.unique ||
      candidate.sparse != existing.sparse ||
      candidate.partial_filter_json != existing.partial_filter_json ||
      candidate.collation_json != existing.collation_json) {
    return IndexComparison::kDifferent;
  }
  return SameOptions(candidate, existing) ? IndexComparison::kIdentical
                                          : IndexComparison::kEquivalent;
}

}  // namespace ttldb
