#include "server/scram_client.h"

#include <openssl/rand.h>

#include <utility>

#include "absl/strings/escaping.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/str_split.h"
#include "base/sha256.h"

namespace ttldb {
namespace server {
namespace {

// RFC 7677: at least 4096 iterations; fewer is a downgrade.
constexpr int kMinIterations = 4096;
// A bound on what a server may make us compute (mongod allows up to
// 2^31-1, but defaults to 15000).
constexpr int kMaxIterations = 10'000'000;

std::string RandomNonce() {
  unsigned char bytes[24];
  RAND_bytes(bytes, sizeof(bytes));
  return absl::Base64Escape(
      absl::string_view(reinterpret_cast<char*>(bytes), sizeof(bytes)));
}

}  // namespace

ScramSha256Client::ScramSha256Client(std::string user, std::string password,
                                     std::string nonce)
    : user_(std::move(user)),
      password_(std::move(password)),
      nonce_(nonce.empty() ? RandomNonce() : std::move(nonce)) {}

std::string ScramSha256Client::ClientFirst() const {
  return absl::StrCat(
      "n,,n=", absl::StrReplaceAll(user_, {{"=", "=3D"}, {",", "=2C"}}),
      ",r=", nonce_);
}

absl::StatusOr<std::string> ScramSha256Client::ClientFinal(
    absl::string_view server_first) {
  std::string nonce, salt;
  int iterations = 0;
  for (absl::string_view part : absl::StrSplit(server_first, ',')) {
    if (absl::StartsWith(part, "r=")) nonce = std::string(part.substr(2));
    if (absl::StartsWith(part, "s=") &&
        !absl::Base64Unescape(part.substr(2), &salt)) {
      return absl::InvalidArgumentError("SCRAM: the salt is not base64");
    }
    if (absl::StartsWith(part, "i=") &&
        !absl::SimpleAtoi(part.substr(2), &iterations)) {
      return absl::InvalidArgumentError("SCRAM: bad iteration count");
    }
  }
  if (nonce.size() <= nonce_.size() || !absl::StartsWith(nonce, nonce_) ||
      salt.empty()) {
    return absl::InvalidArgumentError(
        "SCRAM: the server's first message is malformed");
  }
  if (iterations < kMinIterations || iterations > kMaxIterations) {
    return absl::InvalidArgumentError(
        absl::StrCat("SCRAM: the server asks for ", iterations,
                     " iterations; between 4096 and 10000000 are accepted"));
  }
  const std::string salted_password =
      Pbkdf2HmacSha256(password_, salt, iterations);
  const std::string client_key = HmacSha256(salted_password, "Client Key");
  const std::string without_proof = absl::StrCat("c=biws,r=", nonce);
  const std::string auth_message = absl::StrCat(
      ClientFirst().substr(3), ",", server_first, ",", without_proof);
  std::string proof = HmacSha256(Sha256(client_key), auth_message);
  for (size_t i = 0; i < proof.size(); ++i) proof[i] ^= client_key[i];
  server_signature_ =
      HmacSha256(HmacSha256(salted_password, "Server Key"), auth_message);
  return absl::StrCat(without_proof, ",p=", absl::Base64Escape(proof));
}

absl::Status ScramSha256Client::VerifyServerFinal(
    absl::string_view server_final) const {
  if (server_signature_.empty() ||
      server_final !=
          absl::StrCat("v=", absl::Base64Escape(server_signature_))) {
    return absl::PermissionDeniedError(
        "SCRAM: the server's signature is wrong");
  }
  return absl::OkStatus();
}

}  // namespace server
}  // namespace ttldb
