#include "tools/ops_commands.h"

#include <filesystem>
#include <memory>
#include <ostream>
#include <system_error>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "server/client.h"
#include "tools/shell/evaluator.h"
#include "tools/shell/value_format.h"
#include "ttldb/database.h"
#include "ttldb/repair.h"

namespace ttldb {
namespace {

constexpr char kOpsUsage[] =
    "usage:\n"
    "  ttldb repair --db DIR [--quiet]\n"
    "  ttldb backup --db DIR --out DEST [--quiet]\n"
    "  ttldb backup --host HOST[:PORT] --out DEST [--quiet]\n"
    "               [--username USER --password PWD\n"
    "                [--authenticationDatabase DB]]\n"
    "               [--tls [--tlsCAFile PEM] [--tlsCertificateKeyFile PEM]]\n"
    "      (a running `ttldb serve`: it writes the backup itself, into DEST\n"
    "       on its own machine, with the admin command createBackup; under\n"
    "       --auth, as USER (SCRAM-SHA-256, authSource DB, default admin),\n"
    "       who needs the root role; --tls for a server under --tlsMode,\n"
    "       whose certificate must be signed by a CA of --tlsCAFile (else\n"
    "       the system's) and name HOST)\n";

struct OpsFlags {
  std::string db;
  std::string host;  // backup from a running server
  std::string out;
  bool quiet = false;
  server::RemoteCredentials credentials;  // user empty: none
  bool tls = false;
  server::ClientTlsOptions tls_options;
};

// "" on success, else the usage error.
std::string Parse(const std::string& command,
                  const std::vector<std::string>& args, OpsFlags* f) {
  for (size_t i = 0; i < args.size(); ++i) {
    std::string arg = args[i];
    std::string value;
    bool has_inline = false;
    const size_t eq = arg.find('=');
    if (absl::StartsWith(arg, "--") && eq != std::string::npos) {
      value = arg.substr(eq + 1);
      arg = arg.substr(0, eq);
      has_inline = true;
    }
    auto take = [&](std::string* into) {
      if (has_inline) {
        *into = value;
        return true;
      }
      if (i + 1 >= args.size()) return false;
      *into = args[++i];
      return true;
    };
    if (arg == "--db") {
      if (!take(&f->db)) return "bad or missing value for --db";
    } else if (command == "backup" && arg == "--host") {
      if (!take(&f->host)) return "bad or missing value for --host";
    } else if (command == "backup" && (arg == "--username" || arg == "-u")) {
      if (!take(&f->credentials.user)) {
        return "bad or missing value for --username";
      }
    } else if (command == "backup" && (arg == "--password" || arg == "-p")) {
      if (!take(&f->credentials.password)) {
        return "bad or missing value for --password";
      }
    } else if (command == "backup" && arg == "--authenticationDatabase") {
      if (!take(&f->credentials.source)) {
        return "bad or missing value for --authenticationDatabase";
      }
    } else if (command == "backup" && (arg == "--tls" || arg == "--ssl") &&
               !has_inline) {
      f->tls = true;
    } else if (command == "backup" && arg == "--tlsCAFile") {
      if (!take(&f->tls_options.ca_file) || f->tls_options.ca_file.empty()) {
        return "bad or missing value for --tlsCAFile";
      }
    } else if (command == "backup" && arg == "--tlsCertificateKeyFile") {
      if (!take(&f->tls_options.certificate_key_file) ||
          f->tls_options.certificate_key_file.empty()) {
        return "bad or missing value for --tlsCertificateKeyFile";
      }
    } else if (command == "backup" && arg == "--out") {
      if (!take(&f->out)) return "bad or missing value for --out";
    } else if (arg == "--quiet" && !has_inline) {
      f->quiet = true;
    } else if (arg == "--help" || arg == "-h") {
      return "help";
    } else {
      return absl::StrCat("unknown option ", arg);
    }
  }
  if (!f->host.empty() && !f->db.empty()) {
    return "backup takes --db DIR or --host HOST[:PORT], not both";
  }
  if (f->db.empty() && f->host.empty()) {
    return command == "backup" ? "backup needs --db DIR or --host HOST[:PORT]"
                               : absl::StrCat(command, " needs --db DIR");
  }
  if (command == "backup" && f->out.empty()) return "backup needs --out DEST";
  if (!f->credentials.user.empty() && f->host.empty()) {
    return "--username goes with --host";
  }
  if (f->credentials.user.empty() != f->credentials.password.empty()) {
    return "--username and --password go together";
  }
  if ((f->tls || !f->tls_options.ca_file.empty() ||
       !f->tls_options.certificate_key_file.empty()) &&
      f->host.empty()) {
    return "--tls goes with --host";
  }
  if (!f->tls && (!f->tls_options.ca_file.empty() ||
                  !f->tls_options.certificate_key_file.empty())) {
    return "--tlsCAFile and --tlsCertificateKeyFile need --tls";
  }
  return "";
}

int Repair(const OpsFlags& f, std::ostream& out, std::ostream& err) {
  absl::StatusOr<RepairReport> report = RepairDatabase(f.db);
  if (!report.ok()) {
    err << "ttldb repair: " << shell::FormatError(report.status()) << "\n";
    return 1;
  }
  if (!f.quiet) {
    for (const std::string& line : report->catalog) {
      err << "ttldb repair: " << line << "\n";
    }
    for (const auto& c : report->collections) {
      err << "ttldb repair: collection '" << c.name << "': " << c.documents
          << " documents kept, " << c.lost_documents << " known lost, "
          << c.unreadable_documents << " unreadable deleted, "
          << c.index_entries_rebuilt << " index entries rebuilt"
          << (c.valid ? "" : "; STILL INVALID") << "\n";
    }
  }
  out << shell::FormatValue(report->ToValue()) << "\n";
  return report->AllValid() ? 0 : 1;
}

// Asks the server at f.host to write the backup (createBackup).
int RemoteBackup(const OpsFlags& f, std::ostream& out, std::ostream& err) {
  std::string host = f.host;
  int port = 27017;
  if (const size_t colon = host.rfind(':'); colon != std::string::npos) {
    if (!absl::SimpleAtoi(host.substr(colon + 1), &port) || port <= 0 ||
        port > 65535) {
      err << "ttldb backup: bad port in --host " << f.host << "\n";
      return 2;
    }
    host = host.substr(0, colon);
  }
  std::error_code ec;
  const std::string dest = std::filesystem::absolute(f.out, ec).string();
  absl::StatusOr<Value> reply = server::RunRemoteCommand(
      host, port, "admin",
      Value::MakeObject({{"createBackup", Value::Int32(1)},
                         {"backupDir", Value::String(dest)}}),
      absl::Hours(24), f.credentials.user.empty() ? nullptr : &f.credentials,
      f.tls ? &f.tls_options : nullptr);
  if (!reply.ok()) {
    err << "ttldb backup: " << reply.status().message() << "\n";
    return 1;
  }
  const Value* ok = reply->Get("ok");
  if (ok == nullptr || !ok->is_number() || ok->AsDouble() != 1) {
    const Value* msg = reply->Get("errmsg");
    const Value* name = reply->Get("codeName");
    err << "ttldb backup: MongoServerError"
        << (name != nullptr && name->is_string()
                ? absl::StrCat("[", name->string_value(), "]")
                : "")
        << ": "
        << (msg != nullptr && msg->is_string() ? msg->string_value()
                                               : shell::FormatValue(*reply))
        << "\n";
    return 1;
  }
  if (!f.quiet) {
    out << "backed up " << f.host << " to " << dest << ": "
        << shell::FormatValue(*reply) << "\n";
  }
  return 0;
}

int Backup(const OpsFlags& f, std::ostream& out, std::ostream& err) {
  if (!f.host.empty()) return RemoteBackup(f, out, err);
  Options o;
  o.read_only = true;  // nothing in the source directory is written
  o.create_if_missing = false;
  o.ttl_monitor_enabled = false;
  absl::StatusOr<std::unique_ptr<Database>> db = Database::Open(f.db, o);
  if (!db.ok()) {
    err << "ttldb backup: " << shell::FormatError(db.status()) << "\n";
    if (absl::IsFailedPrecondition(db.status()) &&
        absl::StrContains(db.status().message(), "already open")) {
      err << "ttldb backup: a running server holds " << f.db
          << "; ask it for the backup instead:\n"
          << "  ttldb backup --host 127.0.0.1:27017 --out " << f.out << "\n"
          << "  (or in mongosh: db.adminCommand({createBackup: 1, backupDir: "
             "\""
          << f.out << "\"}))\n";
    }
    return 1;
  }
  absl::StatusOr<BackupStats> stats = (*db)->Backup(f.out);
  if (!stats.ok()) {
    err << "ttldb backup: " << shell::FormatError(stats.status()) << "\n";
    return 1;
  }
  if (!f.quiet) {
    out << "backed up " << f.db << " to " << f.out << ": " << stats->keys
        << " keys, " << stats->bytes << " bytes\n";
  }
  return (*db)->Close().ok() ? 0 : 1;
}

}  // namespace

bool IsOpsCommand(const std::string& name) {
  return name == "repair" || name == "backup";
}

int RunOpsCommand(const std::string& command,
                  const std::vector<std::string>& args, std::ostream& out,
                  std::ostream& err) {
  OpsFlags f;
  const std::string error = Parse(command, args, &f);
  if (error == "help") {
    out << kOpsUsage;
    return 0;
  }
  if (!error.empty()) {
    err << "ttldb " << command << ": " << error << "\n" << kOpsUsage;
    return 2;
  }
  return command == "repair" ? Repair(f, out, err) : Backup(f, out, err);
}

}  // namespace ttldb
