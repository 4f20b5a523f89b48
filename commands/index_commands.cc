// createIndexes, listIndexes and dropIndexes
// (src/mongo/db/commands/create_indexes_cmd.cpp, list_indexes.cpp,
// drop_indexes.cpp).
#include <algorithm>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "base/status.h"
#include "commands/command_args.h"
#include "commands/command_context.h"
#include "commands/cursor_reply.h"
#include "commands/reply.h"
#include "ttldb/collection.h"

namespace ttldb {
namespace commands {
namespace {

absl::StatusOr<bool> Exists(Database* db, absl::string_view coll) {
  if (db == nullptr) return false;
  ASSIGN_OR_RETURN(std::vector<std::string> names, db->ListCollectionNames());
  return std::find(names.begin(), names.end(), coll) != names.end();
}

// createIndexes: {indexes: [{key, name, ...options}]}. Reply
// {createdCollectionAutomatically, numIndexesBefore, numIndexesAfter, ok};
// when every index already existed, {numIndexesBefore, numIndexesAfter,
// note: "all indexes already exist", ok}.
absl::StatusOr<Value> CreateIndexes(CommandContext& ctx) {
  RETURN_IF_ERROR(
      CheckFields(ctx, {"indexes", "commitQuorum", "isTimeseriesNamespace",
                        "returnOnStart", "ignoreUnknownIndexOptions"}));
  ASSIGN_OR_RETURN(std::string coll, CollectionArg(ctx));
  ASSIGN_OR_RETURN(const Value::Array* specs, ArrayArg(ctx, "indexes"));
  if (specs->empty()) {
    return MongoError(absl::StatusCode::kInvalidArgument, kBadValue,
                      "Must specify at least one index to create");
  }
  RETURN_IF_ERROR(ValidateCollectionName(coll));
  ASSIGN_OR_RETURN(std::shared_ptr<Database> db, ctx.Db(true));
  ASSIGN_OR_RETURN(bool existed, Exists(db.get(), coll));
  Collection& c = db->collection(coll);
  int64_t before = 1;  // the _id index of a new collection
  if (existed) {
    ASSIGN_OR_RETURN(std::vector<Value> list, c.ListIndexes());
    before = static_cast<int64_t>(list.size());
  }
  for (size_t i = 0; i < specs->size(); ++i) {
    const Value& spec = (*specs)[i];
    if (!spec.is_object()) {
      return IdlWrongType(absl::StrCat("createIndexes.indexes.", i), spec,
                          "object");
    }
    const Value* key = spec.Get("key");
    if (key == nullptr) {
      return MongoError(absl::StatusCode::kInvalidArgument, kFailedToParse,
                        "The 'key' field is a required property of an index "
                        "specification");
    }
    if (!key->is_object()) {
      // index_key_validate.cpp validateIndexSpec's TypeMismatch.
      return MongoError(absl::StatusCode::kInvalidArgument, kTypeMismatch,
                        absl::StrCat("The field 'key' must be an object, but "
                                     "got ",
                                     TypeName(key->type())));
    }
    Value options = Value::MakeObject();
    for (const Field& f : spec.object_fields()) {
      if (f.first != "key" && f.first != "v" && f.first != "ns") {
        options.mutable_object_fields().push_back(f);
      }
    }
    RETURN_IF_ERROR(c.CreateIndex(*key, options).status());
  }
  ASSIGN_OR_RETURN(std::vector<Value> after_list, c.ListIndexes());
  const int64_t after = static_cast<int64_t>(after_list.size());
  // createIndexesReply (create_indexes.idl) as mongod 8.0 fills it.
  Value::Object out;
  if (existed && after == before) {
    out = {{"numIndexesBefore", Count(before)},
           {"numIndexesAfter", Count(after)},
           {"note", Value::String("all indexes already exist")}};
  } else {
    out = {{"createdCollectionAutomatically", Value::Bool(!existed)},
           {"numIndexesBefore", Count(before)},
           {"numIndexesAfter", Count(after)}};
  }
  return OkReply(std::move(out));
}

// listIndexes: a cursor over the index specs, _id_ first.
absl::StatusOr<Value> ListIndexes(CommandContext& ctx) {
  RETURN_IF_ERROR(CheckFields(
      ctx, {"cursor", "includeBuildUUIDs", "includeIndexBuildInfo"}));
  ASSIGN_OR_RETURN(std::string coll, CollectionArg(ctx));
  ASSIGN_OR_RETURN(std::shared_ptr<Database> db, ctx.Db(false));
  ASSIGN_OR_RETURN(bool exists, Exists(db.get(), coll));
  const std::string ns = Ns(ctx.db, coll);
  if (!exists) {
    return MongoError(absl::StatusCode::kNotFound, kNamespaceNotFound,
                      absl::StrCat("ns does not exist: ", ns));
  }
  ASSIGN_OR_RETURN(Value cursor_opts, ObjectArg(ctx, "cursor"));
  ASSIGN_OR_RETURN(const int64_t batch_size,
                   CursorBatchSize(cursor_opts, "listIndexes"));
  ASSIGN_OR_RETURN(std::vector<Value> specs,
                   db->collection(coll).ListIndexes());
  Value::Array batch(std::make_move_iterator(specs.begin()),
                     std::make_move_iterator(specs.end()));
  return ArrayCursorReply(ctx, ns, std::move(batch), batch_size);
}

// dropIndexes: index "*" (all but _id_), a name, a key pattern or an array
// of names. {nIndexesWas, ok}.
absl::StatusOr<Value> DropIndexes(CommandContext& ctx) {
  RETURN_IF_ERROR(CheckFields(ctx, {"index", "collectionUUID"}));
  ASSIGN_OR_RETURN(std::string coll, CollectionArg(ctx));
  const Value* index = Arg(ctx, "index");
  if (index == nullptr) return IdlMissingField("dropIndexes.index");
  ASSIGN_OR_RETURN(std::shared_ptr<Database> db, ctx.Db(false));
  ASSIGN_OR_RETURN(bool exists, Exists(db.get(), coll));
  if (!exists) {
    return MongoError(absl::StatusCode::kNotFound, kNamespaceNotFound,
                      absl::StrCat("ns not found ", Ns(ctx.db, coll)));
  }
  Collection& c = db->collection(coll);
  ASSIGN_OR_RETURN(std::vector<Value> before, c.ListIndexes());
  if (index->is_string() && index->string_value() == "*") {
    for (const Value& spec : before) {
      const Value* name = spec.Get("name");
      if (name == nullptr || !name->is_string() ||
          name->string_value() == "_id_") {
        continue;
      }
      RETURN_IF_ERROR(c.DropIndex(name->string_value()));
    }
  } else if (index->is_string()) {
    RETURN_IF_ERROR(c.DropIndex(index->string_value()));
  } else if (index->is_object()) {
    RETURN_IF_ERROR(c.DropIndexByKey(*index));
  } else if (index->is_array()) {
    // Every name must exist before any is dropped (drop_indexes.cpp).
    for (const Value& n : index->array_items()) {
      if (!n.is_string()) {
        return IdlWrongTypes("dropIndexes.index", n, "[string, object]");
      }
      bool found = false;
      for (const Value& spec : before) {
        const Value* name = spec.Get("name");
        found = found || (name != nullptr && name->is_string() &&
                          name->string_value() == n.string_value());
      }
      if (!found) {
        return MongoError(
            absl::StatusCode::kNotFound, kIndexNotFound,
            absl::StrCat("index not found with name [", n.string_value(), "]"));
      }
    }
    for (const Value& n : index->array_items()) {
      RETURN_IF_ERROR(c.DropIndex(n.string_value()));
    }
  } else {
    return IdlWrongTypes("dropIndexes.index", *index,
                         "[string, object, array]");
  }
  return OkReply({{"nIndexesWas", Count(before.size())}});
}

}  // namespace

void AddIndexCommands(std::vector<CommandSpec>* specs) {
  specs->push_back({"createIndexes", CreateIndexes, false,
                    /*takes_write_concern=*/true});
  specs->push_back({"listIndexes", ListIndexes});
  specs->push_back({"dropIndexes", DropIndexes, false, true});
  specs->push_back({"deleteIndexes", DropIndexes, false, true});
}

}  // namespace commands
}  // namespace ttldb
