#include "commands/authorization.h"

#include <algorithm>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "base/status.h"
#include "commands/builtin_roles.h"
#include "commands/command_args.h"

namespace ttldb {
namespace commands {
namespace {

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

bool StartsWithChangeStream(const Value& pipeline) {
  if (!pipeline.is_array() || pipeline.array_items().empty()) return false;
  const Value& first = pipeline.array_items()[0];
  return first.is_object() && !first.object_fields().empty() &&
         first.object_fields()[0].first == "$changeStream";
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
  if (StartsWithChangeStream(pipeline)) {
    // document_source_change_stream.h LiteParsed::requiredPrivileges: find
    // and changeStream on the collection, or on the database for a
    // database's stream (aggregate: 1, `coll` empty).
    AddPrivilege(&out, db, coll,
                 {ActionType::kChangeStream, ActionType::kFind});
  } else if (!StartsWithInitialSource(pipeline)) {
    AddPrivilege(&out, db, coll, {ActionType::kFind});
  }
  StagePrivileges(db, pipeline, bypass_document_validation, &out);
  return out;
}

const char* ActionTypeName(ActionType a) {
  switch (a) {
#define TTLDB_ACTION_NAME(e, name) \
  case ActionType::e:              \
    return name;
    TTLDB_ACTION_TYPES(TTLDB_ACTION_NAME)
#undef TTLDB_ACTION_NAME
  }
  return "";
}

namespace {

Privilege OnNamespace(absl::string_view db, absl::string_view coll,
                      std::vector<ActionType> actions) {
  return {std::string(db), std::string(coll), std::move(actions),
          ResourceKind::kNamespace};
}

Privilege OnDatabase(absl::string_view db, std::vector<ActionType> actions) {
  return {std::string(db), "", std::move(actions), ResourceKind::kDatabase};
}

Privilege OnCluster(std::vector<ActionType> actions) {
  return {"", "", std::move(actions), ResourceKind::kCluster};
}

Privilege OnAnyNormal(std::vector<ActionType> actions) {
  return {"", "", std::move(actions), ResourceKind::kAnyNormal};
}

CommandPrivileges Kind(CommandPrivileges::Kind kind) {
  CommandPrivileges out;
  out.kind = kind;
  return out;
}

// create / collMod of a view: `action` on the view, find on what it is a
// view on and on every namespace its pipeline reads
// (auth_helpers.cpp checkAuthForCreateOrModifyView: the privileges of
// LiteParsedPipeline(viewOn, pipeline)).
std::vector<Privilege> ViewPrivileges(absl::string_view db,
                                      absl::string_view view, ActionType action,
                                      absl::string_view view_on,
                                      const Value& cmd) {
  std::vector<Privilege> out = {OnNamespace(db, view, {action})};
  const Value* pipeline = cmd.Get("pipeline");
  for (Privilege& p : AggregatePrivileges(
           db, view_on,
           pipeline != nullptr && pipeline->is_array() ? *pipeline
                                                       : Value::MakeArray({}),
           false)) {
    out.push_back(std::move(p));
  }
  return out;
}

CommandPrivileges Needs(std::vector<Privilege> privileges) {
  CommandPrivileges out;
  out.alternatives.push_back(std::move(privileges));
  return out;
}

// requiresAuth() is false for these in mongod: hello/isMaster
// (repl/hello.cpp), buildInfo (commands/buildinfo_common.cpp), ping
// (commands/generic.cpp), saslStart/saslContinue (auth/sasl_commands.cpp),
// logout (commands/authentication_commands.cpp), connectionStatus
// (commands/connection_status.cpp).
bool RunsUnauthenticated(absl::string_view name) {
  for (const char* n :
       {"hello", "isMaster", "ismaster", "buildInfo", "buildinfo", "ping",
        "saslStart", "saslContinue", "logout", "connectionStatus"}) {
    if (name == n) return true;
  }
  return false;
}

// Commands any authenticated user may run, that check the rest themselves
// once parsed: getMore (authorization_checks.cpp checkAuthForGetMore: "users
// can only getMore their own cursors", the cursor store checks the owner),
// the sessions' (their own sessions), whatsmyuri,
// listDatabases (filtered: database_commands.cc), usersInfo / rolesInfo
// (the caller's own record, else viewUser / viewRole: info_commands.cc),
// currentOp / killOp (the caller's operations, else inprog / killop:
// current_op_commands.cc).
bool ChecksItself(absl::string_view name) {
  for (const char* n :
       {"getMore", "whatsmyuri", "endSessions", "killSessions",
        "killAllSessions", "refreshSessions", "startSession", "listDatabases",
        "usersInfo", "rolesInfo", "currentOp", "killOp"}) {
    if (name == n) return true;
  }
  return false;
}

// The server-wide commands: one action on the cluster
// (clusterMonitor / hostManager / backup / root: builtin_roles.yml).
bool ClusterAction(absl::string_view name, ActionType* action) {
  static const auto* map = new absl::flat_hash_map<std::string, ActionType>{
      // server_status.cpp
      {"serverStatus", ActionType::kServerStatus},
      // generic_servers.cpp (CmdGetLog, CmdHostInfo, CmdGetCmdLineOpts)
      {"getLog", ActionType::kGetLog},
      {"hostInfo", ActionType::kHostInfo},
      {"getCmdLineOpts", ActionType::kGetCmdLineOpts},
      // parameters.cpp
      {"getParameter", ActionType::kGetParameter},
      {"setParameter", ActionType::kSetParameter},
      // fsync.cpp: fsync, and unlock for fsyncUnlock
      {"fsync", ActionType::kFsync},
      {"fsyncUnlock", ActionType::kUnlock},
      // top_command.cpp
      {"top", ActionType::kTop},
      // repl/repl_set_commands.cpp
      {"replSetGetStatus", ActionType::kReplSetGetStatus},
      {"replSetGetConfig", ActionType::kReplSetGetConfig},
  };
  auto it = map->find(name);
  if (it == map->end()) return false;
  *action = it->second;
  return true;
}

// The collection a command names first ("" when it names none).
std::string FirstCollection(const Value& cmd) {
  const Value& first = cmd.object_fields()[0].second;
  return first.is_string() ? first.string_value() : "";
}

bool Flag(const Value& cmd, absl::string_view field) {
  const Value* v = cmd.Get(field);
  return v != nullptr && TrueValue(*v);
}

// "db.coll" -> {db, coll}; false when not a string with a dot.
bool SplitNamespace(const Value* ns, std::string* db, std::string* coll) {
  if (ns == nullptr || !ns->is_string()) return false;
  const std::string& s = ns->string_value();
  const size_t dot = s.find('.');
  if (dot == std::string::npos) return false;
  *db = s.substr(0, dot);
  *coll = s.substr(dot + 1);
  return true;
}

// The databases of the roles a user-management command names ("role" on
// `db`, or {role, db}); the command parses them properly.
std::vector<std::string> RoleDatabases(const Value* roles,
                                       absl::string_view db) {
  std::vector<std::string> out;
  if (roles == nullptr || !roles->is_array()) return out;
  for (const Value& r : roles->array_items()) {
    std::string role_db(db);
    if (r.is_object()) {
      const Value* d = r.Get("db");
      if (d == nullptr || !d->is_string()) continue;
      role_db = d->string_value();
    } else if (!r.is_string()) {
      continue;
    }
    if (std::find(out.begin(), out.end(), role_db) == out.end()) {
      out.push_back(std::move(role_db));
    }
  }
  return out;
}

// user_management_commands_common.cpp checkAuthorizedToGrantRoles /
// checkAuthorizedToRevokeRoles: grantRole / revokeRole on each role's
// database.
void AddRoleActions(const Value* roles, absl::string_view db, ActionType action,
                    std::vector<Privilege>* out) {
  for (const std::string& role_db : RoleDatabases(roles, db)) {
    out->push_back(OnDatabase(role_db, {action}));
  }
}

// bulk_write_common.cpp getPrivileges: per op, insert / update (+insert
// for an upsert) / remove on its nsInfo entry's namespace, and
// bypassDocumentValidation on each when set.
CommandPrivileges BulkWritePrivileges(const Value& cmd) {
  std::vector<Privilege> out;
  const Value* ns_info = cmd.Get("nsInfo");
  const Value* ops = cmd.Get("ops");
  const bool bypass = Flag(cmd, "bypassDocumentValidation");
  if (ns_info == nullptr || !ns_info->is_array() || ops == nullptr ||
      !ops->is_array()) {
    return Needs({});  // the command reports what is missing
  }
  const Value::Array& infos = ns_info->array_items();
  for (const Value& op : ops->array_items()) {
    if (!op.is_object() || op.object_fields().empty()) continue;
    const auto& [kind, index] = op.object_fields()[0];
    if (!index.is_number()) continue;
    const double i = index.AsDouble();
    if (i < 0 || i >= static_cast<double>(infos.size())) continue;
    const Value& info = infos[static_cast<size_t>(i)];
    std::string db, coll;
    if (!info.is_object() || !SplitNamespace(info.Get("ns"), &db, &coll)) {
      continue;
    }
    std::vector<ActionType> actions;
    if (kind == "insert") {
      actions = {ActionType::kInsert};
    } else if (kind == "update") {
      actions = {ActionType::kUpdate};
      if (Flag(op, "upsert")) actions.push_back(ActionType::kInsert);
    } else if (kind == "delete") {
      actions = {ActionType::kRemove};
    } else {
      continue;
    }
    if (bypass) actions.push_back(ActionType::kBypassDocumentValidation);
    AddPrivilege(&out, db, coll, std::move(actions));
  }
  return Needs(std::move(out));
}

CommandPrivileges Required(absl::string_view db, const Value& cmd,
                           bool in_explain) {
  if (!cmd.is_object() || cmd.object_fields().empty()) {
    return Needs({OnCluster({ActionType::kUseTenant})});
  }
  const std::string& name = cmd.object_fields()[0].first;
  if (RunsUnauthenticated(name)) return Kind(CommandPrivileges::Kind::kNone);
  if (ChecksItself(name)) {
    return Kind(CommandPrivileges::Kind::kAuthenticated);
  }
  ActionType cluster_action;
  if (ClusterAction(name, &cluster_action)) {
    return Needs({OnCluster({cluster_action})});
  }
  const std::string coll = FirstCollection(cmd);
  auto on_coll = [&](std::vector<ActionType> actions) {
    return Needs({OnNamespace(db, coll, std::move(actions))});
  };
  const bool bypass = Flag(cmd, "bypassDocumentValidation");
  // find_cmd.cpp, count_cmd.cpp, distinct.cpp (auth::checkAuthForFind):
  // find on the namespace.
  if (name == "find" || name == "count" || name == "distinct") {
    return on_coll({ActionType::kFind});
  }
  // killcursors_common.h: killCursors on the namespace, then each cursor
  // the caller's own or killAnyCursor (find_commands.cc).
  if (name == "killCursors") return on_coll({ActionType::kKillCursors});
  if (name == "aggregate") {
    const Value* pipeline = cmd.Get("pipeline");
    if (!cmd.object_fields()[0].second.is_string() && pipeline != nullptr &&
        pipeline->is_array() && !pipeline->array_items().empty() &&
        pipeline->array_items()[0].is_object() &&
        pipeline->array_items()[0].Get("$currentOp") != nullptr) {
      // $currentOp needs inprog for allUsers, else only authentication
      // (document_source_current_op.cpp requiredPrivileges): the stage
      // checks it (current_op_commands.cc).
      return Kind(CommandPrivileges::Kind::kAuthenticated);
    }
    return Needs(AggregatePrivileges(
        db, coll, pipeline != nullptr ? *pipeline : Value::Null(), bypass));
  }
  if (name == "explain") {
    // explain_cmd.cpp: the explained command's own checks.
    const Value* inner = cmd.Get("explain");
    if (in_explain || inner == nullptr || !inner->is_object()) {
      return Needs({OnCluster({ActionType::kUseTenant})});
    }
    return Required(db, *inner, /*in_explain=*/true);
  }
  // list_collections.cpp (AuthorizationSession::
  // checkAuthorizedToListCollections): listCollections on the database;
  // with authorizedCollections and nameOnly, any privilege in it will do
  // (RolesAuthorizeCommand), and the command lists only the collections
  // the user holds a privilege on.
  if (name == "listCollections") {
    return Needs({OnDatabase(db, {ActionType::kListCollections})});
  }
  if (name == "listIndexes") return on_coll({ActionType::kListIndexes});
  // collection_stats / dbcommands.cpp (CmdDbStats).
  if (name == "collStats") return on_coll({ActionType::kCollStats});
  // dbcommands_d.cpp CmdDatasize: find on the namespace it names in full.
  if (name == "dataSize" || name == "datasize") {
    const Value& ns = cmd.object_fields()[0].second;
    const std::string full = ns.is_string() ? ns.string_value() : "";
    const size_t dot = full.find('.');
    if (dot == std::string::npos) return on_coll({ActionType::kFind});
    return Needs({OnNamespace(full.substr(0, dot), full.substr(dot + 1),
                              {ActionType::kFind})});
  }
  if (name == "dbStats" || name == "dbstats") {
    return Needs({OnDatabase(db, {ActionType::kDbStats})});
  }
  // write_commands.cpp via authorization_checks.cpp checkAuthForInsert /
  // checkAuthForUpdate / checkAuthForDelete.
  if (name == "insert") {
    std::vector<ActionType> a = {ActionType::kInsert};
    if (bypass) a.push_back(ActionType::kBypassDocumentValidation);
    return on_coll(std::move(a));
  }
  if (name == "update") {
    std::vector<ActionType> a = {ActionType::kUpdate};
    const Value* updates = cmd.Get("updates");
    bool upsert = false;
    if (updates != nullptr && updates->is_array()) {
      for (const Value& u : updates->array_items()) {
        upsert = upsert || (u.is_object() && Flag(u, "upsert"));
      }
    }
    if (upsert) a.push_back(ActionType::kInsert);
    if (bypass) a.push_back(ActionType::kBypassDocumentValidation);
    return on_coll(std::move(a));
  }
  if (name == "delete") return on_coll({ActionType::kRemove});
  if (name == "findAndModify" || name == "findandmodify") {
    // find_and_modify.cpp appendPrivileges.
    std::vector<ActionType> a = {ActionType::kFind};
    if (Flag(cmd, "remove")) {
      a.push_back(ActionType::kRemove);
    } else {
      a.push_back(ActionType::kUpdate);
      if (Flag(cmd, "upsert")) a.push_back(ActionType::kInsert);
    }
    if (bypass) a.push_back(ActionType::kBypassDocumentValidation);
    return on_coll(std::move(a));
  }
  if (name == "bulkWrite") return BulkWritePrivileges(cmd);
  if (name == "create") {
    // create_command.cpp: createCollection or insert; a view needs
    // createCollection and find on what it is a view of.
    // The view's pipeline adds what it reads ($lookup, $unionWith, ...):
    // auth_helpers' checkAuthForCreateOrModifyView.
    const Value* view_on = cmd.Get("viewOn");
    if (view_on != nullptr && view_on->is_string()) {
      return Needs(ViewPrivileges(db, coll, ActionType::kCreateCollection,
                                  view_on->string_value(), cmd));
    }
    CommandPrivileges out = on_coll({ActionType::kCreateCollection});
    out.alternatives.push_back({OnNamespace(db, coll, {ActionType::kInsert})});
    return out;
  }
  if (name == "drop") return on_coll({ActionType::kDropCollection});
  // create_indexes_cmd.cpp, drop_indexes.cpp.
  if (name == "createIndexes") return on_coll({ActionType::kCreateIndex});
  if (name == "dropIndexes" || name == "deleteIndexes") {
    return on_coll({ActionType::kDropIndex});
  }
  if (name == "collMod") {
    // coll_mod.cpp (auth::checkAuthForCollMod): collMod, and find on the
    // new source of a view.
    const Value* view_on = cmd.Get("viewOn");
    if (view_on != nullptr && view_on->is_string()) {
      return Needs(ViewPrivileges(db, coll, ActionType::kCollMod,
                                  view_on->string_value(), cmd));
    }
    return on_coll({ActionType::kCollMod});
  }
  if (name == "validate") return on_coll({ActionType::kValidate});
  // capped_utils / convert_to_capped_cmd: convertToCapped on the
  // collection; cloneCollectionAsCapped: find on the source, insert and
  // createCollection on the target.
  if (name == "convertToCapped") return on_coll({ActionType::kConvertToCapped});
  if (name == "cloneCollectionAsCapped") {
    const Value* to = cmd.Get("toCollection");
    return Needs(
        {OnNamespace(db, coll, {ActionType::kFind}),
         OnNamespace(db,
                     to != nullptr && to->is_string() ? to->string_value()
                                                      : std::string(),
                     {ActionType::kInsert, ActionType::kCreateCollection})});
  }
  if (name == "dropDatabase") {
    return Needs({OnDatabase(db, {ActionType::kDropDatabase})});
  }
  if (name == "profile") {
    // profile_common.cpp checkAuthForOperation: enableProfiler on the
    // database; reading the level alone ({profile: -1}) needs only find
    // on <db>.system.profile.
    CommandPrivileges out =
        Needs({OnDatabase(db, {ActionType::kEnableProfiler})});
    const Value& level = cmd.object_fields()[0].second;
    if (level.is_number() && level.AsDouble() < 0 &&
        cmd.Get("slowms") == nullptr && cmd.Get("sampleRate") == nullptr &&
        cmd.Get("filter") == nullptr) {
      out.alternatives.push_back(
          {OnNamespace(db, "system.profile", {ActionType::kFind})});
    }
    return out;
  }
  // user_management_commands.cpp / user_management_commands_common.cpp.
  if (name == "createUser") {
    std::vector<Privilege> p = {OnDatabase(db, {ActionType::kCreateUser})};
    AddRoleActions(cmd.Get("roles"), db, ActionType::kGrantRole, &p);
    return Needs(std::move(p));
  }
  if (name == "updateUser") {
    // checkAuthForUpdateUserCommand: changePassword for pwd,
    // changeCustomData for customData; setting roles may revoke any role:
    // revokeRole on every normal resource, then grantRole on each one's.
    std::vector<Privilege> p;
    if (cmd.Get("pwd") != nullptr) {
      p.push_back(OnDatabase(db, {ActionType::kChangePassword}));
    }
    if (cmd.Get("customData") != nullptr) {
      p.push_back(OnDatabase(db, {ActionType::kChangeCustomData}));
    }
    if (const Value* roles = cmd.Get("roles")) {
      p.push_back(OnAnyNormal({ActionType::kRevokeRole}));
      AddRoleActions(roles, db, ActionType::kGrantRole, &p);
    }
    return Needs(std::move(p));
  }
  if (name == "dropUser" || name == "dropAllUsersFromDatabase") {
    return Needs({OnDatabase(db, {ActionType::kDropUser})});
  }
  if (name == "grantRolesToUser" || name == "revokeRolesFromUser") {
    std::vector<Privilege> p;
    AddRoleActions(cmd.Get("roles"), db,
                   name == "grantRolesToUser" ? ActionType::kGrantRole
                                              : ActionType::kRevokeRole,
                   &p);
    return Needs(std::move(p));
  }
  if (name == "createBackup") {
    // ttldb's own: a copy of every database and of the users, what
    // mongodump reads (the backup role: find on every normal collection
    // and on system.users).
    return Needs({OnAnyNormal({ActionType::kFind}),
                  OnNamespace("admin", "system.users", {ActionType::kFind})});
  }
  // renameCollection: RolesAuthorizeCommand's rule; these are its
  // cross-database needs.
  if (name == "renameCollection") {
    std::string src_db, src_coll, dst_db, dst_coll;
    if (!SplitNamespace(&cmd.object_fields()[0].second, &src_db, &src_coll) ||
        !SplitNamespace(cmd.Get("to"), &dst_db, &dst_coll)) {
      return Needs({});  // the command reports the bad namespace
    }
    std::vector<ActionType> target = {ActionType::kInsert,
                                      ActionType::kCreateIndex};
    if (Flag(cmd, "dropTarget")) {
      target.push_back(ActionType::kDropCollection);
    }
    return Needs({OnNamespace(src_db, src_coll,
                              {ActionType::kFind, ActionType::kDropCollection}),
                  OnNamespace(dst_db, dst_coll, std::move(target))});
  }
  // Fail closed: a command no entry maps needs an action only root holds.
  return Needs({OnCluster({ActionType::kUseTenant})});
}

MatchType TargetOf(ResourceKind kind) {
  switch (kind) {
    case ResourceKind::kNamespace:
      return MatchType::kExactNamespace;
    case ResourceKind::kDatabase:
      return MatchType::kDatabase;
    case ResourceKind::kAnyNormal:
      return MatchType::kAnyNormal;
    case ResourceKind::kCluster:
      return MatchType::kCluster;
  }
  return MatchType::kCluster;
}

bool Grants(const std::vector<RoleName>& roles, ActionType action,
            ResourceKind kind, absl::string_view db, absl::string_view coll) {
  return RolesGrantAction(roles, ActionTypeName(action), TargetOf(kind), db,
                          coll);
}

// rename_collection_common.cpp checkAuthForRenameCollectionCommand: within
// one database and between normal collections, renameCollectionSameDB on
// the database (and dropCollection on the target for dropTarget) suffices
// when the caller can read the source or cannot read the target (a rename
// must not let it read what it could not); otherwise find and
// dropCollection on the source, insert and createIndex (and
// dropCollection) on the target.
bool MayRenameWithinDatabase(const std::vector<RoleName>& roles,
                             const Value& cmd) {
  std::string src_db, src_coll, dst_db, dst_coll;
  if (!SplitNamespace(&cmd.object_fields()[0].second, &src_db, &src_coll) ||
      !SplitNamespace(cmd.Get("to"), &dst_db, &dst_coll)) {
    return false;
  }
  if (src_db != dst_db || absl::StartsWith(src_coll, "system.") ||
      absl::StartsWith(dst_coll, "system.")) {
    return false;
  }
  if (!Grants(roles, ActionType::kRenameCollectionSameDB,
              ResourceKind::kDatabase, src_db, "")) {
    return false;
  }
  if (Flag(cmd, "dropTarget") &&
      !Grants(roles, ActionType::kDropCollection, ResourceKind::kNamespace,
              dst_db, dst_coll)) {
    return false;
  }
  return Grants(roles, ActionType::kFind, ResourceKind::kNamespace, src_db,
                src_coll) ||
         !Grants(roles, ActionType::kFind, ResourceKind::kNamespace, dst_db,
                 dst_coll);
}

}  // namespace

CommandPrivileges RequiredPrivileges(absl::string_view db, const Value& cmd) {
  return Required(db, cmd, /*in_explain=*/false);
}

bool RolesGrantPrivilege(const std::vector<RoleName>& roles,
                         const Privilege& privilege) {
  for (ActionType a : privilege.actions) {
    if (!Grants(roles, a, privilege.resource, privilege.db, privilege.coll)) {
      return false;
    }
  }
  return true;
}

bool RolesAuthorizeCommand(const std::vector<RoleName>& roles,
                           absl::string_view db, const Value& cmd,
                           std::string* failed_db) {
  const CommandPrivileges needed = RequiredPrivileges(db, cmd);
  if (needed.kind != CommandPrivileges::Kind::kPrivileges) return true;
  const std::string& name = cmd.object_fields()[0].first;
  if (name == "renameCollection" && MayRenameWithinDatabase(roles, cmd)) {
    return true;
  }
  if (name == "listCollections" && Flag(cmd, "authorizedCollections") &&
      Flag(cmd, "nameOnly") && RolesGrantAnyActionOnDatabase(roles, db)) {
    return true;
  }
  const Privilege* first_refused = nullptr;
  for (const std::vector<Privilege>& alternative : needed.alternatives) {
    bool all = true;
    for (const Privilege& p : alternative) {
      if (RolesGrantPrivilege(roles, p)) continue;
      all = false;
      if (first_refused == nullptr) first_refused = &p;
      break;
    }
    if (all) return true;
  }
  if (failed_db != nullptr) {
    *failed_db = first_refused != nullptr &&
                         first_refused->resource != ResourceKind::kCluster &&
                         first_refused->resource != ResourceKind::kAnyNormal
                     ? first_refused->db
                     : std::string(db);
  }
  return false;
}

bool RolesGrantOnCluster(const std::vector<RoleName>& roles,
                         ActionType action) {
  return Grants(roles, action, ResourceKind::kCluster, "", "");
}

bool RolesGrantOnDatabase(const std::vector<RoleName>& roles, ActionType action,
                          absl::string_view db) {
  return Grants(roles, action, ResourceKind::kDatabase, db, "");
}

bool RolesGrantOnAnyNormal(const std::vector<RoleName>& roles,
                           ActionType action) {
  return Grants(roles, action, ResourceKind::kAnyNormal, "", "");
}

bool RolesGrantListDatabases(const std::vector<RoleName>& roles) {
  return RolesGrantOnCluster(roles, ActionType::kListDatabases);
}

bool RolesGrantAnyActionOn(const std::vector<RoleName>& roles,
                           absl::string_view db) {
  return RolesGrantAnyActionOnDatabase(roles, db);
}

absl::StatusOr<std::vector<RoleName>> ParseRoles(const Value& roles,
                                                 absl::string_view default_db) {
  if (!roles.is_array()) return IdlWrongType("roles", roles, "array");
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
    if (!IsBuiltinRole(name.role, name.db)) {
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
