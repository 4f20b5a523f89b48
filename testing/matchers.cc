#include "ttldb/testing/matchers.h"

#include "absl/strings/str_cat.h"
#include "base/status.h"
#include "document/compare.h"
#include "ttldb/json.h"

namespace ttldb {

void PrintTo(const Value& value, std::ostream* os) { *os << ToJson(value); }

}  // namespace ttldb

namespace ttldb_testing {
namespace matchers_internal {

using ttldb::Value;

std::string DescribeStatus(const absl::Status& status) {
  if (status.ok()) return "OK";
  return absl::StrCat(absl::StatusCodeToString(status.code()),
                      " (MongoDB code ", ttldb::ErrorCode(status),
                      "): ", status.message());
}

namespace {

std::string Join(absl::string_view path, absl::string_view name) {
  return path.empty() ? std::string(name) : absl::StrCat(path, ".", name);
}

std::string Diff(const Value& expected, const Value& actual,
                 const std::string& path) {
  if (ttldb::ValuesEqual(expected, actual)) return "";
  const std::string where =
      path.empty() ? "the value" : absl::StrCat("field '", path, "'");
  if (expected.is_object() && actual.is_object()) {
    const auto& e = expected.object_fields();
    const auto& a = actual.object_fields();
    for (size_t i = 0; i < e.size() || i < a.size(); ++i) {
      if (i >= a.size()) {
        return absl::StrCat("field '", Join(path, e[i].first), "' is missing");
      }
      if (i >= e.size()) {
        return absl::StrCat("unexpected field '", Join(path, a[i].first),
                            "': ", ttldb::ToJson(a[i].second));
      }
      if (e[i].first != a[i].first) {
        return absl::StrCat(
            "field ", i + 1,
            path.empty() ? "" : absl::StrCat(" of '", path, "'"), " is '",
            a[i].first, "', expected '", e[i].first, "' (field order matters)");
      }
      std::string d = Diff(e[i].second, a[i].second, Join(path, e[i].first));
      if (!d.empty()) return d;
    }
  }
  if (expected.is_array() && actual.is_array()) {
    const auto& e = expected.array_items();
    const auto& a = actual.array_items();
    if (e.size() != a.size()) {
      return absl::StrCat(where, " has ", a.size(), " elements, expected ",
                          e.size());
    }
    for (size_t i = 0; i < e.size(); ++i) {
      std::string d = Diff(e[i], a[i], Join(path, absl::StrCat(i)));
      if (!d.empty()) return d;
    }
  }
  return absl::StrCat(where, ": expected ", ttldb::ToJson(expected),
                      ", actual ", ttldb::ToJson(actual));
}

}  // namespace

std::string FirstDifference(const Value& expected, const Value& actual) {
  return Diff(expected, actual, "");
}

void StatusIsMatcher::DescribeTo(std::ostream* os) const {
  *os << "is a status";
  if (code_.has_value())
    *os << " with code " << absl::StatusCodeToString(*code_);
  if (mongo_code_.has_value()) *os << " with MongoDB code " << *mongo_code_;
  *os << " whose message ";
  message_.DescribeTo(os);
}

void StatusIsMatcher::DescribeNegationTo(std::ostream* os) const {
  *os << "is not ";
  DescribeTo(os);
}

bool StatusIsMatcher::Match(const absl::Status& status,
                            ::testing::MatchResultListener* listener) const {
  *listener << "which is " << DescribeStatus(status);
  if (code_.has_value() && status.code() != *code_) return false;
  if (mongo_code_.has_value() && ttldb::ErrorCode(status) != *mongo_code_) {
    return false;
  }
  if (status.ok() && !code_.has_value()) return false;  // a MongoDB code
  return message_.Matches(std::string(status.message()));
}

EqualsJsonMatcher::EqualsJsonMatcher(std::string json)
    : json_(std::move(json)), expected_(ttldb::ParseValue(json_)) {}

bool EqualsJsonMatcher::MatchAndExplain(
    const Value& actual, ::testing::MatchResultListener* listener) const {
  if (!expected_.ok()) {
    *listener << "but the expected JSON does not parse: "
              << expected_.status().message();
    return false;
  }
  *listener << "which is " << ttldb::ToJson(actual);
  const std::string diff = FirstDifference(*expected_, actual);
  if (!diff.empty()) *listener << "; " << diff;
  return diff.empty();
}

bool EqualsJsonMatcher::MatchAndExplain(
    const std::optional<Value>& actual,
    ::testing::MatchResultListener* listener) const {
  if (!actual.has_value()) {
    *listener << "which is absent (std::nullopt)";
    return false;
  }
  return MatchAndExplain(*actual, listener);
}

void EqualsJsonMatcher::DescribeTo(std::ostream* os) const {
  *os << "equals " << json_ << " (as MongoDB compares values)";
}

void EqualsJsonMatcher::DescribeNegationTo(std::ostream* os) const {
  *os << "does not equal " << json_ << " (as MongoDB compares values)";
}

}  // namespace matchers_internal
}  // namespace ttldb_testing
