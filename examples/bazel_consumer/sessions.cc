// A consumer of ttldb: stores login sessions that expire 30 minutes after
// their last use, and prints the live ones. Uses only ttldb's public headers.
//
//   sessions [DIR]   (default: a fresh directory under $TMPDIR)
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

#include "absl/status/status.h"
#include "ttldb/collection.h"
#include "ttldb/cursor.h"
#include "ttldb/database.h"
#include "ttldb/json.h"

namespace {

int Fail(const absl::Status& status) {
  std::fprintf(stderr, "sessions: %s\n", status.ToString().c_str());
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  std::string dir;
  if (argc > 1) {
    dir = argv[1];
  } else {
    const char* tmp = std::getenv("TMPDIR");
    std::string pattern = std::string(tmp ? tmp : "/tmp") + "/sessions.XXXXXX";
    if (mkdtemp(pattern.data()) == nullptr) return 1;
    dir = pattern + "/db";
  }
  auto db = ttldb::Database::Open(dir);
  if (!db.ok()) return Fail(db.status());
  ttldb::Collection& sessions = (*db)->collection("sessions");
  auto index = sessions.CreateIndex(R"({"lastUsed": 1})",
                                    R"({"expireAfterSeconds": 1800})");
  if (!index.ok()) return Fail(index.status());
  for (const char* doc :
       {R"({"_id": "alice", "lastUsed": {"$date": "2100-01-01T00:00:00Z"}})",
        R"({"_id": "bob", "lastUsed": {"$date": "1970-01-01T00:00:00Z"}})"}) {
    auto id = sessions.InsertOne(doc);
    if (!id.ok()) return Fail(id.status());
  }
  // bob's session expired long ago: reads hide it until the TTL monitor
  // deletes it.
  auto cursor = sessions.Find("{}");
  if (!cursor.ok()) return Fail(cursor.status());
  auto docs = (*cursor)->ToVector();
  if (!docs.ok()) return Fail(docs.status());
  for (const ttldb::Value& doc : *docs) {
    std::printf("%s\n", ttldb::ToJson(doc).c_str());
  }
  return docs->size() == 1 ? 0 : 1;
}
