// What an operator types: currentOp / $currentOp, killOp, the profiler
// (profile, system.profile, the "Slow query" log line), getLog, fsync,
// replSetGetStatus and $changeStream on a standalone. Expected answers:
// src/mongo/db/commands/current_op_common.cpp, killop_cmd.cpp,
// pipeline/document_source_current_op.cpp, curop.cpp, introspect.cpp,
// commands/profile_common.cpp, commands/fsync.cpp,
// repl/repl_set_commands.cpp, pipeline/document_source_change_stream.cpp
// and jstests/core/administrative/current_op/currentop.js,
// jstests/noPassthrough/currentop_query.js, jstests/core/profile*.js,
// jstests/change_streams/ (notReplicaSetErrorCode = 40573).
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "commands/command_test_util.h"
#include "gtest/gtest.h"

namespace ttldb {
namespace commands {
namespace {

class OperatorTest : public CommandTest {
 protected:
  void InsertDocs(int n) {
    std::string docs;
    for (int i = 0; i < n; ++i) {
      absl::StrAppend(&docs, i ? "," : "", R"({"_id":)", i, R"(,"x":)", i, "}");
    }
    ASSERT_EQ(RunJson("test", absl::StrCat(R"({"insert":"c","documents":[)",
                                           docs, "]}")),
              absl::StrCat(R"({"n":)", n, R"(,"ok":1.0})"));
  }
};

// ttldb serves $changeStream from its change log (a standalone mongod
// answers 40573; commands/change_stream_cursor_test.cc has the streams).
// Not first in the pipeline: 40602, as document_source_change_stream.cpp;
// a whole-cluster stream (allChangesForCluster) is not there: 238.
TEST_F(OperatorTest, ChangeStreamIsServedOnOneNode) {
  InsertDocs(1);
  const std::string first =
      RunJson("test", R"({"aggregate":"c","pipeline":[{"$changeStream":{}}],)"
                      R"("cursor":{}})");
  EXPECT_TRUE(absl::StrContains(first, R"("firstBatch":[],)"
                                       R"("postBatchResumeToken":{"_data":")"))
      << first;
  EXPECT_EQ(RunJson("test", R"({"aggregate":"c","pipeline":[{"$match":{}},)"
                            R"({"$changeStream":{}}],"cursor":{}})"),
            R"({"ok":0.0,"errmsg":"$changeStream is only valid as the first )"
            R"(stage in a pipeline","code":40602,"codeName":"Location40602"})");
  EXPECT_TRUE(absl::StrContains(
      RunJson("admin", R"({"aggregate":1,"pipeline":[{"$changeStream":)"
                       R"({"allChangesForCluster":true}}],"cursor":{}})"),
      R"("code":238)"));
}

TEST_F(OperatorTest, ReplicationCommandsAreNoReplicationEnabled) {
  for (const char* cmd :
       {R"({"replSetGetStatus":1})", R"({"replSetGetConfig":1})"}) {
    EXPECT_EQ(RunJson("admin", cmd),
              R"({"ok":0.0,"errmsg":"not running with --replSet",)"
              R"("code":76,"codeName":"NoReplicationEnabled"})");
  }
}

// Idle connections: with {$all: true} (currentOp) or idleConnections
// ($currentOp) each connection that runs nothing is listed with active:
// false, as CurOp::reportCurrentOpForClient reports a client without an
// operation (jstests/core/administrative/current_op/currentop.js lists
// them with $all); without, only running operations. A closed connection
// is gone.
TEST_F(OperatorTest, IdleConnectionsAreListedWithAll) {
  auto idle = runner_->NewConnection();
  const std::string idle_desc = absl::StrCat("conn", idle->id());
  auto descs = [&](const Value& reply, const char* list) {
    std::vector<std::string> out;
    const Value* items = reply.Get(list);
    if (items == nullptr) {
      items = reply.Get("cursor")->Get("firstBatch");
    }
    for (const Value& r : items->array_items()) {
      out.push_back(absl::StrCat(r.Get("desc")->string_value(), " ",
                                 ToJson(*r.Get("active"))));
    }
    return out;
  };
  const std::string me = absl::StrCat("conn", conn_->id());
  EXPECT_EQ(descs(Run("admin", R"({"currentOp":1})"), "inprog"),
            std::vector<std::string>({me + " true"}));
  EXPECT_EQ(descs(Run("admin", R"({"currentOp":1,"$all":true})"), "inprog"),
            std::vector<std::string>({me + " true", idle_desc + " false"}));
  Value idle_report =
      Run("admin", R"({"currentOp":1,"$all":true,"active":false})");
  ASSERT_EQ(idle_report.Get("inprog")->array_items().size(), 1u)
      << ToJson(idle_report);
  EXPECT_EQ(ToJson(idle_report.Get("inprog")->array_items()[0]),
            absl::StrCat(R"({"type":"op","host":"testhost:27017","desc":")",
                         idle_desc, R"(","connectionId":)", idle->id(),
                         R"(,"active":false,"currentOpTime":)",
                         R"("2027-01-15T08:00:00.000+00:00",)",
                         R"("isFromUserConnection":true,"threaded":true})"));
  const char* stage = R"({"aggregate":1,"pipeline":[{"$currentOp":)"
                      R"({"idleConnections":true}}],"cursor":{}})";
  EXPECT_EQ(descs(Run("admin", stage), ""),
            std::vector<std::string>({me + " true", idle_desc + " false"}));
  idle.reset();
  EXPECT_EQ(descs(Run("admin", R"({"currentOp":1,"$all":true})"), "inprog"),
            std::vector<std::string>({me + " true"}));
}

class RunningOpTest : public OperatorTest {
 protected:
  RunningOpTest() { options_.database_options.clock = &ticking_; }
  TickingClock ticking_;
};

// A find scanning 300 documents (maxTimeMS makes each examined document
// read the ticking clock): while it runs, a second connection sees it in
// currentOp and $currentOp and kills it; it stops with 11601 Interrupted.
TEST_F(RunningOpTest, CurrentOpShowsItAndKillOpEndsIt) {
  InsertDocs(300);
  auto other = runner_->NewConnection();
  Value seen, seen_by_stage, killed;
  ticking_.CallAt(ticking_.reads() + 50, [&] {
    seen = Run("admin", R"({"currentOp":1,"ns":"test.c"})", other.get());
    seen_by_stage = Run("admin",
                        R"({"aggregate":1,"pipeline":[{"$currentOp":)"
                        R"({"allUsers":true}},{"$match":{"op":"query"}},)"
                        R"({"$project":{"opid":1,"ns":1,"_id":0}}],)"
                        R"("cursor":{}})",
                        other.get());
    const Value* inprog = seen.Get("inprog");
    if (inprog == nullptr || inprog->array_items().size() != 1) return;
    killed = Run("admin",
                 absl::StrCat(R"({"killOp":1,"op":)",
                              ToJson(*inprog->array_items()[0].Get("opid"),
                                     JsonFormat::kStorage),
                              "}"),
                 other.get());
  });
  const std::string find =
      R"({"find":"c","filter":{"x":-1},"maxTimeMS":1000000})";
  EXPECT_EQ(RunJson("test", find),
            R"({"ok":0.0,"errmsg":"operation was interrupted","code":11601,)"
            R"("codeName":"Interrupted"})");
  ASSERT_EQ(ToJson(*seen.Get("ok")), "1.0") << ToJson(seen);
  ASSERT_EQ(seen.Get("inprog")->array_items().size(), 1u) << ToJson(seen);
  const Value& op = seen.Get("inprog")->array_items()[0];
  EXPECT_EQ(ToJson(*op.Get("type")), R"("op")");
  EXPECT_EQ(ToJson(*op.Get("host")), R"("testhost:27017")");
  EXPECT_EQ(ToJson(*op.Get("desc")), absl::StrCat("\"conn", conn_->id(), "\""));
  EXPECT_EQ(op.Get("connectionId")->AsDouble(), conn_->id());
  EXPECT_EQ(ToJson(*op.Get("active")), "true");
  EXPECT_EQ(ToJson(*op.Get("op")), R"("query")");
  EXPECT_EQ(ToJson(*op.Get("ns")), R"("test.c")");
  EXPECT_EQ(ToJson(*op.Get("command")), ToJson(*ParseDocument(find)));
  EXPECT_TRUE(op.Get("opid")->is_number());
  EXPECT_TRUE(op.Get("secs_running") != nullptr);
  EXPECT_GT(op.Get("microsecs_running")->AsDouble(), 0);
  EXPECT_EQ(ToJson(*op.Get("currentOpTime")),
            R"("2027-01-15T08:00:00.000+00:00")");
  // The stage saw the same operation.
  EXPECT_EQ(ToJson(*seen_by_stage.Get("cursor")->Get("firstBatch")),
            absl::StrCat(R"([{"opid":)", ToJson(*op.Get("opid")),
                         R"(,"ns":"test.c"}])"));
  EXPECT_EQ(ToJson(killed, JsonFormat::kStorage),
            R"({"info":"attempting to kill op","ok":1.0})");
  // Over: no longer listed, and the connection works.
  EXPECT_EQ(RunJson("admin", R"({"currentOp":1,"ns":"test.c"})"),
            R"({"inprog":[],"ok":1.0})");
  EXPECT_EQ(RunJson("test", R"({"count":"c"})"), R"({"n":300,"ok":1.0})");
}

TEST_F(OperatorTest, KillOpArguments) {
  EXPECT_EQ(RunJson("admin", R"({"killOp":1})"),
            R"({"ok":0.0,"errmsg":"Missing expected field \"op\"","code":4,)"
            R"("codeName":"NoSuchKey"})");
  // An operation that does not run: nothing to do, same reply.
  EXPECT_EQ(RunJson("admin", R"({"killOp":1,"op":123456})"),
            R"({"info":"attempting to kill op","ok":1.0})");
  EXPECT_EQ(RunJson("test", R"({"killOp":1,"op":1})"),
            R"({"ok":0.0,"errmsg":"killOp may only be run against the )"
            R"(admin database.","code":13,"codeName":"Unauthorized"})");
}

TEST_F(OperatorTest, CurrentOpStageRules) {
  EXPECT_EQ(RunJson("test", R"({"aggregate":1,"pipeline":[{"$currentOp":{}}],)"
                            R"("cursor":{}})"),
            R"({"ok":0.0,"errmsg":"$currentOp must be run against the )"
            R"('admin' database with {aggregate: 1}","code":73,)"
            R"("codeName":"InvalidNamespace"})");
  EXPECT_EQ(RunJson("admin", R"({"aggregate":1,"pipeline":[{"$match":{}},)"
                             R"({"$currentOp":{}}],"cursor":{}})"),
            R"({"ok":0.0,"errmsg":"$currentOp is only valid as the first )"
            R"(stage in a pipeline","code":40602,"codeName":"Location40602"})");
  EXPECT_EQ(RunJson("admin", R"({"aggregate":1,"pipeline":[{"$currentOp":)"
                             R"({"bogus":true}}],"cursor":{}})"),
            R"({"ok":0.0,"errmsg":"Unrecognized option 'bogus' in )"
            R"($currentOp stage.","code":9,"codeName":"FailedToParse"})");
  // The currentOp command reports itself.
  Value self = Run("admin", R"({"currentOp":1,"op":"command"})");
  ASSERT_EQ(self.Get("inprog")->array_items().size(), 1u) << ToJson(self);
  EXPECT_EQ(ToJson(*self.Get("inprog")->array_items()[0].Get("ns")),
            R"("admin.$cmd")");
}

// profile -1 reads; 2 profiles everything into system.profile; 0 stops.
TEST_F(OperatorTest, ProfilerWritesSystemProfile) {
  InsertDocs(5);
  EXPECT_EQ(RunJson("test", R"({"profile":-1})"),
            R"({"was":0,"slowms":100,"sampleRate":1.0,)"
            R"("ok":1.0})");
  EXPECT_EQ(RunJson("test", R"({"profile":2})"),
            R"({"was":0,"slowms":100,"sampleRate":1.0,)"
            R"("ok":1.0})");
  EXPECT_EQ(RunJson("test", R"({"find":"c","filter":{"x":{"$gte":3}}})"),
            R"({"cursor":{"firstBatch":[{"_id":3,"x":3},{"_id":4,"x":4}],)"
            R"("id":{"$numberLong":"0"},"ns":"test.c"},"ok":1.0})");
  EXPECT_EQ(RunJson("test", R"({"profile":0})"),
            R"({"was":2,"slowms":100,"sampleRate":1.0,)"
            R"("ok":1.0})");
  Value found = Run("test", R"({"find":"system.profile","filter":)"
                            R"({"op":"query"},"projection":{"_id":0,)"
                            R"("op":1,"ns":1,"command.filter":1,)"
                            R"("keysExamined":1,"docsExamined":1,)"
                            R"("cursorExhausted":1,"nreturned":1,"millis":1,)"
                            R"("planSummary":1,"ts":1,"client":1,"user":1}})");
  EXPECT_EQ(
      ToJson(*found.Get("cursor")->Get("firstBatch"), JsonFormat::kStorage),
      R"([{"op":"query","ns":"test.c","command":{"filter":{"x":)"
      R"({"$gte":3}}},"keysExamined":0,)"
      R"("docsExamined":5,"cursorExhausted":true,)"
      R"("nreturned":2,"millis":0,"planSummary":"COLLSCAN",)"
      R"("ts":{"$date":{"$numberLong":"1800000000000"}},)"
      R"("client":"127.0.0.1","user":""}])");
  // Level 0 again: the find above is not profiled.
  EXPECT_EQ(RunJson("test", R"({"count":"system.profile","query":)"
                            R"({"ns":"test.system.profile"}})"),
            R"({"n":0,"ok":1.0})");
  // Users do not write to it.
  EXPECT_EQ(RunJson("test", R"({"insert":"system.profile","documents":)"
                            R"([{"a":1}]})"),
            R"({"ok":0.0,"errmsg":"cannot write to 'test.system.profile'",)"
            R"("code":73,"codeName":"InvalidNamespace"})");
  EXPECT_EQ(RunJson("test", R"({"profile":5})"),
            R"({"ok":0.0,"errmsg":"Profiling level must be -1, 0, 1 or 2, )"
            R"(not 5","code":2,"codeName":"BadValue"})");
  EXPECT_EQ(RunJson("test", R"({"profile":1,"sampleRate":2})"),
            R"({"ok":0.0,"errmsg":"'sampleRate' must be between 0.0 and 1.0 )"
            R"(inclusive","code":2,"codeName":"BadValue"})");
}

// planSummary, as OpDebug::append and Explain::getPlanSummary write it: the
// leaf of the plan the operation ran (IXSCAN with its key pattern, IDHACK
// for an _id lookup), in the profile entry (after millis) and in the slow
// query line (after command).
TEST_F(OperatorTest, ProfileEntriesCarryThePlanSummary) {
  InsertDocs(5);
  ASSERT_NE(RunJson("test", R"({"createIndexes":"c","indexes":)"
                            R"([{"key":{"x":1,"_id":-1},"name":"x_1"}]})")
                .find(R"("ok":1.0)"),
            std::string::npos);
  ASSERT_EQ(RunJson("test", R"({"profile":2,"slowms":0})").substr(0, 8),
            R"({"was":0)");
  Run("test", R"({"find":"c","filter":{"x":{"$gte":3}}})");
  Run("test", R"({"find":"c","filter":{"_id":2}})");
  Run("test", R"({"delete":"c","deletes":[{"q":{"x":4},"limit":1}]})");
  Run("test", R"({"insert":"c","documents":[{"_id":9}]})");
  ASSERT_EQ(RunJson("test", R"({"profile":0})").substr(0, 8), R"({"was":2)");
  Value found = Run("test", R"({"find":"system.profile","filter":)"
                            R"({"ns":"test.c"},"projection":{"_id":0,)"
                            R"("op":1,"planSummary":1}})");
  EXPECT_EQ(ToJson(*found.Get("cursor")->Get("firstBatch")),
            R"([{"op":"query","planSummary":"IXSCAN { x: 1, _id: -1 }"},)"
            R"({"op":"query","planSummary":"IDHACK"},)"
            R"({"op":"remove","planSummary":"IXSCAN { x: 1, _id: -1 }"},)"
            R"({"op":"insert"}])");
  Value log = Run("admin", R"({"getLog":"global"})");
  const Value::Array& lines = log.Get("log")->array_items();
  int with_summary = 0;
  for (const Value& line : lines) {
    if (absl::StrContains(
            line.string_value(),
            R"("planSummary":"IXSCAN { x: 1, _id: -1 }","keysExamined")")) {
      ++with_summary;
    }
  }
  EXPECT_EQ(with_summary, 2);
}

// The write counts of profile entries (OpDebug::append): keysInserted and
// keysDeleted, the _id index's key included
// (jstests/core/administrative/profile/profile_insert.js: one insert of
// {_id: 1} is keysInserted 1; profile_update.js, profile_delete.js), and
// findAndModify's nMatched / nUpserted / ndeleted
// (profile_findandmodify.js). The profile command is not profiled
// (profile_sampling.js), and dropDatabase forgets the level.
TEST_F(OperatorTest, ProfileEntriesCountKeysAndFindAndModify) {
  ASSERT_NE(RunJson("test", R"({"createIndexes":"c","indexes":)"
                            R"([{"key":{"a":1},"name":"a_1"}]})")
                .find(R"("ok":1.0)"),
            std::string::npos);
  ASSERT_EQ(RunJson("test", R"({"profile":2})").substr(0, 8), R"({"was":0)");
  Run("test",
      R"({"insert":"c","documents":[{"_id":1,"a":1},{"_id":2,"a":2}]})");
  Run("test",
      R"({"update":"c","updates":[{"q":{"_id":1},"u":{"$set":{"a":5}}}]})");
  Run("test", R"({"delete":"c","deletes":[{"q":{"_id":2},"limit":1}]})");
  Run("test",
      R"({"findAndModify":"c","query":{"_id":1},"update":{"$inc":{"b":1}}})");
  Run("test",
      R"({"findAndModify":"c","query":{"_id":7},"update":{"$set":{"a":7}},)"
      R"("upsert":true})");
  Run("test", R"({"findAndModify":"c","query":{"_id":7},"remove":true})");
  ASSERT_EQ(RunJson("test", R"({"profile":0})").substr(0, 8), R"({"was":2)");
  Value found =
      Run("test", R"({"find":"system.profile","filter":{},"projection":)"
                  R"({"_id":0,"op":1,"ninserted":1,"ndeleted":1,)"
                  R"("nMatched":1,"nModified":1,"nUpserted":1,)"
                  R"("keysInserted":1,"keysDeleted":1}})");
  EXPECT_EQ(
      ToJson(*found.Get("cursor")->Get("firstBatch")),
      R"([{"op":"insert","ninserted":2,"keysInserted":4,"keysDeleted":0},)"
      R"({"op":"update","nMatched":1,"nModified":1,"keysInserted":1,)"
      R"("keysDeleted":1},)"
      R"({"op":"remove","ndeleted":1,"keysInserted":0,"keysDeleted":2},)"
      R"({"op":"command","nMatched":1,"keysInserted":0,"keysDeleted":0},)"
      R"({"op":"command","nMatched":0,"nUpserted":1,"keysInserted":2,)"
      R"("keysDeleted":0},)"
      R"({"op":"command","ndeleted":1,"keysInserted":0,"keysDeleted":2}])");
  // dropDatabase forgets the level (profile_no_such_db.js).
  ASSERT_EQ(RunJson("test", R"({"profile":1})").substr(0, 8), R"({"was":0)");
  Run("test", R"({"dropDatabase":1})");
  EXPECT_EQ(RunJson("test", R"({"profile":-1})"),
            R"({"was":0,"slowms":100,"sampleRate":1.0,"ok":1.0})");
}

// system.profile takes no writes but the profiler's: not by $out, not by a
// rename to or from it, and convertToCapped of it is BadValue
// (jstests/core/administrative/profile/system_profile.js).
TEST_F(OperatorTest, SystemProfileIsNotWrittenByClients) {
  ASSERT_EQ(RunJson("test", R"({"create":"system.profile"})"), R"({"ok":1.0})");
  Run("test", R"({"insert":"foo","documents":[{"_id":1}]})");
  EXPECT_EQ(
      RunJson("test", R"({"convertToCapped":"system.profile","size":1048576})"),
      R"({"ok":0.0,"errmsg":"cannot convert test.system.profile to a )"
      R"(capped collection: the profiler creates it capped","code":2,)"
      R"("codeName":"BadValue"})");
  const std::string refused =
      R"({"ok":0.0,"errmsg":"cannot write to 'test.system.profile'",)"
      R"("code":73,"codeName":"InvalidNamespace"})";
  EXPECT_EQ(RunJson("test", R"({"aggregate":"foo","pipeline":)"
                            R"([{"$out":"system.profile"}],"cursor":{}})"),
            refused);
  EXPECT_EQ(RunJson("admin", R"({"renameCollection":"test.foo",)"
                             R"("to":"test.system.profile"})"),
            refused);
  EXPECT_EQ(RunJson("admin", R"({"renameCollection":"test.system.profile",)"
                             R"("to":"test.bar"})"),
            refused);
  EXPECT_EQ(RunJson("test", R"({"count":"foo"})"), R"({"n":1,"ok":1.0})");
}

// system.profile is a 1 MiB capped collection, as mongod creates it
// (profile_collection.cpp createProfileCollection): the oldest entries go
// in the insert that passes the bound.
TEST_F(OperatorTest, SystemProfileIsA1MiBCappedCollection) {
  ASSERT_EQ(RunJson("test", R"({"profile":2})").substr(0, 8), R"({"was":0)");
  Value listed = Run("test", R"({"listCollections":1,"filter":)"
                             R"({"name":"system.profile"}})");
  EXPECT_EQ(ToJson(*listed.Get("cursor")->Get("firstBatch")),
            R"([{"name":"system.profile","type":"collection","options":)"
            R"({"capped":true,"size":1048576},"info":{"readOnly":false},)"
            R"("idIndex":{"v":2,"key":{"_id":1},"name":"_id_"}}])")
      << ToJson(listed);
  const std::string pad(10000, 'p');
  for (int i = 0; i < 300; ++i) {
    ASSERT_EQ(RunJson("test", absl::StrCat(R"({"insert":"c","documents":)"
                                           R"([{"_id":)",
                                           i, R"(,"pad":")", pad, R"("}]})")),
              R"({"n":1,"ok":1.0})");
  }
  Value n = Run("test", R"({"count":"system.profile"})");
  const int64_t count = static_cast<int64_t>(n.Get("n")->AsDouble());
  // About 10 KB each: at most 1 MiB of them.
  EXPECT_LE(count, 1024 * 1024 / 10000);
  EXPECT_GE(count, 64);
  // The newest is kept.
  EXPECT_EQ(RunJson("test", R"({"count":"system.profile","query":)"
                            R"({"command.documents._id":299}})"),
            R"({"n":1,"ok":1.0})");
  EXPECT_EQ(RunJson("test", R"({"count":"system.profile","query":)"
                            R"({"command.documents._id":0}})"),
            R"({"n":0,"ok":1.0})");
}

// A system.profile that is not capped (made by hand, or by an older ttldb)
// is refused when profiling starts, with createProfileCollection's 48.
TEST_F(OperatorTest, AnUncappedSystemProfileIsRefused) {
  ASSERT_EQ(RunJson("test", R"({"create":"system.profile"})"), R"({"ok":1.0})");
  EXPECT_EQ(RunJson("test", R"({"profile":2})"),
            R"({"ok":0.0,"errmsg":"test.system.profile exists but isn't )"
            R"(capped","code":48,"codeName":"NamespaceExists"})");
  EXPECT_EQ(RunJson("test", R"({"profile":-1})"),
            R"({"was":0,"slowms":100,"sampleRate":1.0,"ok":1.0})");
}

// slowms 0: every operation is slow, and logged as mongod logs it; getLog
// "global" returns the lines.
TEST_F(OperatorTest, SlowQueriesAreLogged) {
  InsertDocs(3);
  EXPECT_EQ(RunJson("test", R"({"profile":0,"slowms":0})"),
            R"({"was":0,"slowms":100,"sampleRate":1.0,)"
            R"("ok":1.0})");
  ASSERT_EQ(RunJson("test", R"({"count":"c","query":{"x":1}})"),
            R"({"n":1,"ok":1.0})");
  Value log = Run("admin", R"({"getLog":"global"})");
  ASSERT_EQ(ToJson(*log.Get("ok")), "1.0");
  const Value::Array& lines = log.Get("log")->array_items();
  ASSERT_GE(lines.size(), 2u);
  // The profile command's own line, then the count's.
  EXPECT_EQ(lines[1].string_value(),
            absl::StrCat(
                R"({"t":{"$date":"2027-01-15T08:00:00.000+00:00"},"s":"I",)",
                R"("c":"COMMAND","id":51803,"ctx":"conn)", conn_->id(),
                R"(","msg":"Slow query","attr":{"type":"command",)",
                R"("isFromUserConnection":true,"ns":"test.c",)",
                R"("collectionType":"normal","command":{"count":"c",)",
                R"("query":{"x":1}},"planSummary":"COLLSCAN",)",
                R"("keysExamined":0,"docsExamined":3,)",
                R"("numYields":0,"reslen":24,"locks":{},"protocol":"op_msg",)",
                R"("durationMillis":0}})"));
  EXPECT_EQ(log.Get("totalLinesWritten")->AsDouble(), lines.size() + 0.0);
  EXPECT_EQ(RunJson("admin", R"({"getLog":"startupWarnings"})"),
            R"({"totalLinesWritten":0,"log":[],"ok":1.0})");
}

// top (src/mongo/db/stats/top.cpp Top::_record / appendStatsEntry): per
// collection, every operation's time and count in total, in readLock
// (reads) or writeLock (writes), and in its logical operation's entry;
// find is queries, aggregate a command. Namespace order; a dropped
// collection is forgotten.
TEST_F(OperatorTest, TopCountsEachCollectionsOperations) {
  InsertDocs(3);  // one insert
  Run("test", R"({"find":"c","filter":{},"batchSize":1})");
  Run("test",
      R"({"update":"c","updates":[{"q":{"_id":1},"u":{"$set":{"y":1}}}]})");
  Run("test", R"({"delete":"c","deletes":[{"q":{"_id":2},"limit":1}]})");
  Run("test", R"({"aggregate":"c","pipeline":[],"cursor":{}})");
  Run("test", R"({"insert":"d","documents":[{"_id":1}]})");
  Value top = Run("admin", R"({"top":1})");
  ASSERT_EQ(ToJson(*top.Get("ok")), "1.0") << ToJson(top);
  const Value* totals = top.Get("totals");
  ASSERT_NE(totals, nullptr);
  std::vector<std::string> names;
  for (const Field& f : totals->object_fields()) names.push_back(f.first);
  EXPECT_EQ(names, std::vector<std::string>({"note", "test.c", "test.d"}));
  EXPECT_EQ(ToJson(*totals->Get("note")), R"("all times in microseconds")");
  auto count = [&](const char* ns, const char* what) {
    return ToJson(*totals->Get(ns)->Get(what)->Get("count"));
  };
  EXPECT_EQ(count("test.c", "total"), "5");
  EXPECT_EQ(count("test.c", "readLock"), "2");   // find, aggregate
  EXPECT_EQ(count("test.c", "writeLock"), "3");  // insert, update, delete
  EXPECT_EQ(count("test.c", "queries"), "1");
  EXPECT_EQ(count("test.c", "getmore"), "0");
  EXPECT_EQ(count("test.c", "insert"), "1");
  EXPECT_EQ(count("test.c", "update"), "1");
  EXPECT_EQ(count("test.c", "remove"), "1");
  EXPECT_EQ(count("test.c", "commands"), "1");
  EXPECT_EQ(count("test.d", "insert"), "1");
  // Admin only, as top_command.cpp's adminOnly().
  EXPECT_EQ(RunJson("test", R"({"top":1})"),
            R"({"ok":0.0,"errmsg":"top may only be run against the admin )"
            R"(database.","code":13,"codeName":"Unauthorized"})");
  Run("test", R"({"drop":"d"})");
  top = Run("admin", R"({"top":1})");
  EXPECT_EQ(top.Get("totals")->Get("test.d"), nullptr) << ToJson(top);
}

TEST_F(OperatorTest, Fsync) {
  InsertDocs(2);
  EXPECT_EQ(RunJson("admin", R"({"fsync":1})"), R"({"numFiles":1,"ok":1.0})");
  EXPECT_EQ(RunJson("admin", R"({"fsync":1,"lock":true})"),
            R"({"ok":0.0,"errmsg":"ttldb does not support fsync with lock: )"
            R"(true (its TTL monitors keep writing); for a consistent copy )"
            R"(of the data use the createBackup command","code":115,)"
            R"("codeName":"CommandNotSupported"})");
  EXPECT_EQ(RunJson("admin", R"({"fsyncUnlock":1})"),
            R"({"ok":0.0,"errmsg":"fsyncUnlock called when not locked",)"
            R"("code":20,"codeName":"IllegalOperation"})");
}

}  // namespace
}  // namespace commands
}  // namespace ttldb
