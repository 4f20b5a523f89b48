#include "ttldb/cursor.h"

#include <utility>

#include "base/status.h"

namespace ttldb {

absl::StatusOr<std::vector<Value>> Cursor::ToVector() {
  std::vector<Value> out;
  while (true) {
    ASSIGN_OR_RETURN(std::optional<Value> doc, Next());
    if (!doc.has_value()) return out;
    out.push_back(std::move(*doc));
  }
}

}  // namespace ttldb
