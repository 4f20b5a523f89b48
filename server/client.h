// A minimal MongoDB wire-protocol client: one command over one TCP
// connection (plain or TLS), for ttldb's own command-line tools (`ttldb
// backup --host`).
// Applications use a real driver.
#ifndef TTLDB_SERVER_CLIENT_H_
#define TTLDB_SERVER_CLIENT_H_

#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "server/transport.h"
#include "ttldb/value.h"

namespace ttldb {
namespace server {

// A user to log in as (SCRAM-SHA-256) before the command.
struct RemoteCredentials {
  std::string user;
  std::string password;
  std::string source = "admin";  // the user's database (authSource)
};

// Connects to host:port, sends `command` (an object; "$db" is set to `db`)
// as an OP_MSG and returns the reply body as the server sent it
// ({ok: 1, ...} or {ok: 0, errmsg, code, codeName}). Fails with
// Unavailable when the server cannot be reached, DeadlineExceeded after
// `timeout`, and InvalidArgument/DataLoss for a reply that is not a valid
// OP_MSG. With `credentials`, first logs in on the same connection
// (saslStart, saslContinue); a refused login returns the server's refusal
// ({ok: 0, code: 18, ...}) instead of the command's reply, and a server
// whose final SCRAM message does not prove it knows the password fails with
// PermissionDenied. With `tls`, the connection is TLS (a server under
// --tlsMode requireTLS): a server certificate that `tls` does not trust, or
// that does not name `host`, fails with Unavailable saying so.
absl::StatusOr<Value> RunRemoteCommand(
    absl::string_view host, int port, absl::string_view db, Value command,
    absl::Duration timeout, const RemoteCredentials* credentials = nullptr,
    const ClientTlsOptions* tls = nullptr);

}  // namespace server
}  // namespace ttldb

#endif  // TTLDB_SERVER_CLIENT_H_
