// docs/compatibility.md cannot drift from the code: its "Commands" table
// lists exactly the command registry's names as supported (or differs), its
// "Aggregation stages" table exactly the pipeline's stage registry, and
// every name it marks "not supported: CODE ..." answers CODE: MongoDB's
// 59 CommandNotFound "no such command" (src/mongo/db/service_entry_point_
// common.cpp) and 40324 "Unrecognized pipeline stage name"
// (src/mongo/db/pipeline/document_source.cpp), or the code the row names.
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "commands/command_test_util.h"
#include "gtest/gtest.h"
#include "pipeline/pipeline.h"

namespace ttldb {
namespace commands {
namespace {

// Stages the aggregate command answers before the pipeline's registry:
// $currentOp (aggregate: 1 on admin; current_op_commands.cc).
// Stages the command layer runs itself: $currentOp (aggregate: 1 on admin)
// and $changeStream (commands/change_stream_cursor.h).
const std::set<std::string> kStagesOutsideRegistry = {"$currentOp",
                                                      "$changeStream"};

struct Row {
  std::string name;
  bool supported = false;  // "supported" or "differs"
  int code = 0;            // "not supported: CODE ..."
};

std::string ReadDoc() {
  std::ifstream in("docs/compatibility.md");
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// The rows of the table under "## <section>": "| `name` | status | ... |".
std::vector<Row> Rows(const std::string& doc, const std::string& section) {
  std::vector<Row> rows;
  bool in_section = false;
  for (absl::string_view line : absl::StrSplit(doc, '\n')) {
    if (absl::ConsumePrefix(&line, "## ")) {
      in_section = line == section;
      continue;
    }
    if (!in_section || !absl::ConsumePrefix(&line, "| `")) continue;
    std::vector<std::string> cells = absl::StrSplit(line, " | ");
    if (cells.size() < 2) continue;
    Row row;
    row.name = std::string(absl::StripSuffix(cells[0], "`"));
    absl::string_view status = cells[1];
    if (absl::ConsumePrefix(&status, "not supported: ")) {
      std::string code(status.substr(0, status.find(' ')));
      EXPECT_TRUE(absl::SimpleAtoi(code, &row.code)) << "row " << row.name;
    } else {
      row.supported = absl::StartsWith(status, "supported") ||
                      absl::StartsWith(status, "differs");
      EXPECT_TRUE(row.supported) << "status of " << row.name << ": " << status;
    }
    rows.push_back(row);
  }
  return rows;
}

std::set<std::string> Supported(const std::vector<Row>& rows) {
  std::set<std::string> names;
  for (const Row& r : rows) {
    if (r.supported) EXPECT_TRUE(names.insert(r.name).second) << r.name;
  }
  return names;
}

int Code(const Value& reply) {
  const Value* code = reply.Get("code");
  return code == nullptr || !code->is_number()
             ? 0
             : static_cast<int>(code->AsDouble());
}

class CompatibilityDocTest : public CommandTest {};

TEST_F(CompatibilityDocTest, CommandsTableIsTheRegistry) {
  std::vector<Row> rows = Rows(ReadDoc(), "Commands");
  ASSERT_FALSE(rows.empty()) << "no Commands table in docs/compatibility.md";
  std::vector<std::string> registered = RegisteredCommandNames();
  std::set<std::string> expected(registered.begin(), registered.end());
  std::set<std::string> documented = Supported(rows);
  std::vector<std::string> missing, extra;
  for (const std::string& n : expected) {
    if (!documented.count(n)) missing.push_back(n);
  }
  for (const std::string& n : documented) {
    if (!expected.count(n)) extra.push_back(n);
  }
  EXPECT_TRUE(missing.empty()) << "registered, not documented as supported: "
                               << absl::StrJoin(missing, " ");
  EXPECT_TRUE(extra.empty()) << "documented as supported, not registered: "
                             << absl::StrJoin(extra, " ");
  for (const Row& r : rows) {
    if (r.supported) continue;
    Value reply = Run("admin", absl::StrCat(R"({")", r.name, R"(": 1})"));
    EXPECT_EQ(Code(reply), r.code) << r.name << ": " << ToJson(reply);
  }
}

TEST_F(CompatibilityDocTest, StagesTableIsTheStageRegistry) {
  std::vector<Row> rows = Rows(ReadDoc(), "Aggregation stages");
  ASSERT_FALSE(rows.empty()) << "no stages table in docs/compatibility.md";
  std::set<std::string> expected = kStagesOutsideRegistry;
  for (const std::string& n : agg::StageNames()) expected.insert(n);
  EXPECT_EQ(Supported(rows), expected);
  // An existing collection: the pipeline is parsed against it.
  ASSERT_EQ(Code(Run("test", R"({"insert": "c", "documents": [{"_id": 1}]})")),
            0);
  for (const Row& r : rows) {
    if (r.supported) continue;
    Value reply =
        Run("test", absl::StrCat(R"({"aggregate": "c", "pipeline": [{")",
                                 r.name, R"(": {}}], "cursor": {}})"));
    EXPECT_EQ(Code(reply), r.code) << r.name << ": " << ToJson(reply);
  }
}

}  // namespace
}  // namespace commands
}  // namespace ttldb
