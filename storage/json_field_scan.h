// Finds one top-level field of a stored JSON document without parsing the
// document: the raw read path (Collection::FindByIdJson) needs only the TTL
// index's date to decide whether reads hide the document.
//
// The scan is conservative. It walks the top-level object's keys, skipping
// each value by its brackets and strings, and answers kFound (with the
// value's exact text), kAbsent, or kUnsure whenever the text is not what it
// can read with certainty (a key with an escape sequence, malformed JSON,
// anything unexpected). A caller that gets kUnsure parses the whole
// document instead, which decides and words any error. The found value's
// text is not validated: the caller parses it (ParseValue).
#ifndef TTLDB_STORAGE_JSON_FIELD_SCAN_H_
#define TTLDB_STORAGE_JSON_FIELD_SCAN_H_

#include "absl/strings/string_view.h"

namespace ttldb {

enum class FieldScan { kFound, kAbsent, kUnsure };

// The text of the first top-level field named `name` of the JSON object
// `json` (the first, as Value::Get finds it) into *value.
FieldScan FindTopLevelField(absl::string_view json, absl::string_view name,
                            absl::string_view* value);

}  // namespace ttldb

#endif  // TTLDB_STORAGE_JSON_FIELD_SCAN_H_
