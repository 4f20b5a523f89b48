// Which commands need what, and what the built-in roles grant, for
// `ttldb serve --auth`. A deliberately small model of mongod's
// (src/mongo/db/auth/builtin_roles.yml, action_types.idl): every command
// belongs to one class of action, and a role grants classes on one
// database or on all of them.
//
//   role                    grants
//   read                    kRead on its db
//   readWrite               kRead, kWrite on its db
//   dbOwner                 kRead, kWrite, kDbAdmin, kUserAdmin on its db
//   userAdmin               kUserAdmin on its db
//   readAnyDatabase         kRead on every db           (admin only)
//   readWriteAnyDatabase    kRead, kWrite on every db   (admin only)
//   userAdminAnyDatabase    kUserAdmin on every db      (admin only)
//   root                    everything, kCluster too    (admin only)
//
// Not supported: user-defined roles (createRole), privileges on single
// collections, dbAdmin/clusterMonitor/clusterAdmin/backup/restore and the
// other built-in roles (createUser refuses them with 31 RoleNotFound).
#ifndef TTLDB_COMMANDS_AUTHORIZATION_H_
#define TTLDB_COMMANDS_AUTHORIZATION_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "commands/user_store.h"
#include "document/value.h"

namespace ttldb {
namespace commands {

enum class Action {
  kNone,           // runs unauthenticated: the handshake and auth commands
  kAuthenticated,  // any authenticated user (sessions, listDatabases)
  kRead,
  kWrite,
  kDbAdmin,    // dropDatabase, collMod, validate
  kUserAdmin,  // createUser, updateUser, dropUser, usersInfo of others
  kCluster,    // serverStatus, parameters, logs, backup: root only
};

// The class of `command` (its name as registered). Unknown names: kCluster.
Action RequiredAction(absl::string_view command);

// Whether `roles` grant `action` on database `db`.
bool RolesGrant(const std::vector<RoleName>& roles, Action action,
                absl::string_view db);

// Parses createUser/updateUser's roles: ["readWrite", {role, db}, ...]; a
// bare name is a role on `default_db`. 31 RoleNotFound "Could not find
// role: <role>@<db>" for a role ttldb does not know or that does not exist
// on that db.
absl::StatusOr<std::vector<RoleName>> ParseRoles(const Value& roles,
                                                 absl::string_view default_db);

}  // namespace commands
}  // namespace ttldb

#endif  // TTLDB_COMMANDS_AUTHORIZATION_H_
