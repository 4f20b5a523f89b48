// The users of a server (`ttldb serve --auth`), kept where mongod keeps
// them: the admin database's system.users collection, one document per
// user, through the public Database/Collection API. So one store holds
// everything, and a backup of the admin database (createBackup) carries
// the users. A document holds the user's roles and its SCRAM-SHA-256
// credentials (salt, iteration count, StoredKey, ServerKey): never the
// password. Its shape is mongod's (src/mongo/db/auth/user_document_parser
// and user_management_commands.cpp createUser):
//   {_id: "admin.ann", userId: <UUID>, user: "ann", db: "admin",
//    credentials: {"SCRAM-SHA-256": {iterationCount: 15000,
//                  salt: <base64>, storedKey: <base64>, serverKey: <base64>}},
//    customData?: {...}, roles: [{role: "root", db: "admin"}]}
// with mongod's unique index user_1_db_1 on {user: 1, db: 1}
// (src/mongo/db/catalog/system_index.cpp).
//
// Clients never write system.users directly (command_runner.cc refuses
// it): every write goes through this store, which keeps every user in
// memory too (the authorization check runs on every command). Writes go to
// the collection synced, then to memory; Reload re-reads the collection
// (after dropDatabase of admin).
//
// Older ttldb kept users in a LevelDB of their own at <root>/system.users
// (key "<db>.<user>", value the document above as storage JSON). Open
// imports such a store once into admin.system.users and renames it aside
// to <root>/system.users.imported.
//
// Thread-safe.
#ifndef TTLDB_COMMANDS_USER_STORE_H_
#define TTLDB_COMMANDS_USER_STORE_H_

#include <functional>
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
#include "commands/database_set.h"
#include "commands/scram.h"
#include "ttldb/value.h"

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
  // The collection and database that hold the users.
  static constexpr char kDatabase[] = "admin";
  static constexpr char kCollection[] = "system.users";
  // What an older ttldb's store is renamed to once imported.
  static constexpr char kImportedSuffix[] = ".imported";

  // Loads the users of `databases`' admin.system.users (not owned; it must
  // outlive the store). If `legacy_path` holds an older ttldb's user store,
  // imports its users first (a user already in admin.system.users is kept
  // as it is), then renames it to legacy_path + kImportedSuffix; `log`
  // receives one line saying so.
  static absl::StatusOr<std::unique_ptr<UserStore>> Open(
      DatabaseSet* databases, const std::string& legacy_path,
      const std::function<void(absl::string_view)>& log);
  ~UserStore();

  // Re-reads every user from admin.system.users.
  absl::Status Reload();

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
  explicit UserStore(DatabaseSet* databases);
  // admin.system.users, created with its index when `create`; nullptr when
  // the admin database does not exist and `create` is false.
  absl::StatusOr<std::shared_ptr<Database>> Admin(bool create);
  absl::Status LoadLocked() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  absl::Status Import(const std::string& legacy_path,
                      const std::function<void(absl::string_view)>& log);
  // Inserts (`insert`) or replaces the user's document, then caches it.
  absl::Status Put(const UserRecord& user, bool insert)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);

  DatabaseSet* const databases_;
  absl::Mutex mu_;  // serializes writes; guards users_
  std::map<std::pair<std::string, std::string>, UserRecord> users_
      ABSL_GUARDED_BY(mu_);
};

}  // namespace commands
}  // namespace ttldb

#endif  // TTLDB_COMMANDS_USER_STORE_H_
