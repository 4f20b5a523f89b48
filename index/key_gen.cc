#include "index/key_gen.h"

#include <algorithm>
#include <set>

#include "absl/strings/str_cat.h"
#include "base/status.h"
#include "document/path_keys.h"
#include "index/key_codec.h"

namespace ttldb {

absl::Status GenerateIndexKeys(const proto::IndexSpec& spec, const Value& doc,
                               std::vector<std::string>* keys,
                               bool* is_multikey) {
  keys->clear();
  if (is_multikey != nullptr) *is_multikey = false;
  if (spec.key_size() == 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("index '", spec.name(), "' has an empty key pattern"));
  }
  std::vector<std::string> paths;
  paths.reserve(spec.key_size());
  for (const proto::KeyField& kf : spec.key()) paths.push_back(kf.path());
  const PathKeyGenerator gen(paths, spec.sparse());
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
    std::string key;
    for (int f = 0; f < spec.key_size(); ++f) {
      const bool desc = spec.key(f).direction() < 0;
      const KeyElement& e = tuple[f];
      switch (e.kind) {
        case KeyElement::Kind::kValue:
          AppendKeyValue(*e.value, desc, &key);
          break;
        case KeyElement::Kind::kNull:
          AppendKeyValue(Value::Null(), desc, &key);
          break;
        case KeyElement::Kind::kEmptyArray:
          AppendEmptyArrayKey(desc, &key);
          break;
      }
    }
    keys->push_back(std::move(key));
  }
  std::sort(keys->begin(), keys->end());
  keys->erase(std::unique(keys->begin(), keys->end()), keys->end());
  return absl::OkStatus();
}

}  // namespace ttldb
