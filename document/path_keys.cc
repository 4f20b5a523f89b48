#include "document/path_keys.h"

#include <optional>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "base/status.h"
#include "document/path.h"
#include "ttldb/json.h"

namespace ttldb {

// This file follows btree_key_generator.cpp function by function; the
// names in comments are MongoDB's. A path's progress is the position of its
// next component (`pos`); a path is done ("fieldName is empty") when pos
// equals its length.

namespace {

// A field of an object, or of an array read as the object BSON stores it as
// ({"0": ..., "1": ...}); nullptr if absent or `container` is neither.
const Value* FieldOf(const Value* container, const std::string& name) {
  if (container == nullptr) return nullptr;
  if (container->is_object()) return container->Get(name);
  if (container->is_array()) {
    size_t index;
    const auto& items = container->array_items();
    if (ParseArrayIndex(name, &index) && index < items.size()) {
      return &items[index];
    }
  }
  return nullptr;
}

// dotted_path_support::extractElementAtPathOrArrayAlongPath: follows
// parts[*pos..] through objects; stops at the end of the path or at an
// array (returned, *pos just past it); nullptr (EOO) if a field is absent
// or a scalar has path left over. *name is the last field name used.
const Value* ExtractAlongPath(const Value* obj,
                              const std::vector<std::string>& parts,
                              size_t* pos, const std::string** name) {
  while (true) {
    const Value* sub = FieldOf(obj, parts[*pos]);
    *name = &parts[*pos];
    ++*pos;
    if (sub == nullptr) return nullptr;
    if (sub->is_array() || *pos == parts.size()) return sub;
    if (!sub->is_object()) return nullptr;
    obj = sub;
  }
}

}  // namespace

// PositionalPathInfo: for a path whose next component is a number n that
// names an existing element of the array being expanded.
struct PathKeyGenerator::Positional {
  const Value* array = nullptr;    // arrayObj
  const Value* indexed = nullptr;  // positionallyIndexedElt (element n)
  const Value* dotted = nullptr;   // dottedElt: the path followed from n
  const std::string* dotted_name = nullptr;
  size_t remaining = 0;  // remainingPath: the position after `dotted`
  bool has() const { return indexed != nullptr; }
};

struct PathKeyGenerator::State {
  std::vector<std::vector<KeyElement>>* keys;
  std::vector<std::set<size_t>>* multikey_paths;
};

PathKeyGenerator::PathKeyGenerator(const std::vector<std::string>& paths,
                                   bool sparse)
    : sparse_(sparse) {
  for (const std::string& p : paths) parts_.push_back(absl::StrSplit(p, '.'));
}

absl::Status PathKeyGenerator::GetKeys(
    const Value& doc, std::vector<std::vector<KeyElement>>* keys,
    std::vector<std::set<size_t>>* multikey_paths) const {
  keys->clear();
  if (multikey_paths != nullptr) {
    multikey_paths->assign(parts_.size(), std::set<size_t>());
  }
  State st{keys, multikey_paths};
  RETURN_IF_ERROR(WithArray(&st, std::vector<size_t>(parts_.size(), 0),
                            std::vector<KeyElement>(parts_.size()), &doc, 0,
                            std::vector<Positional>(parts_.size())));
  if (keys->empty() && !sparse_) {
    keys->push_back(std::vector<KeyElement>(parts_.size()));
  }
  return absl::OkStatus();
}

// _getKeysWithArray.
absl::Status PathKeyGenerator::WithArray(
    State* st, std::vector<size_t> pos, std::vector<KeyElement> fixed,
    const Value* obj, size_t not_found,
    const std::vector<Positional>& positional) const {
  const size_t n = parts_.size();
  const Value* arr = nullptr;  // arrElt
  const std::string* arr_name = nullptr;
  std::set<size_t> array_fields;                     // arrIdxs
  std::vector<std::optional<size_t>> components(n);  // arrComponents
  bool may_expand = true;                            // mayExpandArrayUnembedded

  for (size_t i = 0; i < n; ++i) {
    const std::vector<std::string>& parts = parts_[i];
    if (pos[i] == parts.size()) continue;
    // _extractNextElement.
    const std::string& first = parts[pos[i]];
    const bool have_obj_field = FieldOf(obj, first) != nullptr;
    const Positional& p = positional[i];
    if (have_obj_field && p.has()) {
      return MongoError(
          absl::StatusCode::kInvalidArgument, 16746,
          absl::StrCat("Ambiguous field name found in array (do not use "
                       "numeric field names in embedded elements in an "
                       "array), field: '",
                       first, "' for array: ", ToJson(*p.array)));
    }
    bool nested_array = false;  // arrayNestedArray
    const Value* e = nullptr;
    const std::string* name = nullptr;
    if (have_obj_field) {
      e = ExtractAlongPath(obj, parts, &pos[i], &name);
    } else if (p.has()) {
      nested_array = p.indexed->is_array();
      pos[i] = p.remaining;
      e = p.dotted;
      name = p.dotted_name;
    }
    if (e == nullptr) {
      fixed[i] = KeyElement::Null();
      pos[i] = parts.size();
      ++not_found;
    } else if (e->is_array()) {
      array_fields.insert(i);
      if (arr == nullptr) {
        arr = e;
        arr_name = name;
      } else if (e != arr) {
        return MongoError(absl::StatusCode::kInvalidArgument,
                          kCannotIndexParallelArrays,
                          absl::StrCat("cannot index parallel arrays [", *name,
                                       "] [", *arr_name, "]"));
      }
      if (nested_array) may_expand = false;
    } else {
      fixed[i] = KeyElement{KeyElement::Kind::kValue, e};
      pos[i] = parts.size();
    }
  }

  if (arr == nullptr) {
    // No array: one key.
    if (sparse_ && not_found == n) return absl::OkStatus();
    st->keys->push_back(std::move(fixed));
    return absl::OkStatus();
  }

  if (arr->array_items().empty()) {
    if (may_expand) {
      // The array's component is the one before the path's position.
      for (size_t i : array_fields) components[i] = pos[i] - 1;
    }
    RETURN_IF_ERROR(ArrayElementFixed(
        st, pos, fixed, KeyElement{KeyElement::Kind::kEmptyArray, nullptr},
        nullptr, not_found, *arr, array_fields, /*may_expand=*/true,
        std::vector<Positional>(n)));
  } else {
    std::vector<Positional> sub(n);
    for (size_t i = 0; i < n; ++i) {
      const bool field_is_array = array_fields.count(i) > 0;
      const std::vector<std::string>& parts = parts_[i];
      if (pos[i] == parts.size()) {
        if (field_is_array && may_expand) components[i] = parts.size() - 1;
        continue;
      }
      // Not done, so this path went through `arr`.
      const Value* indexed = FieldOf(arr, parts[pos[i]]);
      if (indexed == nullptr) {
        // Every element is used: the array makes the path multikey.
        components[i] = pos[i] - 1;
        continue;
      }
      // A numeric component selects one element: follow the rest of the
      // path from it now, once, for every element's key.
      Positional& p = sub[i];
      p.array = arr;
      p.indexed = indexed;
      p.remaining = pos[i];
      p.dotted = ExtractAlongPath(arr, parts, &p.remaining, &p.dotted_name);
    }
    for (const Value& item : arr->array_items()) {
      RETURN_IF_ERROR(ArrayElementFixed(
          st, pos, fixed, KeyElement{KeyElement::Kind::kValue, &item},
          item.is_object() ? &item : nullptr, not_found, *arr, array_fields,
          may_expand, sub));
    }
  }

  if (st->multikey_paths != nullptr) {
    for (size_t i = 0; i < n; ++i) {
      if (components[i].has_value()) {
        (*st->multikey_paths)[i].insert(*components[i]);
      }
    }
  }
  return absl::OkStatus();
}

// _getKeysArrEltFixed: the paths that end at the array take `entry` (or,
// when the array was selected by an offset inside an array, the whole
// array); then the other paths continue inside `entry_obj`.
absl::Status PathKeyGenerator::ArrayElementFixed(
    State* st, const std::vector<size_t>& pos,
    const std::vector<KeyElement>& fixed, const KeyElement& entry,
    const Value* entry_obj, size_t not_found, const Value& array,
    const std::set<size_t>& array_fields, bool may_expand,
    const std::vector<Positional>& positional) const {
  std::vector<KeyElement> fixed_copy = fixed;
  for (size_t i : array_fields) {
    if (pos[i] == parts_[i].size()) {
      fixed_copy[i] =
          may_expand ? entry : KeyElement{KeyElement::Kind::kValue, &array};
    }
  }
  return WithArray(st, pos, std::move(fixed_copy), entry_obj, not_found,
                   positional);
}

}  // namespace ttldb
