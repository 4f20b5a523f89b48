// listDatabases, dropDatabase and dbStats over the DatabaseSet.
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "base/status.h"
#include "commands/command_args.h"
#include "commands/command_context.h"
#include "commands/reply.h"
#include "commands/user_store.h"
#include "query/filter.h"

namespace ttldb {
namespace commands {
namespace {

// Whether listDatabases shows only the databases the user holds a privilege
// on (list_databases.cpp): `authorizedDatabases` when given, else when the
// user lacks the listDatabases action. authorizedDatabases: false without
// that action: 13 Unauthorized.
absl::StatusOr<bool> OnlyAuthorizedDatabases(const CommandContext& ctx,
                                             const std::vector<RoleName>& roles,
                                             bool auth) {
  const bool may_list_all = !auth || RolesGrantListDatabases(roles);
  const Value* arg = ctx.cmd.Get("authorizedDatabases");
  if (arg == nullptr || arg->is_null()) return !may_list_all;
  if (arg->type() != ValueType::kBool) {
    return IdlWrongType("listDatabases.authorizedDatabases", *arg, "bool");
  }
  if (!arg->bool_value() && !may_list_all) {
    return MongoError(absl::StatusCode::kPermissionDenied, kUnauthorized,
                      "Insufficient permissions to list all databases");
  }
  return arg->bool_value();
}

// listDatabases (src/mongo/db/commands/list_databases.cpp): databases
// with at least one collection, each {name, sizeOnDisk, empty}, then
// totalSize and totalSizeMb; nameOnly lists {name} only. `filter` matches
// those documents. Under --auth a user without the listDatabases action
// sees the databases it holds a privilege on (jstests/auth/
// list_databases.js).
absl::StatusOr<Value> ListDatabases(CommandContext& ctx) {
  RETURN_IF_ERROR(
      CheckFields(ctx, {"filter", "nameOnly", "authorizedDatabases"}));
  ASSIGN_OR_RETURN(bool name_only, SafeBoolArg(ctx, "nameOnly", false));
  const bool auth = ctx.server->options.auth && ctx.server->users != nullptr;
  std::vector<RoleName> roles;
  if (std::optional<UserRecord> me = CurrentUser(ctx)) roles = me->roles;
  ASSIGN_OR_RETURN(bool only_authorized,
                   OnlyAuthorizedDatabases(ctx, roles, auth));
  ASSIGN_OR_RETURN(Value filter_doc, ObjectArg(ctx, "filter"));
  std::optional<Filter> filter;
  if (filter_doc.is_object()) {
    ASSIGN_OR_RETURN(Filter f, Filter::Parse(filter_doc));
    filter = std::move(f);
  }
  ASSIGN_OR_RETURN(std::vector<std::string> names,
                   ctx.server->databases->List());
  Value::Array dbs;
  int64_t total = 0;
  for (const std::string& name : names) {
    if (auth && only_authorized && !RolesGrantAnyActionOn(roles, name)) {
      continue;
    }
    // A database that cannot be opened (damaged files, no space) is listed
    // as the files it holds: it is there, and the commands run on it say
    // what is wrong. It never makes the whole listing fail.
    absl::StatusOr<std::shared_ptr<Database>> db =
        ctx.server->databases->Get(name, /*create=*/false);
    if (db.ok() && *db == nullptr) continue;
    if (db.ok()) {
      absl::StatusOr<std::vector<std::string>> colls =
          (*db)->ListCollectionNames();
      // MongoDB has no empty databases.
      if (colls.ok() && colls->empty()) continue;
    }
    Value entry;
    if (name_only) {
      entry = Value::MakeObject({{"name", Value::String(name)}});
    } else {
      const int64_t size = ctx.server->databases->SizeOnDisk(name);
      entry = Value::MakeObject({{"name", Value::String(name)},
                                 {"sizeOnDisk", Value::Int64(size)},
                                 {"empty", Value::Bool(false)}});
    }
    if (filter.has_value() && !filter->Matches(entry)) continue;
    if (!name_only) total += entry.Get("sizeOnDisk")->int64_value();
    dbs.push_back(std::move(entry));
  }
  Value::Object out = {{"databases", Value::MakeArray(std::move(dbs))}};
  if (!name_only) {
    out.emplace_back("totalSize", Value::Int64(total));
    out.emplace_back("totalSizeMb", Value::Int64(total / (1024 * 1024)));
  }
  return OkReply(std::move(out));
}

// dropDatabase (drop_database.cpp): {dropped: "<db>", ok: 1} when it
// existed, {ok: 1} when not. Its cursors die first.
absl::StatusOr<Value> DropDatabase(CommandContext& ctx) {
  RETURN_IF_ERROR(CheckFields(ctx, {}));
  ctx.server->cursors->KillDatabase(ctx.db);
  ASSIGN_OR_RETURN(bool existed, ctx.server->databases->Drop(ctx.db));
  ctx.server->op_stats.ForgetDatabase(ctx.db);
  ctx.server->profiler.Forget(ctx.db);
  if (existed && ctx.db == UserStore::kDatabase &&
      ctx.server->users != nullptr) {
    // The users went with admin.system.users.
    RETURN_IF_ERROR(ctx.server->users->Reload());
  }
  if (!existed) return OkReply();
  return OkReply({{"dropped", Value::String(ctx.db)}});
}

// dbStats (dbstats.cpp): Database::Stats of the database; one that does
// not exist has zero everything.
absl::StatusOr<Value> DbStats(CommandContext& ctx) {
  RETURN_IF_ERROR(CheckFields(ctx, {"scale", "freeStorage"}));
  ASSIGN_OR_RETURN(std::optional<int64_t> scale_arg, IntArg(ctx, "scale"));
  const int64_t scale = scale_arg.value_or(1);
  if (scale < 1) {
    return IdlBadValue("scale", ">= 1", scale);
  }
  ASSIGN_OR_RETURN(std::shared_ptr<Database> db, ctx.Db(false));
  if (db != nullptr) {
    ASSIGN_OR_RETURN(Value stats, db->Stats(scale, ctx.db));
    Value::Object out;
    for (Field& f : stats.mutable_object_fields()) {
      if (f.first != "ok") out.push_back(std::move(f));
    }
    return OkReply(std::move(out));
  }
  return OkReply({
      {"db", Value::String(ctx.db)},
      {"collections", Value::Int32(0)},
      {"views", Value::Int32(0)},
      {"objects", Value::Int32(0)},
      {"avgObjSize", Value::Int32(0)},
      {"dataSize", Value::Int32(0)},
      {"storageSize", Value::Int32(0)},
      {"indexes", Value::Int32(0)},
      {"indexSize", Value::Int32(0)},
      {"totalSize", Value::Int32(0)},
      {"scaleFactor", Count(scale)},
      {"fsUsedSize", Value::Int32(0)},
      {"fsTotalSize", Value::Int32(0)},
  });
}

}  // namespace

void AddDatabaseCommands(std::vector<CommandSpec>* specs) {
  specs->push_back({"listDatabases", ListDatabases, /*admin_only=*/true});
  specs->push_back({"dropDatabase", DropDatabase, false,
                    /*takes_write_concern=*/true});
  specs->push_back({"dbStats", DbStats});
  specs->push_back({"dbstats", DbStats});
}

}  // namespace commands
}  // namespace ttldb
