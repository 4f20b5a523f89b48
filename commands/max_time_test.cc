// maxTimeMS: the commands that scan stop with 50 MaxTimeMSExpired
// "operation exceeded time limit" once their time limit has passed
// (jstests/core/max_time_ms.js: find, getMore, count, aggregate, ...;
// src/mongo/db/operation_context.cpp), checked between the documents a scan
// examines. The clock here advances 1 ms each time it is read, so a scan of
// N documents takes about N ms of steady time: deterministic, no sleeping.
#include <atomic>
#include <functional>
#include <string>

#include "absl/strings/str_cat.h"
#include "commands/command_test_util.h"
#include "gtest/gtest.h"
#include "ttldb/clock.h"

namespace ttldb {
namespace commands {
namespace {

constexpr char kExpired[] =
    R"({"ok":0.0,"errmsg":"operation exceeded time limit","code":50,)"
    R"("codeName":"MaxTimeMSExpired"})";

class MaxTimeTest : public CommandTest {
 protected:
  MaxTimeTest() { options_.database_options.clock = &ticking_; }
  void SetUp() override {
    Open();
    // 300 documents; no index on x, so every filter on x scans them all.
    std::string docs;
    for (int i = 0; i < 300; ++i) {
      absl::StrAppend(&docs, i ? "," : "", R"({"_id":)", i, R"(,"x":)", i, "}");
    }
    ASSERT_EQ(RunJson("test", absl::StrCat(R"({"insert":"c","documents":[)",
                                           docs, "]}")),
              R"({"n":300,"ok":1.0})");
  }
  TickingClock ticking_;
};

// Each scanning command: 5 ms cannot cover a 300-document scan; 100,000 ms
// can (and 0 means no limit).
TEST_F(MaxTimeTest, ScansStopWithMaxTimeMSExpired) {
  const std::string kCommands[] = {
      R"({"find":"c","filter":{"x":-1},"maxTimeMS":%d})",
      R"({"aggregate":"c","pipeline":[{"$match":{"x":-1}}],"cursor":{},)"
      R"("maxTimeMS":%d})",
      R"({"count":"c","query":{"x":-1},"maxTimeMS":%d})",
      R"({"distinct":"c","key":"x","query":{"x":{"$lt":0}},"maxTimeMS":%d})",
      R"({"findAndModify":"c","query":{"x":-1},"update":{"$set":{"y":1}},)"
      R"("maxTimeMS":%d})",
      R"({"update":"c","updates":[{"q":{"x":-1},"u":{"$set":{"y":1}},)"
      R"("multi":true}],"maxTimeMS":%d})",
      R"({"delete":"c","deletes":[{"q":{"x":-1},"limit":0}],"maxTimeMS":%d})",
  };
  for (const std::string& tmpl : kCommands) {
    for (int ms : {5, 100000, 0}) {
      std::string cmd = tmpl;
      cmd.replace(cmd.find("%d"), 2, std::to_string(ms));
      std::string reply = RunJson("test", cmd);
      if (ms == 5) {
        EXPECT_EQ(reply, kExpired) << cmd;
      } else {
        EXPECT_NE(reply.find(R"("ok":1.0)"), std::string::npos)
            << cmd << " -> " << reply;
      }
    }
  }
  // Nothing was written by the timed-out writes.
  EXPECT_EQ(RunJson("test", R"({"count":"c","query":{"y":1}})"),
            R"({"n":0,"ok":1.0})");
}

// A multi-document update that runs out of time mid-way fails the whole
// command (write_ops_exec.cpp handleError rethrows interruptions); the
// documents already updated stay updated.
TEST_F(MaxTimeTest, MultiUpdateFailsTheCommand) {
  EXPECT_EQ(RunJson("test", R"({"update":"c","updates":[{"q":{},)"
                            R"("u":{"$set":{"y":1}},"multi":true}],)"
                            R"("maxTimeMS":400})"),
            kExpired);
  const std::string n = RunJson("test", R"({"count":"c","query":{"y":1}})");
  EXPECT_NE(n, R"({"n":0,"ok":1.0})");
  EXPECT_NE(n, R"({"n":300,"ok":1.0})");
}

// The find's limit carries over to its getMores (the cursor keeps what is
// left); getMore's own maxTimeMS is for awaitData cursors only: 2 BadValue
// (src/mongo/db/commands/getmore_cmd.cpp), and the cursor survives it.
TEST_F(MaxTimeTest, GetMoreSpendsTheFindsTimeLeft) {
  Value first = Run("test", R"({"find":"c","batchSize":2,"maxTimeMS":100})");
  ASSERT_EQ(ToJson(*first.Get("ok")), "1.0");
  const std::string id =
      ToJson(*first.Get("cursor")->Get("id"), JsonFormat::kStorage);
  EXPECT_EQ(RunJson("test", absl::StrCat(R"({"getMore":)", id,
                                         R"(,"collection":"c",)"
                                         R"("maxTimeMS":10})")),
            R"({"ok":0.0,"errmsg":"cannot set maxTimeMS on getMore command )"
            R"(for a non-awaitData cursor","code":2,"codeName":"BadValue"})");
  // A small batch fits in what is left; the whole rest does not.
  Value more = Run("test", absl::StrCat(R"({"getMore":)", id,
                                        R"(,"collection":"c","batchSize":2})"));
  EXPECT_EQ(ToJson(*more.Get("ok")), "1.0");
  EXPECT_EQ(RunJson("test", absl::StrCat(R"({"getMore":)", id,
                                         R"(,"collection":"c"})")),
            kExpired);
  // The timed-out cursor is gone, as after any failed getMore.
  Value gone =
      Run("test", absl::StrCat(R"({"getMore":)", id, R"(,"collection":"c"})"));
  EXPECT_EQ(ToJson(*gone.Get("code")), "43");
}

// reliability-3 N4: the deadline was checked only per scanned document, and
// $unwind makes all its output from one, so maxTimeMS did not stop it.
// Every stage's output is now an interrupt point (pipeline/pipeline.cc), and
// $unwind checks per element: 5,000 elements cannot pass in 1,000 ms.
TEST_F(MaxTimeTest, UnwindOfOneArrayStopsWithMaxTimeMSExpired) {
  std::string a;
  for (int i = 0; i < 5000; ++i) absl::StrAppend(&a, i ? "," : "", i);
  ASSERT_EQ(RunJson("test", absl::StrCat(R"({"insert":"big","documents":[)",
                                         R"({"_id":1,"a":[)", a, "]}]}")),
            R"({"n":1,"ok":1.0})");
  const std::string cmd =
      R"({"aggregate":"big","pipeline":[{"$match":{"_id":1}},)"
      R"({"$unwind":"$a"},{"$count":"n"}],"cursor":{},"maxTimeMS":%d})";
  auto with = [&](int ms) {
    std::string c = cmd;
    c.replace(c.find("%d"), 2, std::to_string(ms));
    return RunJson("test", c);
  };
  EXPECT_EQ(with(1000), kExpired);
  EXPECT_EQ(with(100000),
            R"({"cursor":{"firstBatch":[{"n":5000}],)"
            R"("id":{"$numberLong":"0"},"ns":"test.big"},"ok":1.0})");
}

// $map, $filter and $reduce over one large array check per element
// (src/mongo/db/exec/expression/evaluate_map_reduce_filter.cpp).
TEST_F(MaxTimeTest, ExpressionLoopsStopWithMaxTimeMSExpired) {
  for (const char* expr :
       {R"({"$size":{"$map":{"input":{"$range":[0,100000]},"in":1}}})",
        R"({"$size":{"$filter":{"input":{"$range":[0,100000]},)"
        R"("cond":true}}})",
        R"({"$reduce":{"input":{"$range":[0,100000]},"initialValue":0,)"
        R"("in":{"$add":["$$value",1]}}})"}) {
    EXPECT_EQ(RunJson("test", absl::StrCat(R"({"aggregate":"c","pipeline":[)",
                                           R"({"$match":{"_id":0}},)",
                                           R"({"$project":{"r":)", expr, "}}],",
                                           R"("cursor":{},"maxTimeMS":1000})")),
              kExpired)
        << expr;
  }
}

// reliability-3 N4: SIGTERM waited for a running aggregation (minutes to
// hours). BeginShutdown (what `ttldb serve` calls on SIGTERM) makes the
// running command stop at its next interrupt point with 11600
// InterruptedAtShutdown (mongod's killAllOperations at shutdown;
// src/mongo/base/error_codes.yml) and refuses new commands with 91.
TEST_F(MaxTimeTest, ShutdownInterruptsARunningAggregation) {
  std::string a;
  for (int i = 0; i < 5000; ++i) absl::StrAppend(&a, i ? "," : "", i);
  ASSERT_EQ(RunJson("test", absl::StrCat(R"({"insert":"big","documents":[)",
                                         R"({"_id":1,"a":[)", a, "]}]}")),
            R"({"n":1,"ok":1.0})");
  // The "SIGTERM" arrives 100 clock reads into the aggregation.
  ticking_.CallAt(ticking_.reads() + 100, [this] { runner_->BeginShutdown(); });
  EXPECT_EQ(
      RunJson("test", R"({"aggregate":"big","pipeline":[{"$match":{"_id":1}},)"
                      R"({"$unwind":"$a"},{"$count":"n"}],"cursor":{},)"
                      R"("maxTimeMS":100000000})"),
      R"({"ok":0.0,"errmsg":"interrupted at shutdown","code":11600,)"
      R"("codeName":"InterruptedAtShutdown"})");
  Value refused = Run("test", R"({"ping":1})");
  EXPECT_EQ(ToJson(*refused.Get("code")), "91");
}

// The parse (mongod's parseMaxTimeMS; the messages MongoDB returns, as
// FerretDB's compatibility tests record them).
TEST_F(MaxTimeTest, BadValues) {
  auto err = [](const std::string& msg) {
    return absl::StrCat(R"({"ok":0.0,"errmsg":")", msg,
                        R"(","code":2,"codeName":"BadValue"})");
  };
  EXPECT_EQ(RunJson("test", R"({"find":"c","maxTimeMS":"1"})"),
            err("maxTimeMS must be a number"));
  EXPECT_EQ(RunJson("test", R"({"find":"c","maxTimeMS":null})"),
            err("maxTimeMS must be a number"));
  EXPECT_EQ(RunJson("test", R"({"find":"c","maxTimeMS":-1123123})"),
            err("-1123123 value for maxTimeMS is out of range"));
  EXPECT_EQ(RunJson("test", R"({"find":"c","maxTimeMS":{"$numberLong":)"
                            R"("9223372036854775807"}})"),
            err("9223372036854775807 value for maxTimeMS is out of range"));
  EXPECT_EQ(RunJson("test", R"({"find":"c","maxTimeMS":43.15})"),
            err("maxTimeMS has non-integral value"));
  EXPECT_EQ(RunJson("test", R"({"find":"c","filter":{"_id":1},)"
                            R"("maxTimeMS":10000.0})"),
            R"({"cursor":{"firstBatch":[{"_id":1,"x":1}],)"
            R"("id":{"$numberLong":"0"},"ns":"test.c"},"ok":1.0})");
}

}  // namespace
}  // namespace commands
}  // namespace ttldb
