// A test fixture for aggregation through the public API: DbTest plus the
// pipeline's results as text or its MongoDB error code. Test-only.
#ifndef TTLDB_TESTS_AGGREGATE_FIXTURE_H_
#define TTLDB_TESTS_AGGREGATE_FIXTURE_H_

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "base/status.h"
#include "gtest/gtest.h"
#include "tests/db_fixture.h"
#include "ttldb/database.h"
#include "ttldb/json.h"

namespace ttldb {

class AggregateTest : public DbTest {
 protected:
  void Insert(Collection& c, const std::vector<std::string>& docs) {
    for (const std::string& d : docs) {
      auto r = c.InsertOne(d);
      ASSERT_TRUE(r.ok()) << r.status() << " " << d;
    }
  }
  // The pipeline's results as one JSON array (relaxed Extended JSON), or
  // "error <code>: <message>".
  std::string Run(Collection& c, const std::string& pipeline,
                  const AggregateOptions& options = {}) {
    auto cursor = c.Aggregate(pipeline, options);
    if (!cursor.ok()) return Error(cursor.status());
    auto docs = (*cursor)->ToVector();
    if (!docs.ok()) return Error(docs.status());
    return ToJson(Value::MakeArray(*docs));
  }
  // The MongoDB code of the pipeline's error, parse or run time (0: none).
  int Code(Collection& c, const std::string& pipeline,
           const AggregateOptions& options = {}) {
    auto cursor = c.Aggregate(pipeline, options);
    if (!cursor.ok()) return ErrorCode(cursor.status());
    auto docs = (*cursor)->ToVector();
    if (!docs.ok()) return ErrorCode(docs.status());
    return 0;
  }
  // The message of the pipeline's error ("": none).
  std::string Msg(Collection& c, const std::string& pipeline) {
    auto cursor = c.Aggregate(pipeline);
    if (!cursor.ok()) return std::string(cursor.status().message());
    auto docs = (*cursor)->ToVector();
    if (!docs.ok()) return std::string(docs.status().message());
    return "";
  }
  Collection& coll(const char* name) { return db_->collection(name); }

 private:
  static std::string Error(const absl::Status& s) {
    return absl::StrCat("error ", ErrorCode(s), ": ", s.message());
  }
};

}  // namespace ttldb

#endif  // TTLDB_TESTS_AGGREGATE_FIXTURE_H_
