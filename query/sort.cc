#include "query/sort.h"

#include "base/status.h"
#include "document/collator.h"
#include "document/compare.h"
#include "document/path.h"

namespace ttldb {
namespace {

// MongoDB's index key order of one key element: MinKey < `undefined` (an
// empty array expanded) < null < everything else in CompareValues order.
int CompareElement(const KeyElement& a, const KeyElement& b,
                   const Collator* collator) {
  static const Value kNull;
  const bool a_empty = a.kind == KeyElement::Kind::kEmptyArray;
  const bool b_empty = b.kind == KeyElement::Kind::kEmptyArray;
  if (a_empty || b_empty) {
    if (a_empty && b_empty) return 0;
    const KeyElement& other = a_empty ? b : a;
    const bool other_is_min = other.kind == KeyElement::Kind::kValue &&
                              other.value->type() == ValueType::kMinKey;
    const int empty_vs_other = other_is_min ? 1 : -1;
    return a_empty ? empty_vs_other : -empty_vs_other;
  }
  const Value& va = a.kind == KeyElement::Kind::kValue ? *a.value : kNull;
  const Value& vb = b.kind == KeyElement::Kind::kValue ? *b.value : kNull;
  return CompareValues(va, vb, collator);
}

}  // namespace

absl::StatusOr<SortSpec> SortSpec::Parse(
    const Value& spec, std::shared_ptr<const Collator> collator) {
  ASSIGN_OR_RETURN(SortSpec s, Parse(spec));
  s.collator_ = std::move(collator);
  return s;
}

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
    s.paths_.push_back(name);
  }
  s.keys_ = std::make_shared<const PathKeyGenerator>(s.paths_,
                                                     /*sparse=*/false);
  return s;
}

absl::StatusOr<SortSpec::Key> SortSpec::KeyOf(const Value& doc) const {
  Key key;
  if (paths_.empty()) return key;
  // sort_key_generator.cpp: "we may need to unnest the first level and
  // consider each array element to decide the sort order. In order to do
  // this, we make a BtreeKeyGenerator." ... "The sort key is the first index
  // key, ordered according to the pattern".
  std::vector<std::vector<KeyElement>> tuples;
  absl::Status s = keys_->GetKeys(doc, &tuples);
  if (!s.ok()) {
    if (ErrorCode(s) == kCannotIndexParallelArrays) {
      return MongoError(absl::StatusCode::kInvalidArgument, kBadValue,
                        "cannot sort with keys that are parallel arrays");
    }
    return s;
  }
  size_t best = 0;
  for (size_t t = 1; t < tuples.size(); ++t) {
    if (CompareKeys(Key{tuples[t]}, Key{tuples[best]}) < 0) best = t;
  }
  key.elements = std::move(tuples[best]);
  return key;
}

int SortSpec::CompareKeys(const Key& a, const Key& b) const {
  for (size_t i = 0; i < fields_.size(); ++i) {
    const int c = CompareElement(a.elements[i], b.elements[i], collator_.get());
    if (c != 0) return c * fields_[i].second;
  }
  return 0;
}

int SortSpec::CompareElements(const Value& a, const Value& b) const {
  static const Value kNull;
  for (size_t i = 0; i < fields_.size(); ++i) {
    const Value* va = a.is_object() ? GetPath(a, paths_[i]) : nullptr;
    const Value* vb = b.is_object() ? GetPath(b, paths_[i]) : nullptr;
    const int c =
        CompareValues(va ? *va : kNull, vb ? *vb : kNull, collator_.get());
    if (c != 0) return c * fields_[i].second;
  }
  return 0;
}

}  // namespace ttldb
