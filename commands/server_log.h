// The server's log: mongod's structured JSON lines
// ({"t":{"$date":...},"s":"I","c":"COMMAND","id":51803,"ctx":"conn3",
// "msg":"Slow query","attr":{...}}, src/mongo/logv2/README.md), kept in
// memory for getLog "global" (mongod's RamLog: the last 1024 lines) and
// handed to the runner's log sink (`ttldb serve` writes it to stderr).
//
// Thread safety: every method may be called from any thread.
#ifndef TTLDB_COMMANDS_SERVER_LOG_H_
#define TTLDB_COMMANDS_SERVER_LOG_H_

#include <cstdint>
#include <deque>
#include <functional>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "ttldb/value.h"

namespace ttldb {
namespace commands {

class ServerLog {
 public:
  // 1024: mongod's RamLog capacity (src/mongo/logv2/ramlog.h kMaxLines).
  static constexpr size_t kMaxLines = 1024;

  // `sink` (may be empty) receives each line as it is written, on the
  // writing thread; it must be thread-safe and must not call back.
  explicit ServerLog(std::function<void(absl::string_view line)> sink)
      : sink_(std::move(sink)) {}

  // Writes one line. `severity`: "I", "W", "E"; `component`: "COMMAND",
  // "NETWORK", ...; `ctx`: the thread ("conn12"); `attr`: an object (or
  // null: none).
  void Write(absl::Time t, absl::string_view severity,
             absl::string_view component, int id, absl::string_view ctx,
             absl::string_view msg, const Value& attr);

  // The lines kept (oldest first) and the count written since start.
  std::vector<std::string> Lines() const;
  int64_t total_lines_written() const;

 private:
  const std::function<void(absl::string_view)> sink_;
  mutable absl::Mutex mu_;
  std::deque<std::string> lines_ ABSL_GUARDED_BY(mu_);
  int64_t total_ ABSL_GUARDED_BY(mu_) = 0;
};

}  // namespace commands
}  // namespace ttldb

#endif  // TTLDB_COMMANDS_SERVER_LOG_H_
