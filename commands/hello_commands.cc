// The handshake and administrative commands: hello/isMaster, buildInfo,
// ping, hostInfo, serverStatus, getLog, connectionStatus, whatsmyuri,
// getCmdLineOpts and the logical-session commands.
#include <sys/utsname.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <string>
#include <thread>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "base/status.h"
#include "commands/command_args.h"
#include "commands/command_context.h"
#include "commands/reply.h"
#include "commands/server_info.h"

namespace ttldb {
namespace commands {

Value TtlMetricsAcrossDatabases(ServerState* server) {
  TtlMetrics sum;
  std::optional<absl::Time> oldest;
  server->databases->ForEachOpen([&](const std::string&, Database* db) {
    TtlMetrics m = db->GetTtlMetrics();
    sum.passes += m.passes;
    sum.sub_passes += m.sub_passes;
    sum.deleted_documents += m.deleted_documents;
    sum.deleted_keys += m.deleted_keys;
    sum.examined_keys += m.examined_keys;
    sum.examined_documents += m.examined_documents;
    sum.total_duration += m.total_duration;
    sum.invalid_ttl_index_skips += m.invalid_ttl_index_skips;
    sum.failed_batches += m.failed_batches;
    sum.deleted_by_writes += m.deleted_by_writes;
    sum.last_pass_duration =
        std::max(sum.last_pass_duration, m.last_pass_duration);
    if (m.oldest_expired_present.has_value() &&
        (!oldest.has_value() || *m.oldest_expired_present < *oldest)) {
      oldest = m.oldest_expired_present;
    }
  });
  // MongoDB 8.0's four counters first (ttl.cpp), ttldb's after them.
  Value::Object ttl = {
      {"deletedDocuments", Value::Int64(sum.deleted_documents)},
      {"invalidTTLIndexSkips", Value::Int64(sum.invalid_ttl_index_skips)},
      {"passes", Value::Int64(sum.passes)},
      {"subPasses", Value::Int64(sum.sub_passes)},
      {"deletedKeys", Value::Int64(sum.deleted_keys)},
      {"examinedKeys", Value::Int64(sum.examined_keys)},
      {"examinedDocuments", Value::Int64(sum.examined_documents)},
      {"durationMicros",
       Value::Int64(absl::ToInt64Microseconds(sum.total_duration))},
      {"failedBatches", Value::Int64(sum.failed_batches)},
      {"deletedByWrites", Value::Int64(sum.deleted_by_writes)},
      {"lastPassMillis",
       Value::Int64(absl::ToInt64Milliseconds(sum.last_pass_duration))},
  };
  if (oldest.has_value()) {
    ttl.emplace_back("oldestExpiredPresent",
                     Value::Date(absl::ToUnixMillis(*oldest)));
    ttl.emplace_back("lagMillis", Value::Int64(absl::ToInt64Milliseconds(
                                      server->clock->WallNow() - *oldest)));
  }
  return Value::MakeObject(std::move(ttl));
}

namespace {

Value Now(ServerState* s) {
  return Value::Date(absl::ToUnixMillis(s->clock->WallNow()));
}

// The awaitable hello's arguments, checked as mongod 8.0's hello does
// (src/mongo/db/repl/replication_info.cpp): maxAwaitTimeMS an integer
// (bsonExtractIntegerField: TypeMismatch for a non-number, BadValue for NaN
// or a fraction), topologyVersion and maxAwaitTimeMS both or neither (31368),
// a non-negative counter (51758) and maxAwaitTimeMS (31373).
absl::Status CheckAwaitArgs(const CommandContext& ctx) {
  const Value* version = Arg(ctx, "topologyVersion");
  const Value* await = Arg(ctx, "maxAwaitTimeMS");
  if (version == nullptr && await == nullptr) return absl::OkStatus();
  if (version == nullptr || await == nullptr) {
    return MongoError(
        absl::StatusCode::kInvalidArgument, kAwaitableHelloArguments,
        version != nullptr ? "A request with a 'topologyVersion' must include "
                             "'maxAwaitTimeMS'"
                           : "A request with 'maxAwaitTimeMS' must include a "
                             "'topologyVersion'");
  }
  if (!version->is_object()) {
    return IdlWrongType(absl::StrCat(ctx.name, ".topologyVersion"), *version,
                        "object");
  }
  const Value* counter = version->Get("counter");
  if (counter != nullptr && counter->is_number() && counter->AsDouble() < 0) {
    return MongoError(absl::StatusCode::kInvalidArgument,
                      kNegativeTopologyCounter,
                      "topologyVersion must have a non-negative counter");
  }
  if (!await->is_number()) {
    return MongoError(absl::StatusCode::kInvalidArgument, kTypeMismatch,
                      "Expected field maxAwaitTimeMS to have numeric type");
  }
  const double ms = await->AsDouble();
  if (!std::isfinite(ms) || std::trunc(ms) != ms || std::fabs(ms) >= 9.2e18) {
    return MongoError(
        absl::StatusCode::kInvalidArgument, kBadValue,
        absl::StrCat("Expected field maxAwaitTimeMS to have a value exactly "
                     "representable as a 64-bit integer, but found "
                     "maxAwaitTimeMS: ",
                     ms));
  }
  if (ms < 0) {
    return MongoError(absl::StatusCode::kInvalidArgument, kNegativeMaxAwaitTime,
                      "maxAwaitTimeMS must be a non-negative integer");
  }
  return absl::OkStatus();
}

// hello (src/mongo/db/repl/replication_info.cpp, hello.idl) as a
// standalone mongod 8.0 replies; isMaster/ismaster name the writable flag
// "ismaster" (the legacy field) instead of "isWritablePrimary".
absl::StatusOr<Value> Hello(CommandContext& ctx) {
  const bool legacy = ctx.name != "hello";
  Value::Object out;
  // Any helloOk (true or false) is answered helloOk: true, before the
  // replication fields (replication_info.cpp).
  const Value* hello_ok = Arg(ctx, "helloOk");
  if (hello_ok != nullptr) {
    if (hello_ok->type() != ValueType::kBool) {
      return IdlWrongType(absl::StrCat(ctx.name, ".helloOk"), *hello_ok,
                          "bool");
    }
    out.emplace_back("helloOk", Value::Bool(true));
  }
  RETURN_IF_ERROR(CheckAwaitArgs(ctx));
  const Value* client = Arg(ctx, "client");
  if (client != nullptr && client->is_object() && ctx.connection != nullptr &&
      ctx.connection->client_metadata().is_null()) {
    ctx.connection->set_client_metadata(*client);
  }
  out.emplace_back(legacy ? "ismaster" : "isWritablePrimary",
                   Value::Bool(true));
  out.emplace_back(
      "topologyVersion",
      Value::MakeObject({{"processId", Value::Oid(ctx.server->process_id)},
                         {"counter", Value::Int64(0)}}));
  out.emplace_back("maxBsonObjectSize", Value::Int32(kMaxBsonObjectSize));
  out.emplace_back("maxMessageSizeBytes", Value::Int32(kMaxMessageSizeBytes));
  out.emplace_back("maxWriteBatchSize", Value::Int32(kMaxWriteBatchSize));
  out.emplace_back("localTime", Now(ctx.server));
  out.emplace_back("logicalSessionTimeoutMinutes",
                   Value::Int32(kLogicalSessionTimeoutMinutes));
  out.emplace_back(
      "connectionId",
      Value::Int32(ctx.connection == nullptr
                       ? 0
                       : static_cast<int32_t>(ctx.connection->id())));
  out.emplace_back("minWireVersion", Value::Int32(kMinWireVersion));
  out.emplace_back("maxWireVersion", Value::Int32(kMaxWireVersion));
  out.emplace_back("readOnly", Value::Bool(false));
  AddHelloAuthFields(ctx, &out);
  return OkReply(std::move(out));
}

// buildInfo's buildEnvironment (VersionInfoInterface::appendBuildInfo):
// the fields ttldb knows of its own build; jstests/libs/os_helpers.js reads
// target_os.
Value BuildEnvironment() {
#if defined(__x86_64__)
  const char* arch = "x86_64";
#elif defined(__aarch64__)
  const char* arch = "aarch64";
#else
  const char* arch = "unknown";
#endif
#if defined(__linux__)
  const char* os = "linux";
#else
  const char* os = "unknown";
#endif
  return Value::MakeObject({{"distarch", Value::String(arch)},
                            {"cxx", Value::String(__VERSION__)},
                            {"target_arch", Value::String(arch)},
                            {"target_os", Value::String(os)}});
}

// buildInfo (src/mongo/db/commands/buildinfo_common.cpp, VersionInfo).
absl::StatusOr<Value> BuildInfo(CommandContext& ctx) {
  (void)ctx;
  return OkReply({
      {"version", Value::String(kMongoVersion)},
      {"gitVersion", Value::String("ttldb")},
      {"modules", Value::MakeArray()},
      {"allocator", Value::String("system")},
      {"javascriptEngine", Value::String("none")},
      {"sysInfo", Value::String("deprecated")},
      {"versionArray", Value::MakeArray({Value::Int32(8), Value::Int32(0),
                                         Value::Int32(0), Value::Int32(0)})},
      {"bits", Value::Int32(64)},
      {"debug", Value::Bool(false)},
      {"maxBsonObjectSize", Value::Int32(kMaxBsonObjectSize)},
      {"storageEngines", Value::MakeArray({Value::String("ttldb")})},
      {"buildEnvironment", BuildEnvironment()},
  });
}

absl::StatusOr<Value> Ping(CommandContext& ctx) {
  (void)ctx;
  return OkReply();
}

std::string Hostname() {
  char buf[256] = {0};
  if (gethostname(buf, sizeof(buf) - 1) != 0) return "localhost";
  return buf;
}

int64_t MemSizeMb() {
  std::ifstream in("/proc/meminfo");
  std::string key;
  int64_t kb = 0;
  while (in >> key >> kb) {
    if (key == "MemTotal:") return kb / 1024;
    std::string unit;
    in >> unit;
  }
  return 0;
}

// hostInfo (src/mongo/db/commands/generic_servers.cpp CmdHostInfo).
absl::StatusOr<Value> HostInfo(CommandContext& ctx) {
  struct utsname u;
  const bool have_uname = uname(&u) == 0;
  const int64_t mem = MemSizeMb();
  const int cores = static_cast<int>(std::thread::hardware_concurrency());
  return OkReply({
      {"system",
       Value::MakeObject({
           {"currentTime", Now(ctx.server)},
           {"hostname", Value::String(Hostname())},
           {"cpuAddrSize", Value::Int32(64)},
           {"memSizeMB", Value::Int64(mem)},
           {"memLimitMB", Value::Int64(mem)},
           {"numCores", Value::Int32(cores)},
           {"cpuArch", Value::String(have_uname ? u.machine : "unknown")},
           {"numaEnabled", Value::Bool(false)},
       })},
      {"os", Value::MakeObject({
                 {"type", Value::String(have_uname ? u.sysname : "Linux")},
                 {"name", Value::String(have_uname ? u.sysname : "Linux")},
                 {"version", Value::String(have_uname ? u.release : "")},
             })},
      {"extra", Value::MakeObject()},
  });
}

// serverStatus.globalLock (src/mongo/db/stats/lock_server_status_section.
// cpp): totalTime in microseconds since the start; the commands running now
// as activeClients (writes as writers, the rest as readers). ttldb has no
// global lock to queue on (writers of one collection wait on its engine's
// writers' lock, inside the command), so currentQueue is 0.
Value GlobalLock(ServerState* s, absl::Duration up) {
  const int64_t readers = s->op_stats.active_readers.load();
  const int64_t writers = s->op_stats.active_writers.load();
  auto rw = [](int64_t r, int64_t w) {
    return Value::MakeObject({
        {"total", Value::Int32(static_cast<int32_t>(r + w))},
        {"readers", Value::Int32(static_cast<int32_t>(r))},
        {"writers", Value::Int32(static_cast<int32_t>(w))},
    });
  };
  return Value::MakeObject({
      {"totalTime", Value::Int64(absl::ToInt64Microseconds(up))},
      {"currentQueue", rw(0, 0)},
      {"activeClients", rw(readers, writers)},
  });
}

// serverStatus (src/mongo/db/commands/server_status.cpp): the common
// sections (host, connections, globalLock, opLatencies, opcounters), plus
// metrics.ttl and metrics.cursor.
absl::StatusOr<Value> ServerStatus(CommandContext& ctx) {
  ServerState* s = ctx.server;
  const absl::Duration up = s->clock->SteadyNow() - s->start_steady;
  const int64_t current = s->connections_current.load();
  const int64_t timed_out = s->cursors->timed_out_count();
  const int64_t open = s->cursors->open_count();
  return OkReply({
      {"host", Value::String(s->Host())},
      {"version", Value::String(kMongoVersion)},
      {"process", Value::String("mongod")},
      {"service", Value::MakeArray({Value::String("shard")})},
      {"pid", Value::Int64(static_cast<int64_t>(getpid()))},
      {"uptime", Value::Double(absl::ToDoubleSeconds(up))},
      {"uptimeMillis", Value::Int64(absl::ToInt64Milliseconds(up))},
      {"uptimeEstimate", Value::Int64(absl::ToInt64Seconds(up))},
      {"localTime", Now(s)},
      {"connections",
       Value::MakeObject({
           {"current", Value::Int32(static_cast<int32_t>(current))},
           {"available", Value::Int32(static_cast<int32_t>(
                             std::max<int64_t>(0, 1000000 - current)))},
           {"totalCreated",
            Value::Int32(static_cast<int32_t>(s->connections_total.load()))},
       })},
      {"globalLock", GlobalLock(s, up)},
      {"opLatencies", s->op_stats.GlobalLatencies()},
      {"opcounters", s->op_stats.OpCounters()},
      // A standalone server applies no replicated operations.
      {"opcountersRepl", OpStats().OpCounters()},
      {"metrics",
       Value::MakeObject({
           {"cursor", Value::MakeObject({
                          {"timedOut", Value::Int64(timed_out)},
                          {"open", Value::MakeObject({
                                       {"noTimeout", Value::Int64(0)},
                                       {"pinned", Value::Int64(0)},
                                       {"total", Value::Int64(open)},
                                   })},
                      })},
           {"ttl", TtlMetricsAcrossDatabases(s)},
       })},
  });
}

// getLog (src/mongo/db/commands/generic_servers.cpp CmdGetLog): "global"
// is the server log's last lines (commands/server_log.h); ttldb has no
// startup warnings.
absl::StatusOr<Value> GetLog(CommandContext& ctx) {
  const Value& which = ctx.first();
  if (!which.is_string()) {
    return MongoError(absl::StatusCode::kInvalidArgument, kTypeMismatch,
                      "Argument to getLog must be of type String; found " +
                          std::string(TypeName(which.type())) + " of type " +
                          std::string(TypeName(which.type())));
  }
  if (which.string_value() == "*") {
    return OkReply(
        {{"names", Value::MakeArray({Value::String("global"),
                                     Value::String("startupWarnings")})}});
  }
  if (which.string_value() != "global" &&
      which.string_value() != "startupWarnings") {
    return MongoError(
        absl::StatusCode::kInvalidArgument, kOperationFailed,
        absl::StrCat("No log named '", which.string_value(), "'"));
  }
  if (which.string_value() == "startupWarnings") {
    return OkReply(
        {{"totalLinesWritten", Value::Int32(0)}, {"log", Value::MakeArray()}});
  }
  Value::Array lines;
  for (std::string& line : ctx.server->log->Lines()) {
    lines.push_back(Value::String(std::move(line)));
  }
  return OkReply(
      {{"totalLinesWritten", Value::Int32(static_cast<int32_t>(
                                 ctx.server->log->total_lines_written()))},
       {"log", Value::MakeArray(std::move(lines))}});
}

absl::StatusOr<Value> WhatsMyUri(CommandContext& ctx) {
  const std::string you =
      ctx.connection == nullptr || ctx.connection->peer().empty()
          ? std::string("127.0.0.1:0")
          : ctx.connection->peer();
  return OkReply({{"you", Value::String(you)}});
}

absl::StatusOr<Value> GetCmdLineOpts(CommandContext& ctx) {
  Value::Array argv;
  for (const std::string& a : ctx.server->options.argv) {
    argv.push_back(Value::String(a));
  }
  Value::Object parsed;
  if (!ctx.server->root.empty()) {
    parsed.emplace_back(
        "storage",
        Value::MakeObject({{"dbPath", Value::String(ctx.server->root)}}));
  }
  return OkReply({{"argv", Value::MakeArray(std::move(argv))},
                  {"parsed", Value::MakeObject(std::move(parsed))}});
}

// Logical sessions are accepted and need no server state: ttldb has no
// transactions or retryable-write records to keep for them.
absl::StatusOr<Value> SessionsAccepted(CommandContext& ctx) {
  (void)ctx;
  return OkReply();
}

// startSession: a fresh UUID (binary subtype 4) and the timeout.
absl::StatusOr<Value> StartSession(CommandContext& ctx) {
  (void)ctx;
  return OkReply(
      {{"id", Value::MakeObject({{"id", Value::Bin(RandomUuid())}})},
       {"timeoutMinutes", Value::Int32(kLogicalSessionTimeoutMinutes)}});
}

}  // namespace

void AddHelloCommands(std::vector<CommandSpec>* specs) {
  specs->push_back({"hello", Hello});
  specs->push_back({"isMaster", Hello});
  specs->push_back({"ismaster", Hello});
  specs->push_back({"buildInfo", BuildInfo});
  specs->push_back({"buildinfo", BuildInfo});
  specs->push_back({"ping", Ping});
  specs->push_back({"hostInfo", HostInfo});
  specs->push_back({"serverStatus", ServerStatus});
  specs->push_back({"getLog", GetLog, /*admin_only=*/true});
  specs->push_back({"whatsmyuri", WhatsMyUri});
  specs->push_back({"getCmdLineOpts", GetCmdLineOpts, /*admin_only=*/true});
  specs->push_back({"endSessions", SessionsAccepted});
  specs->push_back({"killSessions", SessionsAccepted});
  specs->push_back({"killAllSessions", SessionsAccepted});
  specs->push_back({"refreshSessions", SessionsAccepted});
  specs->push_back({"startSession", StartSession});
}

}  // namespace commands
}  // namespace ttldb
