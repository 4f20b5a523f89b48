#include "query/sort.h"

#include "base/status.h"
#include "document/compare.h"
#include "query/path_values.h"

namespace ttldb {
namespace {

// The value a document sorts by on one path. `empty_array` ranks below
// everything (MongoDB: "an empty array is less than null or missing");
// otherwise `value` (nullptr: null/missing).
struct SortKey {
  bool empty_array = false;
  const Value* value = nullptr;
};

int CompareKeys(const SortKey& a, const SortKey& b) {
  if (a.empty_array || b.empty_array) {
    return static_cast<int>(b.empty_array) - static_cast<int>(a.empty_array);
  }
  static const Value kNull;
  return CompareValues(a.value ? *a.value : kNull, b.value ? *b.value : kNull);
}

SortKey KeyOf(const Value& doc, const std::vector<std::string>& parts,
              int direction) {
  std::vector<const Value*> values;
  query_internal::CollectValues(doc, parts, /*expand_leaf_arrays=*/false,
                                &values);
  SortKey best;
  bool have = false;
  auto offer = [&](const SortKey& k) {
    if (!have) {
      best = k;
      have = true;
      return;
    }
    const int c = CompareKeys(k, best);
    if ((direction > 0 && c < 0) || (direction < 0 && c > 0)) best = k;
  };
  for (const Value* v : values) {
    if (v != nullptr && v->is_array()) {
      if (v->array_items().empty()) {
        offer(SortKey{true, nullptr});
      } else {
        for (const Value& item : v->array_items()) offer(SortKey{false, &item});
      }
    } else {
      offer(SortKey{false, v});
    }
  }
  return best;
}

}  // namespace

absl::StatusOr<SortSpec> SortSpec::Parse(const Value& spec) {
  if (!spec.is_object()) {
    return MongoError(absl::StatusCode::kInvalidArgument, kBadValue,
                      "sort specification must be an object");
  }
  SortSpec s;
  for (const auto& [name, v] : spec.object_fields()) {
    const double d = v.is_number() ? v.AsDouble() : 0;
    if (d != 1 && d != -1) {
      return MongoError(
          absl::StatusCode::kInvalidArgument, 15975,
          "$sort key ordering must be 1 (for ascending) or -1 (for "
          "descending)");
    }
    s.fields_.emplace_back(name, d > 0 ? 1 : -1);
    s.parts_.push_back(query_internal::SplitDotted(name));
  }
  return s;
}

int SortSpec::Compare(const Value& a, const Value& b) const {
  for (size_t i = 0; i < fields_.size(); ++i) {
    const int dir = fields_[i].second;
    const int c =
        CompareKeys(KeyOf(a, parts_[i], dir), KeyOf(b, parts_[i], dir));
    if (c != 0) return c * dir;
  }
  return 0;
}

}  // namespace ttldb
