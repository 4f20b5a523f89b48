#include "agg/ops_util.h"

namespace ttldb {
namespace agg {

void RegisterObjectOperators() {}

}  // namespace agg
}  // namespace ttldb
