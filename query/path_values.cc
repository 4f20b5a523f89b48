#include "query/path_values.h"

#include "absl/strings/str_split.h"

namespace ttldb {
namespace query_internal {
namespace {

// The walk below follows MongoDB's BSONElementIterator (matcher/path.cpp)
// and getFieldDottedOrArray (matcher/path_internal.cpp) step by step.

// A field of an object, or of an array read as the object BSON stores it as
// ({"0": ..., "1": ...}); nullptr if absent.
const Value* FieldIn(const Value& container, const std::string& name) {
  if (container.is_object()) return container.Get(name);
  if (container.is_array()) {
    size_t index;
    const auto& items = container.array_items();
    if (ParseArrayIndex(name, &index) && index < items.size()) {
      return &items[index];
    }
  }
  return nullptr;
}

void FromArray(const Value& array, const std::vector<std::string>& parts,
               size_t i, bool expand, std::vector<const Value*>* out);

// getFieldDottedOrArray from `container` at parts[i], then the iterator's
// BEGIN state: a non-array result (or missing) is the one value; an array
// is walked by FromArray with the components after it.
void FromObject(const Value& container, const std::vector<std::string>& parts,
                size_t i, bool expand, std::vector<const Value*>* out) {
  const Value* cur = &container;
  for (size_t k = i; k < parts.size(); ++k) {
    const Value* f = FieldIn(*cur, parts[k]);
    if (f == nullptr) {
      out->push_back(nullptr);
      return;
    }
    if (f->is_array()) {
      FromArray(*f, parts, k + 1, expand, out);
      return;
    }
    if (!f->is_object() && k + 1 < parts.size()) {
      // A scalar with path left over: missing.
      out->push_back(nullptr);
      return;
    }
    cur = f;
  }
  out->push_back(cur);
}

// The iterator's IN_ARRAY state: `array` was reached and parts[i..] remain.
void FromArray(const Value& array, const std::vector<std::string>& parts,
               size_t i, bool expand, std::vector<const Value*>* out) {
  const auto& items = array.array_items();
  if (i == parts.size()) {
    // The path ends at this array.
    out->push_back(&array);
    if (expand) {
      for (const Value& e : items) out->push_back(&e);
    }
    return;
  }
  size_t offset;
  const bool numeric = ParseArrayIndex(parts[i], &offset);
  for (size_t idx = 0; idx < items.size(); ++idx) {
    const Value& x = items[idx];
    const bool offset_match = numeric && offset == idx;
    if (x.is_object()) {
      // Implicit traversal into the sub-document ...
      FromObject(x, parts, i, expand, out);
      // ... and, for "a.<idx>...", the element the offset names.
      if (offset_match) {
        if (i + 1 == parts.size()) {
          out->push_back(&x);
        } else {
          FromObject(x, parts, i + 1, expand, out);
        }
      }
    } else if (offset_match) {
      if (i + 1 == parts.size()) {
        // Not expanded, even if it is an array.
        out->push_back(&x);
      } else if (x.is_array()) {
        FromArray(x, parts, i + 1, expand, out);
      }
    }
    // Other scalars and arrays nested in arrays yield nothing.
  }
}

}  // namespace

void CollectValues(const Value& root, const std::vector<std::string>& parts,
                   bool expand_leaf_arrays, std::vector<const Value*>* out) {
  FromObject(root, parts, 0, expand_leaf_arrays, out);
}

std::vector<std::string> SplitDotted(absl::string_view path) {
  return absl::StrSplit(path, '.');
}

}  // namespace query_internal
}  // namespace ttldb
