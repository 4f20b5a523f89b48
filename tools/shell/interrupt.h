// Ctrl-C in the shell: a process-wide flag the SIGINT handler sets and the
// running statement polls.
//
// The REPL clears it before each entry. The evaluator checks it between
// statements and between the documents of a cursor it reads or prints; the
// engine backend passes it to multi-document writes (WriteOptions::
// interrupt), which stop between documents, as MongoDB's killOp stops a
// multi-document write, keeping what was written. The statement then fails
// with InterruptedError() and the shell returns to its prompt.
#ifndef TTLDB_TOOLS_SHELL_INTERRUPT_H_
#define TTLDB_TOOLS_SHELL_INTERRUPT_H_

#include <atomic>

#include "absl/status/status.h"

namespace ttldb {
namespace shell {

// The flag. Setting it is async-signal-safe (a lock-free atomic store).
std::atomic<bool>& InterruptFlag();

inline bool InterruptRequested() {
  return InterruptFlag().load(std::memory_order_relaxed);
}

// "MongoshInterruptedError: execution was interrupted", as mongosh reports
// a statement stopped by Ctrl-C.
absl::Status InterruptedError();

}  // namespace shell
}  // namespace ttldb

#endif  // TTLDB_TOOLS_SHELL_INTERRUPT_H_
