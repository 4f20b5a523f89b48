#include "tools/serve.h"

#include <signal.h>

#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <string>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "commands/command_runner.h"
#include "server/server.h"
#include "ttldb/logger.h"

namespace ttldb {
namespace {

constexpr char kServeUsage[] =
    R"(usage:
  ttldb serve [--db DIR] [--bind 127.0.0.1] [--port 27017]
              [--unix-socket PATH] [--max-connections N]
              [--max-databases N] [--max-cursors N]
              [--setParameter ttlMonitorSleepSecs=N]
              [--setParameter ttlMonitorEnabled=true|false]
              [--setParameter allowDiskUseByDefault=true|false]
              [--message-timeout-secs N] [--no-change-log] [--quiet]
              [--auth] [--tlsMode disabled|allowTLS|preferTLS|requireTLS]
              [--tlsCertificateKeyFile PEM] [--tlsCAFile PEM]
              [--tlsAllowConnectionsWithoutCertificates]
--auth turns access control on (SCRAM-SHA-256 users; create the first one
over 127.0.0.1); binding an address other than 127.0.0.0/8 requires it.
DIR holds one subdirectory per database (default: $TTLDB_HOME, else
$XDG_DATA_HOME/ttldb, else ~/.local/share/ttldb/server). Port 0 picks a free
port; the chosen one is printed ("listening on 127.0.0.1:PORT").
Change streams (watch()) read a change log each write appends to;
--no-change-log writes none (watch() then answers 40573, as a standalone
mongod does).
)";

int Usage(const std::string& message) {
  std::cerr << "ttldb serve: " << message << "\n" << kServeUsage;
  return 2;
}

std::string DefaultRoot() {
  const char* home = std::getenv("TTLDB_HOME");
  if (home != nullptr && *home != '\0') return home;
  const char* xdg = std::getenv("XDG_DATA_HOME");
  if (xdg != nullptr && *xdg != '\0') return absl::StrCat(xdg, "/ttldb");
  const char* user_home = std::getenv("HOME");
  return absl::StrCat(user_home != nullptr ? user_home : ".",
                      "/.local/share/ttldb/server");
}

}  // namespace

int RunServe(int argc, char** argv) {
  std::string root;
  bool quiet = false;
  server::ServerOptions so;
  commands::RunnerOptions ro;
  for (int i = 0; i < argc; ++i) {
    std::string arg = argv[i];
    std::string value;
    bool has_inline = false;
    size_t eq = arg.find('=');
    if (absl::StartsWith(arg, "--") && eq != std::string::npos) {
      value = arg.substr(eq + 1);
      arg = arg.substr(0, eq);
      has_inline = true;
    }
    auto next = [&]() -> bool {
      if (has_inline) return true;
      if (i + 1 >= argc) return false;
      value = argv[++i];
      return true;
    };
    int64_t n = 0;
    if (arg == "--help" || arg == "-h") {
      std::cout << kServeUsage;
      return 0;
    } else if (arg == "--quiet") {
      quiet = true;
    } else if (arg == "--db" || arg == "--dbpath") {
      if (!next() || value.empty()) return Usage("--db needs a directory");
      root = value;
    } else if (arg == "--bind" || arg == "--bind_ip") {
      if (!next() || value.empty()) return Usage("--bind needs an address");
      so.bind_ip = value;
    } else if (arg == "--port") {
      if (!next() || !absl::SimpleAtoi(value, &n) || n < 0 || n > 65535) {
        return Usage("--port needs a number from 0 to 65535");
      }
      so.port = static_cast<int>(n);
    } else if (arg == "--unix-socket") {
      if (!next() || value.empty()) return Usage("--unix-socket needs a path");
      so.unix_socket = value;
    } else if (arg == "--max-connections" || arg == "--maxConns") {
      if (!next() || !absl::SimpleAtoi(value, &n) || n < 1) {
        return Usage("--max-connections needs a positive number");
      }
      so.max_connections = static_cast<int>(n);
    } else if (arg == "--max-databases") {
      if (!next() || !absl::SimpleAtoi(value, &n) || n < 1 || n > 1000000) {
        return Usage("--max-databases needs a number from 1 to 1000000");
      }
      ro.max_databases = static_cast<int>(n);
    } else if (arg == "--max-cursors") {
      if (!next() || !absl::SimpleAtoi(value, &n) || n < 1) {
        return Usage("--max-cursors needs a positive number");
      }
      ro.max_cursors = n;
    } else if (arg == "--message-timeout-secs") {
      if (!next() || !absl::SimpleAtoi(value, &n) || n < 1) {
        return Usage("--message-timeout-secs needs a positive number");
      }
      so.message_timeout = absl::Seconds(n);
    } else if (arg == "--no-change-log") {
      // Inserts and updates then skip their change events; watch() answers
      // 40573 as a standalone mongod (docs/change_streams.md).
      ro.database_options.change_log = false;
    } else if (arg == "--auth") {
      so.auth = true;
      ro.auth = true;
    } else if (arg == "--tlsMode" || arg == "--sslMode") {
      if (!next()) return Usage("--tlsMode needs a mode");
      absl::StatusOr<server::TlsMode> mode = server::ParseTlsMode(value);
      if (!mode.ok()) return Usage(std::string(mode.status().message()));
      so.tls.mode = *mode;
    } else if (arg == "--tlsCertificateKeyFile") {
      if (!next() || value.empty()) {
        return Usage("--tlsCertificateKeyFile needs a PEM file");
      }
      so.tls.certificate_key_file = value;
    } else if (arg == "--tlsCAFile") {
      if (!next() || value.empty()) return Usage("--tlsCAFile needs a file");
      so.tls.ca_file = value;
    } else if (arg == "--tlsAllowConnectionsWithoutCertificates") {
      so.tls.allow_connections_without_certificates = true;
    } else if (arg == "--setParameter") {
      if (!next()) return Usage("--setParameter needs name=value");
      size_t at = value.find('=');
      std::string name = value.substr(0, at);
      std::string v = at == std::string::npos ? "" : value.substr(at + 1);
      if (name == "ttlMonitorSleepSecs" && absl::SimpleAtoi(v, &n) && n > 0) {
        ro.database_options.ttl_monitor_sleep = absl::Seconds(n);
      } else if (name == "ttlMonitorEnabled" && (v == "true" || v == "false")) {
        ro.database_options.ttl_monitor_enabled = v == "true";
      } else if (name == "allowDiskUseByDefault" &&
                 (v == "true" || v == "false")) {
        ro.allow_disk_use_by_default = v == "true";
      } else {
        return Usage(absl::StrCat("unsupported --setParameter ", value));
      }
    } else {
      return Usage(absl::StrCat("unknown option ", argv[i]));
    }
  }
  if (root.empty()) root = DefaultRoot();
  if (so.tls.mode != server::TlsMode::kDisabled &&
      so.tls.certificate_key_file.empty()) {
    return Usage("--tlsMode other than disabled needs --tlsCertificateKeyFile");
  }
  if (so.tls.mode == server::TlsMode::kDisabled &&
      (!so.tls.certificate_key_file.empty() || !so.tls.ca_file.empty())) {
    // ttldb asks for the mode explicitly rather than guess one.
    return Usage("--tlsCertificateKeyFile/--tlsCAFile need --tlsMode");
  }
  ro.argv = {"ttldb", "serve"};
  for (int i = 0; i < argc; ++i) ro.argv.push_back(argv[i]);
  // With --port 0 the port is known only once bound: SetHostPort below.
  if (so.port != 0) ro.host_port = absl::StrCat(so.bind_ip, ":", so.port);
  // The server log's lines ("Slow query", ...) on stderr, one write each
  // (stdio locks the stream), as mongod writes its log unless --quiet.
  if (!quiet) {
    ro.log_sink = [](absl::string_view line) {
      std::string out = absl::StrCat(line, "\n");
      std::fwrite(out.data(), 1, out.size(), stderr);
    };
  }

  // SIGTERM and SIGINT are taken by sigwait below: block them before any
  // thread (TTL monitors, connections) starts, so every thread inherits
  // the mask and none is killed by them.
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGTERM);
  sigaddset(&signals, SIGINT);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);
  signal(SIGPIPE, SIG_IGN);

  absl::StatusOr<std::unique_ptr<commands::CommandRunner>> runner =
      commands::CommandRunner::Open(root, ro);
  if (!runner.ok()) {
    std::cerr << "ttldb serve: cannot open " << root << ": "
              << runner.status().message() << "\n";
    return 1;
  }
  so.logger = [](LogLevel level, absl::string_view message) {
    static absl::Mutex mu(absl::kConstInit);
    absl::MutexLock lock(&mu);
    std::cerr << "ttldb serve: " << LogLevelName(level) << ": " << message
              << "\n";
  };
  absl::StatusOr<std::unique_ptr<server::Server>> srv =
      server::Server::Start(runner->get(), so);
  if (!srv.ok()) {
    std::cerr << "ttldb serve: " << srv.status().message() << "\n";
    (void)(*runner)->Close();
    return 1;
  }
  if (!quiet) {
    std::cerr << "ttldb serve: data directory " << root << "\n";
    if (!so.unix_socket.empty()) {
      std::cerr << "ttldb serve: listening on " << so.unix_socket << "\n";
    }
  }
  // Replies name the port listened on, the chosen one under --port 0.
  (*runner)->SetHostPort(absl::StrCat(so.bind_ip, ":", (*srv)->port()));
  // Always printed: tests and scripts read the port from it.
  std::cerr << "ttldb serve: listening on " << so.bind_ip << ":"
            << (*srv)->port() << std::endl;

  int sig = 0;
  while (sigwait(&signals, &sig) != 0) {
  }
  if (!quiet) {
    std::cerr << "ttldb serve: " << (sig == SIGTERM ? "SIGTERM" : "SIGINT")
              << ": interrupting in-flight operations\n";
  }
  // Running commands stop at their next interrupt point (11600) and new
  // ones are refused (91), so the wait for the connections below is
  // bounded by one document's work, not by the longest aggregation.
  (*runner)->BeginShutdown();
  (*srv)->Shutdown();
  absl::Status closed = (*runner)->Close();
  if (!closed.ok()) {
    std::cerr << "ttldb serve: closing the databases: " << closed.message()
              << "\n";
    return 1;
  }
  if (!quiet) std::cerr << "ttldb serve: stopped cleanly\n";
  return 0;
}

}  // namespace ttldb
