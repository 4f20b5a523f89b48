// The client side of SCRAM-SHA-256 (RFC 5802, RFC 7677) as MongoDB's
// drivers speak it over saslStart/saslContinue (the driver auth spec,
// "SCRAM-SHA-256"): for ttldb's own tools (`ttldb backup --host` with a
// user). The password is used as given: printable ASCII, which SASLprep
// leaves unchanged (ttldb's server accepts no other).
#ifndef TTLDB_SERVER_SCRAM_CLIENT_H_
#define TTLDB_SERVER_SCRAM_CLIENT_H_

#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace ttldb {
namespace server {

// One conversation: ClientFirst, then ClientFinal(server-first), then
// VerifyServerFinal(server-final). Not thread-safe.
class ScramSha256Client {
 public:
  // `nonce`: printable, without ','; empty for 24 random bytes in base64.
  ScramSha256Client(std::string user, std::string password,
                    std::string nonce = "");

  // "n,,n=<user>,r=<nonce>" (',' and '=' in the name escaped as =2C, =3D).
  std::string ClientFirst() const;
  // "c=biws,r=<nonce>,p=<proof>" for the server's "r=...,s=...,i=...".
  // InvalidArgument for a server-first that is malformed, whose nonce
  // does not extend ours, or whose iteration count is below 4096 (RFC 7677).
  absl::StatusOr<std::string> ClientFinal(absl::string_view server_first);
  // OK when the server's "v=<signature>" proves it knows the password;
  // PermissionDenied otherwise (a server that is not who it claims).
  absl::Status VerifyServerFinal(absl::string_view server_final) const;

 private:
  const std::string user_;
  const std::string password_;
  const std::string nonce_;
  std::string server_signature_;  // set by ClientFinal
};

}  // namespace server
}  // namespace ttldb

#endif  // TTLDB_SERVER_SCRAM_CLIENT_H_
