// The logging hook a service gives ttldb (Options::logger): TTL monitor
// passes, compactions, errors ttldb recovered from (a failed TTL batch, an
// invalid TTL index skipped) and LevelDB's own messages. The default (an
// empty hook) writes nothing.
#ifndef TTLDB_LOGGER_H_
#define TTLDB_LOGGER_H_

#include <functional>

#include "absl/strings/string_view.h"

namespace ttldb {

enum class LogLevel {
  kDebug,    // every pass, every compaction, LevelDB's messages
  kInfo,     // a pass that deleted documents
  kWarning,  // something ttldb worked around: a failed TTL batch, ...
  kError,    // a write failure that makes the database read-only
};

// "debug", "info", "warning", "error".
inline absl::string_view LogLevelName(LogLevel level) {
  switch (level) {
    case LogLevel::kDebug:
      return "debug";
    case LogLevel::kInfo:
      return "info";
    case LogLevel::kWarning:
      return "warning";
    case LogLevel::kError:
      return "error";
  }
  return "unknown";
}

// Called on ttldb's threads (the monitor's, the compaction thread,
// LevelDB's background thread, or a writer's), possibly on several at
// once: it must be thread-safe, must not call back into the database, and
// should be fast. Exceptions must not escape it.
using Logger = std::function<void(LogLevel level, absl::string_view message)>;

}  // namespace ttldb

#endif  // TTLDB_LOGGER_H_
