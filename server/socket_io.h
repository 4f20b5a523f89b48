// Blocking socket reads and writes with deadlines, for the server's
// connection threads.
#ifndef TTLDB_SERVER_SOCKET_IO_H_
#define TTLDB_SERVER_SOCKET_IO_H_

#include <atomic>
#include <cstddef>
#include <cstdint>

#include "absl/time/time.h"

namespace ttldb {
namespace server {

enum class IoResult {
  kOk,
  kClosed,   // the peer closed (or reset) the connection
  kTimeout,  // the deadline passed
  kStopped,  // *stop became true while waiting
};

// Waits for `events` (POLLIN/POLLOUT) on fd until `deadline` or `*stop`
// (may be null). kOk when ready.
IoResult WaitFor(int fd, short events, absl::Time deadline,
                 const std::atomic<bool>* stop);

// Waits until `fd` is readable, polling `*stop` every 100 ms. kOk when data
// (or end of stream) can be read.
IoResult WaitReadable(int fd, const std::atomic<bool>& stop);

// Reads exactly `size` bytes before `deadline`; gives up (kStopped) when
// `stop` (may be null) becomes true.
IoResult ReadFull(int fd, uint8_t* buf, size_t size, absl::Time deadline,
                  const std::atomic<bool>* stop = nullptr);

// Writes all of data[0, size) before `deadline` (no SIGPIPE).
IoResult WriteAll(int fd, const char* data, size_t size, absl::Time deadline);

}  // namespace server
}  // namespace ttldb

#endif  // TTLDB_SERVER_SOCKET_IO_H_
