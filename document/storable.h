// What a document must satisfy to be stored: the write path's last check,
// for documents built as Values (JSON text input is already checked by the
// parser). A document that passes reads back as the same document.
#ifndef TTLDB_DOCUMENT_STORABLE_H_
#define TTLDB_DOCUMENT_STORABLE_H_

#include <cstddef>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "ttldb/value.h"

namespace ttldb {

// True when `s` is well-formed UTF-8 (no overlong forms, no surrogates, no
// code points above U+10FFFF).
bool IsValidUtf8(absl::string_view s);

// The length (2-4) of the well-formed UTF-8 sequence starting at the
// non-ASCII byte *p (p < end), or 0 if there is none. The one definition of
// well-formed (RFC 3629: no overlong forms, surrogates or code points above
// U+10FFFF) for the parser, the storable check and the document cache.
size_t Utf8SequenceLength(const char* p, const char* end);

// Whether `name` is a key that makes an object an Extended JSON type
// wrapper when read back ($date, $oid, $numberLong, ...).
bool IsExtendedJsonKeyword(absl::string_view name);

// OK, or InvalidArgument naming the field path, when `doc`:
//  - nests objects/arrays deeper than kMaxNestingDepth (100);
//  - holds a string, field name, or regex that is not valid UTF-8;
//  - has a field name containing NUL; a top-level name starting with '$'
//    (MongoDB forbids them); or a nested name that is an Extended JSON type
//    keyword ($date, $oid, $numberLong, ...): ttldb stores Extended JSON,
//    where a nested {"$date": 5} would read back as a Date. Other nested
//    '$' names ({"$dollar": 2}) are stored as they are, as MongoDB 5+ does.
absl::Status CheckStorable(const Value& doc);

}  // namespace ttldb

#endif  // TTLDB_DOCUMENT_STORABLE_H_
