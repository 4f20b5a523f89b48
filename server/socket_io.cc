#include "server/socket_io.h"

#include <poll.h>
#include <sys/socket.h>
#include <sys/types.h>

#include <algorithm>
#include <cerrno>

#include "absl/time/clock.h"

namespace ttldb {
namespace server {
namespace {

// 100 ms: how often a waiting thread looks at the stop flag.
constexpr int kStopPollMillis = 100;

// Waits for `events` on fd until `deadline` or `*stop`. kOk when ready.
IoResult WaitFor(int fd, short events, absl::Time deadline,
                 const std::atomic<bool>* stop) {
  for (;;) {
    if (stop != nullptr && stop->load()) return IoResult::kStopped;
    int64_t left = absl::ToInt64Milliseconds(deadline - absl::Now());
    if (left <= 0) return IoResult::kTimeout;
    pollfd p{fd, events, 0};
    int n = poll(&p, 1,
                 static_cast<int>(std::min<int64_t>(
                     left, stop != nullptr ? kStopPollMillis : 1 << 30)));
    if (n > 0) return IoResult::kOk;
    if (n < 0 && errno != EINTR) return IoResult::kClosed;
  }
}

}  // namespace

IoResult WaitReadable(int fd, const std::atomic<bool>& stop) {
  while (!stop.load()) {
    pollfd p{fd, POLLIN, 0};
    int n = poll(&p, 1, kStopPollMillis);
    if (n > 0) return IoResult::kOk;
    if (n < 0 && errno != EINTR) return IoResult::kClosed;
  }
  return IoResult::kStopped;
}

IoResult ReadFull(int fd, uint8_t* buf, size_t size, absl::Time deadline,
                  const std::atomic<bool>* stop) {
  // recv first and poll only when nothing is there: a request's body has
  // usually arrived with its header, so this saves a poll per read (two
  // per request) on the latency path.
  size_t got = 0;
  while (got < size) {
    ssize_t n = recv(fd, buf + got, size - got, MSG_DONTWAIT);
    if (n == 0) return IoResult::kClosed;
    if (n < 0) {
      if (errno == EINTR) continue;
      if (errno != EAGAIN && errno != EWOULDBLOCK) return IoResult::kClosed;
      IoResult r = WaitFor(fd, POLLIN, deadline, stop);
      if (r != IoResult::kOk) return r;
      continue;
    }
    got += static_cast<size_t>(n);
  }
  return IoResult::kOk;
}

IoResult WriteAll(int fd, const char* data, size_t size, absl::Time deadline) {
  // send first and poll only when the socket buffer is full (a reply
  // usually fits): one syscall per reply instead of two.
  size_t sent = 0;
  while (sent < size) {
    ssize_t n = send(fd, data + sent, size - sent, MSG_NOSIGNAL | MSG_DONTWAIT);
    if (n < 0) {
      if (errno == EINTR) continue;
      if (errno != EAGAIN && errno != EWOULDBLOCK) return IoResult::kClosed;
      IoResult r = WaitFor(fd, POLLOUT, deadline, nullptr);
      if (r != IoResult::kOk) return r;
      continue;
    }
    sent += static_cast<size_t>(n);
  }
  return IoResult::kOk;
}

}  // namespace server
}  // namespace ttldb
