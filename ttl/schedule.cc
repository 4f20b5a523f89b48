#include "ttl/schedule.h"

#include <algorithm>
#include <cmath>

namespace ttldb {

absl::Time NextPassSteadyTime(absl::Time last_pass_end_steady,
                              absl::Duration sleep,
                              std::optional<absl::Time> next_expiry_wall,
                              absl::Time wall_now, absl::Time steady_now,
                              absl::Duration min_interval) {
  const absl::Time regular = last_pass_end_steady + sleep;
  if (!next_expiry_wall.has_value()) return regular;
  const absl::Duration until_expiry =
      std::max(*next_expiry_wall - wall_now, absl::ZeroDuration());
  const absl::Time early =
      std::max(steady_now + until_expiry, last_pass_end_steady + min_interval);
  return std::min(regular, early);
}

int64_t RateCappedBatchDocs(int64_t batch_docs_max, double max_per_second) {
  if (!(max_per_second > 0)) return batch_docs_max;
  const double per_second = std::floor(max_per_second);
  if (per_second >= static_cast<double>(batch_docs_max)) return batch_docs_max;
  return std::max<int64_t>(1, static_cast<int64_t>(per_second));
}

absl::Time RateCapNextAllowed(absl::Time previous, absl::Time batch_start,
                              int64_t deleted, double max_per_second) {
  if (!(max_per_second > 0)) return previous;
  return std::max(previous, batch_start) +
         absl::Seconds(static_cast<double>(deleted) / max_per_second);
}

}  // namespace ttldb
