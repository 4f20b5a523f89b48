// A small login-session service that runs unchanged on an embedded database
// directory and on a MongoDB deployment: only the location string differs.
//
//   session_service /var/lib/app/sessions          (embedded ttldb)
//   session_service "mongodb://db1,db2/app?replicaSet=rs0"   (MongoDB)
//
// Sessions expire 30 minutes after the user was last seen (a TTL index on
// lastSeen); one session per user (a unique index: a second login is
// 11000 DuplicateKey on both backends); each request refreshes lastSeen.
// The Bazel binary links //remote, so both forms work;
// session_service_test.sh runs it both ways and compares the output.
#include <stdio.h>

#include <string>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "base/status.h"
#include "ttldb/database.h"
#include "ttldb/json.h"

namespace {

using ttldb::Collection;
using ttldb::Value;

std::string Date(absl::Time t) {
  return absl::StrCat(R"({"$date": {"$numberLong": ")", absl::ToUnixMillis(t),
                      R"("}})");
}

// Logs a user in; false (and a message) when the user has a session.
absl::StatusOr<bool> Login(Collection& sessions, const std::string& user) {
  absl::StatusOr<Value> id = sessions.InsertOne(absl::StrCat(
      R"({"user": ")", user, R"(", "lastSeen": )", Date(absl::Now()), "}"));
  if (ttldb::ErrorCode(id.status()) == ttldb::kDuplicateKey) {
    printf("login %s: already logged in\n", user.c_str());
    return false;
  }
  if (!id.ok()) return id.status();
  printf("login %s: ok\n", user.c_str());
  return true;
}

// A request of `user`: refreshes the session (MongoDB: $currentDate).
absl::Status Request(Collection& sessions, const std::string& user) {
  absl::StatusOr<ttldb::UpdateResult> r = sessions.UpdateOne(
      absl::StrCat(R"({"user": ")", user, R"("})"),
      R"({"$currentDate": {"lastSeen": true}, "$inc": {"requests": 1}})");
  if (!r.ok()) return r.status();
  printf("request %s: %s\n", user.c_str(),
         r->matched_count == 1 ? "served" : "please log in");
  return absl::OkStatus();
}

absl::Status Run(const std::string& location) {
  ttldb::Options options;
  options.db_name = "app";
  absl::StatusOr<std::unique_ptr<ttldb::Database>> db =
      ttldb::Database::Open(location, options);
  if (!db.ok()) return db.status();
  Collection& sessions = (*db)->collection("sessions");
  absl::Status s =
      sessions
          .CreateIndex(R"({"lastSeen": 1})", R"({"expireAfterSeconds": 1800})")
          .status();
  if (!s.ok()) return s;
  s = sessions.CreateIndex(R"({"user": 1})", R"({"unique": true})").status();
  if (!s.ok()) return s;

  for (const char* user : {"ada", "bob", "ada"}) {
    absl::StatusOr<bool> in = Login(sessions, user);
    if (!in.ok()) return in.status();
  }
  for (const char* user : {"ada", "ada", "cy"}) {
    if (absl::Status r = Request(sessions, user); !r.ok()) return r;
  }
  ttldb::FindOptions by_user;
  by_user.sort = *ttldb::ParseDocument(R"({"user": 1})");
  by_user.projection =
      *ttldb::ParseDocument(R"({"_id": 0, "user": 1, "requests": 1})");
  absl::StatusOr<std::unique_ptr<ttldb::Cursor>> cursor =
      sessions.Find("{}", by_user);
  if (!cursor.ok()) return cursor.status();
  absl::StatusOr<std::vector<Value>> all = (*cursor)->ToVector();
  if (!all.ok()) return all.status();
  for (const Value& doc : *all)
    printf("session %s\n", ttldb::ToJson(doc).c_str());

  absl::StatusOr<int64_t> out = sessions.DeleteOne(R"({"user": "bob"})");
  if (!out.ok()) return out.status();
  printf("logout bob: %lld\n", static_cast<long long>(*out));
  absl::StatusOr<int64_t> active = sessions.CountDocuments();
  if (!active.ok()) return active.status();
  printf("active sessions: %lld\n", static_cast<long long>(*active));
  return (*db)->Close();
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: session_service DIRECTORY|mongodb://URI\n");
    return 2;
  }
  absl::Status s = Run(argv[1]);
  if (!s.ok()) {
    fprintf(stderr, "session_service: %s\n", std::string(s.message()).c_str());
    return 1;
  }
  return 0;
}
