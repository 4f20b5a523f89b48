// A libbson document (bson_t) made from a ttldb Value and back, through the
// project's one codec (document/bson.h). Internal to //remote.
#ifndef TTLDB_REMOTE_BSON_DOC_H_
#define TTLDB_REMOTE_BSON_DOC_H_

#include <bson/bson.h>

#include <string>

#include "absl/status/statusor.h"
#include "ttldb/value.h"

namespace ttldb {
namespace remote {

// An owned bson_t holding one document. Movable, not copyable.
class BsonDoc {
 public:
  // An empty document {}.
  BsonDoc();
  // `doc` must be an object (InvalidArgument otherwise; 10334 when too
  // large, as ValueToBson).
  static absl::StatusOr<BsonDoc> From(const Value& doc);
  // An array (an aggregation pipeline) as the BSON document {"0": ...,
  // "1": ...} libmongoc takes for one.
  static absl::StatusOr<BsonDoc> FromArray(const Value& array);
  BsonDoc(BsonDoc&& other) noexcept;
  BsonDoc& operator=(BsonDoc&& other) noexcept;
  BsonDoc(const BsonDoc&) = delete;
  BsonDoc& operator=(const BsonDoc&) = delete;
  ~BsonDoc();

  const bson_t* get() const { return bson_; }

 private:
  explicit BsonDoc(bson_t* b) : bson_(b) {}
  bson_t* bson_;
};

// The Value of a libbson document (InvalidBSON 22 and the codec's other
// errors on malformed input).
absl::StatusOr<Value> ToValue(const bson_t* doc);

}  // namespace remote
}  // namespace ttldb

#endif  // TTLDB_REMOTE_BSON_DOC_H_
