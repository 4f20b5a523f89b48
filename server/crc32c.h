// CRC-32C (Castagnoli), the checksum an OP_MSG may carry in its last four
// bytes (flag bit 0, checksumPresent), as RFC 3720 and MongoDB's wire
// protocol define it.
#ifndef TTLDB_SERVER_CRC32C_H_
#define TTLDB_SERVER_CRC32C_H_

#include <cstddef>
#include <cstdint>

namespace ttldb {
namespace server {

// CRC-32C of data[0, size). Crc32c("123456789") == 0xE3069283.
uint32_t Crc32c(const uint8_t* data, size_t size);

}  // namespace server
}  // namespace ttldb

#endif  // TTLDB_SERVER_CRC32C_H_
