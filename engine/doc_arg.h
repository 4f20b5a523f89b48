// A document argument given either as JSON text (Extended JSON) or as a
// Value, so every API call accepts both without overloads.
#ifndef TTLDB_ENGINE_DOC_ARG_H_
#define TTLDB_ENGINE_DOC_ARG_H_

#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "document/value.h"

namespace ttldb {

class DocArg {
 public:
  DocArg(const char* json) : json_(json) {}         // NOLINT
  DocArg(absl::string_view json) : json_(json) {}   // NOLINT
  DocArg(const std::string& json) : json_(json) {}  // NOLINT
  DocArg(const Value& value) : value_(&value) {}    // NOLINT

  // The document: parsed from JSON (an object is required), or the Value.
  absl::StatusOr<Value> Resolve() const;
  // Any JSON value (an aggregation pipeline is an array), or the Value.
  absl::StatusOr<Value> ResolveAny() const;
  // For errors: "filter", "update", ... is prepended by the caller.

 private:
  absl::string_view json_;
  const Value* value_ = nullptr;
};

}  // namespace ttldb

#endif  // TTLDB_ENGINE_DOC_ARG_H_
