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
// Whether `roles` grant `action` on every database (a role of the
// *AnyDatabase kind, or root): MongoDB's privileges on the "any normal
// resource" pattern.
bool RolesGrantOnEveryDatabase(const std::vector<RoleName>& roles,
                               Action action);

// Whether `roles` grant the listDatabases action on the cluster: the
// *AnyDatabase roles and root (builtin_roles.yml).
bool RolesGrantListDatabases(const std::vector<RoleName>& roles);
// Whether `roles` grant any action on database `db`
// (AuthorizationSession::isAuthorizedForAnyActionOnAnyResourceInDB): a
// role on `db`, or one on every database.
bool RolesGrantAnyActionOn(const std::vector<RoleName>& roles,
                           absl::string_view db);

// The MongoDB action types (src/mongo/db/auth/action_types.idl) that a
// pipeline's stages ask for. Each belongs to one class above, as the
// built-in roles grant it (builtin_roles.yml): find is kRead (read),
// insert/update/remove kWrite (readWrite), bypassDocumentValidation
// kDbAdmin (dbAdmin, so dbOwner and root).
enum class ActionType {
  kFind,
  kInsert,
  kUpdate,
  kRemove,
  kBypassDocumentValidation,
};

// The action's name in action_types.idl ("find", "insert", ...).
const char* ActionTypeName(ActionType a);

// A privilege: actions on one namespace (MongoDB's Privilege with an
// exact-namespace ResourcePattern).
struct Privilege {
  std::string db;
  std::string coll;
  std::vector<ActionType> actions;
};

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

// Whether `roles` grant every action of `privilege`.
bool RolesGrantPrivilege(const std::vector<RoleName>& roles,
                         const Privilege& privilege);

// Parses createUser/updateUser's roles: ["readWrite", {role, db}, ...]; a
// bare name is a role on `default_db`. 31 RoleNotFound "Could not find
// role: <role>@<db>" for a role ttldb does not know or that does not exist
// on that db.
absl::StatusOr<std::vector<RoleName>> ParseRoles(const Value& roles,
                                                 absl::string_view default_db);

}  // namespace commands
}  // namespace ttldb

#endif  // TTLDB_COMMANDS_AUTHORIZATION_H_
