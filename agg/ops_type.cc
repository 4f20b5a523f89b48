#include "agg/ops_util.h"

namespace ttldb {
namespace agg {

void RegisterTypeOperators() {}

}  // namespace agg
}  // namespace ttldb
