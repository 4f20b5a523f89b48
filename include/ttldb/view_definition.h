// A view's definition: what Database::CreateView stores and ListViews
// returns.
#ifndef TTLDB_VIEW_DEFINITION_H_
#define TTLDB_VIEW_DEFINITION_H_

#include <string>

#include "ttldb/value.h"

namespace ttldb {

// A view (Database::CreateView; MongoDB's create with viewOn and
// pipeline): reads of `name` run `pipeline` over `view_on`, a collection or
// another view of the same database.
struct ViewDefinition {
  std::string name;
  std::string view_on;
  Value pipeline;  // an array of stage documents ([] when none)
};

}  // namespace ttldb

#endif  // TTLDB_VIEW_DEFINITION_H_
