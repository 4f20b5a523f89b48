#include "agg/ops_util.h"

namespace ttldb {
namespace agg {

void RegisterVariableOperators() {}

}  // namespace agg
}  // namespace ttldb
