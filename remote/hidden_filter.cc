#include "remote/hidden_filter.h"

#include <utility>

namespace ttldb {
namespace remote {

std::vector<TtlRule> TtlRulesOf(const std::vector<Value>& indexes) {
  std::vector<TtlRule> rules;
  for (const Value& spec : indexes) {
    if (!spec.is_object()) continue;
    const Value* key = spec.Get("key");
    const Value* expire = spec.Get("expireAfterSeconds");
    if (key == nullptr || !key->is_object() ||
        key->object_fields().size() != 1 || expire == nullptr ||
        !expire->is_number()) {
      continue;
    }
    const std::string& field = key->object_fields()[0].first;
    if (field == "_id") continue;
    rules.push_back({field, static_cast<int64_t>(expire->AsDouble())});
  }
  return rules;
}

Value VisibleCondition(const std::vector<TtlRule>& rules, absl::Time now) {
  if (rules.empty()) return Value::Null();
  Value::Array expired;
  for (const TtlRule& rule : rules) {
    const absl::Time cutoff = now - absl::Seconds(rule.expire_after_seconds);
    expired.push_back(Value::MakeObject({Field(
        rule.field, Value::MakeObject({Field(
                        "$lte", Value::Date(absl::ToUnixMillis(cutoff)))}))}));
  }
  return Value::MakeObject(
      {Field("$nor", Value::MakeArray(std::move(expired)))});
}

Value WithVisibleCondition(const Value& filter,
                           const std::vector<TtlRule>& rules, absl::Time now) {
  Value condition = VisibleCondition(rules, now);
  if (condition.is_null()) return filter;
  if (filter.is_object() && filter.object_fields().empty()) return condition;
  return Value::MakeObject(
      {Field("$and", Value::MakeArray({filter, std::move(condition)}))});
}

Value ExpiredHolderFilter(const Value& key_value,
                          const std::vector<TtlRule>& rules, absl::Time now) {
  if (rules.empty() || !key_value.is_object() ||
      key_value.object_fields().empty()) {
    return Value::Null();
  }
  Value::Array all;
  for (const Field& f : key_value.object_fields()) {
    all.push_back(Value::MakeObject(
        {Field(f.first, Value::MakeObject({Field("$eq", f.second)}))}));
  }
  Value::Array expired;
  for (const TtlRule& rule : rules) {
    const absl::Time cutoff = now - absl::Seconds(rule.expire_after_seconds);
    expired.push_back(Value::MakeObject({Field(
        rule.field, Value::MakeObject({Field(
                        "$lte", Value::Date(absl::ToUnixMillis(cutoff)))}))}));
  }
  all.push_back(
      Value::MakeObject({Field("$or", Value::MakeArray(std::move(expired)))}));
  return Value::MakeObject({Field("$and", Value::MakeArray(std::move(all)))});
}

}  // namespace remote
}  // namespace ttldb
