// Dispatch, the handshake and the generic arguments, through
// CommandRunner::Run on a temporary root.
#include "commands/command_runner.h"

#include <filesystem>
#include <string>

#include "commands/command_test_util.h"
#include "gtest/gtest.h"
#include "ttldb/json.h"

namespace ttldb {
namespace commands {
namespace {

using HelloTest = CommandTest;

// The field list of an object, for shape checks.
std::string Keys(const Value& v) {
  std::string out;
  for (const Field& f : v.object_fields()) {
    if (!out.empty()) out += ",";
    out += f.first;
  }
  return out;
}

// hello on a standalone mongod 8.0: the fields of HelloCommandReply
// (src/mongo/db/repl/hello.idl) a standalone fills, in replication_info.cpp
// order; jstests/core/administrative/ismaster.js checks the same values.
TEST_F(HelloTest, HelloHasStandaloneShape) {
  Value r = Run("admin", R"({"hello": 1, "$db": "admin"})");
  EXPECT_EQ(Keys(r),
            "isWritablePrimary,topologyVersion,maxBsonObjectSize,"
            "maxMessageSizeBytes,maxWriteBatchSize,localTime,"
            "logicalSessionTimeoutMinutes,connectionId,minWireVersion,"
            "maxWireVersion,readOnly,ok");
  EXPECT_EQ(ToJson(*r.Get("isWritablePrimary")), "true");
  EXPECT_EQ(r.Get("topologyVersion")->Get("processId")->type(),
            ValueType::kObjectId);
  EXPECT_EQ(
      ToJson(*r.Get("topologyVersion")->Get("counter"), JsonFormat::kStorage),
      R"({"$numberLong":"0"})");
  EXPECT_EQ(ToJson(*r.Get("maxBsonObjectSize")), "16777216");
  EXPECT_EQ(ToJson(*r.Get("maxMessageSizeBytes")), "48000000");
  EXPECT_EQ(ToJson(*r.Get("maxWriteBatchSize")), "100000");
  EXPECT_EQ(r.Get("localTime")->date_millis(),
            absl::ToUnixMillis(clock_.WallNow()));
  EXPECT_EQ(ToJson(*r.Get("logicalSessionTimeoutMinutes")), "30");
  EXPECT_EQ(ToJson(*r.Get("connectionId")), std::to_string(conn_->id()));
  EXPECT_EQ(ToJson(*r.Get("minWireVersion")), "0");
  EXPECT_EQ(ToJson(*r.Get("maxWireVersion")), "25");  // WIRE_VERSION_80
  EXPECT_EQ(ToJson(*r.Get("readOnly")), "false");
  EXPECT_EQ(ToJson(*r.Get("ok")), "1.0");
}

// isMaster and ismaster are hello's aliases with the legacy "ismaster"
// field (jstests/core/administrative/ismaster.js: "hello command and its
// aliases, ismaster and isMaster, are all accepted"); helloOk: true is
// echoed for drivers that negotiate it.
TEST_F(HelloTest, IsMasterAliasesUseLegacyField) {
  for (const char* name : {"isMaster", "ismaster"}) {
    Value r =
        Run("admin", std::string("{\"") + name + R"(": 1, "helloOk": true})");
    EXPECT_EQ(Keys(r).substr(0, 34), "helloOk,ismaster,topologyVersion,m")
        << name;
    EXPECT_EQ(r.Get("isWritablePrimary"), nullptr);
  }
  // Command names are case-sensitive: "Hello" is no command.
  EXPECT_EQ(RunJson("test", R"({"Hello": 1})"),
            R"({"ok":0.0,"errmsg":"no such command: 'Hello'","code":59,)"
            R"("codeName":"CommandNotFound"})");
}

// Each connection gets its own id (hello's connectionId).
TEST_F(HelloTest, ConnectionIdsDiffer) {
  auto other = runner_->NewConnection();
  Value a = Run("admin", R"({"hello": 1})");
  Value b = Run("admin", R"({"hello": 1})", other.get());
  EXPECT_NE(ToJson(*a.Get("connectionId")), ToJson(*b.Get("connectionId")));
}

// Unknown commands: CommandNotFound (59) "no such command: 'x'"
// (service_entry_point_common.cpp); atlasVersion is unknown to a
// community mongod too.
TEST_F(HelloTest, UnknownCommand) {
  EXPECT_EQ(RunJson("test", R"({"frobnicate": 1})"),
            R"({"ok":0.0,"errmsg":"no such command: 'frobnicate'",)"
            R"("code":59,"codeName":"CommandNotFound"})");
  EXPECT_EQ(ToJson(*Run("admin", R"({"atlasVersion": 1})").Get("code")), "59");
}

// buildInfo (buildinfo_common.cpp): version and versionArray of 8.0.
TEST_F(HelloTest, BuildInfo) {
  Value r = Run("admin", R"({"buildInfo": 1})");
  EXPECT_EQ(ToJson(*r.Get("version")), R"("8.0.0")");
  EXPECT_EQ(ToJson(*r.Get("versionArray")), "[8,0,0,0]");
  EXPECT_EQ(ToJson(*r.Get("maxBsonObjectSize")), "16777216");
  // jstests/libs/os_helpers.js isLinux(): buildEnvironment.target_os.
  EXPECT_EQ(ToJson(*r.Get("buildEnvironment")->Get("target_os")), R"("linux")");
  EXPECT_EQ(ToJson(*r.Get("ok")), "1.0");
  EXPECT_EQ(ToJson(*Run("test", R"({"buildinfo": 1})").Get("version")),
            R"("8.0.0")");
}

TEST_F(HelloTest, PingAndSessions) {
  EXPECT_EQ(RunJson("test", R"({"ping": 1})"), R"({"ok":1.0})");
  EXPECT_EQ(RunJson("admin",
                    R"({"endSessions": [{"id": {"$binary": {"base64":
                    "AAAAAAAAAAAAAAAAAAAAAA==", "subType": "04"}}}]})"),
            R"({"ok":1.0})");
  EXPECT_EQ(RunJson("admin", R"({"killSessions": []})"), R"({"ok":1.0})");
  // A logical session on an ordinary command is accepted.
  EXPECT_EQ(RunJson("test",
                    R"({"ping": 1, "lsid": {"id": {"$binary": {"base64":
                    "AAAAAAAAAAAAAAAAAAAAAA==", "subType": "04"}}},
                    "$clusterTime": {"clusterTime": {"$timestamp": {"t": 1,
                    "i": 1}}}, "$readPreference": {"mode": "primary"}})"),
            R"({"ok":1.0})");
}

// Transactions on a standalone: MongoDB refuses any txnNumber with
// IllegalOperation "Transaction numbers are only allowed on a replica set
// member or mongos" (service_entry_point_shard_role.cpp,
// jstests/noPassthrough/txn_override_causal_consistency.js and the manual's
// "Transactions ... require a replica set").
TEST_F(HelloTest, TransactionsRefusedAsStandalone) {
  const std::string expected =
      R"({"ok":0.0,"errmsg":"Transaction numbers are only allowed on a )"
      R"(replica set member or mongos","code":20,)"
      R"("codeName":"IllegalOperation"})";
  EXPECT_EQ(RunJson("test",
                    R"({"insert": "c", "documents": [{"a": 1}],
                    "txnNumber": {"$numberLong": "1"}, "startTransaction":
                    true, "autocommit": false})"),
            expected);
  // Nothing was written.
  EXPECT_EQ(RunJson("test", R"({"count": "c"})"), R"({"n":0,"ok":1.0})");
}

// writeConcern on a standalone (write_concern.cpp): w > 1 is BadValue;
// j/fsync together FailedToParse; j: true and w: "majority" are accepted.
// A command that writes nothing refuses any writeConcern with InvalidOptions
// "Command does not support writeConcern".
TEST_F(HelloTest, WriteConcern) {
  EXPECT_EQ(RunJson("test", R"({"insert": "c", "documents": [{"_id": 1}],
                     "writeConcern": {"w": 2}})"),
            R"({"ok":0.0,"errmsg":"cannot use 'w' > 1 when a host is not )"
            R"(replicated","code":2,"codeName":"BadValue"})");
  EXPECT_EQ(RunJson("test", R"({"insert": "c", "documents": [{"_id": 1}],
                     "writeConcern": {"j": true, "fsync": true}})"),
            R"({"ok":0.0,"errmsg":"fsync and j options cannot be used )"
            R"(together","code":9,"codeName":"FailedToParse"})");
  EXPECT_EQ(RunJson("test", R"({"insert": "c", "documents": [{"_id": 1}],
                     "writeConcern": {"j": true}})"),
            R"({"n":1,"ok":1.0})");
  EXPECT_EQ(RunJson("test", R"({"insert": "c", "documents": [{"_id": 2}],
                     "writeConcern": {"w": "majority", "wtimeout": 100}})"),
            R"({"n":1,"ok":1.0})");
  EXPECT_EQ(RunJson("test", R"({"find": "c", "writeConcern": {"w": 1}})"),
            R"({"ok":0.0,"errmsg":"Command does not support writeConcern",)"
            R"("code":72,"codeName":"InvalidOptions"})");
}

// Admin-only commands run elsewhere: Unauthorized "<cmd> may only be run
// against the admin database." (commands.cpp adminOnly).
TEST_F(HelloTest, AdminOnly) {
  EXPECT_EQ(RunJson("test", R"({"listDatabases": 1})"),
            R"({"ok":0.0,"errmsg":"listDatabases may only be run against )"
            R"(the admin database.","code":13,"codeName":"Unauthorized"})");
  EXPECT_EQ(
      ToJson(*Run("test", R"({"getParameter": 1, "ttlMonitorSleepSecs": 1})")
                  .Get("code")),
      "13");
}

// Invalid database names: InvalidNamespace (namespace_string.cpp
// validDBName: no '/', '\\', '.', ' ', '"', '$', shorter than 64).
TEST_F(HelloTest, InvalidDatabaseName) {
  EXPECT_EQ(RunJson("a.b", R"({"ping": 1})"),
            R"({"ok":0.0,"errmsg":"Invalid database name: 'a.b'","code":73,)"
            R"("codeName":"InvalidNamespace"})");
  EXPECT_EQ(ToJson(*Run(std::string(64, 'x'), R"({"ping": 1})").Get("code")),
            "73");
}

// After Close every command is ShutdownInProgress (91).
TEST_F(HelloTest, ClosedRunnerRefuses) {
  ASSERT_TRUE(runner_->Close().ok());
  EXPECT_EQ(ToJson(*Run("test", R"({"ping": 1})").Get("code")), "91");
}

// getLog startupWarnings and connectionStatus, as mongosh asks at start
// (generic_servers.cpp CmdGetLog; connection_status.cpp).
TEST_F(HelloTest, MongoshStartupCommands) {
  EXPECT_EQ(RunJson("admin", R"({"getLog": "startupWarnings"})"),
            R"({"totalLinesWritten":0,"log":[],"ok":1.0})");
  EXPECT_EQ(RunJson("test", R"({"connectionStatus": 1})"),
            R"({"authInfo":{"authenticatedUsers":[],)"
            R"("authenticatedUserRoles":[]},"ok":1.0})");
  EXPECT_EQ(RunJson("admin", R"({"getParameter": 1,
                     "featureCompatibilityVersion": 1})"),
            R"({"featureCompatibilityVersion":{"version":"8.0"},"ok":1.0})");
  Value opts = Run("admin", R"({"getCmdLineOpts": 1})");
  EXPECT_EQ(ToJson(*opts.Get("parsed")),
            "{\"storage\":{\"dbPath\":\"" + root_ + "\"}}");
  Value host = Run("admin", R"({"hostInfo": 1})");
  EXPECT_EQ(ToJson(*host.Get("ok")), "1.0");
  EXPECT_TRUE(host.Get("system")->Get("hostname")->is_string());
}

}  // namespace
}  // namespace commands
}  // namespace ttldb
