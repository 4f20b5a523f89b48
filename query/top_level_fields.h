// The top-level fields of a document that a filter, an aggregation
// expression or a stage reads: a reader that parses only those fields of a
// stored document (storage/document_reader.h) gives the same answers as
// the whole document, for less work (MongoDB's DepsTracker, which lets a
// pipeline's $cursor stage fetch only the fields the pipeline needs).
//
// The analysis works on the specs as written, before parsing, and errs only
// towards more fields: a path "a.b.c" needs "a" whole; anything it cannot
// follow ($where, $function, $$ROOT, $getField, an unknown operator) needs
// the whole document (all()). Specs that do not parse need nothing in
// particular: the parse that follows words their error.
#ifndef TTLDB_QUERY_TOP_LEVEL_FIELDS_H_
#define TTLDB_QUERY_TOP_LEVEL_FIELDS_H_

#include <string>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/string_view.h"
#include "ttldb/value.h"

namespace ttldb {

class TopLevelFields {
 public:
  // No field yet.
  TopLevelFields() = default;
  // Every field.
  static TopLevelFields All();

  bool all() const { return all_; }
  // Whether a reader must parse `name` (always, once all()). A reader asks
  // for every field of every document: a few names are compared, not
  // hashed.
  bool Contains(absl::string_view name) const {
    if (all_) return true;
    if (list_.size() <= kListed) {
      for (const std::string& n : list_) {
        if (n == name) return true;
      }
      return false;
    }
    return names_.contains(name);
  }
  // The fields, when not all(), in the order first added.
  const std::vector<std::string>& names() const { return list_; }

  // The first component of a dotted path ("" adds nothing).
  void AddPath(absl::string_view path);
  void AddAll() {
    all_ = true;
    names_.clear();
    list_.clear();
  }
  void Add(const TopLevelFields& other);

  // The fields a query filter ({a: 1, $or: [...], $expr: ...}) reads.
  void AddFilter(const Value& filter);
  // The fields an aggregation expression ("$a.b", {$add: ["$x", 1]}) reads
  // from $$CURRENT / $$ROOT.
  void AddExpression(const Value& expression);
  // The fields a $group accumulator ({$sum: "$x"}, {$top: {output: "$a",
  // sortBy: {b: 1}}}) reads.
  void AddAccumulator(const Value& accumulator);
  // The fields of a sort or index key pattern ({a: 1, "b.c": -1}); a $meta
  // sort needs all.
  void AddKeyPattern(const Value& pattern);

 private:
  static constexpr size_t kListed = 8;
  bool all_ = false;
  absl::flat_hash_set<std::string> names_;
  std::vector<std::string> list_;
};

}  // namespace ttldb

#endif  // TTLDB_QUERY_TOP_LEVEL_FIELDS_H_
