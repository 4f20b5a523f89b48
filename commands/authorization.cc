#include "commands/authorization.h"

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "base/status.h"
#include "commands/builtin_roles.h"
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
      // Check themselves: inprog / killop, or the user's own operations
      // (current_op_commands.cc).
      {"currentOp", Action::kAuthenticated},
      {"killOp", Action::kAuthenticated},
      {"rolesInfo", Action::kAuthenticated},
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
      // enableProfiler (dbAdmin, dbOwner, root).
      {"profile", Action::kDbAdmin},
      {"createUser", Action::kUserAdmin},
      {"updateUser", Action::kUserAdmin},
      {"dropUser", Action::kUserAdmin},
      // Checked per role by the command (auth_commands.cc): user
      // administration on each role's database.
      {"grantRolesToUser", Action::kAuthenticated},
      {"revokeRolesFromUser", Action::kAuthenticated},
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

const char* ActionTypeName(ActionType a) {
  switch (a) {
    case ActionType::kFind:
      return "find";
    case ActionType::kInsert:
      return "insert";
    case ActionType::kUpdate:
      return "update";
    case ActionType::kRemove:
      return "remove";
    case ActionType::kBypassDocumentValidation:
      return "bypassDocumentValidation";
  }
  return "";
}

namespace {

Action ClassOf(ActionType a) {
  switch (a) {
    case ActionType::kFind:
      return Action::kRead;
    case ActionType::kInsert:
    case ActionType::kUpdate:
    case ActionType::kRemove:
      return Action::kWrite;
    case ActionType::kBypassDocumentValidation:
      return Action::kDbAdmin;
  }
  return Action::kCluster;
}

// Privilege::addPrivilegeToPrivilegeVector: one entry per namespace.
void AddPrivilege(std::vector<Privilege>* out, absl::string_view db,
                  absl::string_view coll, std::vector<ActionType> actions) {
  for (Privilege& p : *out) {
    if (p.db != db || p.coll != coll) continue;
    for (ActionType a : actions) {
      bool have = false;
      for (ActionType b : p.actions) have = have || a == b;
      if (!have) p.actions.push_back(a);
    }
    return;
  }
  out->push_back({std::string(db), std::string(coll), std::move(actions)});
}

// A stage's namespace argument: "coll" (in `default_db`) or {db, coll}
// ($out, $merge's into; a missing db is `default_db`). False when it is
// neither (the stage's parse reports it).
bool NamespaceArg(const Value& v, absl::string_view default_db, std::string* db,
                  std::string* coll) {
  *db = std::string(default_db);
  if (v.is_string()) {
    *coll = v.string_value();
    return true;
  }
  if (!v.is_object()) return false;
  const Value* c = v.Get("coll");
  if (c == nullptr || !c->is_string()) return false;
  *coll = c->string_value();
  const Value* d = v.Get("db");
  if (d != nullptr && d->is_string()) *db = d->string_value();
  return true;
}

// LiteParsedPipeline::startsWithInitialSource: of ttldb's stages only
// $documents reads no collection.
bool StartsWithInitialSource(const Value& pipeline) {
  if (!pipeline.is_array() || pipeline.array_items().empty()) return false;
  const Value& first = pipeline.array_items()[0];
  return first.is_object() && !first.object_fields().empty() &&
         first.object_fields()[0].first == "$documents";
}

// $merge's actions (merge_processor.cpp getMergeStrategyDescriptors).
std::vector<ActionType> MergeActions(const Value& spec) {
  std::string matched = "merge";       // kDefaultWhenMatched
  std::string not_matched = "insert";  // kDefaultWhenNotMatched
  if (spec.is_object()) {
    if (const Value* m = spec.Get("whenMatched")) {
      matched = m->is_string()  ? m->string_value()
                : m->is_array() ? "pipeline"
                                : "";
    }
    if (const Value* n = spec.Get("whenNotMatched")) {
      not_matched = n->is_string() ? n->string_value() : "";
    }
  }
  if (not_matched == "insert") {
    if (matched == "fail") return {ActionType::kInsert};
    return {ActionType::kInsert, ActionType::kUpdate};
  }
  if ((not_matched == "fail" || not_matched == "discard") &&
      (matched == "replace" || matched == "merge" || matched == "pipeline")) {
    return {ActionType::kUpdate};
  }
  // A combination MongoDB refuses (51181): the most any mode needs.
  return {ActionType::kInsert, ActionType::kUpdate};
}

// LiteParsedPipeline::requiredPrivileges: each stage's, for a pipeline
// whose relative namespaces are in `db`.
void StagePrivileges(absl::string_view db, const Value& pipeline, bool bypass,
                     std::vector<Privilege>* out) {
  if (!pipeline.is_array()) return;
  for (const Value& stage : pipeline.array_items()) {
    if (!stage.is_object() || stage.object_fields().empty()) continue;
    const std::string& name = stage.object_fields()[0].first;
    const Value& spec = stage.object_fields()[0].second;
    std::string target_db, target_coll;
    if (name == "$out" || name == "$merge") {
      const Value* into = &spec;
      if (name == "$merge" && spec.is_object()) into = spec.Get("into");
      if (into == nullptr ||
          !NamespaceArg(*into, db, &target_db, &target_coll)) {
        continue;
      }
      std::vector<ActionType> actions =
          name == "$out" ? std::vector<ActionType>{ActionType::kInsert,
                                                   ActionType::kRemove}
                         : MergeActions(spec);
      if (bypass) actions.push_back(ActionType::kBypassDocumentValidation);
      AddPrivilege(out, target_db, target_coll, std::move(actions));
    } else if (name == "$lookup" || name == "$unionWith" ||
               name == "$graphLookup") {
      const Value* from = nullptr;
      const Value* sub = nullptr;
      if (name == "$unionWith") {
        from = spec.is_object() ? spec.Get("coll") : &spec;
        if (spec.is_object()) sub = spec.Get("pipeline");
      } else if (spec.is_object()) {
        from = spec.Get("from");
        if (name == "$lookup") sub = spec.Get("pipeline");
      }
      const bool reads =
          from != nullptr && NamespaceArg(*from, db, &target_db, &target_coll);
      if (reads && (sub == nullptr || !StartsWithInitialSource(*sub))) {
        AddPrivilege(out, target_db, target_coll, {ActionType::kFind});
      }
      if (sub != nullptr) {
        StagePrivileges(reads ? target_db : std::string(db), *sub, bypass, out);
      }
    } else if (name == "$facet" && spec.is_object()) {
      for (const Field& f : spec.object_fields()) {
        StagePrivileges(db, f.second, bypass, out);
      }
    }
  }
}

}  // namespace

std::vector<Privilege> AggregatePrivileges(absl::string_view db,
                                           absl::string_view coll,
                                           const Value& pipeline,
                                           bool bypass_document_validation) {
  std::vector<Privilege> out;
  if (!StartsWithInitialSource(pipeline)) {
    AddPrivilege(&out, db, coll, {ActionType::kFind});
  }
  StagePrivileges(db, pipeline, bypass_document_validation, &out);
  return out;
}

bool RolesGrantPrivilege(const std::vector<RoleName>& roles,
                         const Privilege& privilege) {
  if (privilege.coll == UserStore::kCollection) {
    // A system collection: only the privileges that name it
    // (builtin_roles.h), not a role's database-wide ones.
    for (ActionType a : privilege.actions) {
      if (!RolesGrantActionOnCollection(roles, ActionTypeName(a), privilege.db,
                                        privilege.coll)) {
        return false;
      }
    }
    return true;
  }
  for (ActionType a : privilege.actions) {
    if (!RolesGrant(roles, ClassOf(a), privilege.db)) return false;
  }
  return true;
}

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

bool RolesGrantOnEveryDatabase(const std::vector<RoleName>& roles,
                               Action action) {
  for (const RoleName& r : roles) {
    auto it = Roles().find(r.role);
    if (it == Roles().end() || !it->second.any_database) continue;
    if (Grants(it->second, action)) return true;
  }
  return false;
}

bool RolesGrantListDatabases(const std::vector<RoleName>& roles) {
  for (const RoleName& r : roles) {
    auto it = Roles().find(r.role);
    if (it != Roles().end() && it->second.any_database) return true;
  }
  return false;
}

bool RolesGrantAnyActionOn(const std::vector<RoleName>& roles,
                           absl::string_view db) {
  for (const RoleName& r : roles) {
    if (Roles().contains(r.role) && r.db == db) return true;
  }
  return RolesGrantListDatabases(roles);
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
