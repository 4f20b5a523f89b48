// ttldb: the shell, and the import / export commands.
//
//   ttldb [--db PATH] [--eval CODE] [--json] [--quiet] [--subset]
//         [--ttl-monitor-sleep-secs N] [FILE ...]
//   ttldb --version
//   ttldb export --db PATH --collection NAME [--out FILE] [--indexes]
//                [--canonical]
//   ttldb import --db PATH --collection NAME [--file FILE] [--drop]
//                [--indexes FILE] [--skew-tolerance-secs N]
//   ttldb repair --db DIR            (tools/ops_commands.h)
//   ttldb backup --db DIR --out DEST
//   ttldb serve [--db DIR] [--bind IP] [--port N] [--unix-socket PATH] ...
//                (tools/serve.h)
//
// The shell is the real mongosh when one is installed
// (tools/shell/find_mongosh.h): the database is served in-process on a
// private Unix socket and mongosh runs against it
// (tools/shell/mongosh_session.h), --eval, FILE, --quiet and --json
// (--json=relaxed) passed on. Without mongosh, or with --subset, it is the
// built-in shell, a JavaScript subset, described below; when mongosh was
// wanted but not found, standard error says so first.
//
// The built-in shell runs --eval code (printing the value of each expression,
// as `mongosh --eval` does), then FILE scripts (printing only print() /
// printjson() output, as mongosh does for files); with neither, it is
// interactive when standard input is a terminal (libedit line editing,
// history in ~/.ttldb_history) and otherwise runs standard input as one
// script, printing each expression's value like `mongosh < script`.
// --eval code and FILE scripts stop at the first error: the error goes to
// standard error and the exit status is 1. Piped standard input goes on
// after a failing statement, as `mongosh < script` does (the error goes
// to standard error; the exit status is 1 if any statement failed, where
// mongosh exits 0); a syntax error runs nothing. Interactively, errors are
// printed and the shell goes on.
//
// Without --db the data directory is $TTLDB_HOME, else
// $XDG_DATA_HOME/ttldb, else ~/.local/share/ttldb/default; the shell says
// which on standard error unless --quiet.
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "base/version.h"
#include "tools/import_export.h"
#include "tools/ops_commands.h"
#include "tools/serve.h"
#include "tools/shell/engine_backend.h"
#include "tools/shell/evaluator.h"
#include "tools/shell/find_mongosh.h"
#include "tools/shell/mongosh_session.h"
#include "tools/shell/parser.h"
#include "tools/shell/repl.h"
#include "ttldb/database.h"

namespace ttldb {
namespace {

constexpr char kUsage[] =
    R"(usage:
  ttldb [--db PATH] [--eval CODE] [--json] [--quiet] [--subset]
        [--ttl-monitor-sleep-secs N] [FILE ...]
        (mongosh when installed: $TTLDB_MONGOSH, else on PATH, else the
        checkout's pinned one; --subset or TTLDB_MONGOSH=none: the built-in
        JavaScript subset)
  ttldb --version
  ttldb export [--db PATH] --collection NAME [--out FILE] [--indexes]
               [--canonical]
  ttldb import [--db PATH] --collection NAME [--file FILE] [--drop]
               [--indexes FILE] [--skew-tolerance-secs N]
  ttldb repair --db DIR
  ttldb backup --db DIR --out DEST
  ttldb serve [--db DIR] [--bind 127.0.0.1] [--port 27017] [...]
               (MongoDB's wire protocol; ttldb serve --help)
)";

// 60 s: MongoDB's ttlMonitorSleepSecs default.
constexpr int64_t kDefaultMonitorSleepSecs = 60;
// 120 s: issue 8's default clock-skew tolerance for import.
constexpr int64_t kDefaultSkewToleranceSecs = 120;

struct Flags {
  std::string db;
  std::vector<std::string> evals;
  bool json = false;
  bool quiet = false;
  // The built-in subset shell even when mongosh is installed.
  bool subset = false;
  int64_t monitor_sleep_secs = kDefaultMonitorSleepSecs;
  std::vector<std::string> files;
  // import / export
  std::string collection;
  std::string out;
  std::string file;
  std::string indexes_file;
  bool indexes = false;
  bool canonical = false;
  bool drop = false;
  int64_t skew_tolerance_secs = kDefaultSkewToleranceSecs;
};

int UsageError(const std::string& message) {
  std::cerr << "ttldb: " << message << "\n" << kUsage;
  return 2;
}

// Parses argv[first..]. `command` is "", "export" or "import". Returns an
// error message, or "" on success.
std::string ParseFlags(int argc, char** argv, int first,
                       const std::string& command, Flags* f) {
  for (int i = first; i < argc; ++i) {
    std::string arg = argv[i];
    std::optional<std::string> inline_value;
    if (absl::StartsWith(arg, "--")) {
      size_t eq = arg.find('=');
      if (eq != std::string::npos) {
        inline_value = arg.substr(eq + 1);
        arg = arg.substr(0, eq);
      }
    }
    auto value = [&](std::string* out) -> bool {
      if (inline_value.has_value()) {
        *out = *inline_value;
        return true;
      }
      if (i + 1 >= argc) return false;
      *out = argv[++i];
      return true;
    };
    auto number = [&](int64_t* out) -> bool {
      std::string v;
      return value(&v) && absl::SimpleAtoi(v, out);
    };
    auto flag = [&](bool* out) -> bool {
      if (inline_value.has_value()) return false;
      *out = true;
      return true;
    };
    bool ok = true;
    const bool shell = command.empty();
    if (arg == "--db") {
      ok = value(&f->db);
    } else if (shell && arg == "--eval") {
      std::string code;
      ok = value(&code);
      f->evals.push_back(code);
    } else if (shell && arg == "--json") {
      ok = flag(&f->json);
    } else if (shell && arg == "--subset") {
      ok = flag(&f->subset);
    } else if (arg == "--quiet") {
      ok = flag(&f->quiet);
    } else if (shell && arg == "--ttl-monitor-sleep-secs") {
      ok = number(&f->monitor_sleep_secs) && f->monitor_sleep_secs > 0;
    } else if (!shell && arg == "--collection") {
      ok = value(&f->collection);
    } else if (command == "export" && arg == "--out") {
      ok = value(&f->out);
    } else if (command == "export" && arg == "--indexes") {
      ok = flag(&f->indexes);
    } else if (command == "export" && arg == "--canonical") {
      ok = flag(&f->canonical);
    } else if (command == "import" && arg == "--file") {
      ok = value(&f->file);
    } else if (command == "import" && arg == "--indexes") {
      ok = value(&f->indexes_file);
    } else if (command == "import" && arg == "--drop") {
      ok = flag(&f->drop);
    } else if (command == "import" && arg == "--skew-tolerance-secs") {
      ok = number(&f->skew_tolerance_secs) && f->skew_tolerance_secs >= 0;
    } else if (arg == "--help" || arg == "-h") {
      return "help";
    } else if (arg == "--version") {
      return "version";
    } else if (shell && (!absl::StartsWith(arg, "-") || arg == "-")) {
      f->files.push_back(arg);
    } else {
      return absl::StrCat("unknown option ", arg);
    }
    if (!ok) return absl::StrCat("bad or missing value for ", arg);
  }
  if (!command.empty() && f->collection.empty()) {
    return absl::StrCat(command, " needs --collection NAME");
  }
  return "";
}

// mkdir -p.
bool MakeDirs(const std::string& path) {
  std::string partial;
  for (size_t i = 0; i <= path.size(); ++i) {
    if (i == path.size() || (path[i] == '/' && i > 0)) {
      partial = path.substr(0, i);
      if (mkdir(partial.c_str(), 0755) != 0 && errno != EEXIST) return false;
    }
  }
  return true;
}

std::string DefaultDataDirectory() {
  const char* home = std::getenv("TTLDB_HOME");
  if (home != nullptr && *home != '\0') return home;
  const char* xdg = std::getenv("XDG_DATA_HOME");
  if (xdg != nullptr && *xdg != '\0') return absl::StrCat(xdg, "/ttldb");
  const char* user_home = std::getenv("HOME");
  return absl::StrCat(user_home != nullptr ? user_home : ".",
                      "/.local/share/ttldb/default");
}

absl::StatusOr<std::unique_ptr<Database>> OpenDatabase(Flags* f,
                                                       const Options& opts) {
  if (f->db.empty()) {
    f->db = DefaultDataDirectory();
    if (!f->quiet) {
      std::cerr << "ttldb: using data directory " << f->db << "\n";
    }
  }
  if (!MakeDirs(f->db)) {
    return absl::InternalError(absl::StrCat("cannot create data directory ",
                                            f->db, ": ", std::strerror(errno)));
  }
  return Database::Open(f->db, opts);
}

bool ReadFile(const std::string& path, std::string* out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::stringstream buffer;
  buffer << in.rdbuf();
  *out = buffer.str();
  return !in.bad();
}

int RunExport(Flags& f) {
  Options opts;
  opts.ttl_monitor_enabled = false;
  absl::StatusOr<std::unique_ptr<Database>> db = OpenDatabase(&f, opts);
  if (!db.ok()) {
    std::cerr << "ttldb export: " << db.status().message() << "\n";
    return 1;
  }
  std::ofstream file;
  std::ostream* out = &std::cout;
  if (!f.out.empty() && f.out != "-") {
    file.open(f.out, std::ios::binary | std::ios::trunc);
    if (!file) {
      std::cerr << "ttldb export: cannot open " << f.out << ": "
                << std::strerror(errno) << "\n";
      return 1;
    }
    out = &file;
  }
  if (f.indexes) {
    absl::Status s = ExportIndexes(db->get(), f.collection, out);
    if (!s.ok()) {
      std::cerr << "ttldb export: " << shell::FormatError(s) << "\n";
      return 1;
    }
    if (!f.quiet)
      std::cerr << "exported the indexes of " << f.collection << "\n";
    return 0;
  }
  ExportOptions eo;
  eo.canonical = f.canonical;
  absl::StatusOr<int64_t> n = ExportDocuments(db->get(), f.collection, eo, out);
  if (!n.ok()) {
    std::cerr << "ttldb export: " << shell::FormatError(n.status()) << "\n";
    return 1;
  }
  if (!f.quiet) {
    std::cerr << "exported " << *n << (*n == 1 ? " document" : " documents")
              << "\n";
  }
  return (*db)->Close().ok() ? 0 : 1;
}

int RunImport(Flags& f) {
  absl::StatusOr<std::unique_ptr<Database>> db = OpenDatabase(&f, Options{});
  if (!db.ok()) {
    std::cerr << "ttldb import: " << db.status().message() << "\n";
    return 1;
  }
  if (f.drop) {
    absl::StatusOr<bool> dropped = (*db)->DropCollection(f.collection);
    if (!dropped.ok()) {
      std::cerr << "ttldb import: " << shell::FormatError(dropped.status())
                << "\n";
      return 1;
    }
  }
  // Indexes first, so that TTL indexes in the file take part in the expiry
  // check and documents are indexed as they arrive.
  if (!f.indexes_file.empty()) {
    std::string json;
    if (!ReadFile(f.indexes_file, &json)) {
      std::cerr << "ttldb import: cannot read " << f.indexes_file << ": "
                << std::strerror(errno) << "\n";
      return 1;
    }
    absl::StatusOr<int> n = ImportIndexes(db->get(), f.collection, json);
    if (!n.ok()) {
      std::cerr << "ttldb import: " << shell::FormatError(n.status()) << "\n";
      return 1;
    }
    if (!f.quiet) std::cerr << "created " << *n << " indexes\n";
  }
  std::ifstream file;
  std::istream* in = &std::cin;
  if (!f.file.empty() && f.file != "-") {
    file.open(f.file, std::ios::binary);
    if (!file) {
      std::cerr << "ttldb import: cannot open " << f.file << ": "
                << std::strerror(errno) << "\n";
      return 1;
    }
    in = &file;
  }
  ImportOptions io;
  io.skew_tolerance = absl::Seconds(f.skew_tolerance_secs);
  io.now = absl::Now();
  const bool tty = isatty(STDERR_FILENO) && !f.quiet;
  if (tty) {
    io.progress = [](int64_t imported, int64_t skipped) {
      std::cerr << "\rimported " << imported << ", skipped " << skipped
                << std::flush;
    };
  }
  ImportResult result;
  absl::Status s = ImportDocuments(db->get(), f.collection, in, io, &result);
  if (tty) std::cerr << "\r\033[K";
  if (!s.ok()) {
    std::cerr << "ttldb import: " << s.message() << "\n"
              << "ttldb import: stopped; " << result.Summary()
              << " before the error\n";
    return 1;
  }
  if (!f.quiet) std::cerr << result.Summary() << "\n";
  return (*db)->Close().ok() ? 0 : 1;
}

// Runs one script; on error prints it and returns false.
bool RunScript(shell::Evaluator* ev, const std::string& source) {
  absl::Status s = ev->Run(source);
  std::cout.flush();
  if (!s.ok()) {
    std::cerr << shell::FormatError(s) << "\n";
    return false;
  }
  return true;
}

std::string HistoryPath() {
  const char* home = std::getenv("HOME");
  return absl::StrCat(home != nullptr ? home : ".", "/.ttldb_history");
}

// Closes `db`; a failure to close turns a success into exit status 1.
int CloseDatabase(Database* db, int rc) {
  absl::Status closed = db->Close();
  if (!closed.ok()) {
    std::cerr << "ttldb: " << closed.message() << "\n";
    if (rc == 0) rc = 1;
  }
  return rc;
}

// The real mongosh over `db`.
int RunMongosh(Database* db, const Flags& f, const std::string& mongosh,
               const std::vector<std::string>& argv) {
  MongoshSessionOptions mo;
  mo.mongosh = mongosh;
  mo.evals = f.evals;
  mo.files = f.files;
  mo.quiet = f.quiet;
  mo.json = f.json;
  mo.argv = argv;
  absl::StatusOr<int> rc = RunMongoshSession(db, mo);
  if (!rc.ok()) {
    std::cerr << "ttldb: " << rc.status().message() << "\n";
    return CloseDatabase(db, 1);
  }
  return CloseDatabase(db, *rc);
}

int RunShell(Flags& f, const std::vector<std::string>& argv) {
  Options opts;
  opts.ttl_monitor_sleep = absl::Seconds(f.monitor_sleep_secs);
  absl::StatusOr<std::unique_ptr<Database>> db = OpenDatabase(&f, opts);
  if (!db.ok()) {
    std::cerr << "ttldb: " << shell::FormatError(db.status()) << "\n";
    return 1;
  }
  if (!f.subset && !SubsetChosenByEnvironment()) {
    absl::StatusOr<std::string> mongosh = FindMongosh(argv[0]);
    if (mongosh.ok()) return RunMongosh(db->get(), f, *mongosh, argv);
    // Said even under --quiet: the language is not the one asked for.
    std::cerr << "ttldb: " << mongosh.status().message()
              << "; running the built-in shell, a JavaScript subset (no "
                 "loops, functions, template literals or JavaScript "
                 "built-ins; tools/README.md). --subset chooses it without "
                 "this note.\n";
  }
  EngineBackend backend(db->get());
  shell::EvaluatorOptions eo;
  eo.mode = f.json ? shell::OutputMode::kJson : shell::OutputMode::kShell;
  // mongosh's print-out: --eval prints results, script files do not.
  eo.print_results = !f.evals.empty();
  shell::Evaluator ev(&backend, &std::cout, eo);
  int code = 0;
  auto finish = [&](int rc) { return CloseDatabase(db->get(), rc); };
  if (!f.evals.empty() || !f.files.empty()) {
    for (const std::string& code_text : f.evals) {
      if (!RunScript(&ev, code_text)) return finish(1);
      if (ev.exit_requested()) return finish(ev.exit_code());
    }
    if (!f.files.empty()) {
      shell::EvaluatorOptions file_opts = eo;
      file_opts.print_results = false;
      shell::Evaluator file_ev(&backend, &std::cout, file_opts);
      for (const std::string& path : f.files) {
        std::string source;
        if (path == "-") {
          std::stringstream buffer;
          buffer << std::cin.rdbuf();
          source = buffer.str();
        } else if (!ReadFile(path, &source)) {
          std::cerr << "ttldb: cannot read " << path << ": "
                    << std::strerror(errno) << "\n";
          return finish(1);
        }
        if (!RunScript(&file_ev, source)) return finish(1);
        if (file_ev.exit_requested()) return finish(file_ev.exit_code());
      }
    }
    return finish(code);
  }
  if (isatty(STDIN_FILENO)) {
    shell::EvaluatorOptions repl_opts = eo;
    repl_opts.print_results = true;
    shell::Evaluator repl_ev(&backend, &std::cout, repl_opts);
    return finish(RunRepl(&repl_ev, &backend, f.quiet, HistoryPath()));
  }
  // Piped standard input: one script, each expression's value printed, as
  // `mongosh < script.js` prints them.
  shell::EvaluatorOptions stdin_opts = eo;
  stdin_opts.print_results = true;
  shell::Evaluator stdin_ev(&backend, &std::cout, stdin_opts);
  // Like mongosh, a failing statement does not stop the ones after it; the
  // exit status says whether any failed.
  std::stringstream buffer;
  buffer << std::cin.rdbuf();
  bool failed = false;
  absl::Status s =
      stdin_ev.RunEach(buffer.str(), [&](const absl::Status& error) {
        std::cout.flush();
        std::cerr << shell::FormatError(error) << "\n";
        failed = true;
      });
  std::cout.flush();
  if (!s.ok()) {
    std::cerr << shell::FormatError(s) << "\n";
    return finish(1);
  }
  if (stdin_ev.exit_requested()) return finish(stdin_ev.exit_code());
  return finish(failed ? 1 : 0);
}

}  // namespace
}  // namespace ttldb

int main(int argc, char** argv) {
  using ttldb::Flags;
  if (argc > 1 && ttldb::IsOpsCommand(argv[1])) {
    return ttldb::RunOpsCommand(argv[1],
                                std::vector<std::string>(argv + 2, argv + argc),
                                std::cout, std::cerr);
  }
  if (argc > 1 && std::string(argv[1]) == "serve") {
    return ttldb::RunServe(argc - 2, argv + 2);
  }
  std::string command;
  int first = 1;
  if (argc > 1 &&
      (std::string(argv[1]) == "export" || std::string(argv[1]) == "import")) {
    command = argv[1];
    first = 2;
  }
  Flags flags;
  std::string error = ttldb::ParseFlags(argc, argv, first, command, &flags);
  if (error == "help") {
    std::cout << ttldb::kUsage;
    return 0;
  }
  if (error == "version") {
    // As `mongosh --version` prints its version alone, with the name first.
    std::cout << "ttldb " << ttldb::kVersion << "\n";
    return 0;
  }
  if (!error.empty()) return ttldb::UsageError(error);
  if (command == "export") return ttldb::RunExport(flags);
  if (command == "import") return ttldb::RunImport(flags);
  return ttldb::RunShell(flags, std::vector<std::string>(argv, argv + argc));
}
