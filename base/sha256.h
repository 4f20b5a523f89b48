// SHA-256, HMAC-SHA-256 and PBKDF2-HMAC-SHA-256 (OpenSSL's), on byte
// strings: what SCRAM-SHA-256 (RFC 5802, RFC 7677) is made of, for the
// server's side (commands/scram.h), the tools' client
// (server/scram_client.h) and the tests' clients.
#ifndef TTLDB_BASE_SHA256_H_
#define TTLDB_BASE_SHA256_H_

#include <string>

#include "absl/strings/string_view.h"

namespace ttldb {

// The 32-byte digest of `data`.
std::string Sha256(absl::string_view data);
// The 32-byte HMAC-SHA-256 of `data` under `key`.
std::string HmacSha256(absl::string_view key, absl::string_view data);
// RFC 8018's PBKDF2 with HMAC-SHA-256: 32 bytes (SCRAM's SaltedPassword).
std::string Pbkdf2HmacSha256(absl::string_view password, absl::string_view salt,
                             int iterations);

}  // namespace ttldb

#endif  // TTLDB_BASE_SHA256_H_
