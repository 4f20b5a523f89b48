// A leveldb::Env that syncs LevelDB's write-ahead log when LevelDB closes
// it, so that a synced write covers every write before it.
//
// When its memtable is full LevelDB starts a new log file and closes the
// old one without syncing it (db_impl.cc, MakeRoomForWrite); the old
// memtable reaches a table file only later, in the background. A synced
// write then syncs only the new log: after a power loss before that flush,
// the unsynced writes of the old log are gone while the later synced write
// survives, breaking "a synced write makes every earlier write durable"
// (docs/reliability.md; MongoDB's j: true). Syncing the old log as it is
// closed costs one fsync per log switch (every write_buffer_bytes of
// writes). The same sync at Close (the current log) makes a clean close
// durable. Found by tests/reliability/power_cut_test.cc
// (SyncedWriteAfterALogSwitchCoversTheOldLog).
#ifndef TTLDB_STORAGE_LOG_SYNC_ENV_H_
#define TTLDB_STORAGE_LOG_SYNC_ENV_H_

#include <string>

#include "leveldb/env.h"

namespace ttldb {

class LogSyncEnv : public leveldb::EnvWrapper {
 public:
  explicit LogSyncEnv(leveldb::Env* base) : EnvWrapper(base) {}

  // Files whose name ends with ".log" are synced before they are closed
  // (Close, or destruction without Close).
  leveldb::Status NewWritableFile(const std::string& fname,
                                  leveldb::WritableFile** result) override;
  leveldb::Status NewAppendableFile(const std::string& fname,
                                    leveldb::WritableFile** result) override;
};

}  // namespace ttldb

#endif  // TTLDB_STORAGE_LOG_SYNC_ENV_H_
