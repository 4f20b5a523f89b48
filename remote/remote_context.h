// What every call of one remote Database shares: the pool, the database's
// name, the Options that map onto a MongoDB deployment. Internal to
// //remote.
#ifndef TTLDB_REMOTE_REMOTE_CONTEXT_H_
#define TTLDB_REMOTE_REMOTE_CONTEXT_H_

#include <memory>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "remote/client_pool.h"
#include "ttldb/clock.h"

namespace ttldb {
namespace remote {

struct RemoteContext {
  std::shared_ptr<ClientPool> pool;
  // The URI's database, else Options::db_name.
  std::string db_name;
  // Options::hide_expired: reads and writes add "not expired" to their
  // filters (remote/hidden_filter.h).
  bool hide_expired = true;
  // Options::touch_min_interval: Touch writes only dates older than this.
  absl::Duration touch_min_interval = absl::ZeroDuration();
  // Options::clock (not owned; null: the real clock): the "now" of the
  // hidden-expired cutoffs. The deployment's own clock decides expiry and
  // $currentDate; they agree when the machines' clocks do.
  Clock* clock = nullptr;

  absl::Time Now() const {
    return clock != nullptr ? clock->WallNow() : absl::Now();
  }
  // For error messages: "the MongoDB deployment at h1:27017,h2:27017".
  std::string Where() const {
    return absl::StrCat("a MongoDB deployment (", pool->hosts(),
                        "; ttldb's //remote backend)");
  }
};

}  // namespace remote
}  // namespace ttldb

#endif  // TTLDB_REMOTE_REMOTE_CONTEXT_H_
