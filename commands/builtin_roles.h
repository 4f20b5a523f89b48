// MongoDB's built-in roles as MongoDB 8.0 defines them
// (src/mongo/db/auth/builtin_roles.yml): each role's privileges, for
// rolesInfo and usersInfo's showPrivileges. A built-in role shows no
// subroles: its privileges include those of the roles it is built from
// (builtin_roles.tpl.cpp adds them), so rolesInfo reports roles: [] and
// inheritedRoles: [] for it, as mongod does.
//
// The same table is what --auth enforces (commands/authorization.h): a
// command's required privileges are checked against it by RolesGrantAction.
#ifndef TTLDB_COMMANDS_BUILTIN_ROLES_H_
#define TTLDB_COMMANDS_BUILTIN_ROLES_H_

#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "commands/user_store.h"
#include "ttldb/value.h"

namespace ttldb {
namespace commands {

// ResourcePattern's match types (src/mongo/db/auth/resource_pattern.h).
enum class MatchType {
  kDatabase,          // every normal collection of one database
  kExactNamespace,    // one collection
  kCollection,        // a collection name in every database
  kAnyNormal,         // every normal collection of every database
  kAnySystemBuckets,  // every time-series bucket collection
  kCluster,           // the cluster (server-wide actions)
  kAny,               // everything
};

struct PrivilegeSpec {
  MatchType match;
  // kDatabase / kExactNamespace: the database, "" for the role's own.
  const char* db;
  const char* collection;
  std::vector<const char*> actions;
};

struct BuiltinRole {
  const char* name;
  bool admin_only;  // exists on the admin database only
  // Roles whose privileges it includes: "name" (on the same database) or
  // "name@db".
  std::vector<const char*> roles;
  std::vector<PrivilegeSpec> privileges;
};

// Every built-in role (builtin_roles_table.cc), __system excepted.
const std::vector<BuiltinRole>& BuiltinRoles();

// Whether role `name` exists on database `db` as a built-in role.
bool IsBuiltinRole(absl::string_view name, absl::string_view db);

// The names of the built-in roles of `db`, sorted.
std::vector<std::string> BuiltinRoleNames(absl::string_view db);

// The privileges `roles` grant, one entry per resource, as mongod
// reports them: [{resource: {db, collection} | {cluster: true} |
// {anyResource: true} | {system_buckets: ""}, actions: [sorted]}], in
// the order the roles grant them. Roles that are not built in add nothing.
Value PrivilegesOf(const std::vector<RoleName>& roles);

// Whether `roles` hold MongoDB action `action` ("find", "insert", ...) on
// collection `coll` of database `db`, by the privileges of this table and
// ResourcePattern's matching (resource_pattern.h): a database or
// any-normal pattern covers only normal collections, not "system.*" ones,
// so reading admin.system.users needs a privilege that names it
// (userAdminAnyDatabase, backup, root; jstests/auth/clac_system_colls.js).
bool RolesGrantActionOnCollection(const std::vector<RoleName>& roles,
                                  absl::string_view action,
                                  absl::string_view db, absl::string_view coll);

// Whether `roles` hold `action` on the resource `target` names:
// kExactNamespace (db.coll), kDatabase (db), kAnyNormal or kCluster. The
// patterns that cover each are resource_pattern.h's (AuthorizationSession's
// buildResourceSearchList): a namespace by its exact pattern, its
// database's and the any-normal one when it is a normal collection, its
// collection name's, the system-buckets one for system.buckets.*; a
// database by its own pattern and the any-normal one; any-normal by
// itself; the cluster by itself; everything by anyResource.
bool RolesGrantAction(const std::vector<RoleName>& roles,
                      absl::string_view action, MatchType target,
                      absl::string_view db, absl::string_view coll);

// Whether `roles` hold any action on any resource of database `db`
// (AuthorizationSession::isAuthorizedForAnyActionOnAnyResourceInDB): a
// privilege on the database, on one of its namespaces, on a collection
// name, on every normal collection or on anything.
bool RolesGrantAnyActionOnDatabase(const std::vector<RoleName>& roles,
                                   absl::string_view db);

// Whether `roles` hold any action on collection db.coll
// (isAuthorizedForAnyActionOnResource of its exact namespace): what
// listCollections' authorizedCollections lists.
bool RolesGrantAnyActionOnCollection(const std::vector<RoleName>& roles,
                                     absl::string_view db,
                                     absl::string_view coll);

}  // namespace commands
}  // namespace ttldb

#endif  // TTLDB_COMMANDS_BUILTIN_ROLES_H_
