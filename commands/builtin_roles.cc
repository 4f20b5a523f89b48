#include "commands/builtin_roles.h"

#include <algorithm>
#include <set>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/str_split.h"
#include "document/compare.h"

namespace ttldb {
namespace commands {
namespace {

const BuiltinRole* Find(absl::string_view name) {
  for (const BuiltinRole& r : BuiltinRoles()) {
    if (r.name == name) return &r;
  }
  return nullptr;
}

// A resource as ResourcePattern::toBSON writes it.
Value Resource(const PrivilegeSpec& p, absl::string_view role_db) {
  const std::string db = *p.db != '\0' ? p.db : std::string(role_db);
  switch (p.match) {
    case MatchType::kDatabase:
      return Value::MakeObject(
          {{"db", Value::String(db)}, {"collection", Value::String("")}});
    case MatchType::kExactNamespace:
      return Value::MakeObject({{"db", Value::String(db)},
                                {"collection", Value::String(p.collection)}});
    case MatchType::kCollection:
      return Value::MakeObject({{"db", Value::String("")},
                                {"collection", Value::String(p.collection)}});
    case MatchType::kAnyNormal:
      return Value::MakeObject(
          {{"db", Value::String("")}, {"collection", Value::String("")}});
    case MatchType::kAnySystemBuckets:
      return Value::MakeObject({{"system_buckets", Value::String("")}});
    case MatchType::kCluster:
      return Value::MakeObject({{"cluster", Value::Bool(true)}});
    case MatchType::kAny:
      return Value::MakeObject({{"anyResource", Value::Bool(true)}});
  }
  return Value();
}

using Privileges = std::vector<std::pair<Value, std::set<std::string>>>;

// Privilege::addPrivilegeToPrivilegeVector: merges by resource.
void Add(Privileges* out, Value resource,
         const std::vector<const char*>& actions) {
  for (auto& [r, acts] : *out) {
    if (ValuesEqual(r, resource)) {
      acts.insert(actions.begin(), actions.end());
      return;
    }
  }
  out->emplace_back(std::move(resource),
                    std::set<std::string>(actions.begin(), actions.end()));
}

// A role's privileges: those of the roles it is built from first, then
// its own (builtin_roles.tpl.cpp's order).
void AddRole(const BuiltinRole& role, absl::string_view db, Privileges* out) {
  for (const char* sub : role.roles) {
    std::vector<std::string> parts = absl::StrSplit(sub, '@');
    const BuiltinRole* r = Find(parts[0]);
    if (r != nullptr) AddRole(*r, parts.size() > 1 ? parts[1] : db, out);
  }
  for (const PrivilegeSpec& p : role.privileges) {
    Add(out, Resource(p, db), p.actions);
  }
}

// NamespaceString::isNormalCollection, for what ttldb has: not "system.*".
bool IsNormalCollection(absl::string_view coll) {
  return !absl::StartsWith(coll, "system.");
}

bool PatternMatches(const PrivilegeSpec& p, absl::string_view role_db,
                    MatchType target, absl::string_view db,
                    absl::string_view coll) {
  const absl::string_view pattern_db =
      *p.db != '\0' ? absl::string_view(p.db) : role_db;
  if (p.match == MatchType::kAny) return true;
  switch (target) {
    case MatchType::kExactNamespace:
      break;
    case MatchType::kDatabase:
      return (p.match == MatchType::kDatabase && pattern_db == db) ||
             p.match == MatchType::kAnyNormal;
    case MatchType::kAnyNormal:
      return p.match == MatchType::kAnyNormal;
    case MatchType::kCluster:
      return p.match == MatchType::kCluster;
    default:
      return false;
  }
  switch (p.match) {
    case MatchType::kDatabase:
      return pattern_db == db && IsNormalCollection(coll);
    case MatchType::kExactNamespace:
      return pattern_db == db && p.collection == coll;
    case MatchType::kCollection:
      return p.collection == coll;
    case MatchType::kAnyNormal:
      return IsNormalCollection(coll);
    case MatchType::kAnySystemBuckets:
      return absl::StartsWith(coll, "system.buckets.");
    case MatchType::kCluster:
      return false;
    case MatchType::kAny:
      return true;
  }
  return false;
}

// Whether `role` on `role_db` (or a role it is built from) grants `action`
// on the resource `target` names (RolesGrantAction).
bool RoleGrantsAction(const BuiltinRole& role, absl::string_view role_db,
                      absl::string_view action, MatchType target,
                      absl::string_view db, absl::string_view coll) {
  for (const char* sub : role.roles) {
    std::vector<std::string> parts = absl::StrSplit(sub, '@');
    const BuiltinRole* r = Find(parts[0]);
    if (r != nullptr &&
        RoleGrantsAction(*r, parts.size() > 1 ? parts[1] : role_db, action,
                         target, db, coll)) {
      return true;
    }
  }
  for (const PrivilegeSpec& p : role.privileges) {
    if (!PatternMatches(p, role_db, target, db, coll)) continue;
    for (const char* a : p.actions) {
      if (a == action) return true;
    }
  }
  return false;
}

// Whether `role` on `role_db` (or a role it is built from) holds a
// privilege whose pattern covers db.coll.
bool RoleCoversCollection(const BuiltinRole& role, absl::string_view role_db,
                          absl::string_view db, absl::string_view coll) {
  for (const char* sub : role.roles) {
    std::vector<std::string> parts = absl::StrSplit(sub, '@');
    const BuiltinRole* r = Find(parts[0]);
    if (r != nullptr &&
        RoleCoversCollection(*r, parts.size() > 1 ? parts[1] : role_db, db,
                             coll)) {
      return true;
    }
  }
  for (const PrivilegeSpec& p : role.privileges) {
    if (!p.actions.empty() &&
        PatternMatches(p, role_db, MatchType::kExactNamespace, db, coll)) {
      return true;
    }
  }
  return false;
}

// Whether `role` on `role_db` (or a role it is built from) holds a
// privilege on some resource of database `db`.
bool RoleTouchesDatabase(const BuiltinRole& role, absl::string_view role_db,
                         absl::string_view db) {
  for (const char* sub : role.roles) {
    std::vector<std::string> parts = absl::StrSplit(sub, '@');
    const BuiltinRole* r = Find(parts[0]);
    if (r != nullptr &&
        RoleTouchesDatabase(*r, parts.size() > 1 ? parts[1] : role_db, db)) {
      return true;
    }
  }
  for (const PrivilegeSpec& p : role.privileges) {
    const absl::string_view pattern_db =
        *p.db != '\0' ? absl::string_view(p.db) : role_db;
    switch (p.match) {
      case MatchType::kDatabase:
      case MatchType::kExactNamespace:
        if (pattern_db == db) return true;
        break;
      case MatchType::kCollection:
      case MatchType::kAnyNormal:
      case MatchType::kAnySystemBuckets:
      case MatchType::kAny:
        return true;
      case MatchType::kCluster:
        break;
    }
  }
  return false;
}

}  // namespace

bool RolesGrantAction(const std::vector<RoleName>& roles,
                      absl::string_view action, MatchType target,
                      absl::string_view db, absl::string_view coll) {
  for (const RoleName& name : roles) {
    if (!IsBuiltinRole(name.role, name.db)) continue;
    if (RoleGrantsAction(*Find(name.role), name.db, action, target, db, coll)) {
      return true;
    }
  }
  return false;
}

bool RolesGrantAnyActionOnDatabase(const std::vector<RoleName>& roles,
                                   absl::string_view db) {
  for (const RoleName& name : roles) {
    if (!IsBuiltinRole(name.role, name.db)) continue;
    if (RoleTouchesDatabase(*Find(name.role), name.db, db)) return true;
  }
  return false;
}

bool RolesGrantAnyActionOnCollection(const std::vector<RoleName>& roles,
                                     absl::string_view db,
                                     absl::string_view coll) {
  for (const RoleName& name : roles) {
    if (!IsBuiltinRole(name.role, name.db)) continue;
    if (RoleCoversCollection(*Find(name.role), name.db, db, coll)) return true;
  }
  return false;
}

bool RolesGrantActionOnCollection(const std::vector<RoleName>& roles,
                                  absl::string_view action,
                                  absl::string_view db,
                                  absl::string_view coll) {
  return RolesGrantAction(roles, action, MatchType::kExactNamespace, db, coll);
}

bool IsBuiltinRole(absl::string_view name, absl::string_view db) {
  const BuiltinRole* r = Find(name);
  return r != nullptr && (!r->admin_only || db == "admin");
}

std::vector<std::string> BuiltinRoleNames(absl::string_view db) {
  std::vector<std::string> names;
  for (const BuiltinRole& r : BuiltinRoles()) {
    if (IsBuiltinRole(r.name, db)) names.emplace_back(r.name);
  }
  std::sort(names.begin(), names.end());
  return names;
}

Value PrivilegesOf(const std::vector<RoleName>& roles) {
  Privileges privileges;
  for (const RoleName& name : roles) {
    if (!IsBuiltinRole(name.role, name.db)) continue;
    AddRole(*Find(name.role), name.db, &privileges);
  }
  Value::Array out;
  for (auto& [resource, actions] : privileges) {
    Value::Array acts;
    for (const std::string& a : actions) acts.push_back(Value::String(a));
    out.push_back(
        Value::MakeObject({{"resource", std::move(resource)},
                           {"actions", Value::MakeArray(std::move(acts))}}));
  }
  return Value::MakeArray(std::move(out));
}

}  // namespace commands
}  // namespace ttldb
