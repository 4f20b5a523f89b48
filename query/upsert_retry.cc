#include "query/upsert_retry.h"

#include <string>
#include <utility>
#include <vector>

#include "document/compare.h"

namespace ttldb {
namespace {

using MKind = MatchExpr::Kind;

// Collects the equalities of `e` into *out as MongoDB's optimized filter
// would hold them. False if `e` holds anything but equalities (MongoDB's
// matchContainsOnlyAndedEqualityNodes) or names a path twice, or a path and
// its prefix (path_support.cpp extractEqualityMatches fails on those).
bool CollectOnlyEqualities(
    const MatchExpr& e,
    std::vector<std::pair<std::string, const Value*>>* out) {
  switch (e.kind) {
    case MKind::kAnd:
      for (const MatchExpr& c : e.children) {
        if (!CollectOnlyEqualities(c, out)) return false;
      }
      return true;
    case MKind::kOr:
      // A one-clause $or is its clause once optimized.
      return e.children.size() == 1 &&
             CollectOnlyEqualities(e.children[0], out);
    case MKind::kAlwaysTrue:
      // The optimizer drops it from an $and.
      return true;
    case MKind::kEq:
    case MKind::kIn:
      break;
    default:
      return false;
  }
  const Value* v = nullptr;
  if (e.kind == MKind::kEq) {
    v = &e.operand;
  } else if (e.operands.size() == 1 &&
             e.operands[0].type() != ValueType::kRegex) {
    v = &e.operands[0];  // {a: {$in: [5]}} is {a: 5} once optimized
  }
  if (v == nullptr || e.path.empty()) return false;
  for (const auto& [path, unused] : *out) {
    const std::string& shorter = path.size() <= e.path.size() ? path : e.path;
    const std::string& longer = path.size() <= e.path.size() ? e.path : path;
    if (longer.compare(0, shorter.size(), shorter) == 0 &&
        (longer.size() == shorter.size() || longer[shorter.size()] == '.')) {
      return false;
    }
  }
  out->emplace_back(e.path, v);
  return true;
}

}  // namespace

bool ShouldRetryUpsertDuplicateKey(const Filter& filter,
                                   const Value& key_pattern,
                                   const Value& key_value) {
  if (!key_pattern.is_object() || !key_value.is_object()) return false;
  std::vector<std::pair<std::string, const Value*>> equalities;
  if (!CollectOnlyEqualities(filter.root(), &equalities)) return false;
  const auto& pattern = key_pattern.object_fields();
  const auto& values = key_value.object_fields();
  if (equalities.size() != pattern.size() || values.size() != pattern.size()) {
    return false;
  }
  for (size_t i = 0; i < pattern.size(); ++i) {
    const std::string& key = pattern[i].first;
    const Value* wanted = nullptr;
    for (const auto& [path, v] : equalities) {
      if (path == key) wanted = v;
    }
    // Compared as values, field names aside (MongoDB's
    // BSONElementComparator with FieldNamesMode::kIgnore).
    if (wanted == nullptr || CompareValues(*wanted, values[i].second) != 0) {
      return false;
    }
  }
  return true;
}

}  // namespace ttldb
