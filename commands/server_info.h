// The facts about this server that several commands report: the MongoDB
// version ttldb answers as, the wire versions, the size limits, and the
// TTL metrics summed over every open database. Internal to commands/.
#ifndef TTLDB_COMMANDS_SERVER_INFO_H_
#define TTLDB_COMMANDS_SERVER_INFO_H_

#include <cstdint>

#include "commands/server_state.h"
#include "ttldb/value.h"

namespace ttldb {
namespace commands {

// "8.0.0": the MongoDB release whose behaviour ttldb follows.
inline constexpr char kMongoVersion[] = "8.0.0";
// 25: WireVersion::WIRE_VERSION_80 (src/mongo/db/wire_version.h).
inline constexpr int kMaxWireVersion = 25;
inline constexpr int kMinWireVersion = 0;
// BSONObjMaxUserSize, MaxMessageSizeBytes, write_ops::kMaxWriteBatchSize.
inline constexpr int kMaxBsonObjectSize = 16 * 1024 * 1024;
inline constexpr int kMaxMessageSizeBytes = 48'000'000;
inline constexpr int kMaxWriteBatchSize = 100'000;
// localLogicalSessionTimeoutMinutes' default.
inline constexpr int kLogicalSessionTimeoutMinutes = 30;

// serverStatus().metrics.ttl over every open database (counters summed;
// the oldest expired document and the largest lag).
Value TtlMetricsAcrossDatabases(ServerState* server);

}  // namespace commands
}  // namespace ttldb

#endif  // TTLDB_COMMANDS_SERVER_INFO_H_
