#include "tools/shell/interrupt.h"

namespace ttldb {
namespace shell {

std::atomic<bool>& InterruptFlag() {
  static std::atomic<bool> flag{false};
  static_assert(std::atomic<bool>::is_always_lock_free);
  return flag;
}

absl::Status InterruptedError() {
  return absl::AbortedError(
      "MongoshInterruptedError: execution was interrupted");
}

}  // namespace shell
}  // namespace ttldb
