// The users of a server (`ttldb serve --auth`): a small LevelDB of its own
// at <root>/system.users (the '.' keeps it from ever being a database
// name), one record per user, keyed "<db>.<user>" as mongod's
// admin.system.users _id. A record holds the user's roles and its
// SCRAM-SHA-256 credentials (salt, iteration count, StoredKey, ServerKey):
// never the password.
//
// Record value: the user document as mongod stores it, in ttldb's storage
// JSON (document/json.h kStorage):
//   {_id: "admin.ann", userId: <UUID>, user: "ann", db: "admin",
//    credentials: {"SCRAM-SHA-256": {iterationCount: 15000,
//                  salt: <base64>, storedKey: <base64>, serverKey: <base64>}},
//    roles: [{role: "root", db: "admin"}], customData?: {...}}
//
// Thread-safe: every user is kept in memory too (the authorization check
// runs on every command); writes go to LevelDB synced, then to memory.
#ifndef TTLDB_COMMANDS_USER_STORE_H_
#define TTLDB_COMMANDS_USER_STORE_H_

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/synchronization/mutex.h"
#include "commands/scram.h"
#include "document/value.h"

namespace leveldb {
class DB;
}

namespace ttldb {
namespace commands {

struct RoleName {
  std::string role;
  std::string db;
  bool operator==(const RoleName& o) const {
    return role == o.role && db == o.db;
  }
};

struct UserRecord {
  std::string user;
  std::string db;
  // The 16 bytes of its userId UUID (given at creation; empty for a user
  // created before ttldb kept one).
  std::string user_id;
  ScramCredentials scram;
  std::vector<RoleName> roles;
  std::optional<Value> custom_data;
};

// The user document as stored (the record value above, credentials
// included): what usersInfo projects.
Value UserDocument(const UserRecord& u);
// [{role, db}, ...].
Value RolesValue(const std::vector<RoleName>& roles);

class UserStore {
 public:
  // Opens (creating) the store in directory `path`.
  static absl::StatusOr<std::unique_ptr<UserStore>> Open(
      const std::string& path);
  ~UserStore();

  // 51003 "User "u@db" already exists" when it does.
  absl::Status Create(const UserRecord& user);
  // Creates `user` only if there is no user at all: the localhost
  // exception's first user, a conditional write so that of concurrent
  // callers exactly one succeeds. The others: 13 Unauthorized "Command
  // createUser requires authentication", the answer every unauthenticated
  // createUser gets once a user exists (src/mongo/db/commands.cpp).
  absl::Status CreateFirst(const UserRecord& user);
  // Replaces an existing user; 11 UserNotFound when there is none.
  absl::Status Update(const UserRecord& user);
  // Whether it existed.
  absl::StatusOr<bool> Drop(absl::string_view db, absl::string_view user);
  // The user, or nullopt.
  std::optional<UserRecord> Get(absl::string_view db, absl::string_view user);
  // Every user of `db` ("" for all), sorted by db then name.
  std::vector<UserRecord> List(absl::string_view db);
  bool empty();

 private:
  explicit UserStore(std::unique_ptr<leveldb::DB> db);
  absl::Status Put(const UserRecord& user) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);

  const std::unique_ptr<leveldb::DB> db_;
  absl::Mutex mu_;  // serializes writes; guards users_
  std::map<std::pair<std::string, std::string>, UserRecord> users_
      ABSL_GUARDED_BY(mu_);
};

}  // namespace commands
}  // namespace ttldb

#endif  // TTLDB_COMMANDS_USER_STORE_H_
