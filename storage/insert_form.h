// An insert whose JSON text is already the document's storage form
// (ParseDocumentNotingForm, ttldb/json.h) is stored as that text: no
// serialization, and none of the walks that only guard what serialization
// and re-reading could change (CheckStorable, ReparsesIdentically; the BSON
// size below a bound). Measured: about 1,000 of a 256 B insert's ~8,600
// cycles ("Round 5, session 8: inserts" in docs/benchmarks-history.md).
#ifndef TTLDB_STORAGE_INSERT_FORM_H_
#define TTLDB_STORAGE_INSERT_FORM_H_

#include <cstddef>
#include <string>

#include "absl/strings/string_view.h"
#include "ttldb/json.h"
#include "ttldb/value.h"

namespace ttldb {

// The largest storage JSON whose document is certainly within
// kMaxDocumentBytes of BSON, so that BsonDocumentSize need not run. A BSON
// element takes at most 6.5 bytes per byte of its storage JSON: the worst
// is a one-digit integer in an array of up to a million items ("0," is 2
// bytes; its BSON element is type, 7 digits of index, NUL and 4 bytes, 13);
// "", {}, [] and null items, and fields of every kind, take less (a field
// "":0, is 5 bytes of JSON and 6 of BSON). 2 MiB of JSON is then at most
// 13 MiB of BSON (tests/insert_form_test checks the worst case).
inline constexpr size_t kMaxJsonBytesWithinBsonLimit = kMaxDocumentBytes / 8;

// The stored text of an inserted document parsed from `input_json`, which
// ParseDocumentNotingForm found to be in the storage form: `input_json`
// itself when the document's _id was its first field, or, when it had none
// and InsertLocked put `generated_id` in front, the input with that field
// spliced in front (in *buffer). Empty when neither holds (an _id elsewhere
// is moved to the front: the document is serialized as usual).
absl::string_view StoredInsertJson(absl::string_view input_json,
                                   bool id_was_first, const Value* generated_id,
                                   std::string* buffer);

}  // namespace ttldb

#endif  // TTLDB_STORAGE_INSERT_FORM_H_
