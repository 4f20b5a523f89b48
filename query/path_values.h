// MongoDB's query-time traversal of a dotted path, shared by the filter and
// sort evaluators (internal to query/).
#ifndef TTLDB_QUERY_PATH_VALUES_H_
#define TTLDB_QUERY_PATH_VALUES_H_

#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "document/path.h"
#include "ttldb/value.h"

namespace ttldb {
namespace query_internal {

// Appends to *out every value `parts` reaches from `root`, as MongoDB
// 8.0's matcher walks a path (BSONElementIterator, matcher/path.cpp; the
// expectations are path_test.cpp's):
//  - an object component names a field; a field that is absent, or a
//    scalar met with path left over, contributes nullptr ("missing");
//  - on an array with path left over, each element that is an object is
//    walked with the same component; if the component is a number n, the
//    element at position n is also walked with the components after it
//    (or is itself the value if none are left: an array element selected
//    this way is never expanded). Other elements (scalars, and arrays
//    nested in the array that no offset selects) contribute nothing, so an
//    empty array or an array of scalars contributes no value at all: in
//    8.0 {"a.b": null} does not match {a: []} or {a: [1]} (SERVER-36681
//    changes this after 8.0);
//  - an array at the end of the path contributes itself, and then each of
//    its elements when `expand_leaf_arrays` is true.
// `root` is normally an object; an array root is read as the object BSON
// stores it as ({"0": ..., "1": ...}), as $elemMatch does with elements
// that are arrays.
void CollectValues(const Value& root, const std::vector<std::string>& parts,
                   bool expand_leaf_arrays, std::vector<const Value*>* out);

// Splits "a.b.c" into its components.
std::vector<std::string> SplitDotted(absl::string_view path);

using ::ttldb::ParseArrayIndex;  // document/path.h

}  // namespace query_internal
}  // namespace ttldb

#endif  // TTLDB_QUERY_PATH_VALUES_H_
