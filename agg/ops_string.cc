#include "agg/ops_util.h"

namespace ttldb {
namespace agg {

void RegisterStringOperators() {}

}  // namespace agg
}  // namespace ttldb
