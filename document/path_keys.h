// MongoDB's BtreeKeyGenerator over ttldb Values: the key tuples a document
// yields for a list of dotted paths. Index key generation (index/key_gen.h)
// and in-memory sort keys (query/sort.h) both use it, so an index scan and a
// blocking sort order documents the same way, as MongoDB's do
// (index/sort_key_generator.cpp builds a BtreeKeyGenerator).
#ifndef TTLDB_DOCUMENT_PATH_KEYS_H_
#define TTLDB_DOCUMENT_PATH_KEYS_H_

#include <cstddef>
#include <set>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "ttldb/value.h"

namespace ttldb {

// One component of a key tuple.
struct KeyElement {
  enum class Kind : uint8_t {
    kValue,       // *value; may be an array (an array element that is
                  // itself an array is indexed whole)
    kNull,        // the path reaches nothing: indexed as null
    kEmptyArray,  // an empty array expanded: MongoDB's `undefined` key,
                  // which sorts below null
  };
  Kind kind = Kind::kNull;
  const Value* value = nullptr;  // kValue only; points into the document

  static KeyElement Null() { return KeyElement(); }
};

// MongoDB's algorithm (src/mongo/db/index/btree_key_generator.cpp),
// summarised:
//  - Each path is followed through objects. A field that is absent, or a
//    scalar met with path left over, gives null (KeyElement::kNull).
//  - The first array met by any of the paths is expanded: one key per
//    element. Every path that meets an array at this level must meet that
//    same array (paths sharing its prefix, like "items.sku" and
//    "items.qty"); a different array is the error 171
//    CannotIndexParallelArrays "cannot index parallel arrays [<name>]
//    [<name>]" (the later path's array field name, then the first one's).
//    Paths that end at the array take each element as their value (an
//    element that is itself an array is kept whole); paths that continue
//    are followed inside each element that is an object (any other element
//    gives null). Keys are per-element tuples, not a cross product.
//  - An empty array is expanded as one `undefined` element
//    (KeyElement::kEmptyArray) for the paths ending there; paths that
//    continue through it give null.
//  - A numeric component n on an array selects element n instead, when it
//    exists; then every element's key uses it (path_keys.cc explains the
//    details; btree_key_generator_test.cpp's positional cases are the
//    specification). An element that is an object with a field named n
//    while element n exists is the error 16746 "Ambiguous field name found
//    in array ...".
//  - With `sparse`, a tuple in which no path reached anything (all kNull
//    from absent paths; an explicit null counts as reached) is dropped.
//    Otherwise a document yields at least one tuple.
// Tuples may repeat; the caller sorts and deduplicates them.
class PathKeyGenerator {
 public:
  PathKeyGenerator(const std::vector<std::string>& paths, bool sparse);

  // Replaces *keys with the tuples (one KeyElement per path, in path order)
  // that `doc` yields. `multikey_paths` (optional) receives, per path, the
  // positions of the path components whose arrays were expanded
  // (MongoDB's MultikeyPaths): the index is multikey for this document iff
  // one of them is non-empty.
  absl::Status GetKeys(
      const Value& doc, std::vector<std::vector<KeyElement>>* keys,
      std::vector<std::set<size_t>>* multikey_paths = nullptr) const;

  size_t num_paths() const { return parts_.size(); }

 private:
  struct Positional;
  struct State;
  absl::Status WithArray(State* st, std::vector<size_t> pos,
                         std::vector<KeyElement> fixed, const Value* obj,
                         size_t not_found,
                         const std::vector<Positional>& positional) const;
  absl::Status ArrayElementFixed(
      State* st, const std::vector<size_t>& pos,
      const std::vector<KeyElement>& fixed, const KeyElement& entry,
      const Value* entry_obj, size_t not_found, const Value& array,
      const std::set<size_t>& array_fields, bool may_expand,
      const std::vector<Positional>& positional) const;

  std::vector<std::vector<std::string>> parts_;
  bool sparse_;
};

}  // namespace ttldb

#endif  // TTLDB_DOCUMENT_PATH_KEYS_H_
