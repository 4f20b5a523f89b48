// A consumer of an installed ttldb (find_package or pkg-config): stores
// sessions with a TTL index and checks what reads return. Public headers
// only. Exits 0 when ttldb behaves as documented.
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

int Fail(const std::string& what) {
  std::fprintf(stderr, "sessions: %s\n", what.c_str());
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
    if (mkdtemp(pattern.data()) == nullptr) return Fail("mkdtemp");
    dir = pattern + "/db";
  }
  auto db = ttldb::Database::Open(dir);
  if (!db.ok()) return Fail(db.status().ToString());
  ttldb::Collection& sessions = (*db)->collection("sessions");
  auto index = sessions.CreateIndex(R"({"lastUsed": 1})",
                                    R"({"expireAfterSeconds": 1800})");
  if (!index.ok()) return Fail(index.status().ToString());
  for (const char* doc :
       {R"({"_id": "alice", "lastUsed": {"$date": "2100-01-01T00:00:00Z"}})",
        R"({"_id": "bob", "lastUsed": {"$date": "1970-01-01T00:00:00Z"}})"}) {
    auto id = sessions.InsertOne(doc);
    if (!id.ok()) return Fail(id.status().ToString());
  }
  // bob's session expired long ago: reads hide it until the TTL monitor
  // deletes it.
  auto cursor = sessions.Find("{}");
  if (!cursor.ok()) return Fail(cursor.status().ToString());
  auto docs = (*cursor)->ToVector();
  if (!docs.ok()) return Fail(docs.status().ToString());
  for (const ttldb::Value& doc : *docs) {
    std::printf("%s\n", ttldb::ToJson(doc).c_str());
  }
  if (docs->size() != 1) return Fail("expected only alice's session");
  auto bad = sessions.CountDocuments(R"({"a": {"$bogus": 1}})");
  if (bad.ok()) return Fail("an unknown operator was accepted");
  std::printf("%s\n", bad.status().ToString().c_str());
  return 0;
}
