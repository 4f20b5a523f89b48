#include "agg/ops_util.h"

namespace ttldb {
namespace agg {

void RegisterArrayOperators() {}

}  // namespace agg
}  // namespace ttldb
