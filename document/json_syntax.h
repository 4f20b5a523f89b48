// Locates the first syntax error in JSON text, for error messages.
//
// simdjson reports that a document is malformed but not where; this slower
// checker is run only after simdjson has rejected a document, to tell the
// user the byte offset and what was expected there.
#ifndef TTLDB_DOCUMENT_JSON_SYNTAX_H_
#define TTLDB_DOCUMENT_JSON_SYNTAX_H_

#include <cstddef>
#include <string>

#include "absl/strings/string_view.h"

namespace ttldb {

struct JsonSyntaxError {
  size_t offset = 0;     // byte offset of the offending character
  std::string expected;  // e.g. "expected ',' or '}'"
};

// Checks `json` against the JSON grammar (RFC 8259), one value with optional
// surrounding whitespace. Returns false and fills *error at the first
// violation; true if the text is grammatical. Does not check UTF-8.
bool CheckJsonSyntax(absl::string_view json, JsonSyntaxError* error);

}  // namespace ttldb

#endif  // TTLDB_DOCUMENT_JSON_SYNTAX_H_
