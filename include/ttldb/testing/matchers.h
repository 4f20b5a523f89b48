// gMock matchers for ttldb's results: absl::Status / absl::StatusOr (with
// MongoDB's error codes, base/status.h) and documents compared as MongoDB
// compares them. Part of @ttldb//testing:ttldb_testing.
//
//   using ttldb_testing::EqualsJson;
//   using ttldb_testing::IsOk;
//   using ttldb_testing::IsOkAndHolds;
//   using ttldb_testing::StatusIs;
//
//   EXPECT_THAT(c.InsertOne(R"({"_id": 1})"), IsOk());
//   EXPECT_THAT(c.InsertOne(R"({"_id": 1})"),
//               StatusIs(11000, "duplicate key"));   // MongoDB's code
//   EXPECT_THAT(c.UpdateOne("{", "{}"),
//               StatusIs(absl::StatusCode::kInvalidArgument));
//   EXPECT_THAT(c.FindById(Value::Int32(1)),
//               IsOkAndHolds(EqualsJson(R"({"_id": 1.0})")));
//   EXPECT_THAT(c.FindOne("{}"),
//               IsOkAndHolds(testing::Optional(EqualsJson("{...}"))));
//
// Failures print statuses as "ALREADY_EXISTS (MongoDB code 11000): E11000
// ..." and documents as relaxed Extended JSON, with the first difference.
#ifndef TTLDB_TESTING_MATCHERS_H_
#define TTLDB_TESTING_MATCHERS_H_

#include <optional>
#include <ostream>
#include <string>
#include <type_traits>
#include <utility>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "gmock/gmock.h"
#include "ttldb/value.h"

namespace ttldb {

// gtest prints a Value as relaxed Extended JSON (found by ADL).
void PrintTo(const Value& value, std::ostream* os);

}  // namespace ttldb

namespace ttldb_testing {
namespace matchers_internal {

inline const absl::Status& GetStatus(const absl::Status& status) {
  return status;
}
template <typename T>
const absl::Status& GetStatus(const absl::StatusOr<T>& status_or) {
  return status_or.status();
}

// "OK", or "NOT_FOUND (MongoDB code 26): ns does not exist".
std::string DescribeStatus(const absl::Status& status);

// The first difference between two values as MongoDB compares them
// ("field 'a.b': expected 1, actual 2"), or "" when they compare equal.
std::string FirstDifference(const ttldb::Value& expected,
                            const ttldb::Value& actual);

class IsOkMatcher {
 public:
  template <typename T>
  bool MatchAndExplain(const T& actual,
                       ::testing::MatchResultListener* listener) const {
    const absl::Status& status = GetStatus(actual);
    if (!status.ok()) *listener << "which is " << DescribeStatus(status);
    return status.ok();
  }
  void DescribeTo(std::ostream* os) const { *os << "is OK"; }
  void DescribeNegationTo(std::ostream* os) const { *os << "is not OK"; }
};

class StatusIsMatcher {
 public:
  StatusIsMatcher(std::optional<absl::StatusCode> code,
                  std::optional<int> mongo_code,
                  ::testing::Matcher<const std::string&> message)
      : code_(code), mongo_code_(mongo_code), message_(std::move(message)) {}

  template <typename T>
  bool MatchAndExplain(const T& actual,
                       ::testing::MatchResultListener* listener) const {
    return Match(GetStatus(actual), listener);
  }
  void DescribeTo(std::ostream* os) const;
  void DescribeNegationTo(std::ostream* os) const;

 private:
  bool Match(const absl::Status& status,
             ::testing::MatchResultListener* listener) const;
  std::optional<absl::StatusCode> code_;
  std::optional<int> mongo_code_;
  ::testing::Matcher<const std::string&> message_;
};

template <typename InnerMatcher>
class IsOkAndHoldsMatcher {
 public:
  explicit IsOkAndHoldsMatcher(InnerMatcher inner) : inner_(std::move(inner)) {}

  template <typename StatusOrType>
  operator ::testing::Matcher<StatusOrType>() const {  // NOLINT
    using T = typename std::decay_t<StatusOrType>::value_type;
    return ::testing::Matcher<StatusOrType>(new Impl<StatusOrType, T>(
        ::testing::SafeMatcherCast<const T&>(inner_)));
  }

 private:
  template <typename StatusOrType, typename T>
  class Impl : public ::testing::MatcherInterface<StatusOrType> {
   public:
    explicit Impl(::testing::Matcher<const T&> inner)
        : inner_(std::move(inner)) {}
    bool MatchAndExplain(
        StatusOrType actual,
        ::testing::MatchResultListener* listener) const override {
      if (!actual.ok()) {
        *listener << "which is " << DescribeStatus(actual.status());
        return false;
      }
      ::testing::StringMatchResultListener inner_listener;
      const bool matches = inner_.MatchAndExplain(*actual, &inner_listener);
      *listener << "which is OK and holds "
                << ::testing::PrintToString(*actual);
      if (!inner_listener.str().empty()) {
        *listener << ", " << inner_listener.str();
      }
      return matches;
    }
    void DescribeTo(std::ostream* os) const override {
      *os << "is OK and holds a value that ";
      inner_.DescribeTo(os);
    }
    void DescribeNegationTo(std::ostream* os) const override {
      *os << "is not OK, or holds a value that ";
      inner_.DescribeNegationTo(os);
    }

   private:
    const ::testing::Matcher<const T&> inner_;
  };

  const InnerMatcher inner_;
};

class EqualsJsonMatcher {
 public:
  explicit EqualsJsonMatcher(std::string json);

  bool MatchAndExplain(const ttldb::Value& actual,
                       ::testing::MatchResultListener* listener) const;
  bool MatchAndExplain(const std::optional<ttldb::Value>& actual,
                       ::testing::MatchResultListener* listener) const;
  void DescribeTo(std::ostream* os) const;
  void DescribeNegationTo(std::ostream* os) const;

 private:
  std::string json_;
  absl::StatusOr<ttldb::Value> expected_;
};

}  // namespace matchers_internal

// Matches an OK absl::Status or absl::StatusOr<T>.
inline ::testing::PolymorphicMatcher<matchers_internal::IsOkMatcher> IsOk() {
  return ::testing::MakePolymorphicMatcher(matchers_internal::IsOkMatcher());
}

// Matches a Status or StatusOr with this absl::StatusCode, or this MongoDB
// error code (11000, 73, ...: base/status.h ErrorCode), and whose message
// contains `substr` or matches `message` (a matcher on std::string).
inline ::testing::PolymorphicMatcher<matchers_internal::StatusIsMatcher>
StatusIs(absl::StatusCode code) {
  return ::testing::MakePolymorphicMatcher(matchers_internal::StatusIsMatcher(
      code, std::nullopt, ::testing::A<const std::string&>()));
}
inline ::testing::PolymorphicMatcher<matchers_internal::StatusIsMatcher>
StatusIs(int mongo_code) {
  return ::testing::MakePolymorphicMatcher(matchers_internal::StatusIsMatcher(
      std::nullopt, mongo_code, ::testing::A<const std::string&>()));
}
inline ::testing::PolymorphicMatcher<matchers_internal::StatusIsMatcher>
StatusIs(absl::StatusCode code, const std::string& substr) {
  return ::testing::MakePolymorphicMatcher(matchers_internal::StatusIsMatcher(
      code, std::nullopt, ::testing::HasSubstr(substr)));
}
inline ::testing::PolymorphicMatcher<matchers_internal::StatusIsMatcher>
StatusIs(int mongo_code, const std::string& substr) {
  return ::testing::MakePolymorphicMatcher(matchers_internal::StatusIsMatcher(
      std::nullopt, mongo_code, ::testing::HasSubstr(substr)));
}
inline ::testing::PolymorphicMatcher<matchers_internal::StatusIsMatcher>
StatusIs(absl::StatusCode code, const char* substr) {
  return StatusIs(code, std::string(substr));
}
inline ::testing::PolymorphicMatcher<matchers_internal::StatusIsMatcher>
StatusIs(int mongo_code, const char* substr) {
  return StatusIs(mongo_code, std::string(substr));
}
inline ::testing::PolymorphicMatcher<matchers_internal::StatusIsMatcher>
StatusIs(absl::StatusCode code,
         ::testing::Matcher<const std::string&> message) {
  return ::testing::MakePolymorphicMatcher(matchers_internal::StatusIsMatcher(
      code, std::nullopt, std::move(message)));
}

inline ::testing::PolymorphicMatcher<matchers_internal::StatusIsMatcher>
StatusIs(int mongo_code, ::testing::Matcher<const std::string&> message) {
  return ::testing::MakePolymorphicMatcher(matchers_internal::StatusIsMatcher(
      std::nullopt, mongo_code, std::move(message)));
}

// Matches an OK absl::StatusOr<T> whose value matches `inner` (a matcher,
// or a value compared with ==).
template <typename InnerMatcher>
matchers_internal::IsOkAndHoldsMatcher<std::decay_t<InnerMatcher>> IsOkAndHolds(
    InnerMatcher&& inner) {
  return matchers_internal::IsOkAndHoldsMatcher<std::decay_t<InnerMatcher>>(
      std::forward<InnerMatcher>(inner));
}

// Matches a Value (or a present std::optional<Value>) equal to the
// Extended JSON `json` as MongoDB compares values: numbers by value across
// types (1, 1.0, {"$numberLong": "1"} are equal), field order and names
// significant in documents, array order significant. A mismatch names the
// first differing field.
inline ::testing::PolymorphicMatcher<matchers_internal::EqualsJsonMatcher>
EqualsJson(absl::string_view json) {
  return ::testing::MakePolymorphicMatcher(
      matchers_internal::EqualsJsonMatcher(std::string(json)));
}

}  // namespace ttldb_testing

#endif  // TTLDB_TESTING_MATCHERS_H_
