// `ttldb import` reports success only once what it imported is synced:
// ImportDocuments() writes its batches unsynced and its last document with
// WriteOptions::sync (which syncs the whole LevelDB log). An injected log
// sync failure (tests/reliability/fault_env.h) therefore fails the import;
// before, the import succeeded without ever syncing.
#include <memory>
#include <sstream>
#include <string>

#include "absl/strings/str_cat.h"
#include "engine/database_internal.h"
#include "gtest/gtest.h"
#include "tests/reliability/fault_env.h"
#include "tests/test_util.h"
#include "tools/import_export.h"
#include "ttldb/database.h"

namespace ttldb {
namespace {

class ImportSyncTest : public ::testing::Test {
 protected:
  void SetUp() override {
    Options options;
    options.ttl_monitor_enabled = false;
    TestingOptions testing;
    testing.env = &env_;
    auto db = DatabaseInternal::Open(dir_.path(), options, testing);
    ASSERT_TRUE(db.ok()) << db.status();
    db_ = std::move(*db);
    // The catalog write is synced anyway: create the collection first.
    ASSERT_TRUE(db_->CreateCollection("c").ok());
  }
  void TearDown() override {
    env_.ClearAll();
    db_.reset();
  }

  absl::Status Import(int n, const std::string& tail = "") {
    std::string text;
    for (int i = 1; i <= n; ++i) {
      absl::StrAppend(&text, R"({"_id": )", i, "}\n");
    }
    text += tail;
    std::istringstream in(text);
    ImportOptions options;
    options.batch_size = 2;
    ImportResult result;
    return ImportDocuments(db_.get(), "c", &in, options, &result);
  }

  TempDir dir_;
  FaultEnv env_;
  std::unique_ptr<Database> db_;
};

TEST_F(ImportSyncTest, SuccessWaitsForASync) {
  env_.Inject(FaultKind::kSync, ".log");
  absl::Status s = Import(3);  // a full batch and a partial one
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("injected sync error"), std::string::npos) << s;
  EXPECT_GT(env_.injected_failures(), 0);
}

TEST_F(ImportSyncTest, ExactBatchesStillSync) {
  env_.Inject(FaultKind::kSync, ".log");
  absl::Status s = Import(4);  // two full batches, nothing left over
  EXPECT_FALSE(s.ok());
  EXPECT_GT(env_.injected_failures(), 0);
}

TEST_F(ImportSyncTest, ABadLineSyncsWhatWasImportedBeforeIt) {
  env_.Inject(FaultKind::kSync, ".log");
  absl::Status s = Import(3, "{bad\n");
  EXPECT_NE(s.message().find("injected sync error"), std::string::npos) << s;
}

TEST_F(ImportSyncTest, OneSyncPerImportNotPerDocument) {
  // Every log sync but the first succeeds: an import that synced each
  // document would get past it; ours syncs once, at the end.
  env_.Inject(FaultKind::kSync, ".log", /*skip=*/1);
  EXPECT_TRUE(Import(5).ok());
  EXPECT_EQ(env_.injected_failures(), 0);
}

TEST_F(ImportSyncTest, NothingToImportIsFine) {
  env_.Inject(FaultKind::kSync, ".log");
  EXPECT_TRUE(Import(0).ok());
  EXPECT_EQ(env_.injected_failures(), 0);
}

}  // namespace
}  // namespace ttldb
