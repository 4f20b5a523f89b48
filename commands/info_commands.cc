// usersInfo and rolesInfo: what users and roles exist and what they grant,
// as mongod 8.0 answers (src/mongo/db/commands/user_management_commands.cpp
// and src/mongo/db/auth/authorization_backend_local.cpp: lookupUsers,
// lookupRoles, getRoleDescriptionsForDB, getRolesDescription).
#include <algorithm>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "base/status.h"
#include "commands/authorization.h"
#include "commands/builtin_roles.h"
#include "commands/command_args.h"
#include "commands/command_context.h"
#include "commands/reply.h"
#include "commands/user_store.h"
#include "query/filter.h"

namespace ttldb {
namespace commands {
namespace {

// A usersInfo/rolesInfo argument: 1 (every one of the database),
// {forAllDBs: true} (usersInfo, on admin), or exact names.
struct NameArg {
  bool all_on_db = false;
  bool all_dbs = false;
  std::vector<std::pair<std::string, std::string>> names;  // {name, db}
};

// One name: "name" (in `db`) or {<field>: name, db}.
absl::Status ParseName(const Value& v, absl::string_view field,
                       absl::string_view db, NameArg* out) {
  if (v.is_string()) {
    out->names.emplace_back(v.string_value(), std::string(db));
    return absl::OkStatus();
  }
  const Value* name = v.is_object() ? v.Get(field) : nullptr;
  const Value* name_db = v.is_object() ? v.Get("db") : nullptr;
  if (name == nullptr || !name->is_string() || name_db == nullptr ||
      !name_db->is_string()) {
    return MongoError(
        absl::StatusCode::kInvalidArgument, kBadValue,
        absl::StrCat(field == "user" ? "User" : "Role",
                     " name must be either a string or an object with '", field,
                     "' and 'db'"));
  }
  out->names.emplace_back(name->string_value(), name_db->string_value());
  return absl::OkStatus();
}

// UsersInfoCommandArg / RolesInfoCommandArg (auth/user_management_
// commands_parsers.cpp).
absl::StatusOr<NameArg> ParseNameArg(const CommandContext& ctx,
                                     absl::string_view field) {
  const Value& arg = ctx.first();
  NameArg out;
  if (arg.is_number()) {
    if (arg.AsDouble() != 1) {
      return MongoError(absl::StatusCode::kInvalidArgument, kBadValue,
                        absl::StrCat(ctx.name,
                                     " must be 1, a name, or an "
                                     "array of names"));
    }
    out.all_on_db = true;
  } else if (field == "user" && arg.is_object() &&
             arg.Get("forAllDBs") != nullptr) {
    if (ctx.db != "admin" || !TrueValue(*arg.Get("forAllDBs"))) {
      return MongoError(absl::StatusCode::kInvalidArgument, kBadValue,
                        "forAllDBs may only be true, on the admin database");
    }
    out.all_dbs = true;
  } else if (arg.is_array()) {
    for (const Value& v : arg.array_items()) {
      RETURN_IF_ERROR(ParseName(v, field, ctx.db, &out));
    }
  } else {
    RETURN_IF_ERROR(ParseName(arg, field, ctx.db, &out));
  }
  return out;
}

// The roles of the authenticated user (empty without --auth or user).
std::vector<RoleName> MyRoles(const CommandContext& ctx) {
  std::optional<UserRecord> me = CurrentUser(ctx);
  return me.has_value() ? me->roles : std::vector<RoleName>{};
}

bool AuthOn(const CommandContext& ctx) {
  return ctx.server->options.auth && ctx.server->users != nullptr;
}

// usersInfo's checkAuthorization: viewUser on the cluster for forAllDBs,
// on the database for usersInfo: 1, and for each named user unless it is
// the caller.
bool MayViewUsers(const CommandContext& ctx, const NameArg& arg) {
  if (!AuthOn(ctx)) return true;
  const std::vector<RoleName> roles = MyRoles(ctx);
  if (arg.all_dbs) return RolesGrantOnCluster(roles, ActionType::kViewUser);
  if (arg.all_on_db) {
    return RolesGrantOnDatabase(roles, ActionType::kViewUser, ctx.db);
  }
  const UserName* me = ctx.connection->user();
  for (const auto& [user, db] : arg.names) {
    const bool self = me != nullptr && me->user == user && me->db == db;
    if (!self && !RolesGrantOnDatabase(roles, ActionType::kViewUser, db)) {
      return false;
    }
  }
  return true;
}

// rolesInfo's: viewRole on the database for rolesInfo: 1; for each named
// role, viewRole on its database unless the caller holds it.
bool MayViewRoles(const CommandContext& ctx, const NameArg& arg) {
  if (!AuthOn(ctx)) return true;
  const std::vector<RoleName> roles = MyRoles(ctx);
  if (arg.all_on_db) {
    return RolesGrantOnDatabase(roles, ActionType::kViewRole, ctx.db);
  }
  for (const auto& [role, db] : arg.names) {
    const bool held = std::find(roles.begin(), roles.end(),
                                RoleName{role, db}) != roles.end();
    if (!held && !RolesGrantOnDatabase(roles, ActionType::kViewRole, db)) {
      return false;
    }
  }
  return true;
}

Value EmptyArray() { return Value::MakeArray({}); }

Value MechanismsOf(const Value& stored) {
  Value::Array out;
  if (const Value* creds = stored.Get("credentials")) {
    for (const Field& f : creds->object_fields()) {
      out.push_back(Value::String(f.first));
    }
  }
  return Value::MakeArray(std::move(out));
}

struct UserShow {
  bool credentials = false;
  bool custom_data = true;
  bool privileges = false;
  bool restrictions = false;
};

// The usersInfo document of `u`. Without privileges or restrictions:
// the stored document less credentials/customData unless asked, then
// mechanisms (performNoPrivilegeNoRestrictionsLookup's $unset and
// $addFields). With them: getUserDescription's document, credentials
// turned into mechanisms in place, then inheritedRoles,
// inheritedPrivileges, inheritedAuthenticationRestrictions.
Value UserInfo(const UserRecord& u, const UserShow& show) {
  const Value stored = UserDocument(u);
  const bool detailed = show.privileges || show.restrictions;
  Value::Object out;
  for (const Field& f : stored.object_fields()) {
    if (f.first == "credentials") {
      if (detailed) out.emplace_back("mechanisms", MechanismsOf(stored));
      if (!show.credentials) continue;
    }
    if (f.first == "customData" && !show.custom_data) continue;
    out.push_back(f);
  }
  if (detailed) {
    out.emplace_back("inheritedRoles", RolesValue(u.roles));
    out.emplace_back("inheritedPrivileges", PrivilegesOf(u.roles));
    out.emplace_back("inheritedAuthenticationRestrictions", EmptyArray());
    if (show.restrictions) {
      out.emplace_back("authenticationRestrictions", EmptyArray());
    }
  } else {
    out.emplace_back("mechanisms", MechanismsOf(stored));
  }
  return Value::MakeObject(std::move(out));
}

// usersInfo: 1 | "name" | {user, db} | [...] | {forAllDBs: true}, with
// showCredentials, showCustomData (default true), showPrivileges,
// showAuthenticationRestrictions and filter (a $match on the documents
// shown, for the non-detailed forms).
absl::StatusOr<Value> UsersInfo(CommandContext& ctx) {
  UserStore* users = ctx.server->users.get();
  if (users == nullptr) {
    return MongoError(absl::StatusCode::kFailedPrecondition, kIllegalOperation,
                      "users exist only on a server (ttldb serve); this "
                      "database has none");
  }
  RETURN_IF_ERROR(CheckFields(
      ctx, {"showCredentials", "showPrivileges",
            "showAuthenticationRestrictions", "showCustomData", "filter"}));
  UserShow show;
  ASSIGN_OR_RETURN(show.credentials,
                   SafeBoolArg(ctx, "showCredentials", false));
  ASSIGN_OR_RETURN(show.custom_data, SafeBoolArg(ctx, "showCustomData", true));
  ASSIGN_OR_RETURN(show.privileges, SafeBoolArg(ctx, "showPrivileges", false));
  ASSIGN_OR_RETURN(show.restrictions,
                   SafeBoolArg(ctx, "showAuthenticationRestrictions", false));
  ASSIGN_OR_RETURN(Value filter_doc, ObjectArg(ctx, "filter"));
  std::optional<Filter> filter;
  if (filter_doc.is_object()) {
    ASSIGN_OR_RETURN(Filter f, Filter::Parse(filter_doc));
    filter = std::move(f);
  }
  ASSIGN_OR_RETURN(NameArg arg, ParseNameArg(ctx, "user"));
  if (!MayViewUsers(ctx, arg)) return NotAuthorizedToExecute(ctx);
  const bool detailed = show.privileges || show.restrictions;
  if (detailed && (filter.has_value() || arg.all_on_db || arg.all_dbs)) {
    return MongoError(
        absl::StatusCode::kFailedPrecondition, kIllegalOperation,
        "Privilege or restriction details require exact-match usersInfo "
        "queries");
  }
  std::vector<UserRecord> found;
  if (arg.all_on_db || arg.all_dbs) {
    found = users->List(arg.all_dbs ? "" : ctx.db);
  } else {
    for (const auto& [user, db] : arg.names) {
      if (std::optional<UserRecord> u = users->Get(db, user)) {
        found.push_back(*std::move(u));
      }
    }
  }
  if (!detailed) {
    // Sorted by user, then db (UserName order), names asked twice once.
    std::sort(found.begin(), found.end(),
              [](const UserRecord& a, const UserRecord& b) {
                return std::tie(a.user, a.db) < std::tie(b.user, b.db);
              });
    found.erase(std::unique(found.begin(), found.end(),
                            [](const UserRecord& a, const UserRecord& b) {
                              return a.user == b.user && a.db == b.db;
                            }),
                found.end());
  }
  Value::Array out;
  for (const UserRecord& u : found) {
    Value doc = UserInfo(u, show);
    if (filter.has_value() && !filter->Matches(doc)) continue;
    out.push_back(std::move(doc));
  }
  return OkReply({{"users", Value::MakeArray(std::move(out))}});
}

// showPrivileges: false, true, or "asUserFragment".
enum class PrivilegeFormat { kOmit, kShow, kUserFragment };

absl::StatusOr<PrivilegeFormat> ParsePrivilegeFormat(
    const CommandContext& ctx) {
  const Value* v = ctx.cmd.Get("showPrivileges");
  if (v == nullptr) return PrivilegeFormat::kOmit;
  if (v->is_string() && v->string_value() == "asUserFragment") {
    return PrivilegeFormat::kUserFragment;
  }
  if (v->type() == ValueType::kBool || v->is_number()) {
    return TrueValue(*v) ? PrivilegeFormat::kShow : PrivilegeFormat::kOmit;
  }
  return MongoError(absl::StatusCode::kInvalidArgument, kFailedToParse,
                    "Failed to parse 'showPrivileges'. 'showPrivileges' "
                    "should either be a boolean or the string "
                    "'asUserFragment'");
}

// A built-in role as getRoleDescriptionsForDB writes it: {role, db,
// isBuiltin, roles: [], inheritedRoles: [], privileges,
// inheritedPrivileges (the same), authenticationRestrictions?}.
Value RoleInfo(const RoleName& role, bool privileges, bool restrictions) {
  Value::Object out = {
      {"role", Value::String(role.role)}, {"db", Value::String(role.db)},
      {"isBuiltin", Value::Bool(true)},   {"roles", EmptyArray()},
      {"inheritedRoles", EmptyArray()},
  };
  if (privileges) {
    Value privs = PrivilegesOf({role});
    out.emplace_back("privileges", privs);
    out.emplace_back("inheritedPrivileges", std::move(privs));
  }
  if (restrictions) {
    out.emplace_back("authenticationRestrictions", EmptyArray());
    out.emplace_back("inheritedAuthenticationRestrictions", EmptyArray());
  }
  return Value::MakeObject(std::move(out));
}

// rolesInfo: 1 | "name" | {role, db} | [...], with showPrivileges,
// showBuiltinRoles (for rolesInfo: 1) and showAuthenticationRestrictions.
// ttldb has no user-defined roles: rolesInfo: 1 lists the built-in ones
// only with showBuiltinRoles, and a name that is no built-in role is left
// out, as mongod leaves out a role that does not exist.
absl::StatusOr<Value> RolesInfo(CommandContext& ctx) {
  RETURN_IF_ERROR(CheckFields(ctx, {"showPrivileges", "showBuiltinRoles",
                                    "showAuthenticationRestrictions"}));
  ASSIGN_OR_RETURN(PrivilegeFormat privileges, ParsePrivilegeFormat(ctx));
  ASSIGN_OR_RETURN(bool builtin, SafeBoolArg(ctx, "showBuiltinRoles", false));
  ASSIGN_OR_RETURN(bool restrictions,
                   SafeBoolArg(ctx, "showAuthenticationRestrictions", false));
  ASSIGN_OR_RETURN(NameArg arg, ParseNameArg(ctx, "role"));
  if (!MayViewRoles(ctx, arg)) return NotAuthorizedToExecute(ctx);
  std::vector<RoleName> roles;
  if (arg.all_on_db) {
    if (privileges == PrivilegeFormat::kUserFragment) {
      return MongoError(absl::StatusCode::kFailedPrecondition,
                        kIllegalOperation,
                        "Cannot get user fragment for all roles in a "
                        "database");
    }
    if (builtin) {
      for (std::string& name : BuiltinRoleNames(ctx.db)) {
        roles.push_back({std::move(name), ctx.db});
      }
    }
  } else {
    for (auto& [role, db] : arg.names) {
      if (IsBuiltinRole(role, db)) roles.push_back({role, db});
    }
  }
  if (privileges == PrivilegeFormat::kUserFragment) {
    return OkReply(
        {{"userFragment", Value::MakeObject({
                              {"roles", RolesValue(roles)},
                              {"inheritedRoles", RolesValue(roles)},
                              {"inheritedPrivileges", PrivilegesOf(roles)},
                          })}});
  }
  Value::Array out;
  for (const RoleName& r : roles) {
    out.push_back(
        RoleInfo(r, privileges == PrivilegeFormat::kShow, restrictions));
  }
  return OkReply({{"roles", Value::MakeArray(std::move(out))}});
}

}  // namespace

void AddInfoCommands(std::vector<CommandSpec>* specs) {
  specs->push_back({"usersInfo", UsersInfo});
  specs->push_back({"rolesInfo", RolesInfo});
}

}  // namespace commands
}  // namespace ttldb
