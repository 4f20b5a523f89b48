// The LevelDB key layout of a ttldb database. The grammar is in keys.cc and
// docs/format.md; DO NOT CHANGE existing tags: they are on disk.
#ifndef TTLDB_STORAGE_KEYS_H_
#define TTLDB_STORAGE_KEYS_H_

#include <cstdint>
#include <string>
#include <utility>

#include "absl/strings/string_view.h"
#include "ttldb/value.h"

namespace ttldb {

// 1: the first format. 2: TTL index entries may carry their document's keys
// in the other indexes (storage/entry_value.h); format 1 databases are read
// as they are and upgraded at open. 3: every number in an index key ends
// with an exactness byte, so that Decimal128 values fit between doubles;
// older databases get their keys rebuilt at open (DbImpl::LoadCatalog).
// Bump on any change to keys.cc, key_codec.cc, entry_value.cc, the storage
// JSON or catalog.proto semantics.
inline constexpr uint32_t kFormatVersion = 3;

inline constexpr char kCatalogTag = 'C';
inline constexpr char kDocumentTag = 'D';
inline constexpr char kIndexTag = 'I';
inline constexpr char kMetaTag = 'M';
inline constexpr char kViewTag = 'V';

// Appends `v` as 4 big-endian bytes: the u32 of the keys below (and of the
// change log's records, storage/change_log.cc).
inline void AppendU32(uint32_t v, std::string* out) {
  out->push_back(static_cast<char>(v >> 24));
  out->push_back(static_cast<char>(v >> 16));
  out->push_back(static_cast<char>(v >> 8));
  out->push_back(static_cast<char>(v));
}

// The u32 AppendU32 wrote at `p` (4 bytes).
inline uint32_t DecodeU32(const char* p) {
  const auto* b = reinterpret_cast<const unsigned char*>(p);
  return (uint32_t{b[0]} << 24) | (uint32_t{b[1]} << 16) |
         (uint32_t{b[2]} << 8) | uint32_t{b[3]};
}

// 'M' "format" -> proto DatabaseMeta.
std::string MetaKey();
// 'M' "rekey" -> "": present while an open rebuilds the document and index
// keys of an older format.
std::string RekeyMarkerKey();
// 'C' name -> proto CollectionInfo.
std::string CatalogKey(absl::string_view collection_name);
// 'V' name -> proto ViewInfo.
std::string ViewKey(absl::string_view view_name);
// 'D' coll-id(u32 BE): the prefix of every document of a collection.
std::string DocumentPrefix(uint32_t collection_id);
// 'D' coll-id(u32 BE) encoded(_id).
std::string DocumentKey(uint32_t collection_id, absl::string_view encoded_id);
// 'I' coll-id(u32 BE): the prefix of every index entry of a collection.
std::string CollectionIndexPrefix(uint32_t collection_id);
// 'I' coll-id(u32 BE) index-id(u32 BE): the prefix of one index.
std::string IndexPrefix(uint32_t collection_id, uint32_t index_id);

// The ascending key encoding of an _id value (index/key_codec.h).
std::string EncodeId(const Value& id);

// The full-key range [begin, end) of the entries of a single-field index
// (`index_prefix`, direction `descending`) whose value is a Date <= cutoff:
// the low end of the Date bracket in an ascending index, its high end in a
// descending one (complemented). Only Dates: null, numbers, strings and
// every other type lie outside it.
std::pair<std::string, std::string> DatesAtOrBelowKeys(
    const std::string& index_prefix, bool descending, int64_t cutoff_millis);

}  // namespace ttldb

#endif  // TTLDB_STORAGE_KEYS_H_
