// Renders Values the way MongoDB's error messages print them, in the
// shell's syntax: {_id: 1, name: "x"}, ObjectId('...'), [1, 2]
// (BSONElement::toString, src/mongo/bson/bsonelement.cpp). The update and
// partial-filter errors quote values with it.
#ifndef TTLDB_DOCUMENT_SHELL_FORMAT_H_
#define TTLDB_DOCUMENT_SHELL_FORMAT_H_

#include <string>

#include "absl/strings/string_view.h"
#include "ttldb/value.h"

namespace ttldb {

std::string ShellString(const Value& v);

// "{name: value}".
std::string ShellField(absl::string_view name, const Value& v);

// "{_id: ...}" of a document, or "{}" when it has none.
std::string ShellId(const Value& doc);

}  // namespace ttldb

#endif  // TTLDB_DOCUMENT_SHELL_FORMAT_H_
