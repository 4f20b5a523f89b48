// Dotted-path lookup in documents ("a.b.c", "items.0.price").
#ifndef TTLDB_DOCUMENT_PATH_H_
#define TTLDB_DOCUMENT_PATH_H_

#include <vector>

#include "absl/strings/string_view.h"
#include "ttldb/value.h"

namespace ttldb {

// A path component naming an array position: decimal digits without a
// leading zero (except "0" itself), at most 9 of them. Stores the position.
// Shared by lookups, index key generation, the matcher and updates, so that
// "a.1" means the same everywhere.
bool ParseArrayIndex(absl::string_view component, size_t* index);

// Splits "a.b.c" into {"a","b","c"}.
std::vector<absl::string_view> SplitPath(absl::string_view path);

// Exact lookup: each component names an object field, or, on an array, a
// numeric position. No traversal into array elements. nullptr if absent.
const Value* GetPath(const Value& doc, absl::string_view path);

// MongoDB's traversal, as used by index key generation: follows the path;
// when a non-final component meets an array, continues into each element
// (and a numeric component also indexes the array). Appends every value the
// path reaches. Arrays found at the end of the path are appended as arrays
// (the caller decides whether to expand them). Sets *traversed_array when
// any array was expanded on the way.
void CollectPathValues(const Value& doc, absl::string_view path,
                       std::vector<const Value*>* out,
                       bool* traversed_array = nullptr);

}  // namespace ttldb

#endif  // TTLDB_DOCUMENT_PATH_H_
