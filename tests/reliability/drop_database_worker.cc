// The drop-database crash test's victim: runs dropDatabase on database
// "victim" under <root> and kills itself with SIGKILL at its
// <kill_step>th step (the sync point "DatabaseSet::Drop:Step", passed
// before the rename, after it, after the directory sync and after each
// file deleted). Exits 0 when the drop finished before that step.
//
//   drop_database_worker <root> <kill_step>
#include <signal.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>

#include "base/sync_point.h"
#include "commands/command_runner.h"
#include "ttldb/json.h"

namespace ttldb {
namespace {

int Run(const char* root, int kill_step) {
  int step = 0;
  SyncPoint::Set("DatabaseSet::Drop:Step", [&step, kill_step] {
    if (step++ == kill_step) raise(SIGKILL);
  });
  commands::RunnerOptions options;
  options.database_options.ttl_monitor_enabled = false;
  auto runner = commands::CommandRunner::Open(root, options);
  if (!runner.ok()) {
    fprintf(stderr, "open: %s\n", runner.status().ToString().c_str());
    return 2;
  }
  auto conn = (*runner)->NewConnection();
  Value reply = (*runner)->Run(conn.get(), "victim",
                               *ParseDocument(R"({"dropDatabase": 1})"));
  const Value* ok = reply.Get("ok");
  if (ok == nullptr || ok->AsDouble() != 1) {
    fprintf(stderr, "dropDatabase: %s\n", ToJson(reply).c_str());
    return 2;
  }
  return (*runner)->Close().ok() ? 0 : 2;
}

}  // namespace
}  // namespace ttldb

int main(int argc, char** argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: %s <root> <kill_step>\n", argv[0]);
    return 2;
  }
  return ttldb::Run(argv[1], atoi(argv[2]));
}
