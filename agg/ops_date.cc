#include "agg/ops_util.h"

namespace ttldb {
namespace agg {

void RegisterDateOperators() {}

}  // namespace agg
}  // namespace ttldb
