// A document argument given either as JSON text (Extended JSON) or as a
// Value, so every API call accepts both without overloads.
#ifndef TTLDB_DOC_ARG_H_
#define TTLDB_DOC_ARG_H_

#include <memory>
#include <string>
#include <utility>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "ttldb/value.h"

namespace ttldb {

// Lifetime: a DocArg borrows what it is given as an lvalue (a string
// literal or other const char*, an absl::string_view, a std::string or
// Value variable), which must then outlive it, and takes ownership of what
// it is given as an rvalue (a temporary std::string such as
// absl::StrCat(...)'s, or a temporary Value), so
//
//   std::vector<DocArg> docs;
//   docs.push_back(absl::StrCat(R"({"_id": )", i, "}"));
//
// is safe. Copies of a DocArg share what it owns.
class DocArg {
 public:
  DocArg(const char* json) : json_(json) {}         // NOLINT
  DocArg(absl::string_view json) : json_(json) {}   // NOLINT
  DocArg(const std::string& json) : json_(json) {}  // NOLINT
  DocArg(std::string&& json)                        // NOLINT
      : owned_json_(std::make_shared<const std::string>(std::move(json))),
        json_(*owned_json_) {}
  DocArg(const Value& value) : value_(&value) {}  // NOLINT
  DocArg(Value&& value)                           // NOLINT
      : owned_value_(std::make_shared<const Value>(std::move(value))),
        value_(owned_value_.get()) {}

  // The document: parsed from JSON (an object is required), or the Value.
  absl::StatusOr<Value> Resolve() const;
  // Any JSON value (an aggregation pipeline is an array), or the Value.
  absl::StatusOr<Value> ResolveAny() const;
  // For errors: "filter", "update", ... is prepended by the caller.

 private:
  friend class DocArgInternal;  // engine/doc_arg_internal.h

  // Declared before the views into them (initialization order).
  std::shared_ptr<const std::string> owned_json_;
  std::shared_ptr<const Value> owned_value_;
  absl::string_view json_;
  const Value* value_ = nullptr;
};

}  // namespace ttldb

#endif  // TTLDB_DOC_ARG_H_
