// listDatabases, dropDatabase and dbStats over the DatabaseSet.
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "base/status.h"
#include "commands/command_args.h"
#include "commands/command_context.h"
#include "commands/reply.h"
#include "query/filter.h"

namespace ttldb {
namespace commands {
namespace {

// listDatabases (src/mongo/db/commands/list_databases.cpp): databases
// with at least one collection, each {name, sizeOnDisk, empty}, then
// totalSize and totalSizeMb; nameOnly lists {name} only. `filter` matches
// those documents.
absl::StatusOr<Value> ListDatabases(CommandContext& ctx) {
  RETURN_IF_ERROR(
      CheckFields(ctx, {"filter", "nameOnly", "authorizedDatabases"}));
  ASSIGN_OR_RETURN(bool name_only, SafeBoolArg(ctx, "nameOnly", false));
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
    ASSIGN_OR_RETURN(std::shared_ptr<Database> db,
                     ctx.server->databases->Get(name, /*create=*/false));
    if (db == nullptr) continue;
    ASSIGN_OR_RETURN(std::vector<std::string> colls, db->ListCollectionNames());
    if (colls.empty()) continue;  // MongoDB has no empty databases
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
  if (!existed) return OkReply();
  return OkReply({{"dropped", Value::String(ctx.db)}});
}

// dbStats (dbstats.cpp): counts over the database's collections; sizes are
// the stored documents' bytes and the files on disk.
absl::StatusOr<Value> DbStats(CommandContext& ctx) {
  RETURN_IF_ERROR(CheckFields(ctx, {"scale", "freeStorage"}));
  ASSIGN_OR_RETURN(std::optional<int64_t> scale_arg, IntArg(ctx, "scale"));
  int64_t scale = scale_arg.value_or(1);
  if (scale <= 0) {
    return MongoError(absl::StatusCode::kInvalidArgument, kBadValue,
                      "Scale factor must be greater than zero");
  }
  ASSIGN_OR_RETURN(std::shared_ptr<Database> db, ctx.Db(false));
  int64_t collections = 0, objects = 0, data_size = 0, indexes = 0;
  if (db != nullptr) {
    ASSIGN_OR_RETURN(std::vector<std::string> names, db->ListCollectionNames());
    for (const std::string& n : names) {
      ASSIGN_OR_RETURN(Value stats, db->collection(n).Stats());
      ++collections;
      const Value* count = stats.Get("count");
      const Value* size = stats.Get("size");
      const Value* nindexes = stats.Get("nindexes");
      if (count != nullptr && count->is_number()) {
        objects += static_cast<int64_t>(count->AsDouble());
      }
      if (size != nullptr && size->is_number()) {
        data_size += static_cast<int64_t>(size->AsDouble());
      }
      if (nindexes != nullptr && nindexes->is_number()) {
        indexes += static_cast<int64_t>(nindexes->AsDouble());
      }
    }
  }
  const int64_t storage =
      db == nullptr ? 0 : ctx.server->databases->SizeOnDisk(ctx.db);
  const double avg =
      objects == 0 ? 0.0 : static_cast<double>(data_size) / objects;
  return OkReply({
      {"db", Value::String(ctx.db)},
      {"collections", Count(collections)},
      {"views", Value::Int32(0)},
      {"objects", Count(objects)},
      {"avgObjSize", Value::Double(avg)},
      {"dataSize", Value::Double(static_cast<double>(data_size) / scale)},
      {"storageSize", Value::Double(static_cast<double>(storage) / scale)},
      {"indexes", Count(indexes)},
      {"indexSize", Value::Double(0)},
      {"totalSize", Value::Double(static_cast<double>(storage) / scale)},
      {"scaleFactor", Count(scale)},
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
