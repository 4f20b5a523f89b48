#include "agg/ops_util.h"

namespace ttldb {
namespace agg {

void RegisterSetOperators() {}

}  // namespace agg
}  // namespace ttldb
