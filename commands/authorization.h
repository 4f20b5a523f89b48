// Access control for `ttldb serve --auth`, as MongoDB 8.0 defines it: a
// command needs action types on resources (src/mongo/db/auth/
// action_types.idl, resource_pattern.h), and a user is authorized when
// the privileges of its roles grant them. The roles are MongoDB's built-in
// ones, with their privileges transcribed from builtin_roles.yml
// (commands/builtin_roles.h), matched by ResourcePattern's rules
// (builtin_roles.h RolesGrantAction).
//
// What each command needs is RequiredPrivileges below: mongod's
// checkAuthForOperation / doCheckAuthorization of that command, e.g.
//   find, count, distinct             find on the namespace
//   insert / update / delete          insert / update (+insert for an
//                                     upsert) / remove on the namespace,
//                                     +bypassDocumentValidation when set
//   createIndexes / collMod           createIndex / collMod on the namespace
//   dbStats / dropDatabase / profile  dbStats / dropDatabase /
//                                     enableProfiler on the database
//   serverStatus / getLog / fsync     the action of that name on the cluster
//   createUser / dropUser             createUser / dropUser on the database,
//                                     grantRole on each granted role's
// Commands that check themselves once parsed (getMore: only the cursor's
// owner, as mongod's checkAuthForGetMore; currentOp / killOp:
// inprog / killop or the user's own operations; usersInfo / rolesInfo:
// viewUser / viewRole or the caller's own; listDatabases: filtered by the
// listDatabases action) need only an authenticated user here. A command
// no entry maps needs useTenant on the cluster, which only root holds
// (fail closed). ttldb's own createBackup needs what mongodump does: find
// on every normal collection and on admin.system.users.
//
// Not supported: user-defined roles (createRole), the __system role,
// authenticationRestrictions.
#ifndef TTLDB_COMMANDS_AUTHORIZATION_H_
#define TTLDB_COMMANDS_AUTHORIZATION_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "commands/user_store.h"
#include "ttldb/value.h"

namespace ttldb {
namespace commands {

// The action types (action_types.idl) ttldb's commands ask for.
#define TTLDB_ACTION_TYPES(X)                              \
  X(kBypassDocumentValidation, "bypassDocumentValidation") \
  X(kChangeCustomData, "changeCustomData")                 \
  X(kChangePassword, "changePassword")                     \
  X(kChangeStream, "changeStream")                         \
  X(kCollMod, "collMod")                                   \
  X(kCollStats, "collStats")                               \
  X(kConvertToCapped, "convertToCapped")                   \
  X(kCreateCollection, "createCollection")                 \
  X(kCreateIndex, "createIndex")                           \
  X(kCreateUser, "createUser")                             \
  X(kDbStats, "dbStats")                                   \
  X(kDropCollection, "dropCollection")                     \
  X(kDropDatabase, "dropDatabase")                         \
  X(kDropIndex, "dropIndex")                               \
  X(kDropUser, "dropUser")                                 \
  X(kEnableProfiler, "enableProfiler")                     \
  X(kFind, "find")                                         \
  X(kFsync, "fsync")                                       \
  X(kGetCmdLineOpts, "getCmdLineOpts")                     \
  X(kGetLog, "getLog")                                     \
  X(kGetParameter, "getParameter")                         \
  X(kGrantRole, "grantRole")                               \
  X(kHostInfo, "hostInfo")                                 \
  X(kInprog, "inprog")                                     \
  X(kInsert, "insert")                                     \
  X(kKillAnyCursor, "killAnyCursor")                       \
  X(kKillCursors, "killCursors")                           \
  X(kKillop, "killop")                                     \
  X(kListCollections, "listCollections")                   \
  X(kListDatabases, "listDatabases")                       \
  X(kListIndexes, "listIndexes")                           \
  X(kRemove, "remove")                                     \
  X(kRenameCollectionSameDB, "renameCollectionSameDB")     \
  X(kReplSetGetConfig, "replSetGetConfig")                 \
  X(kReplSetGetStatus, "replSetGetStatus")                 \
  X(kRevokeRole, "revokeRole")                             \
  X(kServerStatus, "serverStatus")                         \
  X(kSetParameter, "setParameter")                         \
  X(kTop, "top")                                           \
  X(kUnlock, "unlock")                                     \
  X(kUpdate, "update")                                     \
  X(kUseTenant, "useTenant")                               \
  X(kValidate, "validate")                                 \
  X(kViewRole, "viewRole")                                 \
  X(kViewUser, "viewUser")

enum class ActionType {
#define TTLDB_ACTION_ENUM(e, name) e,
  TTLDB_ACTION_TYPES(TTLDB_ACTION_ENUM)
#undef TTLDB_ACTION_ENUM
};

// The action's name in action_types.idl ("find", "insert", ...).
const char* ActionTypeName(ActionType a);

// The resource a privilege is checked on: ResourcePattern's
// forExactNamespace, forDatabaseName, forAnyNormalResource and
// forClusterResource.
enum class ResourceKind { kNamespace, kDatabase, kAnyNormal, kCluster };

// A privilege: actions on one resource (MongoDB's Privilege). `db` is set
// for kNamespace and kDatabase, `coll` for kNamespace.
struct Privilege {
  std::string db;
  std::string coll;
  std::vector<ActionType> actions;
  ResourceKind resource = ResourceKind::kNamespace;
};

// What a command needs under --auth.
struct CommandPrivileges {
  enum class Kind {
    kNone,           // runs unauthenticated: the handshake, auth commands
    kAuthenticated,  // any authenticated user; the command may check more
    kPrivileges,     // one of `alternatives`
  };
  Kind kind = Kind::kPrivileges;
  // Authorized when the roles grant every privilege of one entry.
  std::vector<std::vector<Privilege>> alternatives;
};

// The privileges command `cmd` (its first field names it) run on database
// `db` needs, as mongod checks them. See the header comment.
// renameCollection's same-database rule is RolesAuthorizeCommand's.
CommandPrivileges RequiredPrivileges(absl::string_view db, const Value& cmd);

// Whether `roles` authorize `cmd` on `db` (kind kPrivileges; true for the
// others). When they do not and `failed_db` is not null, it is set to the
// database of the first privilege refused (`db` for the cluster).
bool RolesAuthorizeCommand(const std::vector<RoleName>& roles,
                           absl::string_view db, const Value& cmd,
                           std::string* failed_db);

// Whether `roles` grant every action of `privilege`.
bool RolesGrantPrivilege(const std::vector<RoleName>& roles,
                         const Privilege& privilege);

// Shorthands for the checks commands make themselves: `action` on the
// cluster, on database `db`, on every normal collection.
bool RolesGrantOnCluster(const std::vector<RoleName>& roles, ActionType action);
bool RolesGrantOnDatabase(const std::vector<RoleName>& roles, ActionType action,
                          absl::string_view db);
bool RolesGrantOnAnyNormal(const std::vector<RoleName>& roles,
                           ActionType action);

// Whether `roles` grant the listDatabases action on the cluster
// (clusterMonitor, the *AnyDatabase roles, backup, root).
bool RolesGrantListDatabases(const std::vector<RoleName>& roles);
// Whether `roles` grant any action on any resource of database `db`
// (AuthorizationSession::isAuthorizedForAnyActionOnAnyResourceInDB).
bool RolesGrantAnyActionOn(const std::vector<RoleName>& roles,
                           absl::string_view db);

// The privileges an aggregate of `pipeline` over `db`.`coll` needs, as
// mongod computes them (src/mongo/db/auth/authorization_checks.cpp
// getPrivilegesForAggregate): find on the collection unless the pipeline
// starts with an initial source ($documents), then each stage's own:
//   $out            insert, remove on its target
//                   (document_source_out.h requiredPrivileges)
//   $merge          per whenMatched/whenNotMatched (merge_processor.cpp
//                   getMergeStrategyDescriptors): ...+insert: insert,
//                   update; fail+insert: insert; ...+fail/discard: update
//   $lookup         find on `from` unless its pipeline starts with an
//                   initial source, plus its pipeline's
//                   (document_source_lookup.cpp)
//   $unionWith      the same (document_source_union_with.cpp)
//   $graphLookup    find on `from` (document_source_graph_lookup.cpp)
//   $facet          each sub-pipeline's (document_source_facet.cpp)
// plus bypassDocumentValidation on the $out/$merge target when
// `bypass_document_validation`. $out and $merge name another database with
// {db, coll}. A malformed pipeline needs find on the collection only: the
// command reports its parse error once authorized.
std::vector<Privilege> AggregatePrivileges(absl::string_view db,
                                           absl::string_view coll,
                                           const Value& pipeline,
                                           bool bypass_document_validation);

// Parses createUser/updateUser's roles: ["readWrite", {role, db}, ...]; a
// bare name is a role on `default_db`. 31 RoleNotFound "Could not find
// role: <role>@<db>" for a role that is not built in (builtin_roles.h) or
// that does not exist on that db (the admin-only ones elsewhere).
absl::StatusOr<std::vector<RoleName>> ParseRoles(const Value& roles,
                                                 absl::string_view default_db);

}  // namespace commands
}  // namespace ttldb

#endif  // TTLDB_COMMANDS_AUTHORIZATION_H_
