// The value of an index entry (docs/format.md, "Keys and values").
//
//   entry-value := encoded-id                                  (plain)
//                | 0xF8 varint(len) encoded-id siblings        (TTL entries)
//   siblings    := ( varint(index-id) varint(n) ( varint(len) key ){n} )*
//
// Every entry repeats its document's ascending `_id` encoding, so scans reach
// the document key without decoding the entry key. An ascending encoding
// starts with a bracket byte <= 0xF0 (index/key_codec.cc), so the tag 0xF8
// cannot be mistaken for one.
//
// A TTL index entry may also carry its document's "siblings": for every
// OTHER index of the collection when the entry was written, that index's id
// and the encoded keys (without index prefix and _id suffix) the document
// has in it, zero or more. The write path keeps them exact: any write that
// changes a document's keys in any index rewrites its TTL entries in the same
// WriteBatch. With them the TTL monitor deletes an expired document and all
// of its index entries from the TTL scan alone, without reading or parsing
// the document (engine/ttl_sweep.cc). An entry without siblings (written by
// format 1, or whose list would be too long) makes the monitor read the
// document instead; so does a list that lacks an index created after it was
// written.
#ifndef TTLDB_STORAGE_ENTRY_VALUE_H_
#define TTLDB_STORAGE_ENTRY_VALUE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"

namespace ttldb {

inline constexpr char kSiblingsTag = static_cast<char>(0xF8);

// Siblings longer than this are not stored (a document with large multikey
// arrays in other indexes): the monitor reads such documents instead.
inline constexpr size_t kMaxSiblingBytes = 2048;

// The encoded _id of any entry value, either form. A malformed value yields
// the whole value (which then names no document).
absl::string_view EntryValueId(absl::string_view value);

// Builds TTL entry values. Usage: Add each other index's keys (possibly
// none), then Finish(encoded_id). Reusable after Reset().
class SiblingsWriter {
 public:
  // `keys` are full entry keys: `prefix_len` bytes of index prefix, the
  // encoded key, then `id_len` bytes of encoded _id.
  void Add(uint32_t index_id, const std::vector<std::string>& keys,
           size_t prefix_len, size_t id_len);
  // The entry value; the plain form when the siblings exceed
  // kMaxSiblingBytes.
  std::string Finish(absl::string_view encoded_id) const;
  void Reset() { body_.clear(); }

 private:
  std::string body_;
};

// One index's part of a parsed sibling list.
struct SiblingIndex {
  uint32_t index_id = 0;
  std::vector<absl::string_view> keys;  // encoded keys, into the value
};

// Parses a TTL entry value. Returns false for the plain form or a malformed
// value (callers then read the document); on true, *id and *siblings point
// into `value`.
bool ParseSiblings(absl::string_view value, absl::string_view* id,
                   std::vector<SiblingIndex>* siblings);

}  // namespace ttldb

#endif  // TTLDB_STORAGE_ENTRY_VALUE_H_
