// Renders Values the way MongoDB's error messages print them:
// {_id: 1, name: "x"}, ObjectId('...'), [1, 2] (internal to query/).
#ifndef TTLDB_QUERY_SHELL_FORMAT_H_
#define TTLDB_QUERY_SHELL_FORMAT_H_

#include <string>

#include "absl/strings/string_view.h"
#include "document/value.h"

namespace ttldb {
namespace query_internal {

std::string ShellString(const Value& v);

// "{name: value}".
std::string ShellField(absl::string_view name, const Value& v);

// "{_id: ...}" of a document, or "{}" when it has none.
std::string ShellId(const Value& doc);

// True if `a` and `b` have the same types and values throughout (1 and 1.0
// differ; field order matters).
bool ExactEqual(const Value& a, const Value& b);

}  // namespace query_internal
}  // namespace ttldb

#endif  // TTLDB_QUERY_SHELL_FORMAT_H_
