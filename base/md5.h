// MD5 (RFC 1321), for MongoDB's hashed index keys (document/bson_hash.h),
// which are defined by it. Not for security. Written here rather than taken
// from OpenSSL so that the embeddable library (//:ttldb, CMake
// ttldb::ttldb) links no OpenSSL: only the server's TLS and SCRAM do.
#ifndef TTLDB_BASE_MD5_H_
#define TTLDB_BASE_MD5_H_

#include <array>
#include <cstdint>

#include "absl/strings/string_view.h"

namespace ttldb {

// The 16-byte MD5 digest of `data`.
std::array<uint8_t, 16> Md5(absl::string_view data);

}  // namespace ttldb

#endif  // TTLDB_BASE_MD5_H_
