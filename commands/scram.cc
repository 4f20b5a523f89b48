#include "commands/scram.h"

#include <openssl/crypto.h>
#include <openssl/rand.h>

#include <cstdlib>
#include <utility>
#include <vector>

#include "absl/strings/escaping.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "base/sha256.h"
#include "base/status.h"

namespace ttldb {
namespace commands {
namespace {

// 24 bytes: the random part of mongod's server nonce
// (sasl_scram_server_conversation.cpp, 3 quad-words).
constexpr int kServerNonceBytes = 24;
constexpr int kHashBytes = 32;  // SHA-256

absl::Status Bad(absl::string_view why) {
  return MongoError(absl::StatusCode::kInvalidArgument, kBadValue, why);
}

// RFC 5802 "saslname": ',' is sent as "=2C" and '=' as "=3D".
absl::StatusOr<std::string> DecodeSaslName(absl::string_view s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '=') {
      out.push_back(s[i]);
      continue;
    }
    absl::string_view esc = s.substr(i + 1, 2);
    if (esc == "2C") {
      out.push_back(',');
    } else if (esc == "3D") {
      out.push_back('=');
    } else {
      return Bad("Invalid SCRAM user name encoding");
    }
    i += 2;
  }
  return out;
}

}  // namespace

std::string SecureRandomBytes(size_t n) {
  std::string out(n, '\0');
  if (RAND_bytes(reinterpret_cast<unsigned char*>(out.data()),
                 static_cast<int>(n)) != 1) {
    // No entropy means no safe nonce or salt: never go on without one.
    std::abort();
  }
  return out;
}

absl::StatusOr<std::string> SaslPrep(absl::string_view s) {
  for (unsigned char c : s) {
    if (c >= 0x80) {
      return Bad("SASL prep of non-ASCII strings is not supported by ttldb");
    }
    if (c < 0x20 || c == 0x7f) {
      return Bad("SASL prep: prohibited control character");
    }
  }
  return std::string(s);
}

ScramCredentials MakeScramSha256Credentials(absl::string_view password,
                                            absl::string_view salt,
                                            int iterations) {
  std::string salted_password = Pbkdf2HmacSha256(password, salt, iterations);
  ScramCredentials c;
  c.iterations = iterations;
  c.salt = std::string(salt);
  c.stored_key = Sha256(HmacSha256(salted_password, "Client Key"));
  c.server_key = HmacSha256(salted_password, "Server Key");
  // The password's equivalent: not left in freed memory.
  OPENSSL_cleanse(salted_password.data(), salted_password.size());
  return c;
}

ScramCredentials NewScramSha256Credentials(absl::string_view password,
                                           int iterations) {
  return MakeScramSha256Credentials(
      password, SecureRandomBytes(kScramSha256SaltBytes), iterations);
}

ScramSha256Server::ScramSha256Server(Lookup lookup, std::string server_nonce)
    : lookup_(std::move(lookup)), server_nonce_(std::move(server_nonce)) {
  if (server_nonce_.empty()) {
    server_nonce_ = absl::Base64Escape(SecureRandomBytes(kServerNonceBytes));
  }
}

absl::StatusOr<std::string> ScramSha256Server::Step(
    absl::string_view client_message) {
  absl::StatusOr<std::string> reply;
  switch (state_) {
    case kStart:
      reply = First(client_message);
      if (reply.ok()) state_ = kSentFirst;
      break;
    case kSentFirst:
      reply = Final(client_message);
      if (reply.ok()) state_ = kVerified;
      break;
    case kVerified:
      // RFC 5802 section 5: after server-final the client sends nothing;
      // mongod's SASL framing has it send an empty message (unless
      // skipEmptyExchange), answered with an empty one.
      if (!client_message.empty()) {
        reply = Bad("SCRAM: unexpected message after server-final");
      } else {
        reply = std::string();
        state_ = kDone;
      }
      break;
    case kDone:
    case kFailed:
      reply = Bad("SCRAM: the conversation is over");
      break;
  }
  if (!reply.ok()) state_ = kFailed;
  return reply;
}

absl::StatusOr<std::string> ScramSha256Server::First(
    absl::string_view message) {
  // gs2-header: cbind-flag "," [authzid] ","
  std::vector<absl::string_view> parts = absl::StrSplit(message, ',');
  if (parts.size() < 4) {
    return Bad(absl::StrCat(
        "Incorrect number of arguments for first SCRAM client message, got ",
        parts.size(), " expected at least 4"));
  }
  if (absl::StartsWith(parts[0], "p=")) {
    return Bad("Server does not support channel binding");
  }
  if (parts[0] != "n" && parts[0] != "y") {
    return Bad(
        absl::StrCat("Incorrect SCRAM client message prefix: ", parts[0]));
  }
  if (!parts[1].empty() && !absl::StartsWith(parts[1], "a=")) {
    return Bad(absl::StrCat("Incorrect SCRAM authzid: ", parts[1]));
  }
  if (absl::StartsWith(parts[2], "m=")) {
    return Bad("SCRAM mandatory extensions are not supported");
  }
  if (!absl::StartsWith(parts[2], "n=") || parts[2].size() == 2) {
    return Bad(absl::StrCat("Invalid SCRAM user name: ", parts[2]));
  }
  if (!absl::StartsWith(parts[3], "r=") || parts[3].size() == 2) {
    return Bad(absl::StrCat("Invalid SCRAM client nonce: ", parts[3]));
  }
  ASSIGN_OR_RETURN(user_, DecodeSaslName(parts[2].substr(2)));
  if (!parts[1].empty()) {
    ASSIGN_OR_RETURN(std::string authzid, DecodeSaslName(parts[1].substr(2)));
    // mongod: "SCRAM user name and authzid must match" (it has no
    // impersonation).
    if (authzid != user_) {
      return Bad("SCRAM user name and authzid must match");
    }
  }
  gs2_header_ = absl::StrCat(parts[0], ",", parts[1], ",");
  client_first_bare_ = std::string(message.substr(gs2_header_.size()));
  ASSIGN_OR_RETURN(credentials_, lookup_(user_));
  if (credentials_.iterations < 1 || credentials_.stored_key.empty()) {
    return Bad("SCRAM: the user has no SCRAM-SHA-256 credentials");
  }
  nonce_ = absl::StrCat(parts[3].substr(2), server_nonce_);
  server_first_ =
      absl::StrCat("r=", nonce_, ",s=", absl::Base64Escape(credentials_.salt),
                   ",i=", credentials_.iterations);
  return server_first_;
}

absl::StatusOr<std::string> ScramSha256Server::Final(
    absl::string_view message) {
  // c=<base64(gs2-header)>,r=<nonce>[,extensions],p=<proof>
  std::vector<absl::string_view> parts = absl::StrSplit(message, ',');
  if (parts.size() < 3) {
    return Bad(absl::StrCat(
        "Incorrect number of arguments for final SCRAM client message, got ",
        parts.size(), " expected at least 3"));
  }
  if (!absl::StartsWith(parts[0], "c=") || !absl::StartsWith(parts[1], "r=") ||
      !absl::StartsWith(parts.back(), "p=")) {
    return Bad("Incorrect SCRAM client final message");
  }
  // Base64 must be canonical (padded, unused bits zero): one spelling
  // per value.
  if (parts[0].substr(2) != absl::Base64Escape(gs2_header_)) {
    return Bad("Unexpected SCRAM channel binding data");
  }
  if (parts[1].substr(2) != nonce_) {
    return Bad("Unmatched SCRAM nonce received from client in second step");
  }
  std::string proof;
  if (!absl::Base64Unescape(parts.back().substr(2), &proof) ||
      proof.size() != kHashBytes ||
      absl::Base64Escape(proof) != parts.back().substr(2)) {
    return Bad("Invalid SCRAM client proof");
  }
  absl::string_view without_proof =
      message.substr(0, message.size() - parts.back().size() - 1);
  const std::string auth_message =
      absl::StrCat(client_first_bare_, ",", server_first_, ",", without_proof);
  // ClientKey = ClientProof XOR HMAC(StoredKey, AuthMessage); it is right
  // when H(ClientKey) == StoredKey.
  std::string client_key = HmacSha256(credentials_.stored_key, auth_message);
  for (size_t i = 0; i < client_key.size(); ++i) client_key[i] ^= proof[i];
  const std::string stored = Sha256(client_key);
  if (stored.size() != credentials_.stored_key.size() ||
      CRYPTO_memcmp(stored.data(), credentials_.stored_key.data(),
                    stored.size()) != 0) {
    return MongoError(absl::StatusCode::kUnauthenticated, kAuthenticationFailed,
                      "SCRAM authentication failed, storedKey mismatch");
  }
  return absl::StrCat("v=", absl::Base64Escape(HmacSha256(
                                credentials_.server_key, auth_message)));
}

}  // namespace commands
}  // namespace ttldb
