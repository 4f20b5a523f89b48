#include "storage/index_keys.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "base/status.h"
#include "document/compare.h"
#include "index/key_gen.h"
#include "storage/entry_value.h"

namespace ttldb {
namespace {

// True when the keys `index` derives from `a` and from `b` are certainly
// the same: no partial filter (its fields could differ) and, for each key
// field, an identical value (or none) under the path's first component in
// both. Key generation reads nothing else of a document.
bool SameIndexedFields(const IndexState& index, const Value& a,
                       const Value& b) {
  if (index.partial.has_value()) return false;
  for (const auto& field : index.spec.key) {
    const absl::string_view path = field.path;
    const absl::string_view top = path.substr(0, path.find('.'));
    const Value* x = a.Get(top);
    const Value* y = b.Get(top);
    if (x == nullptr || y == nullptr) {
      if (x != y) return false;
      continue;
    }
    if (!IdenticalValues(*x, *y)) return false;
  }
  return true;
}

}  // namespace

absl::Status IndexEntryKeys(const IndexState& index, const Value& doc,
                            const std::string& encoded_id,
                            std::vector<std::string>* out, bool* is_multikey) {
  out->clear();
  if (is_multikey != nullptr) *is_multikey = false;
  if (index.partial.has_value() && !index.partial->Matches(doc)) {
    return absl::OkStatus();
  }
  return GenerateIndexKeys(index.spec, doc, out, is_multikey, index.prefix,
                           encoded_id, index.collator.get());
}

absl::Status ComputeDocKeys(absl::Span<const IndexState* const> indexes,
                            const Value& doc, const std::string& encoded_id,
                            DocKeys* out, const Value* before,
                            const DocKeys* before_keys) {
  out->keys.resize(indexes.size());
  out->multikey.assign(indexes.size(), false);
  for (size_t i = 0; i < indexes.size(); ++i) {
    if (before != nullptr && SameIndexedFields(*indexes[i], *before, doc)) {
      out->keys[i] = before_keys->keys[i];
      out->multikey[i] = before_keys->multikey[i];
      continue;
    }
    bool is_multikey = false;
    absl::Status s = IndexEntryKeys(*indexes[i], doc, encoded_id, &out->keys[i],
                                    &is_multikey);
    if (!s.ok()) {
      return MongoError(
          absl::StatusCode::kInvalidArgument, ErrorCode(s),
          absl::StrCat("index '", indexes[i]->spec.name, "': ", s.message()));
    }
    out->multikey[i] = is_multikey;
    std::sort(out->keys[i].begin(), out->keys[i].end());
  }
  return absl::OkStatus();
}

std::string EntryValueFor(absl::Span<const IndexState* const> indexes,
                          const DocKeys& keys, size_t i,
                          const std::string& encoded_id) {
  // Siblings only where the document has exactly this one entry in the TTL
  // index: deleting through it then deletes every entry of the document.
  if (!indexes[i]->spec.expire_after_seconds.has_value() || keys.multikey[i] ||
      keys.keys[i].size() != 1) {
    return encoded_id;
  }
  SiblingsWriter writer;
  for (size_t j = 0; j < indexes.size(); ++j) {
    if (j == i) continue;
    writer.Add(indexes[j]->spec.id, keys.keys[j], indexes[j]->prefix.size(),
               encoded_id.size());
  }
  return writer.Finish(encoded_id);
}

}  // namespace ttldb
