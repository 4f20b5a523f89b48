// How Options::touch_min_interval (touch coalescing, beyond MongoDB) must
// relate to a TTL index's expireAfterSeconds.
//
// Collection::Touch leaves a document unwritten while its stored date is
// younger than the interval I, so the stored date of a document last used at
// time a lies in (a - I, a], and the document expires (E after the stored
// date) between a + E - I (exclusive) and a + E: the effective idle timeout
// is more than E - I and at most E. With I >= E a session used every few
// seconds can expire while in use. So I must be at most half of E: the idle
// timeout is then always more than E / 2.
#ifndef TTLDB_TTL_TOUCH_INTERVAL_H_
#define TTLDB_TTL_TOUCH_INTERVAL_H_

#include <cstdint>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"

namespace ttldb {

// OK when `touch_min_interval` is zero (no coalescing), when
// `expire_after_seconds` is 0 (an expireAt index: the date is the expiry
// time itself, and touching it expires the document at once whatever the
// interval), or when 2 * touch_min_interval <= expire_after_seconds.
// Otherwise InvalidArgument with MongoDB error code `code` (67 for
// createIndex, 72 for collMod, 2 BadValue at Open) naming the index, both
// values and the fix.
absl::Status CheckTouchInterval(absl::Duration touch_min_interval,
                                int64_t expire_after_seconds,
                                absl::string_view collection,
                                absl::string_view index_name, int code);

}  // namespace ttldb

#endif  // TTLDB_TTL_TOUCH_INTERVAL_H_
