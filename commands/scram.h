// SCRAM-SHA-256 (RFC 5802 with RFC 7677's hash), the server side, as
// mongod runs it behind saslStart/saslContinue
// (src/mongo/db/auth/sasl_scram_server_conversation.cpp): the credentials a
// user is stored with, and one authentication conversation.
//
// Crypto (PBKDF2, HMAC, SHA-256, the nonce and salt RNG) is OpenSSL's.
// Nothing here keeps a password: credentials hold the salt, the iteration
// count, StoredKey = H(HMAC(SaltedPassword, "Client Key")) and ServerKey =
// HMAC(SaltedPassword, "Server Key") only.
#ifndef TTLDB_COMMANDS_SCRAM_H_
#define TTLDB_COMMANDS_SCRAM_H_

#include <functional>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace ttldb {
namespace commands {

// 15000: MongoDB's scramSHA256IterationCount default. 4096 is RFC 7677's
// minimum (and the least the drivers accept).
constexpr int kScramSha256DefaultIterations = 15000;
constexpr int kScramSha256MinIterations = 4096;
// 28 bytes: MongoDB's salt length for SHA-256 (hash size - 4, scram.h).
constexpr int kScramSha256SaltBytes = 28;

struct ScramCredentials {
  int iterations = 0;
  std::string salt;        // raw bytes
  std::string stored_key;  // raw, 32 bytes
  std::string server_key;  // raw, 32 bytes
};

// `n` bytes from OpenSSL's CSPRNG (RAND_bytes).
std::string SecureRandomBytes(size_t n);

// SASLprep (RFC 4013) as far as ttldb implements it: printable ASCII is
// returned unchanged; a control character or any non-ASCII byte fails with
// 2 BadValue. MongoDB built without ICU refuses non-ASCII the same way
// (src/mongo/util/icu_stub.cpp saslPrep: "SASL prep of non-ASCII strings
// requires ICU"); with ICU it normalizes (NFKC), which ttldb does not.
absl::StatusOr<std::string> SaslPrep(absl::string_view s);

// The credentials for `password` (already SASLprep'ed) with a given salt
// and iteration count (RFC 5802 section 3).
ScramCredentials MakeScramSha256Credentials(absl::string_view password,
                                            absl::string_view salt,
                                            int iterations);
// The same with a fresh random salt.
ScramCredentials NewScramSha256Credentials(
    absl::string_view password, int iterations = kScramSha256DefaultIterations);

// One server-side conversation: client-first -> server-first, client-final
// -> server-final, then (unless the client asked to skip it) an empty
// message -> empty reply. Any failure (unknown user, bad proof, malformed
// message) is final: Step fails from then on. The caller reports every
// failure as 18 AuthenticationFailed, as mongod does.
class ScramSha256Server {
 public:
  // Finds a user's credentials; NotFound when there is no such user.
  using Lookup =
      std::function<absl::StatusOr<ScramCredentials>(const std::string&)>;
  // `server_nonce`: "" for 24 random bytes in base64 (MongoDB's length);
  // tests pass RFC 7677's.
  explicit ScramSha256Server(Lookup lookup, std::string server_nonce = "");

  // The reply to the client's next message.
  absl::StatusOr<std::string> Step(absl::string_view client_message);

  // True once the client's proof was verified (after the second step).
  bool authenticated() const { return state_ == kVerified || state_ == kDone; }
  // True when nothing more is expected: after the third step, or after
  // the second when the client asked to skip the empty exchange (mongod's
  // saslStart options.skipEmptyExchange).
  bool done() const {
    return state_ == kDone || (state_ == kVerified && skip_empty_exchange_);
  }
  void set_skip_empty_exchange(bool skip) { skip_empty_exchange_ = skip; }
  // The user name from client-first (decoded: "=2C" is ',', "=3D" '=').
  const std::string& user() const { return user_; }

 private:
  absl::StatusOr<std::string> First(absl::string_view message);
  absl::StatusOr<std::string> Final(absl::string_view message);

  enum State { kStart, kSentFirst, kVerified, kDone, kFailed };
  Lookup lookup_;
  std::string server_nonce_;
  State state_ = kStart;
  bool skip_empty_exchange_ = false;
  std::string user_;
  std::string gs2_header_;         // "n,," as the client sent it
  std::string client_first_bare_;  // "n=user,r=nonce"
  std::string server_first_;
  std::string nonce_;  // client nonce + server nonce
  ScramCredentials credentials_;
};

}  // namespace commands
}  // namespace ttldb

#endif  // TTLDB_COMMANDS_SCRAM_H_
