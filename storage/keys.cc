// Key layout of one ttldb database (one LevelDB per directory).
//
// Every key starts with a one-byte tag, then fixed-width big-endian ids, so
// that one collection's documents, and one index's entries, are each a
// contiguous key range under LevelDB's bytewise comparator:
//
//   meta        := 'M' "format"                       -> DatabaseMeta (proto)
//   rekey       := 'M' "rekey"                        -> "" (while upgrading)
//   catalog     := 'C' collection-name                -> CollectionInfo (proto)
//   view        := 'V' view-name                      -> ViewInfo (proto)
//   document    := 'D' coll-id:u32be encoded-id       -> storage-json
//   index-entry := 'I' coll-id:u32be index-id:u32be
//                      encoded-key encoded-id          -> encoded-id
//
//   encoded-id   := the ascending key encoding of the _id value
//                   (index/key_codec.cc); self-delimiting.
//   encoded-key  := for each field of the key pattern, in order, the key
//                   encoding of the field's value, complemented for a
//                   descending field. Multikey documents have one entry per
//                   array element.
//   storage-json := the document as ttldb's storage JSON
//                   (ttldb/json.h, JsonFormat::kStorage): relaxed
//                   Extended JSON that keeps int32/int64/double exact.
//
// The entry value repeats encoded-id so that the TTL monitor and index scans
// reach the document key without parsing the entry key. Collection and
// index ids are never reused, so keys left behind by an interrupted drop
// can never be mistaken for a new collection's.
#include "storage/keys.h"

#include "index/key_codec.h"

namespace ttldb {

std::string MetaKey() { return std::string(1, kMetaTag) + "format"; }

std::string RekeyMarkerKey() { return std::string(1, kMetaTag) + "rekey"; }

std::string CatalogKey(absl::string_view collection_name) {
  std::string key(1, kCatalogTag);
  key.append(collection_name.data(), collection_name.size());
  return key;
}

std::string ViewKey(absl::string_view view_name) {
  std::string key(1, kViewTag);
  key.append(view_name.data(), view_name.size());
  return key;
}

std::string DocumentPrefix(uint32_t collection_id) {
  std::string key(1, kDocumentTag);
  AppendU32(collection_id, &key);
  return key;
}

std::string DocumentKey(uint32_t collection_id, absl::string_view encoded_id) {
  std::string key = DocumentPrefix(collection_id);
  key.append(encoded_id.data(), encoded_id.size());
  return key;
}

std::string CollectionIndexPrefix(uint32_t collection_id) {
  std::string key(1, kIndexTag);
  AppendU32(collection_id, &key);
  return key;
}

std::string IndexPrefix(uint32_t collection_id, uint32_t index_id) {
  std::string key = CollectionIndexPrefix(collection_id);
  AppendU32(index_id, &key);
  return key;
}

std::string EncodeId(const Value& id) {
  std::string out;
  AppendKeyValue(id, /*descending=*/false, &out);
  return out;
}

std::pair<std::string, std::string> DatesAtOrBelowKeys(
    const std::string& index_prefix, bool descending, int64_t cutoff_millis) {
  std::string cutoff;
  AppendKeyValue(Value::Date(cutoff_millis), descending, &cutoff);
  // Every Date shares one type bracket whose first byte is the same.
  const std::string bracket = index_prefix + cutoff[0];
  if (!descending) {
    return {bracket, KeyPrefixEnd(index_prefix + cutoff)};
  }
  // Complemented: later dates sort first; dates <= cutoff are the keys from
  // encode(cutoff) to the end of the bracket.
  return {index_prefix + cutoff, KeyPrefixEnd(bracket)};
}

}  // namespace ttldb
