// listCollections, create, drop, renameCollection, collMod, validate and
// collStats (src/mongo/db/commands/list_collections.cpp, create_command.cpp,
// drop_collection.cpp, rename_collection_cmd.cpp, collection_to_capped...,
// validate.cpp, coll_stats / dbcommands.cpp).
#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "base/status.h"
#include "commands/builtin_roles.h"
#include "commands/command_args.h"
#include "commands/command_context.h"
#include "commands/cursor_reply.h"
#include "commands/reply.h"
#include "document/compare.h"
#include "query/filter.h"
#include "ttldb/collection.h"
#include "ttldb/json.h"

namespace ttldb {
namespace commands {

namespace {

absl::StatusOr<bool> Exists(Database* db, absl::string_view coll) {
  if (db == nullptr) return false;
  ASSIGN_OR_RETURN(std::vector<std::string> names, db->ListCollectionNames());
  return std::find(names.begin(), names.end(), coll) != names.end();
}

// create's changeStreamPreAndPostImages: {enabled: bool}
// (collection_options.idl ChangeStreamPreAndPostImagesOptions).
absl::StatusOr<bool> ParsePreAndPostImages(const Value& value) {
  if (!value.is_object()) {
    return IdlWrongType("create.changeStreamPreAndPostImages", value, "object");
  }
  const Value* enabled = value.Get("enabled");
  if (enabled == nullptr) {
    return IdlMissingField("create.changeStreamPreAndPostImages.enabled");
  }
  if (enabled->type() != ValueType::kBool) {
    return IdlWrongType("create.changeStreamPreAndPostImages.enabled", *enabled,
                        "bool");
  }
  return enabled->bool_value();
}

// create.idl's size and max: safeInt64 (int, long, double, decimal; a
// double toward zero), size 1 to 1 PiB, max below 2^31.
absl::StatusOr<int64_t> CappedNumberArg(const Value& v, absl::string_view field,
                                        absl::string_view command = "create") {
  ASSIGN_OR_RETURN(const int64_t n,
                   IdlSafeInt64(v, absl::StrCat(command, ".", field)));
  auto bound = [&](absl::string_view rule) {
    return IdlBadValue(field, rule, n);
  };
  if (field == "size" && n < 1) return bound(">= 1");
  if (field == "size" && n > (int64_t{1} << 50)) {
    return bound(absl::StrCat("<= ", int64_t{1} << 50));
  }
  if (field == "max" && n >= (int64_t{1} << 31)) {
    return bound(absl::StrCat("< ", int64_t{1} << 31));
  }
  return n;
}

// The view `coll`, if it is one.
absl::StatusOr<std::optional<ViewDefinition>> ViewNamed(
    const std::shared_ptr<Database>& db, absl::string_view coll) {
  if (db == nullptr) return std::nullopt;
  ASSIGN_OR_RETURN(std::vector<ViewDefinition> views, db->ListViews());
  for (ViewDefinition& v : views) {
    if (v.name == coll) return std::move(v);
  }
  return std::nullopt;
}

absl::Status NsNotFound(absl::string_view message) {
  return MongoError(absl::StatusCode::kNotFound, kNamespaceNotFound, message);
}

// listCollections: every collection as {name, type: "collection", options:
// {}, info: {readOnly: false}, idIndex}; nameOnly: {name, type}. ttldb has
// no views and no collection UUIDs.
absl::StatusOr<Value> ListCollections(CommandContext& ctx) {
  RETURN_IF_ERROR(
      CheckFields(ctx, {"filter", "nameOnly", "authorizedCollections", "cursor",
                        "includePendingDrops"}));
  ASSIGN_OR_RETURN(Value filter_doc, ObjectArg(ctx, "filter"));
  ASSIGN_OR_RETURN(bool name_only, SafeBoolArg(ctx, "nameOnly", false));
  ASSIGN_OR_RETURN(Value cursor_opts, ObjectArg(ctx, "cursor"));
  ASSIGN_OR_RETURN(const int64_t batch_size,
                   CursorBatchSize(cursor_opts, "listCollections"));
  std::optional<Filter> filter;
  if (filter_doc.is_object()) {
    ASSIGN_OR_RETURN(Filter f, Filter::Parse(filter_doc));
    filter = std::move(f);
  }
  ASSIGN_OR_RETURN(std::shared_ptr<Database> db, ctx.Db(false));
  std::vector<std::string> names;
  if (db != nullptr) {
    ASSIGN_OR_RETURN(names, db->ListCollectionNames());
  }
  // authorizedCollections with nameOnly, under --auth: only the
  // collections the user holds a privilege on (list_collections.cpp).
  ASSIGN_OR_RETURN(bool authorized_only,
                   SafeBoolArg(ctx, "authorizedCollections", false));
  std::optional<std::vector<RoleName>> my_roles;
  if (authorized_only && name_only && ctx.server->options.auth &&
      ctx.server->users != nullptr) {
    std::optional<UserRecord> me = CurrentUser(ctx);
    my_roles = me.has_value() ? me->roles : std::vector<RoleName>{};
  }
  Value::Array batch;
  for (const std::string& n : names) {
    if (my_roles.has_value() &&
        !RolesGrantAnyActionOnCollection(*my_roles, ctx.db, n)) {
      continue;
    }
    Value options = Value::MakeObject();
    Value id_index;
    if (!name_only) {
      ASSIGN_OR_RETURN(options, db->collection(n).Options());
      // The library's listIndexes gives the _id index first.
      ASSIGN_OR_RETURN(std::vector<Value> indexes,
                       db->collection(n).ListIndexes());
      if (!indexes.empty()) id_index = std::move(indexes.front());
    }
    Value entry =
        name_only
            ? Value::MakeObject({{"name", Value::String(n)},
                                 {"type", Value::String("collection")}})
            : Value::MakeObject(
                  {{"name", Value::String(n)},
                   {"type", Value::String("collection")},
                   {"options", options},
                   {"info",
                    Value::MakeObject({{"readOnly", Value::Bool(false)}})},
                   {"idIndex", std::move(id_index)}});
    if (filter.has_value() && !filter->Matches(entry)) continue;
    batch.push_back(std::move(entry));
  }
  // The views after the collections, as list_collections.cpp lists them:
  // {name, type: "view", options: {viewOn, pipeline}, info: {readOnly:
  // true}} (jstests/core/views/views_creation.js).
  std::vector<ViewDefinition> views;
  if (db != nullptr) {
    ASSIGN_OR_RETURN(views, db->ListViews());
  }
  for (const ViewDefinition& v : views) {
    if (my_roles.has_value() &&
        !RolesGrantAnyActionOnCollection(*my_roles, ctx.db, v.name)) {
      continue;
    }
    Value entry =
        name_only
            ? Value::MakeObject({{"name", Value::String(v.name)},
                                 {"type", Value::String("view")}})
            : Value::MakeObject(
                  {{"name", Value::String(v.name)},
                   {"type", Value::String("view")},
                   {"options",
                    Value::MakeObject({{"viewOn", Value::String(v.view_on)},
                                       {"pipeline", v.pipeline}})},
                   {"info",
                    Value::MakeObject({{"readOnly", Value::Bool(true)}})}});
    if (filter.has_value() && !filter->Matches(entry)) continue;
    batch.push_back(std::move(entry));
  }
  return ArrayCursorReply(ctx, absl::StrCat(ctx.db, ".$cmd.listCollections"),
                          std::move(batch), batch_size);
}

// create with viewOn (create_collection.cpp _createView): the view, or
// OK when the same view exists (create_command.cpp checkCollectionOptions);
// a collection or another view of that name is 48 NamespaceExists.
absl::Status CreateViewCommand(CommandContext& ctx, const std::string& coll,
                               const std::string& view_on,
                               const Value& pipeline) {
  if (coll == "system.views") {
    return MongoError(
        absl::StatusCode::kInvalidArgument, kInvalidNamespace,
        absl::StrCat("Cannot create a view called '", Ns(ctx.db, coll), "'"));
  }
  RETURN_IF_ERROR(ValidateCollectionName(coll));
  if (view_on.empty()) {
    return MongoError(absl::StatusCode::kInvalidArgument, kBadValue,
                      "'viewOn' cannot be empty");
  }
  ASSIGN_OR_RETURN(std::shared_ptr<Database> db, ctx.Db(true));
  ASSIGN_OR_RETURN(std::vector<ViewDefinition> views, db->ListViews());
  for (const ViewDefinition& v : views) {
    if (v.name != coll) continue;
    if (v.view_on == view_on && ValuesEqual(v.pipeline, pipeline)) {
      return absl::OkStatus();
    }
    return MongoError(
        absl::StatusCode::kAlreadyExists, kNamespaceExists,
        absl::StrCat(
            "namespace ", Ns(ctx.db, coll),
            " already exists, but with different "
            "options: ",
            ToJson(Value::MakeObject({{"viewOn", Value::String(v.view_on)},
                                      {"pipeline", v.pipeline}}))));
  }
  absl::Status s = db->CreateView(coll, view_on, pipeline);
  if (ErrorCode(s) == kOptionNotSupportedOnView) {
    // MongoDB wraps the pipeline's refusal (collection_catalog.cpp).
    return MongoError(
        s.code(), ErrorCode(s),
        absl::StrCat("Invalid pipeline for view ", Ns(ctx.db, coll),
                     " :: caused by :: ", s.message()));
  }
  return s;
}

// create: an empty collection (create_collection.cpp). Creating one that
// exists with the same (here: no) options succeeds, as in MongoDB 8.0
// (jstests/core/ddl/create_collection.js). validator, validationLevel and
// validationAction are document validation (ttldb/options.h
// ValidationOptions). Fields create does not know are 40415; options ttldb
// has no counterpart for (capped, timeseries, views, ...) are refused with
// InvalidOptions, not ignored.
absl::StatusOr<Value> Create(CommandContext& ctx) {
  static constexpr absl::string_view kMongoOptions[] = {
      "capped",
      "autoIndexId",
      "idIndex",
      "size",
      "max",
      "storageEngine",
      "indexOptionDefaults",
      "collation",
      "changeStreamPreAndPostImages",
      "timeseries",
      "clusteredIndex",
      "expireAfterSeconds",
      "encryptedFields",
      "recordIdsReplicated",
      "flags",
      "temp"};
  ASSIGN_OR_RETURN(std::string coll, CollectionArg(ctx));
  const auto& fields = ctx.cmd.object_fields();
  ValidationOptions validation;
  bool capped = false;
  const Value* view_on = nullptr;
  const Value* view_pipeline = nullptr;
  std::vector<std::string> other_options;  // with viewOn: refused
  for (size_t i = 1; i < fields.size(); ++i) {
    const Field& f = fields[i];
    if (IsGenericArgument(f.first)) continue;
    // Views (create.idl viewOn: string, pipeline: array).
    if (f.first == "viewOn") {
      if (!f.second.is_string()) {
        return IdlWrongType("create.viewOn", f.second, "string");
      }
      view_on = &f.second;
      continue;
    }
    if (f.first == "pipeline") {
      if (!f.second.is_array()) {
        return IdlWrongType("create.pipeline", f.second, "array");
      }
      view_pipeline = &f.second;
      continue;
    }
    other_options.push_back(f.first);
    // Capped collections (create.idl capped: safeBool, size, max).
    if (f.first == "capped") {
      if (!f.second.is_number() && f.second.type() != ValueType::kBool) {
        return MongoError(
            absl::StatusCode::kInvalidArgument, kTypeMismatch,
            absl::StrCat("BSON field 'create.capped' is the wrong type '",
                         TypeName(f.second.type()),
                         "', expected types '[bool, long, int, decimal, "
                         "double']"));
      }
      capped = TrueValue(f.second);
      continue;
    }
    if (f.first == "size" || f.first == "max") {
      ASSIGN_OR_RETURN(int64_t n, CappedNumberArg(f.second, f.first));
      (f.first == "size" ? validation.capped_size : validation.capped_max) = n;
      continue;
    }
    if (f.first == "validator") {
      if (!f.second.is_object()) {
        return IdlWrongType("create.validator", f.second, "object");
      }
      validation.validator = f.second;
      continue;
    }
    if (f.first == "validationLevel" || f.first == "validationAction") {
      if (!f.second.is_string()) {
        return IdlWrongType(absl::StrCat("create.", f.first), f.second,
                            "string");
      }
      (f.first == "validationLevel" ? validation.validation_level
                                    : validation.validation_action) =
          f.second.string_value();
      continue;
    }
    if (f.first == "changeStreamPreAndPostImages") {
      ASSIGN_OR_RETURN(validation.change_stream_pre_and_post_images,
                       ParsePreAndPostImages(f.second));
      continue;
    }
    if (f.first == "collation") {
      validation.collation = f.second;
      continue;
    }
    bool known = false;
    for (absl::string_view k : kMongoOptions) known = known || f.first == k;
    if (!known) return IdlUnknownField(absl::StrCat("create.", f.first));
    if (f.first == "capped" && !TrueValue(f.second)) continue;
    return MongoError(absl::StatusCode::kInvalidArgument, kInvalidOptions,
                      absl::StrCat("create: option '", f.first,
                                   "' is not supported by ttldb"));
  }
  // create_command.cpp: "'pipeline' requires 'viewOn' to also be
  // specified"; a view takes no collection options (create_collection.cpp
  // _createView: only viewOn, pipeline and collation).
  if (view_pipeline != nullptr && view_on == nullptr) {
    return MongoError(absl::StatusCode::kInvalidArgument, kInvalidOptions,
                      "'pipeline' requires 'viewOn' to also be specified");
  }
  if (view_on != nullptr) {
    for (const std::string& option : other_options) {
      if (option == "collation" || (option == "capped" && !capped)) continue;
      return MongoError(
          absl::StatusCode::kInvalidArgument, kInvalidOptions,
          absl::StrCat("option not supported on a view: ", option));
    }
    RETURN_IF_ERROR(CreateViewCommand(
        ctx, coll, view_on->string_value(),
        view_pipeline != nullptr ? *view_pipeline : Value::MakeArray()));
    return OkReply();
  }
  // create_collection.cpp / create_command: size is required with capped,
  // and size or max need capped.
  if (capped && !validation.capped_size.has_value()) {
    return MongoError(absl::StatusCode::kInvalidArgument, kInvalidOptions,
                      "the 'size' field is required when 'capped' is true");
  }
  if (!capped && (validation.capped_size.has_value() ||
                  validation.capped_max.has_value())) {
    return MongoError(absl::StatusCode::kInvalidArgument, kInvalidOptions,
                      "the 'capped' field needs to be true when either the "
                      "'size' or the 'max' fields are present");
  }
  RETURN_IF_ERROR(ValidateCollectionName(coll));
  if (capped) {
    // Created as given; an existing collection with the same options is
    // fine, any other 48 NamespaceExists.
    ASSIGN_OR_RETURN(std::shared_ptr<Database> db, ctx.Db(true));
    ASSIGN_OR_RETURN(bool exists, Exists(db.get(), coll));
    if (!exists) {
      absl::Status s = db->CreateCollection(coll, validation);
      if (ErrorCode(s) != kNamespaceExists) {
        RETURN_IF_ERROR(s);
        return OkReply();
      }
    }
    ASSIGN_OR_RETURN(Value existing, db->collection(coll).Options());
    const Value* size = existing.Get("size");
    const Value* max = existing.Get("max");
    const int64_t want_max =
        validation.capped_max.has_value()
            ? (*validation.capped_max <= 0 ? 0x7fffffff
                                           : *validation.capped_max)
            : 0;
    if (existing.Get("capped") != nullptr && size != nullptr &&
        size->AsDouble() == static_cast<double>(*validation.capped_size) &&
        (max == nullptr ? 0 : static_cast<int64_t>(max->AsDouble())) ==
            want_max &&
        existing.Get("validator") == nullptr) {
      return OkReply();
    }
    return MongoError(absl::StatusCode::kAlreadyExists, kNamespaceExists,
                      absl::StrCat("namespace ", Ns(ctx.db, coll),
                                   " already exists, but with different "
                                   "options: ",
                                   ToJson(existing)));
  }
  const bool images =
      validation.change_stream_pre_and_post_images.value_or(false);
  const bool validated = !validation.validator.is_null() ||
                         !validation.validation_level.empty() ||
                         !validation.validation_action.empty();
  // collection_options.cpp: no validator in the internal databases.
  if (validated &&
      (ctx.db == "admin" || ctx.db == "local" || ctx.db == "config")) {
    return MongoError(
        absl::StatusCode::kInvalidArgument, kInvalidOptions,
        absl::StrCat("Document validators not allowed on system collection ",
                     Ns(ctx.db, coll)));
  }
  ASSIGN_OR_RETURN(std::shared_ptr<Database> db, ctx.Db(true));
  ASSIGN_OR_RETURN(bool exists, Exists(db.get(), coll));
  if (exists && !validated) {
    ASSIGN_OR_RETURN(Value existing, db->collection(coll).Options());
    if (!images || existing.Get("changeStreamPreAndPostImages") != nullptr) {
      return OkReply();
    }
    return MongoError(absl::StatusCode::kAlreadyExists, kNamespaceExists,
                      absl::StrCat("namespace ", Ns(ctx.db, coll),
                                   " already exists, but with different "
                                   "options: ",
                                   ToJson(existing)));
  }
  if (exists) {
    // The same options again succeed; others are 48 NamespaceExists
    // (create_collection.cpp).
    ASSIGN_OR_RETURN(Value existing, db->collection(coll).Options());
    const Value* v = existing.Get("validator");
    const Value* level = existing.Get("validationLevel");
    const Value* action = existing.Get("validationAction");
    const bool same =
        v != nullptr && ValuesEqual(*v, validation.validator) &&
        level->string_value() == (validation.validation_level.empty()
                                      ? "strict"
                                      : validation.validation_level) &&
        action->string_value() == (validation.validation_action.empty()
                                       ? "error"
                                       : validation.validation_action);
    if (same) return OkReply();
    return MongoError(absl::StatusCode::kAlreadyExists, kNamespaceExists,
                      absl::StrCat("namespace ", Ns(ctx.db, coll),
                                   " already exists, but with different "
                                   "options: ",
                                   ToJson(existing)));
  }
  absl::Status s = db->CreateCollection(coll, validation);
  if (ErrorCode(s) == kNamespaceExists) return OkReply();  // a racing create
  RETURN_IF_ERROR(s);
  return OkReply();
}

// drop: {nIndexesWas, ns, ok: 1}; a collection that does not exist is not
// an error in MongoDB 8.0 ({ok: 1}). Its cursors die with it.
absl::StatusOr<Value> Drop(CommandContext& ctx) {
  ASSIGN_OR_RETURN(std::string coll, CollectionArg(ctx));
  ASSIGN_OR_RETURN(std::shared_ptr<Database> db, ctx.Db(false));
  ASSIGN_OR_RETURN(bool exists, Exists(db.get(), coll));
  if (!exists) {
    // A view (drop_collection.cpp _dropView): its definition goes.
    ASSIGN_OR_RETURN(std::optional<ViewDefinition> view, ViewNamed(db, coll));
    if (!view.has_value()) return OkReply();
    RETURN_IF_ERROR(db->DropCollection(coll).status());
    return OkReply({{"ns", Value::String(Ns(ctx.db, coll))}});
  }
  ASSIGN_OR_RETURN(std::vector<Value> indexes,
                   db->collection(coll).ListIndexes());
  ctx.server->cursors->KillNamespace(Ns(ctx.db, coll));
  RETURN_IF_ERROR(db->DropCollection(coll).status());
  ctx.server->op_stats.ForgetNamespace(Ns(ctx.db, coll));
  return OkReply({{"nIndexesWas", Count(indexes.size())},
                  {"ns", Value::String(Ns(ctx.db, coll))}});
}

// Splits "db.coll" at the first dot.
absl::StatusOr<std::pair<std::string, std::string>> SplitNs(
    absl::string_view field, const Value* v) {
  if (v == nullptr)
    return IdlMissingField(absl::StrCat("renameCollection.", field));
  if (!v->is_string()) {
    return IdlWrongType(absl::StrCat("renameCollection.", field), *v, "string");
  }
  const std::string& ns = v->string_value();
  const size_t dot = ns.find('.');
  if (dot == std::string::npos || dot == 0 || dot + 1 == ns.size()) {
    return MongoError(
        absl::StatusCode::kInvalidArgument, kInvalidNamespace,
        absl::StrCat("Invalid ", field == "to" ? "target" : "source",
                     " namespace: ", ns));
  }
  return std::make_pair(ns.substr(0, dot), ns.substr(dot + 1));
}

// renameCollection (admin): {renameCollection: "db.a", to: "db.b",
// dropTarget}. Within one database only.
absl::StatusOr<Value> RenameCollection(CommandContext& ctx) {
  RETURN_IF_ERROR(
      CheckFields(ctx, {"to", "dropTarget", "stayTemp", "collectionUUID",
                        "expectedSourceUUID", "expectedTargetUUID"}));
  ASSIGN_OR_RETURN(auto from, SplitNs("renameCollection", &ctx.first()));
  ASSIGN_OR_RETURN(auto to, SplitNs("to", Arg(ctx, "to")));
  RETURN_IF_ERROR(ValidateDatabaseName(from.first));
  RETURN_IF_ERROR(ValidateDatabaseName(to.first));
  if (from.first != to.first) {
    return MongoError(absl::StatusCode::kUnimplemented, kIllegalOperation,
                      "ttldb renames collections within one database only");
  }
  const Value* drop_target = Arg(ctx, "dropTarget");
  const bool drop = drop_target != nullptr && TrueValue(*drop_target);
  const std::string from_ns = Ns(from.first, from.second);
  const std::string to_ns = Ns(to.first, to.second);
  if (from_ns == to_ns) {
    return MongoError(absl::StatusCode::kInvalidArgument, kIllegalOperation,
                      "Can't rename a collection to itself");
  }
  ASSIGN_OR_RETURN(std::shared_ptr<Database> db,
                   ctx.server->databases->Get(from.first, false));
  ASSIGN_OR_RETURN(bool source, Exists(db.get(), from.second));
  // rename_collection.cpp: a view is not renamed (166), nor is anything
  // renamed onto one (48).
  ASSIGN_OR_RETURN(std::optional<ViewDefinition> from_view,
                   ViewNamed(db, from.second));
  if (from_view.has_value()) {
    return MongoError(absl::StatusCode::kInvalidArgument,
                      kCommandNotSupportedOnView,
                      absl::StrCat("cannot rename view: ", from_ns));
  }
  ASSIGN_OR_RETURN(std::optional<ViewDefinition> to_view,
                   ViewNamed(db, to.second));
  if (source && to_view.has_value()) {
    return MongoError(
        absl::StatusCode::kAlreadyExists, kNamespaceExists,
        absl::StrCat("a view already exists with that name: ", to_ns));
  }
  if (!source) {
    return NsNotFound(
        absl::StrCat("Source collection ", from_ns, " does not exist"));
  }
  RETURN_IF_ERROR(ValidateCollectionName(to.second));
  ASSIGN_OR_RETURN(bool target, Exists(db.get(), to.second));
  if (target && !drop) {
    return MongoError(absl::StatusCode::kAlreadyExists, kNamespaceExists,
                      "target namespace exists");
  }
  ctx.server->cursors->KillNamespace(from_ns);
  if (target) ctx.server->cursors->KillNamespace(to_ns);
  // One atomic step, the target's drop included.
  RETURN_IF_ERROR(db->RenameCollection(from.second, to.second, drop));
  return OkReply();
}

// collMod: the engine parses {collMod, index: {...}} (TTL and hidden).
absl::StatusOr<Value> CollMod(CommandContext& ctx) {
  ASSIGN_OR_RETURN(std::string coll, CollectionArg(ctx));
  ASSIGN_OR_RETURN(std::shared_ptr<Database> db, ctx.Db(false));
  ASSIGN_OR_RETURN(bool exists, Exists(db.get(), coll));
  const Value* view_on = Arg(ctx, "viewOn");
  const Value* pipeline = Arg(ctx, "pipeline");
  if (!exists) {
    ASSIGN_OR_RETURN(std::optional<ViewDefinition> view, ViewNamed(db, coll));
    if (!view.has_value()) return NsNotFound("ns does not exist");
    // coll_mod.cpp on a view: viewOn and pipeline change it; any other
    // option is 166 CommandNotSupportedOnView.
    for (const Field& f : ctx.cmd.object_fields()) {
      if (&f == &ctx.cmd.object_fields()[0] || IsGenericArgument(f.first) ||
          f.first == "viewOn" || f.first == "pipeline") {
        continue;
      }
      return MongoError(
          absl::StatusCode::kInvalidArgument, kInvalidOptions,
          absl::StrCat("option not supported on a view: ", f.first));
    }
    if (view_on != nullptr && !view_on->is_string()) {
      return IdlWrongType("collMod.viewOn", *view_on, "string");
    }
    if (pipeline != nullptr && !pipeline->is_array()) {
      return IdlWrongType("collMod.pipeline", *pipeline, "array");
    }
    if (view_on != nullptr && view_on->string_value().empty()) {
      return MongoError(absl::StatusCode::kInvalidArgument, kBadValue,
                        "'viewOn' cannot be empty");
    }
    RETURN_IF_ERROR(db->ModifyView(
        coll, view_on != nullptr ? view_on->string_value() : view->view_on,
        pipeline != nullptr ? *pipeline : view->pipeline));
    return OkReply();
  }
  if (view_on != nullptr || pipeline != nullptr) {
    return MongoError(absl::StatusCode::kInvalidArgument, kInvalidOptions,
                      absl::StrCat("option only supported on a view: ",
                                   view_on != nullptr ? "viewOn" : "pipeline"));
  }
  // The engine reads only the fields it knows; generic ones go away.
  Value cmd = Value::MakeObject();
  for (const Field& f : ctx.cmd.object_fields()) {
    if (!IsGenericArgument(f.first)) cmd.mutable_object_fields().push_back(f);
  }
  ASSIGN_OR_RETURN(Value reply, db->collection(coll).CollMod(cmd));
  Value::Object out;
  for (Field& f : reply.mutable_object_fields()) {
    if (f.first != "ok") out.push_back(std::move(f));
  }
  return OkReply(Narrow(Value::MakeObject(std::move(out))).object_fields());
}

// validate: the engine's full check of documents against index entries.
absl::StatusOr<Value> Validate(CommandContext& ctx) {
  ASSIGN_OR_RETURN(std::string coll, CollectionArg(ctx));
  ASSIGN_OR_RETURN(std::shared_ptr<Database> db, ctx.Db(false));
  ASSIGN_OR_RETURN(bool exists, Exists(db.get(), coll));
  const std::string ns = Ns(ctx.db, coll);
  if (!exists) {
    return NsNotFound(
        absl::StrCat("Collection '", ns, "' does not exist to validate."));
  }
  ASSIGN_OR_RETURN(Value report, db->collection(coll).Validate());
  Value::Object out = {{"ns", Value::String(ns)}};
  for (const Field& f : report.object_fields()) {
    if (f.first != "ns" && f.first != "ok") {
      out.emplace_back(f.first, Narrow(f.second));
    }
  }
  if (report.Get("warnings") == nullptr) {
    out.emplace_back("warnings", Value::MakeArray());
  }
  return OkReply(std::move(out));
}

// collStats (src/mongo/db/commands/dbcommands.cpp CmdCollStats): {ns} and
// the engine's storage statistics (Collection::Stats), scaled; a
// collection or database that does not exist gets the zeros, not an error,
// as MongoDB 8.0 swallows NamespaceNotFound there.
absl::StatusOr<Value> CollStats(CommandContext& ctx) {
  RETURN_IF_ERROR(
      CheckFields(ctx, {"scale", "verbose", "waitForLock", "numericOnly"}));
  ASSIGN_OR_RETURN(std::string coll, CollectionArg(ctx));
  ASSIGN_OR_RETURN(std::optional<int64_t> scale_arg, IntArg(ctx, "scale"));
  const int64_t scale = scale_arg.value_or(1);
  if (scale > std::numeric_limits<int32_t>::max()) {
    return MongoError(absl::StatusCode::kInvalidArgument, kBadValue,
                      "BSON field 'collStats.scale' value cannot be "
                      "represented as a 32-bit integer");
  }
  for (const char* flag : {"verbose", "waitForLock", "numericOnly"}) {
    RETURN_IF_ERROR(BoolArg(ctx, flag, false).status());
  }
  ASSIGN_OR_RETURN(std::shared_ptr<Database> db, ctx.Db(false));
  Value stats;
  if (db != nullptr) {
    ASSIGN_OR_RETURN(stats, db->collection(coll).Stats(scale));
  } else {
    // No database: the zeros of a collection that does not exist.
    ASSIGN_OR_RETURN(stats, Collection::MissingStats(scale));
  }
  Value::Object out = {{"ns", Value::String(Ns(ctx.db, coll))}};
  for (Field& f : stats.mutable_object_fields()) out.push_back(std::move(f));
  return OkReply(std::move(out));
}

// A capped copy of `from` named `to` (capped_utils.cpp
// cloneCollectionAsCapped): `to` created capped with `size` bytes, then every
// document of `from` in natural order inserted into it (the capped deletes keep
// the newest that fit). Only the _id index: MongoDB's copy has no other either.
// Not atomic against concurrent writes to `from` (MongoDB holds the database's
// exclusive lock); a failure drops `to`.
absl::Status CloneAsCapped(Database* db, const std::string& from,
                           const std::string& to, int64_t size) {
  ValidationOptions capped;
  capped.capped_size = size;
  RETURN_IF_ERROR(db->CreateCollection(to, capped));
  absl::Status copied = [&]() -> absl::Status {
    ASSIGN_OR_RETURN(std::unique_ptr<Cursor> cursor,
                     db->collection(from).Find(Value::MakeObject()));
    Collection& target = db->collection(to);
    for (;;) {
      ASSIGN_OR_RETURN(std::optional<Value> doc, cursor->Next());
      if (!doc.has_value()) return absl::OkStatus();
      RETURN_IF_ERROR(target.InsertOne(*doc).status());
    }
  }();
  if (!copied.ok()) (void)db->DropCollection(to);
  return copied;
}

absl::StatusOr<int64_t> CappedSizeArg(CommandContext& ctx,
                                      absl::string_view command) {
  const Value* size = Arg(ctx, "size");
  if (size == nullptr) return IdlMissingField(absl::StrCat(command, ".size"));
  return CappedNumberArg(*size, "size", command);
}

// convertToCapped (capped_utils.cpp convertToCapped): the collection
// replaced by a capped copy of itself, {convertToCapped: <coll>, size}; 26
// NamespaceNotFound when it does not exist.
absl::StatusOr<Value> ConvertToCapped(CommandContext& ctx) {
  RETURN_IF_ERROR(CheckFields(ctx, {"size"}));
  ASSIGN_OR_RETURN(std::string coll, CollectionArg(ctx));
  ASSIGN_OR_RETURN(int64_t size, CappedSizeArg(ctx, "convertToCapped"));
  ASSIGN_OR_RETURN(std::shared_ptr<Database> db, ctx.Db(false));
  ASSIGN_OR_RETURN(bool exists, Exists(db.get(), coll));
  if (!exists) {
    return NsNotFound(absl::StrCat("source collection ", Ns(ctx.db, coll),
                                   " does not exist"));
  }
  // capped_utils.cpp's temporary name: tmp<random>.convertToCapped.<coll>.
  const std::string tmp =
      absl::StrCat("tmp", absl::Hex(absl::ToUnixNanos(absl::Now())),
                   ".convertToCapped.", coll);
  RETURN_IF_ERROR(CloneAsCapped(db.get(), coll, tmp, size));
  ctx.server->cursors->KillNamespace(Ns(ctx.db, coll));
  absl::Status renamed = db->RenameCollection(tmp, coll, /*drop_target=*/true);
  if (!renamed.ok()) (void)db->DropCollection(tmp);
  RETURN_IF_ERROR(renamed);
  return OkReply();
}

// cloneCollectionAsCapped {cloneCollectionAsCapped: <from>, toCollection:
// <to>, size}: 26 when <from> does not exist, 48 when <to> does.
absl::StatusOr<Value> CloneCollectionAsCapped(CommandContext& ctx) {
  RETURN_IF_ERROR(CheckFields(ctx, {"toCollection", "size"}));
  ASSIGN_OR_RETURN(std::string from, CollectionArg(ctx));
  const Value* to = Arg(ctx, "toCollection");
  if (to == nullptr) {
    return IdlMissingField("cloneCollectionAsCapped.toCollection");
  }
  if (!to->is_string()) {
    return IdlWrongType("cloneCollectionAsCapped.toCollection", *to, "string");
  }
  RETURN_IF_ERROR(ValidateCollectionName(to->string_value()));
  ASSIGN_OR_RETURN(int64_t size, CappedSizeArg(ctx, "cloneCollectionAsCapped"));
  ASSIGN_OR_RETURN(std::shared_ptr<Database> db, ctx.Db(true));
  ASSIGN_OR_RETURN(bool exists, Exists(db.get(), from));
  if (!exists) {
    return NsNotFound(absl::StrCat("Source collection ", Ns(ctx.db, from),
                                   " does not exist"));
  }
  ASSIGN_OR_RETURN(bool target, Exists(db.get(), to->string_value()));
  if (target) {
    return MongoError(
        absl::StatusCode::kAlreadyExists, kNamespaceExists,
        absl::StrCat("cloneCollectionAsCapped failed - "
                     "destination collection ",
                     Ns(ctx.db, to->string_value()),
                     " already exists. source collection: ", Ns(ctx.db, from)));
  }
  RETURN_IF_ERROR(CloneAsCapped(db.get(), from, to->string_value(), size));
  return OkReply();
}

// dataSize (src/mongo/db/commands/dbcommands_d.cpp CmdDatasize) of a whole
// collection: {estimate: false, size, numObjects, millis: 0}, size and
// numObjects as collStats' size and count. keyPattern, min and max (a
// range of an index) are not supported (72).
absl::StatusOr<Value> DataSize(CommandContext& ctx) {
  RETURN_IF_ERROR(CheckFields(ctx, {"keyPattern", "min", "max", "estimate"}));
  for (const char* range : {"keyPattern", "min", "max"}) {
    if (Arg(ctx, range) != nullptr) {
      return MongoError(
          absl::StatusCode::kInvalidArgument, kInvalidOptions,
          absl::StrCat("dataSize: '", range, "' is not supported by ttldb"));
    }
  }
  const Value& ns = ctx.first();
  if (!ns.is_string()) return IdlWrongType("dataSize.dataSize", ns, "string");
  const std::string& full = ns.string_value();
  const size_t dot = full.find('.');
  if (dot == std::string::npos || full.substr(0, dot) != ctx.db) {
    return MongoError(
        absl::StatusCode::kInvalidArgument, kInvalidNamespace,
        absl::StrCat("dataSize: '", full, "' is not a collection of database ",
                     ctx.db));
  }
  const std::string coll = full.substr(dot + 1);
  ASSIGN_OR_RETURN(std::shared_ptr<Database> db, ctx.Db(false));
  int64_t size = 0, count = 0;
  if (db != nullptr) {
    ASSIGN_OR_RETURN(Value stats, db->collection(coll).Stats(1));
    if (const Value* v = stats.Get("size"); v != nullptr && v->is_number()) {
      size = static_cast<int64_t>(v->AsDouble());
    }
    if (const Value* v = stats.Get("count"); v != nullptr && v->is_number()) {
      count = static_cast<int64_t>(v->AsDouble());
    }
  }
  return OkReply({{"estimate", Value::Bool(false)},
                  {"size", Value::Int64(size)},
                  {"numObjects", Value::Int64(count)},
                  {"millis", Value::Int32(0)}});
}

}  // namespace

void AddCollectionCommands(std::vector<CommandSpec>* specs) {
  specs->push_back({"listCollections", ListCollections});
  specs->push_back({"create", Create, false, /*takes_write_concern=*/true});
  specs->push_back({"drop", Drop, false, true});
  specs->push_back(
      {"renameCollection", RenameCollection, /*admin_only=*/true, true});
  specs->push_back({"collMod", CollMod, false, true});
  specs->push_back({"validate", Validate});
  specs->push_back({"collStats", CollStats});
  specs->push_back({"dataSize", DataSize});
  specs->push_back({"convertToCapped", ConvertToCapped, false, true});
  specs->push_back(
      {"cloneCollectionAsCapped", CloneCollectionAsCapped, false, true});
}

}  // namespace commands
}  // namespace ttldb
