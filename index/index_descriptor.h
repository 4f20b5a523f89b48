// An index as the query, index and TTL code see it: a plain value with
// everything the catalog stores about one secondary index, parsed. Like
// MongoDB's IndexEntry (src/mongo/db/query/index_entry.h), its lifetime is
// not tied to the catalog: the catalog's storage form (proto::IndexSpec,
// proto/catalog.proto) is converted to and from it only by catalog/
// (catalog/index_spec_proto.h), so index/, ttl/ and planner/ never see the
// proto. Every field means what the proto field of the same name means
// (docs/format.md); an optional is absent exactly when the proto's optional
// field is.
#ifndef TTLDB_INDEX_INDEX_DESCRIPTOR_H_
#define TTLDB_INDEX_INDEX_DESCRIPTOR_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ttldb {

// One field of a key pattern, e.g. {accessTime: 1}, {a.b: -1} or
// {a: "hashed"}.
struct IndexKeyField {
  std::string path;   // dotted path
  int direction = 1;  // 1 ascending, -1 descending (1 when hashed)
  // MongoDB's hashed key (index/hashed_key.h): the key is the 64-bit hash
  // of the value. At most one field of a pattern is hashed.
  bool hashed = false;

  friend bool operator==(const IndexKeyField& a, const IndexKeyField& b) {
    return a.path == b.path && a.direction == b.direction &&
           a.hashed == b.hashed;
  }
  friend bool operator!=(const IndexKeyField& a, const IndexKeyField& b) {
    return !(a == b);
  }
};

// One secondary index (the _id index is implicit and has none).
struct IndexSpec {
  uint32_t id = 0;   // unique within its collection, never reused
  std::string name;  // e.g. "accessTime_1"
  std::vector<IndexKeyField> key;
  bool unique = false;
  bool sparse = false;
  bool hidden = false;
  // Relaxed Extended JSON of the partialFilterExpression; empty when absent.
  std::string partial_filter_json;
  // TTL: present only on TTL indexes, as stored (possibly invalid: NaN,
  // negative, fractional; ttl/ttl_spec.h reads it).
  std::optional<double> expire_after_seconds;
  // Bounded lifetimes (ttl/lifetime.h).
  std::optional<int64_t> max_lifetime_seconds;
  bool reject_expired = false;
  // Whether some document ever gave the index more than one key. Absent:
  // unknown (an older catalog), treated as multikey.
  std::optional<bool> multikey;
  // The resolved collation as relaxed Extended JSON; empty: simple.
  std::string collation_json;

  // Field by field; expire_after_seconds compares as doubles (a NaN is
  // unequal to itself).
  friend bool operator==(const IndexSpec& a, const IndexSpec& b) {
    return a.id == b.id && a.name == b.name && a.key == b.key &&
           a.unique == b.unique && a.sparse == b.sparse &&
           a.hidden == b.hidden &&
           a.partial_filter_json == b.partial_filter_json &&
           a.expire_after_seconds == b.expire_after_seconds &&
           a.max_lifetime_seconds == b.max_lifetime_seconds &&
           a.reject_expired == b.reject_expired && a.multikey == b.multikey &&
           a.collation_json == b.collation_json;
  }
  friend bool operator!=(const IndexSpec& a, const IndexSpec& b) {
    return !(a == b);
  }
};

}  // namespace ttldb

#endif  // TTLDB_INDEX_INDEX_DESCRIPTOR_H_
