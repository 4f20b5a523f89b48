// What the engine reads of a DocArg beyond the public API (as LevelDB's
// WriteBatchInternal is to WriteBatch): not part of the library's contract.
#ifndef TTLDB_ENGINE_DOC_ARG_INTERNAL_H_
#define TTLDB_ENGINE_DOC_ARG_INTERNAL_H_

#ifndef TTLDB_INTERNAL
#error "engine/doc_arg_internal.h is internal to ttldb"
#endif

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "ttldb/doc_arg.h"
#include "ttldb/value.h"

namespace ttldb {

class DocArgInternal {
 public:
  // DocArg::Resolve, for inserts: when the JSON text is already the
  // document's storage form (ParseDocumentNotingForm in ttldb/json.h),
  // also sets *storage_json to it (a view into `arg`), else to empty, so
  // that the write path can store it without serializing the document again.
  static absl::StatusOr<Value> ResolveNotingForm(
      const DocArg& arg, absl::string_view* storage_json);
};

}  // namespace ttldb

#endif  // TTLDB_ENGINE_DOC_ARG_INTERNAL_H_
