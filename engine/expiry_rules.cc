#include "ttldb/expiry_rules.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <utility>

#include "base/status.h"
#include "document/collator.h"
#include "index/index_spec.h"
#include "query/filter.h"
#include "ttl/expiry.h"

namespace ttldb {

struct ExpiryRules::Rep {
  struct Rule {
    std::string name;
    IndexSpec spec;
    int64_t expire_after_seconds = 0;
    bool reject_expired = false;
    std::optional<Filter> partial;
  };
  std::vector<Rule> rules;
};

ExpiryRules::ExpiryRules() : rep_(std::make_shared<const Rep>()) {}
ExpiryRules::~ExpiryRules() = default;
ExpiryRules::ExpiryRules(const ExpiryRules&) = default;
ExpiryRules& ExpiryRules::operator=(const ExpiryRules&) = default;

absl::StatusOr<ExpiryRules> ExpiryRules::FromIndexSpecs(
    const std::vector<Value>& index_specs) {
  auto rep = std::make_shared<Rep>();
  for (const Value& s : index_specs) {
    const Value* e = s.Get("expireAfterSeconds");
    const Value* key = s.Get("key");
    const Value* name = s.Get("name");
    if (e == nullptr || !e->is_number() || key == nullptr || name == nullptr ||
        !name->is_string()) {
      continue;
    }
    const double seconds = e->AsDouble();
    if (!std::isfinite(seconds) || seconds < 0) continue;  // inactive index
    Value options = s;
    options.Remove("key");
    absl::StatusOr<IndexSpec> spec = ParseIndexSpec(*key, options);
    if (!spec.ok()) continue;  // not an index this library could hold
    Rep::Rule rule;
    rule.name = name->string_value();
    rule.spec = *std::move(spec);
    rule.expire_after_seconds = static_cast<int64_t>(seconds);
    const Value* reject = s.Get("rejectExpired");
    rule.reject_expired = reject != nullptr &&
                          reject->type() == ValueType::kBool &&
                          reject->bool_value();
    if (const Value* pf = s.Get("partialFilterExpression")) {
      // Matched in the index's collation, as the engine compiles it.
      std::shared_ptr<const Collator> collator;
      if (const Value* collation = s.Get("collation")) {
        ASSIGN_OR_RETURN(collator, Collator::Make(*collation));
      }
      ASSIGN_OR_RETURN(Filter f,
                       Filter::Parse(*pf, absl::Now(), std::move(collator)));
      rule.partial = std::move(f);
    }
    rep->rules.push_back(std::move(rule));
  }
  ExpiryRules out;
  out.rep_ = std::move(rep);
  return out;
}

std::vector<IndexExpiry> ExpiryRules::Expiries(const Value& doc) const {
  std::vector<IndexExpiry> out;
  for (const Rep::Rule& rule : rep_->rules) {
    if (rule.partial.has_value() && !rule.partial->Matches(doc)) continue;
    std::optional<int64_t> date = EarliestIndexedDateMillis(rule.spec, doc);
    if (!date.has_value()) continue;
    out.push_back({rule.name, ExpiryTime(*date, rule.expire_after_seconds),
                   rule.reject_expired});
  }
  std::stable_sort(out.begin(), out.end(),
                   [](const IndexExpiry& a, const IndexExpiry& b) {
                     return a.expires_at < b.expires_at;
                   });
  return out;
}

std::optional<absl::Time> ExpiryRules::ExpiresAt(const Value& doc) const {
  std::vector<IndexExpiry> all = Expiries(doc);
  if (all.empty()) return std::nullopt;
  return all.front().expires_at;
}

size_t ExpiryRules::size() const { return rep_->rules.size(); }

}  // namespace ttldb
