#include "index/key_gen.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "base/status.h"
#include "document/path.h"
#include "index/key_codec.h"

namespace ttldb {
namespace {

// The keys one indexed path yields for one document.
struct FieldKeys {
  std::vector<std::string> keys;  // encoded, in the field's direction
  bool found = false;             // some branch of the path reached a value
  bool is_array = false;  // some array was expanded on the way or at the end
};

class PathKeys {
 public:
  PathKeys(const std::vector<absl::string_view>& parts, bool descending,
           FieldKeys* out)
      : parts_(parts), descending_(descending), out_(out) {}

  // document/path.h's CollectPathValues gives the values a path reaches but
  // not the array elements where it stopped short, which MongoDB indexes as
  // null; hence this walk of its own.
  void Walk(const Value& v, size_t i) {
    if (i == parts_.size()) {
      Leaf(v);
      return;
    }
    if (v.is_object()) {
      const Value* child = v.Get(parts_[i]);
      if (child == nullptr) {
        AddNull();
      } else {
        Walk(*child, i + 1);
      }
      return;
    }
    if (!v.is_array()) {
      AddNull();
      return;
    }
    const Value::Array& items = v.array_items();
    size_t index;
    if (ParseArrayIndex(parts_[i], &index)) {
      if (index < items.size()) {
        Walk(items[index], i + 1);
      } else {
        AddNull();
      }
      return;
    }
    out_->is_array = true;
    if (items.empty()) AddNull();
    for (const Value& item : items) {
      // MongoDB does not descend into arrays nested directly in arrays.
      if (item.is_object()) {
        Walk(item, i);
      } else {
        AddNull();
      }
    }
  }

 private:
  void Leaf(const Value& v) {
    out_->found = true;
    if (!v.is_array()) {
      Add(v);
      return;
    }
    out_->is_array = true;
    if (v.array_items().empty()) {
      std::string key;
      AppendEmptyArrayKey(descending_, &key);
      out_->keys.push_back(std::move(key));
      return;
    }
    for (const Value& item : v.array_items()) Add(item);
  }
  void Add(const Value& v) {
    out_->keys.push_back(EncodeKeyValue(v, descending_));
  }
  void AddNull() { Add(Value::Null()); }

  const std::vector<absl::string_view>& parts_;
  const bool descending_;
  FieldKeys* const out_;
};

void SortUnique(std::vector<std::string>* v) {
  std::sort(v->begin(), v->end());
  v->erase(std::unique(v->begin(), v->end()), v->end());
}

}  // namespace

absl::Status GenerateIndexKeys(const proto::IndexSpec& spec, const Value& doc,
                               std::vector<std::string>* keys,
                               bool* is_multikey) {
  keys->clear();
  if (is_multikey != nullptr) *is_multikey = false;
  if (spec.key_size() == 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("index '", spec.name(), "' has an empty key pattern"));
  }
  std::vector<FieldKeys> fields(spec.key_size());
  int array_field = -1;
  bool any_found = false;
  for (int f = 0; f < spec.key_size(); ++f) {
    const proto::KeyField& kf = spec.key(f);
    std::vector<absl::string_view> parts = absl::StrSplit(kf.path(), '.');
    PathKeys walker(parts, kf.direction() < 0, &fields[f]);
    walker.Walk(doc, 0);
    SortUnique(&fields[f].keys);
    any_found = any_found || fields[f].found;
    if (fields[f].is_array) {
      if (array_field >= 0) {
        return MongoError(
            absl::StatusCode::kInvalidArgument, kCannotIndexParallelArrays,
            absl::StrCat("cannot index parallel arrays [",
                         spec.key(array_field).path(), "] [", kf.path(), "]"));
      }
      array_field = f;
    }
  }
  if (is_multikey != nullptr) *is_multikey = array_field >= 0;
  if (spec.sparse() && !any_found) return absl::OkStatus();

  // At most one field has several keys, so this product is linear in size.
  keys->push_back(std::string());
  for (const FieldKeys& field : fields) {
    std::vector<std::string> next;
    next.reserve(keys->size() * field.keys.size());
    for (const std::string& prefix : *keys) {
      for (const std::string& k : field.keys) next.push_back(prefix + k);
    }
    keys->swap(next);
  }
  // Self-delimiting encodings: distinct per-field keys give distinct
  // concatenations, and the product of sorted lists is already sorted.
  return absl::OkStatus();
}

}  // namespace ttldb
