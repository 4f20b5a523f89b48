#include "agg/ops_util.h"

namespace ttldb {
namespace agg {

void RegisterConditionalOperators() {}

}  // namespace agg
}  // namespace ttldb
