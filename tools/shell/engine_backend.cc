#include "tools/shell/engine_backend.h"

#include <algorithm>
#include <limits>
#include <utility>

#include "absl/strings/str_cat.h"
#include "base/status.h"
#include "tools/shell/interrupt.h"
#include "ttldb/json.h"

namespace ttldb {
namespace {

// A count as mongosh shows it: Int32 when it fits.
Value Count(int64_t n) {
  if (n >= std::numeric_limits<int32_t>::min() &&
      n <= std::numeric_limits<int32_t>::max()) {
    return Value::Int32(static_cast<int32_t>(n));
  }
  return Value::Int64(n);
}

int64_t AsInt(const Value* v) {
  if (v == nullptr || !v->is_number()) return 0;
  if (v->type() == ValueType::kInt32 || v->type() == ValueType::kInt64) {
    return v->int64_value();
  }
  return static_cast<int64_t>(v->AsDouble());
}

// mongosh prints a reply's ok: 1.0 as 1; the shell keeps number types, so
// ok becomes an Int32 for display (top level only).
Value DisplayOk(Value reply) {
  if (reply.is_object()) {
    Value* ok = reply.GetMutable("ok");
    if (ok != nullptr && ok->type() == ValueType::kDouble &&
        ok->double_value() == static_cast<int32_t>(ok->double_value())) {
      *ok = Value::Int32(static_cast<int32_t>(ok->double_value()));
    }
  }
  return reply;
}

// The Status of an error reply {ok: 0, errmsg, code, codeName}.
absl::Status ReplyStatus(const Value& reply) {
  const Value* errmsg = reply.Get("errmsg");
  const int code = static_cast<int>(AsInt(reply.Get("code")));
  return MongoError(absl::StatusCode::kFailedPrecondition, code,
                    errmsg != nullptr && errmsg->is_string()
                        ? errmsg->string_value()
                        : "command failed");
}

bool IsOk(const Value& reply) {
  const Value* ok = reply.Get("ok");
  return ok != nullptr && ok->is_number() && ok->AsDouble() == 1;
}

bool EmptyObject(const Value& v) {
  return v.is_null() || (v.is_object() && v.object_fields().empty());
}

Value Str(absl::string_view s) { return Value::String(std::string(s)); }

// The find command of a FindRequest (mongosh's cursor modifiers): a
// negative limit is limit n in a single batch.
Value FindCommand(absl::string_view coll, const shell::FindRequest& req) {
  Value::Object cmd = {{"find", Str(coll)}, {"filter", req.filter}};
  if (!EmptyObject(req.projection))
    cmd.emplace_back("projection", req.projection);
  if (!EmptyObject(req.sort)) cmd.emplace_back("sort", req.sort);
  if (!req.hint.is_null()) cmd.emplace_back("hint", req.hint);
  if (req.allow_disk_use) cmd.emplace_back("allowDiskUse", Value::Bool(true));
  if (req.skip != 0) cmd.emplace_back("skip", Value::Int64(req.skip));
  if (req.limit != 0) {
    cmd.emplace_back("limit",
                     Value::Int64(req.limit < 0 ? -req.limit : req.limit));
    if (req.limit < 0) cmd.emplace_back("singleBatch", Value::Bool(true));
  }
  return Value::MakeObject(std::move(cmd));
}

// The shell has no server address: replies name "localhost".
commands::RunnerOptions ShellRunner() {
  commands::RunnerOptions o;
  o.host_port = "localhost";
  return o;
}

// aggregate as mongosh sends it: {aggregate, pipeline, cursor: {batchSize}}
// with the options (allowDiskUse, let, hint, comment, maxTimeMS).
Value AggregateCommand(absl::string_view coll, const Value& pipeline,
                       const Value& options, bool explain) {
  Value::Object cmd = {{"aggregate", Str(coll)}, {"pipeline", pipeline}};
  Value::Object cursor;
  if (options.is_object()) {
    for (const Field& f : options.object_fields()) {
      if (f.first == "batchSize") {
        cursor.push_back(f);
      } else if (f.first != "explain" && f.first != "cursor") {
        cmd.push_back(f);
      }
    }
  }
  if (explain) {
    cmd.emplace_back("explain", Value::Bool(true));
  } else {
    cmd.emplace_back("cursor", Value::MakeObject(std::move(cursor)));
  }
  return Value::MakeObject(std::move(cmd));
}

}  // namespace

absl::StatusOr<std::vector<Value>> EngineBackend::Aggregate(
    absl::string_view coll, const Value& pipeline, const Value& options) {
  ASSIGN_OR_RETURN(Value reply,
                   Command(AggregateCommand(coll, pipeline, options, false)));
  return Drain(coll, std::move(reply));
}

absl::StatusOr<Value> EngineBackend::ExplainAggregate(absl::string_view coll,
                                                      const Value& pipeline,
                                                      const Value& options) {
  ASSIGN_OR_RETURN(Value reply,
                   Command(AggregateCommand(coll, pipeline, options, true)));
  return DisplayOk(std::move(reply));
}

EngineBackend::EngineBackend(Database* db)
    : runner_(commands::CommandRunner::ForDatabase(db, "test", ShellRunner())),
      conn_(runner_->NewConnection()) {
  conn_->set_interrupt(&shell::InterruptFlag());  // Ctrl-C
}

EngineBackend::~EngineBackend() {
  conn_.reset();
  runner_->Close().IgnoreError();  // leaves the Database open (not ours)
}

absl::StatusOr<Value> EngineBackend::Command(Value cmd, absl::string_view db) {
  Value reply = runner_->Run(conn_.get(), db.empty() ? database_ : db, cmd);
  if (!IsOk(reply)) return ReplyStatus(reply);
  return reply;
}

absl::StatusOr<Value> EngineBackend::Write(Value cmd) {
  if (sync_writes_) {
    cmd.Set("writeConcern", Value::MakeObject({{"j", Value::Bool(true)}}));
  }
  ASSIGN_OR_RETURN(Value reply, Command(std::move(cmd)));
  const Value* errors = reply.Get("writeErrors");
  if (errors != nullptr && errors->is_array() &&
      !errors->array_items().empty()) {
    last_error_index_ = AsInt(errors->array_items()[0].Get("index"));
    return ReplyStatus(errors->array_items()[0]);
  }
  return reply;
}

absl::StatusOr<std::vector<Value>> EngineBackend::Drain(absl::string_view coll,
                                                        Value reply) {
  std::vector<Value> out;
  bool first = true;
  while (true) {
    const Value* cursor = reply.Get("cursor");
    if (cursor == nullptr || !cursor->is_object()) {
      return absl::InternalError("a cursor reply without a cursor");
    }
    const Value* batch = cursor->Get(first ? "firstBatch" : "nextBatch");
    if (batch != nullptr && batch->is_array()) {
      for (const Value& d : batch->array_items()) out.push_back(d);
    }
    const int64_t id = AsInt(cursor->Get("id"));
    if (id == 0) return out;
    if (shell::InterruptRequested()) {
      (void)Command(Value::MakeObject(
          {{"killCursors", Str(coll)},
           {"cursors", Value::MakeArray({Value::Int64(id)})}}));
      return shell::InterruptedError();
    }
    first = false;
    ASSIGN_OR_RETURN(reply,
                     Command(Value::MakeObject({{"getMore", Value::Int64(id)},
                                                {"collection", Str(coll)}})));
  }
}

absl::StatusOr<Value> EngineBackend::InsertOne(absl::string_view coll,
                                               const Value& doc) {
  ASSIGN_OR_RETURN(Value reply, Insert(coll, {doc}, true, false));
  return Value::MakeObject(
      {{"acknowledged", Value::Bool(true)},
       {"insertedId", *reply.Get("insertedIds")->Get("0")}});
}

absl::StatusOr<Value> EngineBackend::InsertMany(absl::string_view coll,
                                                const std::vector<Value>& docs,
                                                bool ordered) {
  return Insert(coll, docs, ordered, ordered);
}

absl::StatusOr<Value> EngineBackend::Insert(absl::string_view coll,
                                            const std::vector<Value>& docs,
                                            bool ordered, bool say_which) {
  // As mongosh: the client gives each document its _id (an ObjectId,
  // first) so that it can report the ids.
  Value::Array with_ids;
  Value::Object ids;
  for (size_t i = 0; i < docs.size(); ++i) {
    Value d = docs[i];
    if (d.is_object() && d.Get("_id") == nullptr) {
      Value::Object fields = {{"_id", Value::Oid(ObjectId::Generate())}};
      for (Field& f : d.mutable_object_fields()) fields.push_back(std::move(f));
      d = Value::MakeObject(std::move(fields));
    }
    if (d.is_object()) ids.emplace_back(absl::StrCat(i), *d.Get("_id"));
    with_ids.push_back(std::move(d));
  }
  absl::StatusOr<Value> reply = Write(
      Value::MakeObject({{"insert", Str(coll)},
                         {"documents", Value::MakeArray(std::move(with_ids))},
                         {"ordered", Value::Bool(ordered)}}));
  if (!reply.ok()) {
    if (!say_which) return reply.status();
    // An ordered insertMany says which document failed and how many went
    // in before it (all those before it, as the batch is ordered).
    const int64_t index = last_error_index_;
    return MongoError(reply.status().code(), ErrorCode(reply.status()),
                      absl::StrCat(reply.status().message(), " (document ",
                                   index, "; ", index, " inserted before it)"));
  }
  return Value::MakeObject(
      {{"acknowledged", Value::Bool(true)},
       {"insertedIds", Value::MakeObject(std::move(ids))}});
}

absl::StatusOr<std::vector<Value>> EngineBackend::Find(
    absl::string_view coll, const shell::FindRequest& req) {
  ASSIGN_OR_RETURN(Value reply, Command(FindCommand(coll, req)));
  return Drain(coll, std::move(reply));
}

absl::StatusOr<Value> EngineBackend::Update(absl::string_view coll,
                                            const Value& filter,
                                            const Value& update, bool upsert,
                                            bool multi,
                                            const Value& array_filters) {
  Value::Object op = {{"q", filter},
                      {"u", update},
                      {"upsert", Value::Bool(upsert)},
                      {"multi", Value::Bool(multi)}};
  if (!array_filters.is_null()) op.emplace_back("arrayFilters", array_filters);
  ASSIGN_OR_RETURN(
      Value reply,
      Write(Value::MakeObject({{"update", Str(coll)},
                               {"updates", Value::MakeArray({Value::MakeObject(
                                               std::move(op))})}})));
  const Value* upserted = reply.Get("upserted");
  Value upserted_id;
  int64_t n_upserted = 0;
  if (upserted != nullptr && upserted->is_array() &&
      !upserted->array_items().empty()) {
    upserted_id = *upserted->array_items()[0].Get("_id");
    n_upserted = 1;
  }
  return Value::MakeObject({
      {"acknowledged", Value::Bool(true)},
      {"insertedId", upserted_id},
      {"matchedCount", Count(AsInt(reply.Get("n")) - n_upserted)},
      {"modifiedCount", Count(AsInt(reply.Get("nModified")))},
      {"upsertedCount", Count(n_upserted)},
  });
}

absl::StatusOr<Value> EngineBackend::UpdateOne(absl::string_view coll,
                                               const Value& filter,
                                               const Value& update, bool upsert,
                                               const Value& array_filters) {
  return Update(coll, filter, update, upsert, false, array_filters);
}

absl::StatusOr<Value> EngineBackend::UpdateMany(absl::string_view coll,
                                                const Value& filter,
                                                const Value& update,
                                                bool upsert,
                                                const Value& array_filters) {
  return Update(coll, filter, update, upsert, true, array_filters);
}

absl::StatusOr<Value> EngineBackend::ReplaceOne(absl::string_view coll,
                                                const Value& filter,
                                                const Value& replacement,
                                                bool upsert) {
  return Update(coll, filter, replacement, upsert, false, Value());
}

absl::StatusOr<Value> EngineBackend::DeleteOne(absl::string_view coll,
                                               const Value& filter) {
  ASSIGN_OR_RETURN(
      Value reply,
      Write(Value::MakeObject(
          {{"delete", Str(coll)},
           {"deletes", Value::MakeArray({Value::MakeObject(
                           {{"q", filter}, {"limit", Value::Int32(1)}})})}})));
  return Value::MakeObject({{"acknowledged", Value::Bool(true)},
                            {"deletedCount", Count(AsInt(reply.Get("n")))}});
}

absl::StatusOr<Value> EngineBackend::DeleteMany(absl::string_view coll,
                                                const Value& filter) {
  ASSIGN_OR_RETURN(
      Value reply,
      Write(Value::MakeObject(
          {{"delete", Str(coll)},
           {"deletes", Value::MakeArray({Value::MakeObject(
                           {{"q", filter}, {"limit", Value::Int32(0)}})})}})));
  return Value::MakeObject({{"acknowledged", Value::Bool(true)},
                            {"deletedCount", Count(AsInt(reply.Get("n")))}});
}

absl::StatusOr<Value> EngineBackend::FindOneAndModify(
    absl::string_view coll, const shell::FindAndModifyRequest& req) {
  using Kind = shell::FindAndModifyRequest::Kind;
  Value::Object cmd = {{"findAndModify", Str(coll)}, {"query", req.filter}};
  if (!EmptyObject(req.sort)) cmd.emplace_back("sort", req.sort);
  if (!EmptyObject(req.projection)) cmd.emplace_back("fields", req.projection);
  if (req.kind == Kind::kDelete) {
    cmd.emplace_back("remove", Value::Bool(true));
  } else {
    cmd.emplace_back("update", req.update);
    cmd.emplace_back("new", Value::Bool(req.return_new));
    cmd.emplace_back("upsert", Value::Bool(req.upsert));
  }
  if (!req.array_filters.is_null()) {
    cmd.emplace_back("arrayFilters", req.array_filters);
  }
  Value c = Value::MakeObject(std::move(cmd));
  if (sync_writes_) {
    c.Set("writeConcern", Value::MakeObject({{"j", Value::Bool(true)}}));
  }
  ASSIGN_OR_RETURN(Value reply, Command(std::move(c)));
  return *reply.Get("value");
}

// mongosh's bulkWrite, as the driver runs it: each operation is the
// insert/update/delete command it stands for, in order; failures are
// writeErrors with the operation's index (ordered stops at the first).
absl::StatusOr<Value> EngineBackend::BulkWrite(absl::string_view coll,
                                               const Value& operations,
                                               bool ordered) {
  absl::StatusOr<std::vector<WriteModel>> ops =
      Collection::ParseBulkWriteOps(operations);
  if (!ops.ok()) {
    // The driver's own refusals (code 2 here) are not server errors.
    if (ErrorCode(ops.status()) == kBadValue) {
      return absl::InvalidArgumentError(
          absl::StrCat("MongoInvalidArgumentError: ", ops.status().message()));
    }
    return ops.status();
  }
  int64_t inserted_count = 0, matched = 0, modified = 0, deleted = 0,
          upserted_count = 0;
  Value::Object inserted, upserted;
  Value::Array errors;
  for (size_t i = 0; i < ops->size(); ++i) {
    const WriteModel& m = (*ops)[i];
    absl::StatusOr<Value> r;
    switch (m.kind) {
      case WriteModel::Kind::kInsertOne:
        r = InsertOne(coll, m.document);
        if (r.ok()) {
          ++inserted_count;
          inserted.emplace_back(absl::StrCat(i), *r->Get("insertedId"));
        }
        break;
      case WriteModel::Kind::kUpdateOne:
      case WriteModel::Kind::kUpdateMany:
      case WriteModel::Kind::kReplaceOne: {
        Value filters = m.array_filters.empty()
                            ? Value()
                            : Value::MakeArray(m.array_filters);
        r = Update(coll, m.filter, m.update, m.upsert,
                   m.kind == WriteModel::Kind::kUpdateMany, filters);
        if (r.ok()) {
          matched += AsInt(r->Get("matchedCount"));
          modified += AsInt(r->Get("modifiedCount"));
          if (AsInt(r->Get("upsertedCount")) > 0) {
            ++upserted_count;
            upserted.emplace_back(absl::StrCat(i), *r->Get("insertedId"));
          }
        }
        break;
      }
      case WriteModel::Kind::kDeleteOne:
      case WriteModel::Kind::kDeleteMany:
        r = m.kind == WriteModel::Kind::kDeleteOne ? DeleteOne(coll, m.filter)
                                                   : DeleteMany(coll, m.filter);
        if (r.ok()) deleted += AsInt(r->Get("deletedCount"));
        break;
    }
    if (r.ok()) continue;
    // The operation's document, as the driver's WriteError.op shows it.
    const Value& entry = operations.array_items()[i];
    const Value& op = entry.object_fields().front().second;
    const Value* doc = op.Get("document");
    errors.push_back(Value::MakeObject({
        {"index", Count(static_cast<int64_t>(i))},
        {"code", Value::Int32(ErrorCode(r.status()))},
        {"errmsg", Str(r.status().message())},
        {"op", doc != nullptr ? *doc : op},
    }));
    if (ordered) break;
  }
  Value reply = Value::MakeObject({
      {"acknowledged", Value::Bool(true)},
      {"insertedCount", Count(inserted_count)},
      {"insertedIds", Value::MakeObject(std::move(inserted))},
      {"matchedCount", Count(matched)},
      {"modifiedCount", Count(modified)},
      {"deletedCount", Count(deleted)},
      {"upsertedCount", Count(upserted_count)},
      {"upsertedIds", Value::MakeObject(std::move(upserted))},
  });
  if (!errors.empty()) {
    reply.mutable_object_fields().emplace_back(
        "writeErrors", Value::MakeArray(std::move(errors)));
  }
  return reply;
}

absl::StatusOr<Value> EngineBackend::RenameCollection(absl::string_view coll,
                                                      absl::string_view to,
                                                      bool drop_target) {
  return AdminCommand(Value::MakeObject(
      {{"renameCollection", Str(absl::StrCat(database_, ".", coll))},
       {"to", Str(absl::StrCat(database_, ".", to))},
       {"dropTarget", Value::Bool(drop_target)}}));
}

absl::StatusOr<Value> EngineBackend::DbStats(int64_t scale) {
  return RunCommand(Value::MakeObject(
      {{"dbStats", Value::Int32(1)}, {"scale", Value::Int64(scale)}}));
}

// countDocuments counts what a find returns (mongosh runs it as an
// aggregate $match + $group; the count command's empty-query fast count
// is estimatedDocumentCount's).
absl::StatusOr<Value> EngineBackend::CountDocuments(absl::string_view coll,
                                                    const Value& filter,
                                                    int64_t skip,
                                                    int64_t limit) {
  shell::FindRequest req;
  req.filter = filter.is_object() ? filter : Value::MakeObject();
  req.projection = Value::MakeObject({{"_id", Value::Int32(1)}});
  req.skip = skip;
  req.limit = limit < 0 ? -limit : limit;
  ASSIGN_OR_RETURN(std::vector<Value> docs, Find(coll, req));
  return Count(static_cast<int64_t>(docs.size()));
}

absl::StatusOr<Value> EngineBackend::EstimatedDocumentCount(
    absl::string_view coll) {
  ASSIGN_OR_RETURN(Value reply,
                   Command(Value::MakeObject({{"count", Str(coll)}})));
  return Count(AsInt(reply.Get("n")));
}

absl::StatusOr<Value> EngineBackend::Distinct(absl::string_view coll,
                                              absl::string_view key,
                                              const Value& filter) {
  ASSIGN_OR_RETURN(
      Value reply,
      Command(Value::MakeObject(
          {{"distinct", Str(coll)}, {"key", Str(key)}, {"query", filter}})));
  return *reply.Get("values");
}

absl::StatusOr<Value> EngineBackend::CreateIndex(absl::string_view coll,
                                                 const Value& keys,
                                                 const Value& options) {
  Value::Object spec = {{"key", keys}};
  if (options.is_object()) {
    for (const Field& f : options.object_fields()) spec.push_back(f);
  }
  RETURN_IF_ERROR(
      Command(Value::MakeObject(
                  {{"createIndexes", Str(coll)},
                   {"indexes", Value::MakeArray({Value::MakeObject(spec)})}}))
          .status());
  const Value* name = options.is_object() ? options.Get("name") : nullptr;
  if (name != nullptr && name->is_string()) return *name;
  // The name the server gave it: the index with this key pattern.
  ASSIGN_OR_RETURN(Value list, ListIndexes(coll));
  const std::string want = ToJson(keys, JsonFormat::kStorage);
  for (const Value& s : list.array_items()) {
    const Value* key = s.Get("key");
    if (key != nullptr && ToJson(*key, JsonFormat::kStorage) == want) {
      return *s.Get("name");
    }
  }
  // ttldb takes {_id: -1} as the _id index itself (issue 13).
  if (keys.is_object() && keys.object_fields().size() == 1 &&
      keys.object_fields()[0].first == "_id") {
    return Value::String("_id_");
  }
  return absl::InternalError("the index created is not listed");
}

absl::StatusOr<Value> EngineBackend::ListIndexes(absl::string_view coll) {
  ASSIGN_OR_RETURN(Value reply,
                   Command(Value::MakeObject({{"listIndexes", Str(coll)}})));
  ASSIGN_OR_RETURN(std::vector<Value> specs, Drain(coll, std::move(reply)));
  return Value::MakeArray(std::move(specs));
}

absl::StatusOr<Value> EngineBackend::DropIndex(absl::string_view coll,
                                               const Value& name_or_keys) {
  if (!name_or_keys.is_string() && !name_or_keys.is_object()) {
    return MongoError(absl::StatusCode::kInvalidArgument, kTypeMismatch,
                      "dropIndex takes an index name or a key pattern");
  }
  ASSIGN_OR_RETURN(Value reply,
                   Command(Value::MakeObject(
                       {{"dropIndexes", Str(coll)}, {"index", name_or_keys}})));
  return DisplayOk(std::move(reply));
}

absl::StatusOr<Value> EngineBackend::DropCollection(absl::string_view coll) {
  ASSIGN_OR_RETURN(Value reply,
                   Command(Value::MakeObject({{"drop", Str(coll)}})));
  return Value::Bool(reply.Get("ns") != nullptr);  // absent: did not exist
}

absl::StatusOr<Value> EngineBackend::ListCollections() {
  ASSIGN_OR_RETURN(
      Value reply,
      Command(Value::MakeObject({{"listCollections", Value::Int32(1)},
                                 {"nameOnly", Value::Bool(true)}})));
  Value::Array names;
  for (const Value& c : reply.Get("cursor")->Get("firstBatch")->array_items()) {
    names.push_back(*c.Get("name"));
  }
  return Value::MakeArray(std::move(names));
}

absl::StatusOr<Value> EngineBackend::Stats(absl::string_view coll) {
  ASSIGN_OR_RETURN(Value reply,
                   Command(Value::MakeObject({{"collStats", Str(coll)}})));
  return DisplayOk(std::move(reply));
}

absl::StatusOr<Value> EngineBackend::Validate(absl::string_view coll,
                                              const Value& options) {
  Value::Object cmd = {{"validate", Str(coll)}};
  if (options.is_object()) {
    for (const Field& f : options.object_fields()) cmd.push_back(f);
  }
  ASSIGN_OR_RETURN(Value reply, Command(Value::MakeObject(std::move(cmd))));
  return DisplayOk(std::move(reply));
}

absl::StatusOr<Value> EngineBackend::Explain(absl::string_view coll,
                                             const shell::FindRequest& req,
                                             absl::string_view verbosity) {
  ASSIGN_OR_RETURN(
      Value reply,
      Command(Value::MakeObject({{"explain", FindCommand(coll, req)},
                                 {"verbosity", Str(verbosity)}})));
  return DisplayOk(std::move(reply));
}

absl::StatusOr<Value> EngineBackend::RunCommand(const Value& cmd) {
  ASSIGN_OR_RETURN(Value reply, Command(cmd));
  return DisplayOk(std::move(reply));
}

absl::StatusOr<Value> EngineBackend::AdminCommand(const Value& cmd) {
  ASSIGN_OR_RETURN(Value reply, Command(cmd, "admin"));
  return DisplayOk(std::move(reply));
}

absl::StatusOr<Value> EngineBackend::ServerStatus() {
  return AdminCommand(Value::MakeObject({{"serverStatus", Value::Int32(1)}}));
}

absl::Status EngineBackend::UseDatabase(absl::string_view name) {
  // The same check every command makes of its database name.
  Value reply = runner_->Run(conn_.get(), name,
                             Value::MakeObject({{"ping", Value::Int32(1)}}));
  if (!IsOk(reply)) return ReplyStatus(reply);
  database_ = std::string(name);
  return absl::OkStatus();
}

absl::StatusOr<Value> EngineBackend::ListDatabases() {
  ASSIGN_OR_RETURN(
      Value reply,
      AdminCommand(Value::MakeObject({{"listDatabases", Value::Int32(1)}})));
  return *reply.Get("databases");
}

}  // namespace ttldb
