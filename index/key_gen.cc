#include "index/key_gen.h"

#include <algorithm>
#include <set>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "base/status.h"
#include "document/bson_hash.h"
#include "document/path_keys.h"
#include "index/key_codec.h"

namespace ttldb {

namespace {

// MongoDB's getHashKeys (expression_keys_private.cpp): no field of an index
// with a hashed field may meet an array along its path (16766).
absl::Status CheckHashedPath(const Value& doc, const std::string& path) {
  const Value* v = &doc;
  size_t pos = 0;
  while (true) {
    if (v->is_array()) {
      return MongoError(
          absl::StatusCode::kInvalidArgument, 16766,
          absl::StrCat("Error: hashed indexes do not currently support array "
                       "values. Found array at path: ",
                       absl::string_view(path).substr(
                           0, pos == 0 ? path.size() : pos - 1)));
    }
    if (pos > path.size()) return absl::OkStatus();
    const size_t dot = std::min(path.find('.', pos), path.size());
    if (!v->is_object()) return absl::OkStatus();
    v = v->Get(absl::string_view(path).substr(pos, dot - pos));
    if (v == nullptr) return absl::OkStatus();
    pos = dot + 1;
  }
}

// The key of one field: its value (a string's collation key under the
// index's collation), or that value's hash for a hashed field (getHashKeys
// hashes the collation key too).
void AppendFieldKey(const IndexKeyField& kf, const Value& v,
                    const Collator* collator, std::string* key) {
  const bool collated = collator != nullptr && HoldsString(v);
  const Value keyed = collated ? collator->KeyValue(v) : Value();
  const Value& value = collated ? keyed : v;
  if (kf.hashed) {
    AppendKeyValue(Value::Int64(BsonHash64(value)), false, key);
  } else {
    AppendKeyValue(value, kf.direction < 0, key);
  }
}

// The common case without PathKeyGenerator (which splits the paths and
// builds its tuples per call): every path is a top-level field name and no
// field holds an array. Then there is one tuple, each element the field's
// value or null when absent (the generator's FieldOf is Value::Get as
// here), dropped by a sparse index when every field is absent. False when
// the general path must decide (a dotted path, an array).
bool TopLevelScalarKey(const IndexSpec& spec, const Value& doc,
                       absl::string_view prefix, absl::string_view suffix,
                       const Collator* collator,
                       std::vector<std::string>* keys) {
  constexpr int kMaxFields = 8;
  const int n = static_cast<int>(spec.key.size());
  if (n > kMaxFields || !doc.is_object()) return false;
  const Value* values[kMaxFields];
  int absent = 0;
  for (int f = 0; f < n; ++f) {
    const std::string& path = spec.key[f].path;
    if (path.find('.') != std::string::npos) return false;
    values[f] = doc.Get(path);
    if (values[f] == nullptr) {
      ++absent;
    } else if (values[f]->is_array()) {
      return false;
    }
  }
  if (spec.sparse && absent == n) return true;  // no keys
  std::string key;
  key.reserve(prefix.size() + 32 + suffix.size());
  key.append(prefix.data(), prefix.size());
  for (int f = 0; f < n; ++f) {
    AppendFieldKey(spec.key[f],
                   values[f] != nullptr ? *values[f] : Value::Null(), collator,
                   &key);
  }
  key.append(suffix.data(), suffix.size());
  keys->push_back(std::move(key));
  return true;
}

}  // namespace

absl::Status GenerateIndexKeys(const IndexSpec& spec, const Value& doc,
                               std::vector<std::string>* keys,
                               bool* is_multikey, absl::string_view prefix,
                               absl::string_view suffix,
                               const Collator* collator) {
  keys->clear();
  if (is_multikey != nullptr) *is_multikey = false;
  if (spec.key.empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat("index '", spec.name, "' has an empty key pattern"));
  }
  if (TopLevelScalarKey(spec, doc, prefix, suffix, collator, keys)) {
    return absl::OkStatus();
  }
  // In an index with a hashed field no field may meet an array
  // (hashed_index_with_arrays.js: "None of the index fields can be an
  // array").
  bool hashed = false;
  for (const IndexKeyField& kf : spec.key) hashed = hashed || kf.hashed;
  if (hashed) {
    for (const IndexKeyField& kf : spec.key) {
      RETURN_IF_ERROR(CheckHashedPath(doc, kf.path));
    }
  }
  std::vector<std::string> paths;
  paths.reserve(spec.key.size());
  for (const IndexKeyField& kf : spec.key) paths.push_back(kf.path);
  const PathKeyGenerator gen(paths, spec.sparse);
  std::vector<std::vector<KeyElement>> tuples;
  std::vector<std::set<size_t>> multikey_paths;
  RETURN_IF_ERROR(gen.GetKeys(doc, &tuples, &multikey_paths));
  if (is_multikey != nullptr) {
    for (const auto& components : multikey_paths) {
      if (!components.empty()) *is_multikey = true;
    }
  }
  keys->reserve(tuples.size());
  for (const std::vector<KeyElement>& tuple : tuples) {
    std::string key(prefix);
    for (size_t f = 0; f < spec.key.size(); ++f) {
      const bool desc = spec.key[f].direction < 0;
      const KeyElement& e = tuple[f];
      switch (e.kind) {
        case KeyElement::Kind::kValue:
          AppendFieldKey(spec.key[f], *e.value, collator, &key);
          break;
        case KeyElement::Kind::kNull:
          AppendFieldKey(spec.key[f], Value::Null(), collator, &key);
          break;
        case KeyElement::Kind::kEmptyArray:
          AppendEmptyArrayKey(desc, &key);
          break;
      }
    }
    key.append(suffix.data(), suffix.size());
    keys->push_back(std::move(key));
  }
  // The same prefix and suffix on every key: self-delimiting encodings
  // (no key is a proper prefix of another) keep the order and the
  // duplicates of the bare keys.
  std::sort(keys->begin(), keys->end());
  keys->erase(std::unique(keys->begin(), keys->end()), keys->end());
  return absl::OkStatus();
}

}  // namespace ttldb
