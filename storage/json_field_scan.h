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

#include "absl/functional/function_ref.h"
#include "absl/strings/string_view.h"

namespace ttldb {

enum class FieldScan { kFound, kAbsent, kUnsure };

// Calls fn(name, value text) for each top-level field of the JSON object
// `json`, in order, until fn returns false. Returns false when the text is
// not what the scan can read with certainty (as kUnsure below: fn may have
// been called for the fields before the point of doubt); true when it
// walked the whole object or fn stopped it (the text after that point is
// not looked at).
bool ScanTopLevelFields(
    absl::string_view json,
    absl::FunctionRef<bool(absl::string_view name, absl::string_view value)>
        fn);

// The text of the first top-level field named `name` of the JSON object
// `json` (the first, as Value::Get finds it) into *value.
FieldScan FindTopLevelField(absl::string_view json, absl::string_view name,
                            absl::string_view* value);

}  // namespace ttldb

#endif  // TTLDB_STORAGE_JSON_FIELD_SCAN_H_
