#include "document/path.h"

#include "absl/strings/str_split.h"

namespace ttldb {

bool ParseArrayIndex(absl::string_view s, size_t* index) {
  if (s.empty() || s.size() > 9) return false;
  if (s.size() > 1 && s[0] == '0') return false;
  size_t v = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
    v = v * 10 + static_cast<size_t>(c - '0');
  }
  *index = v;
  return true;
}

namespace {

void Collect(const Value& v, const std::vector<absl::string_view>& parts,
             size_t i, std::vector<const Value*>* out, bool* traversed) {
  if (i == parts.size()) {
    out->push_back(&v);
    return;
  }
  if (v.is_object()) {
    if (const Value* child = v.Get(parts[i])) {
      Collect(*child, parts, i + 1, out, traversed);
    }
    return;
  }
  if (!v.is_array()) return;
  const Value::Array& items = v.array_items();
  size_t index;
  if (ParseArrayIndex(parts[i], &index) && index < items.size()) {
    Collect(items[index], parts, i + 1, out, traversed);
  }
  if (traversed != nullptr) *traversed = true;
  for (const Value& item : items) {
    // Only documents inside arrays are traversed: MongoDB does not descend
    // into arrays nested directly in arrays.
    if (item.is_object()) Collect(item, parts, i, out, traversed);
  }
}

}  // namespace

std::vector<absl::string_view> SplitPath(absl::string_view path) {
  return absl::StrSplit(path, '.');
}

const Value* GetPath(const Value& doc, absl::string_view path) {
  const Value* cur = &doc;
  for (absl::string_view part : absl::StrSplit(path, '.')) {
    if (cur->is_object()) {
      cur = cur->Get(part);
    } else if (cur->is_array()) {
      size_t index;
      if (!ParseArrayIndex(part, &index) ||
          index >= cur->array_items().size()) {
        return nullptr;
      }
      cur = &cur->array_items()[index];
    } else {
      return nullptr;
    }
    if (cur == nullptr) return nullptr;
  }
  return cur;
}

void CollectPathValues(const Value& doc, absl::string_view path,
                       std::vector<const Value*>* out, bool* traversed_array) {
  std::vector<absl::string_view> parts = SplitPath(path);
  Collect(doc, parts, 0, out, traversed_array);
}

}  // namespace ttldb
