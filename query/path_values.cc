#include "query/path_values.h"

#include "absl/strings/str_split.h"

namespace ttldb {
namespace query_internal {
namespace {

void Collect(const Value* cur, const std::vector<std::string>& parts, size_t i,
             bool expand, std::vector<const Value*>* out) {
  if (i == parts.size()) {
    out->push_back(cur);
    if (expand && cur->is_array()) {
      for (const Value& e : cur->array_items()) out->push_back(&e);
    }
    return;
  }
  if (cur->is_object()) {
    const Value* child = cur->Get(parts[i]);
    if (child == nullptr) {
      out->push_back(nullptr);
    } else {
      Collect(child, parts, i + 1, expand, out);
    }
    return;
  }
  if (cur->is_array()) {
    const size_t before = out->size();
    size_t index;
    const auto& items = cur->array_items();
    const bool indexed =
        ParseArrayIndex(parts[i], &index) && index < items.size();
    if (indexed) Collect(&items[index], parts, i + 1, expand, out);
    for (const Value& e : items) {
      if (!e.is_object()) continue;
      const size_t mark = out->size();
      Collect(&e, parts, i, expand, out);
      if (indexed) {
        // The numeric component already selected an element: object
        // elements lacking a field of that name are not "missing" values.
        size_t w = mark;
        for (size_t r = mark; r < out->size(); ++r) {
          if ((*out)[r] != nullptr) (*out)[w++] = (*out)[r];
        }
        out->resize(w);
      }
    }
    if (out->size() == before) out->push_back(nullptr);
    return;
  }
  out->push_back(nullptr);
}

}  // namespace

void CollectValues(const Value& root, const std::vector<std::string>& parts,
                   bool expand_leaf_arrays, std::vector<const Value*>* out) {
  Collect(&root, parts, 0, expand_leaf_arrays, out);
}

std::vector<std::string> SplitDotted(absl::string_view path) {
  return absl::StrSplit(path, '.');
}

}  // namespace query_internal
}  // namespace ttldb
