// MongoDB's query-time traversal of a dotted path, shared by the filter and
// sort evaluators (internal to query/).
#ifndef TTLDB_QUERY_PATH_VALUES_H_
#define TTLDB_QUERY_PATH_VALUES_H_

#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "document/path.h"
#include "document/value.h"

namespace ttldb {
namespace query_internal {

// Appends to *out every value `parts` reaches from `root`, the way MongoDB's
// matcher walks a path:
//  - an object component names a field;
//  - on an array, a numeric component selects that element, and the same
//    component is also looked up in every object element (arrays nested
//    directly in arrays are not entered, scalars are skipped);
//  - a field that is absent (or a scalar met before the path ends)
//    contributes nullptr ("missing"); if an array contributes nothing at all
//    it contributes one nullptr;
//  - when `expand_leaf_arrays` is true, an array found at the end of the
//    path contributes itself and then each of its elements.
void CollectValues(const Value& root, const std::vector<std::string>& parts,
                   bool expand_leaf_arrays, std::vector<const Value*>* out);

// Splits "a.b.c" into its components.
std::vector<std::string> SplitDotted(absl::string_view path);

using ::ttldb::ParseArrayIndex;  // document/path.h

}  // namespace query_internal
}  // namespace ttldb

#endif  // TTLDB_QUERY_PATH_VALUES_H_
