#include "commands/authorization.h"

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "base/status.h"
#include "commands/command_args.h"

namespace ttldb {
namespace commands {
namespace {

const absl::flat_hash_map<std::string, Action>& Actions() {
  static const auto* map = new absl::flat_hash_map<std::string, Action>{
      // requiresAuth() is false for these in mongod: hello/isMaster
      // (repl/hello.cpp), buildInfo (commands/buildinfo_common.cpp), ping
      // (commands/generic.cpp), saslStart/saslContinue
      // (auth/sasl_commands.cpp), logout (commands/authentication_commands.
      // cpp), connectionStatus (commands/connection_status.cpp).
      {"hello", Action::kNone},
      {"isMaster", Action::kNone},
      {"ismaster", Action::kNone},
      {"buildInfo", Action::kNone},
      {"buildinfo", Action::kNone},
      {"ping", Action::kNone},
      {"saslStart", Action::kNone},
      {"saslContinue", Action::kNone},
      {"logout", Action::kNone},
      {"connectionStatus", Action::kNone},
      {"whatsmyuri", Action::kAuthenticated},
      {"endSessions", Action::kAuthenticated},
      {"killSessions", Action::kAuthenticated},
      {"killAllSessions", Action::kAuthenticated},
      {"refreshSessions", Action::kAuthenticated},
      {"startSession", Action::kAuthenticated},
      {"listDatabases", Action::kAuthenticated},
      // usersInfo checks itself: a user may always see its own record.
      {"usersInfo", Action::kAuthenticated},
      {"find", Action::kRead},
      {"getMore", Action::kRead},
      {"killCursors", Action::kRead},
      {"count", Action::kRead},
      {"distinct", Action::kRead},
      {"aggregate", Action::kRead},
      {"explain", Action::kRead},
      {"listCollections", Action::kRead},
      {"listIndexes", Action::kRead},
      {"collStats", Action::kRead},
      {"dbStats", Action::kRead},
      {"dbstats", Action::kRead},
      {"insert", Action::kWrite},
      {"update", Action::kWrite},
      {"delete", Action::kWrite},
      {"findAndModify", Action::kWrite},
      // On the databases of its nsInfo (command_runner.cc).
      {"bulkWrite", Action::kWrite},
      {"findandmodify", Action::kWrite},
      {"create", Action::kWrite},
      {"drop", Action::kWrite},
      {"createIndexes", Action::kWrite},
      {"dropIndexes", Action::kWrite},
      {"deleteIndexes", Action::kWrite},
      {"renameCollection", Action::kWrite},
      {"dropDatabase", Action::kDbAdmin},
      {"collMod", Action::kDbAdmin},
      {"validate", Action::kDbAdmin},
      {"createUser", Action::kUserAdmin},
      {"updateUser", Action::kUserAdmin},
      {"dropUser", Action::kUserAdmin},
  };
  return *map;
}

struct RoleDef {
  bool any_database;  // the *AnyDatabase roles and root: admin only
  bool read, write, db_admin, user_admin, cluster;
};

const absl::flat_hash_map<std::string, RoleDef>& Roles() {
  static const auto* map = new absl::flat_hash_map<std::string, RoleDef>{
      {"read", {false, true, false, false, false, false}},
      {"readWrite", {false, true, true, false, false, false}},
      {"dbOwner", {false, true, true, true, true, false}},
      {"userAdmin", {false, false, false, false, true, false}},
      {"readAnyDatabase", {true, true, false, false, false, false}},
      {"readWriteAnyDatabase", {true, true, true, false, false, false}},
      {"userAdminAnyDatabase", {true, false, false, false, true, false}},
      {"root", {true, true, true, true, true, true}},
  };
  return *map;
}

bool Grants(const RoleDef& def, Action action) {
  switch (action) {
    case Action::kNone:
    case Action::kAuthenticated:
      return true;
    case Action::kRead:
      return def.read;
    case Action::kWrite:
      return def.write;
    case Action::kDbAdmin:
      return def.db_admin;
    case Action::kUserAdmin:
      return def.user_admin;
    case Action::kCluster:
      return def.cluster;
  }
  return false;
}

}  // namespace

Action RequiredAction(absl::string_view command) {
  auto it = Actions().find(command);
  return it == Actions().end() ? Action::kCluster : it->second;
}

bool RolesGrant(const std::vector<RoleName>& roles, Action action,
                absl::string_view db) {
  for (const RoleName& r : roles) {
    auto it = Roles().find(r.role);
    if (it == Roles().end()) continue;
    const RoleDef& def = it->second;
    if (!def.any_database && r.db != db) continue;
    if (Grants(def, action)) return true;
  }
  return false;
}

absl::StatusOr<std::vector<RoleName>> ParseRoles(const Value& roles,
                                                 absl::string_view default_db) {
  if (!roles.is_array()) return WrongType("roles", roles, "array");
  std::vector<RoleName> out;
  for (const Value& r : roles.array_items()) {
    RoleName name;
    if (r.is_string()) {
      name = {r.string_value(), std::string(default_db)};
    } else if (r.is_object()) {
      const Value* role = r.Get("role");
      const Value* db = r.Get("db");
      if (role == nullptr || !role->is_string() || db == nullptr ||
          !db->is_string()) {
        return MongoError(absl::StatusCode::kInvalidArgument, kBadValue,
                          "role names must have a string 'role' and 'db'");
      }
      name = {role->string_value(), db->string_value()};
    } else {
      return MongoError(absl::StatusCode::kInvalidArgument, kBadValue,
                        "Role names must be either strings or objects");
    }
    auto it = Roles().find(name.role);
    if (it == Roles().end() ||
        (it->second.any_database && name.db != "admin")) {
      return MongoError(
          absl::StatusCode::kNotFound, kRoleNotFound,
          absl::StrCat("Could not find role: ", name.role, "@", name.db));
    }
    bool dup = false;
    for (const RoleName& o : out) dup = dup || o == name;
    if (!dup) out.push_back(std::move(name));
  }
  return out;
}

}  // namespace commands
}  // namespace ttldb
