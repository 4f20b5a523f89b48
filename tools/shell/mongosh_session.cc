#include "tools/shell/mongosh_session.h"

#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <memory>

#include "absl/cleanup/cleanup.h"
#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "server/server.h"

extern char** environ;

namespace ttldb {
namespace {

constexpr char kSocketName[] = "/mongodb.sock";
// sun_path's size less its terminating NUL: a longer path cannot be bound.
constexpr size_t kSocketPathMax = sizeof(sockaddr_un::sun_path) - 1;

// The child while it runs, for the SIGTERM/SIGHUP handler (async-signal-
// safe: an atomic load and kill).
std::atomic<pid_t> g_child{0};

void ForwardToChild(int sig) {
  pid_t child = g_child.load();
  if (child > 0) kill(child, sig);
}

// A fresh directory only this user can enter (mkdtemp makes it 0700), under
// $TMPDIR when the socket's path fits there, else /tmp.
absl::StatusOr<std::string> MakePrivateDirectory() {
  std::vector<std::string> bases;
  const char* tmpdir = std::getenv("TMPDIR");
  if (tmpdir != nullptr && *tmpdir != '\0') bases.push_back(tmpdir);
  bases.push_back("/tmp");
  for (const std::string& base : bases) {
    std::string dir = absl::StrCat(base, "/ttldb-shell-XXXXXX");
    if (dir.size() + std::strlen(kSocketName) > kSocketPathMax) continue;
    if (mkdtemp(dir.data()) != nullptr) return dir;
  }
  return absl::InternalError(absl::StrCat(
      "cannot create a private directory for the shell's socket under ",
      bases.front(), ": ", std::strerror(errno)));
}

// Sets the dispositions the parent needs while the child runs and restores
// the previous ones when destroyed.
class ParentSignals {
 public:
  ParentSignals() {
    struct sigaction ignore {};
    ignore.sa_handler = SIG_IGN;
    sigemptyset(&ignore.sa_mask);
    struct sigaction forward {};
    forward.sa_handler = ForwardToChild;
    sigemptyset(&forward.sa_mask);
    forward.sa_flags = SA_RESTART;
    sigaction(SIGINT, &ignore, &old_int_);
    sigaction(SIGQUIT, &ignore, &old_quit_);
    // A client that hangs up mid-reply must not end the process.
    sigaction(SIGPIPE, &ignore, &old_pipe_);
    sigaction(SIGTERM, &forward, &old_term_);
    sigaction(SIGHUP, &forward, &old_hup_);
  }
  ~ParentSignals() {
    sigaction(SIGINT, &old_int_, nullptr);
    sigaction(SIGQUIT, &old_quit_, nullptr);
    sigaction(SIGPIPE, &old_pipe_, nullptr);
    sigaction(SIGTERM, &old_term_, nullptr);
    sigaction(SIGHUP, &old_hup_, nullptr);
  }
  ParentSignals(const ParentSignals&) = delete;
  ParentSignals& operator=(const ParentSignals&) = delete;

 private:
  struct sigaction old_int_, old_quit_, old_pipe_, old_term_, old_hup_;
};

// Starts mongosh with the default disposition and no blocked signal, so
// that Ctrl-C reaches it as if started from the shell.
absl::StatusOr<pid_t> SpawnChild(const std::vector<std::string>& args) {
  std::vector<char*> argv;
  for (const std::string& a : args)
    argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  absl::Cleanup destroy = [&] { posix_spawnattr_destroy(&attr); };
  sigset_t defaults;
  sigemptyset(&defaults);
  for (int sig : {SIGINT, SIGQUIT, SIGPIPE, SIGTERM, SIGHUP}) {
    sigaddset(&defaults, sig);
  }
  sigset_t none;
  sigemptyset(&none);
  posix_spawnattr_setsigdefault(&attr, &defaults);
  posix_spawnattr_setsigmask(&attr, &none);
  posix_spawnattr_setflags(&attr,
                           POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);
  pid_t pid = 0;
  int rc = posix_spawn(&pid, argv[0], nullptr, &attr, argv.data(), environ);
  if (rc != 0) {
    return absl::InternalError(
        absl::StrCat("cannot run ", args[0], ": ", std::strerror(rc)));
  }
  return pid;
}

// The child's exit status as a shell reports it.
int WaitForChild(pid_t pid) {
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) return 1;
  }
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return 1;
}

}  // namespace

std::string UnixSocketUri(const std::string& socket_path,
                          const std::string& database_name) {
  std::string host;
  for (unsigned char c : socket_path) {
    if (absl::ascii_isalnum(c) || c == '-' || c == '.' || c == '_' ||
        c == '~') {
      host += static_cast<char>(c);
    } else {
      host += absl::StrFormat("%%%02X", c);
    }
  }
  return absl::StrCat("mongodb://", host, "/", database_name);
}

absl::StatusOr<int> RunMongoshSession(Database* db,
                                      const MongoshSessionOptions& options) {
  absl::StatusOr<std::string> dir = MakePrivateDirectory();
  if (!dir.ok()) return dir.status();
  absl::Cleanup remove_dir = [&] { rmdir(dir->c_str()); };
  const std::string socket_path = absl::StrCat(*dir, kSocketName);

  commands::RunnerOptions runner_options;
  runner_options.argv = options.argv;
  std::unique_ptr<commands::CommandRunner> runner =
      commands::CommandRunner::ForDatabase(db, options.database_name,
                                           runner_options);
  server::ServerOptions server_options;
  server_options.listen_tcp = false;
  server_options.unix_socket = socket_path;
  absl::StatusOr<std::unique_ptr<server::Server>> srv =
      server::Server::Start(runner.get(), server_options);
  if (!srv.ok()) {
    (void)runner->Close();
    return srv.status();
  }
  absl::Cleanup stop = [&] {
    runner->BeginShutdown();
    (*srv)->Shutdown();  // removes the socket
    (void)runner->Close();
  };

  std::vector<std::string> args = {
      options.mongosh, UnixSocketUri(socket_path, options.database_name)};
  if (options.quiet) args.push_back("--quiet");
  if (options.json) args.push_back("--json=relaxed");
  for (const std::string& code : options.evals) {
    args.push_back("--eval");
    args.push_back(code);
  }
  for (const std::string& file : options.files) {
    // mongosh reads files by name; "-" is standard input, as for the
    // built-in shell.
    args.push_back(file == "-" ? "/dev/stdin" : file);
  }

  ParentSignals signals;
  absl::StatusOr<pid_t> child = SpawnChild(args);
  if (!child.ok()) return child.status();
  g_child.store(*child);
  int status = WaitForChild(*child);
  g_child.store(0);
  return status;
}

}  // namespace ttldb
