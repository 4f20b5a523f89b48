#include "planner/sort_provision.h"

#include <set>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"

namespace ttldb {
namespace planner {
namespace {

absl::string_view FirstComponent(absl::string_view path) {
  return path.substr(0, path.find('.'));
}

std::string Pattern(const std::vector<std::pair<std::string, int>>& fields) {
  std::string out = "{";
  for (size_t i = 0; i < fields.size(); ++i) {
    absl::StrAppend(&out, i > 0 ? ", " : "", fields[i].first, ": ",
                    fields[i].second);
  }
  return out + "}";
}

// Whether the scan in direction `dir` (1 forward, -1 backward) provides
// `sort`.
SortProvision ProvidesInDirection(const IndexSpec& spec, bool multikey,
                                  absl::Span<const FieldBounds> bounds,
                                  const SortSpec& sort, int dir) {
  SortProvision out;
  const int n = static_cast<int>(spec.key.size());
  auto bound = [&](int i) {
    return i < static_cast<int>(bounds.size()) ? bounds[i] : FieldBounds::kFull;
  };
  std::set<std::string> equality;     // point bounds, sortable
  std::set<std::string> ignored;      // point bounds, not sortable (multikey)
  std::set<std::string> unsupported;  // neither
  std::string multikey_reason;        // for the first unsupported field
  for (int i = 0; i < n; ++i) {
    const std::string& path = spec.key[i].path;
    if (bound(i) == FieldBounds::kPoint) equality.insert(path);
    if (!multikey) continue;
    std::string why;
    if (bound(i) != FieldBounds::kFull) {
      why = absl::StrCat("index ", spec.name,
                         " is multikey and the scan has bounds on ", path);
    } else {
      for (int j = 0; j < n; ++j) {
        const std::string& other = spec.key[j].path;
        if (j == i || bound(j) == FieldBounds::kFull) continue;
        if (FirstComponent(other) == FirstComponent(path)) {
          why = absl::StrCat("index ", spec.name,
                             " is multikey and the scan has bounds on ", other,
                             ", which shares a path prefix with ", path);
          break;
        }
      }
    }
    if (why.empty()) continue;
    if (equality.erase(path) > 0) {
      ignored.insert(path);
    } else {
      unsupported.insert(path);
    }
    if (multikey_reason.empty()) multikey_reason = std::move(why);
  }
  // The sort pattern the scan provides: the key pattern without equality
  // and ignored fields, cut at the first unsupported field.
  std::vector<std::pair<std::string, int>> base;
  std::string cut_reason;
  for (int i = 0; i < n; ++i) {
    const std::string& path = spec.key[i].path;
    if (equality.count(path) > 0 || ignored.count(path) > 0) continue;
    if (unsupported.count(path) > 0) {
      cut_reason = multikey_reason;
      break;
    }
    // A hashed field is in hash order, not value order.
    if (spec.key[i].hashed) break;
    // A backward scan provides each direction reversed.
    base.emplace_back(path, (spec.key[i].direction < 0 ? -1 : 1) * dir);
  }
  std::vector<std::pair<std::string, int>> wanted;
  for (const auto& f : sort.fields()) {
    if (equality.count(f.first) == 0) wanted.push_back(f);
  }
  size_t k = 0;
  while (k < wanted.size() && k < base.size() && wanted[k] == base[k]) ++k;
  if (k == wanted.size()) {
    out.provided = true;
    out.backward = dir < 0;
    return out;
  }
  const std::string& field = wanted[k].first;
  if (ignored.count(field) > 0 || unsupported.count(field) > 0 ||
      (k == base.size() && !cut_reason.empty())) {
    out.reason = multikey_reason;
  } else {
    // Reported for the forward scan: `base` is the key pattern's order.
    out.reason = absl::StrCat(
        "index ", spec.name, " provides the sort ", Pattern(base),
        " or its reverse within its bounds, not ", Pattern(wanted));
  }
  return out;
}

}  // namespace

SortProvision IndexProvidesSort(const IndexSpec& spec, bool multikey,
                                absl::Span<const FieldBounds> bounds,
                                const SortSpec& sort) {
  if (sort.fields().empty()) {
    SortProvision out;
    out.provided = true;
    return out;
  }
  // QueryPlannerAnalysis::analyzeSort: a scan that provides the reverse of
  // the sort is reversed (QueryPlannerCommon::reverseScans).
  SortProvision forward = ProvidesInDirection(spec, multikey, bounds, sort, 1);
  if (forward.provided) return forward;
  SortProvision backward =
      ProvidesInDirection(spec, multikey, bounds, sort, -1);
  if (backward.provided) return backward;
  return forward;
}

}  // namespace planner
}  // namespace ttldb
