#include "tools/engine_backend.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <utility>

#include "absl/strings/str_cat.h"
#include "base/status.h"
#include "document/json.h"

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

// Empty objects mean "none" in a FindRequest; the engine wants null.
Value NoneIfEmpty(const Value& v) {
  if (v.is_object() && v.object_fields().empty()) return Value::Null();
  return v;
}

FindOptions ToFindOptions(const shell::FindRequest& req) {
  FindOptions o;
  o.projection = NoneIfEmpty(req.projection);
  o.sort = NoneIfEmpty(req.sort);
  o.skip = req.skip;
  o.limit = req.limit < 0 ? -req.limit : req.limit;
  if (req.hint.is_string()) {
    o.hint = req.hint.string_value();
  } else if (!req.hint.is_null()) {
    o.hint_keys = req.hint;
  }
  return o;
}

Value UpdateReply(const UpdateResult& r) {
  return Value::MakeObject({
      {"acknowledged", Value::Bool(true)},
      {"insertedId",
       r.upserted_id.has_value() ? *r.upserted_id : Value::Null()},
      {"matchedCount", Count(r.matched_count)},
      {"modifiedCount", Count(r.modified_count)},
      {"upsertedCount", Count(r.upserted_id.has_value() ? 1 : 0)},
  });
}

Value DeleteReply(int64_t n) {
  return Value::MakeObject(
      {{"acknowledged", Value::Bool(true)}, {"deletedCount", Count(n)}});
}

// Int64 values that fit in an int32 become Int32, recursively: the engine
// reports counters as Int64, MongoDB's replies hold plain ints that mongosh
// prints without Long('...').
Value Narrow(Value v) {
  if (v.type() == ValueType::kInt64) return Count(v.int64_value());
  if (v.is_object()) {
    for (Field& f : v.mutable_object_fields()) f.second = Narrow(f.second);
  } else if (v.is_array()) {
    for (Value& item : v.mutable_array_items()) item = Narrow(item);
  }
  return v;
}

Value Ok() { return Value::MakeObject({{"ok", Value::Int32(1)}}); }

// The collection a command names: {collMod: "c"}'s string value.
absl::StatusOr<std::string> CommandCollection(const Value& cmd,
                                              absl::string_view command) {
  const Value* v = cmd.Get(command);
  if (v == nullptr || !v->is_string() || v->string_value().empty()) {
    return MongoError(
        absl::StatusCode::kInvalidArgument, kInvalidNamespace,
        absl::StrCat("collection name has invalid type ",
                     v == nullptr ? "missing" : TypeName(v->type())));
  }
  return v->string_value();
}

// A whole number of seconds from a shell number (Int32, Int64 or a Double
// without a fraction), as setParameter accepts.
absl::StatusOr<int64_t> WholeNumber(const Value& v, absl::string_view name) {
  if (v.type() == ValueType::kInt32 || v.type() == ValueType::kInt64) {
    return v.int64_value();
  }
  if (v.type() == ValueType::kDouble && std::isfinite(v.double_value()) &&
      std::trunc(v.double_value()) == v.double_value() &&
      std::fabs(v.double_value()) < 9e15) {
    return static_cast<int64_t>(v.double_value());
  }
  return MongoError(absl::StatusCode::kInvalidArgument, kBadValue,
                    absl::StrCat("Invalid value for parameter ", name, ": ",
                                 ToJson(v), " is not a whole number"));
}

}  // namespace

absl::StatusOr<Value> EngineBackend::InsertOne(absl::string_view coll,
                                               const Value& doc) {
  ASSIGN_OR_RETURN(Value id, db_->collection(coll).InsertOne(doc, Write()));
  return Value::MakeObject(
      {{"acknowledged", Value::Bool(true)}, {"insertedId", std::move(id)}});
}

absl::StatusOr<Value> EngineBackend::InsertMany(absl::string_view coll,
                                                const std::vector<Value>& docs,
                                                bool ordered) {
  Collection& c = db_->collection(coll);
  std::vector<Value> ids;
  absl::Status first_error;
  if (ordered) {
    std::vector<DocArg> args(docs.begin(), docs.end());
    first_error = c.InsertMany(args, &ids, Write());
  } else {
    // Unordered: every document is tried; the first failure is reported.
    for (const Value& d : docs) {
      absl::StatusOr<Value> id = c.InsertOne(d, Write());
      if (id.ok()) {
        ids.push_back(*std::move(id));
      } else if (first_error.ok()) {
        first_error = id.status();
      }
    }
  }
  if (!first_error.ok()) return first_error;
  Value::Object inserted;
  for (size_t i = 0; i < ids.size(); ++i) {
    inserted.emplace_back(absl::StrCat(i), std::move(ids[i]));
  }
  return Value::MakeObject(
      {{"acknowledged", Value::Bool(true)},
       {"insertedIds", Value::MakeObject(std::move(inserted))}});
}

absl::StatusOr<std::vector<Value>> EngineBackend::Find(
    absl::string_view coll, const shell::FindRequest& req) {
  ASSIGN_OR_RETURN(std::unique_ptr<Cursor> cursor,
                   db_->collection(coll).Find(req.filter, ToFindOptions(req)));
  return cursor->ToVector();
}

namespace {

// Collection::UpdateOne, UpdateMany and ReplaceOne share one signature.
using UpdateCall = absl::StatusOr<UpdateResult> (Collection::*)(
    const DocArg&, const DocArg&, const UpdateOptions&, const WriteOptions&);

absl::StatusOr<Value> RunUpdate(Collection& c, UpdateCall call,
                                const Value& filter, const Value& doc,
                                bool upsert, const WriteOptions& w,
                                const Value& array_filters = Value()) {
  UpdateOptions o;
  o.upsert = upsert;
  if (!array_filters.is_null()) {
    // The update command's IDL check on the option's type.
    if (!array_filters.is_array()) {
      return MongoError(
          absl::StatusCode::kInvalidArgument, kTypeMismatch,
          absl::StrCat("BSON field 'update.updates.arrayFilters' is the wrong "
                       "type '",
                       TypeName(array_filters.type()),
                       "', expected type 'array'"));
    }
    o.array_filters = array_filters.array_items();
  }
  ASSIGN_OR_RETURN(UpdateResult r, (c.*call)(filter, doc, o, w));
  return UpdateReply(r);
}

}  // namespace

absl::StatusOr<Value> EngineBackend::UpdateOne(absl::string_view coll,
                                               const Value& filter,
                                               const Value& update, bool upsert,
                                               const Value& array_filters) {
  return RunUpdate(db_->collection(coll), &Collection::UpdateOne, filter,
                   update, upsert, Write(), array_filters);
}

absl::StatusOr<Value> EngineBackend::UpdateMany(absl::string_view coll,
                                                const Value& filter,
                                                const Value& update,
                                                bool upsert,
                                                const Value& array_filters) {
  return RunUpdate(db_->collection(coll), &Collection::UpdateMany, filter,
                   update, upsert, Write(), array_filters);
}

absl::StatusOr<Value> EngineBackend::ReplaceOne(absl::string_view coll,
                                                const Value& filter,
                                                const Value& replacement,
                                                bool upsert) {
  return RunUpdate(db_->collection(coll), &Collection::ReplaceOne, filter,
                   replacement, upsert, Write());
}

absl::StatusOr<Value> EngineBackend::DeleteOne(absl::string_view coll,
                                               const Value& filter) {
  ASSIGN_OR_RETURN(int64_t n, db_->collection(coll).DeleteOne(filter, Write()));
  return DeleteReply(n);
}

absl::StatusOr<Value> EngineBackend::DeleteMany(absl::string_view coll,
                                                const Value& filter) {
  ASSIGN_OR_RETURN(int64_t n,
                   db_->collection(coll).DeleteMany(filter, Write()));
  return DeleteReply(n);
}

absl::StatusOr<Value> EngineBackend::CountDocuments(absl::string_view coll,
                                                    const Value& filter,
                                                    int64_t skip,
                                                    int64_t limit) {
  ASSIGN_OR_RETURN(int64_t n, db_->collection(coll).CountDocuments(filter));
  n = skip > 0 ? std::max<int64_t>(0, n - skip) : n;
  if (limit != 0) n = std::min<int64_t>(n, limit < 0 ? -limit : limit);
  return Count(n);
}

absl::StatusOr<Value> EngineBackend::EstimatedDocumentCount(
    absl::string_view coll) {
  ASSIGN_OR_RETURN(int64_t n, db_->collection(coll).EstimatedDocumentCount());
  return Count(n);
}

absl::StatusOr<Value> EngineBackend::Distinct(absl::string_view coll,
                                              absl::string_view key,
                                              const Value& filter) {
  ASSIGN_OR_RETURN(std::vector<Value> values,
                   db_->collection(coll).Distinct(key, filter));
  return Value::MakeArray(std::move(values));
}

absl::StatusOr<Value> EngineBackend::CreateIndex(absl::string_view coll,
                                                 const Value& keys,
                                                 const Value& options) {
  Value opts = options.is_object() ? options : Value::MakeObject();
  ASSIGN_OR_RETURN(std::string name,
                   db_->collection(coll).CreateIndex(keys, opts));
  return Value::String(std::move(name));
}

absl::StatusOr<Value> EngineBackend::ListIndexes(absl::string_view coll) {
  ASSIGN_OR_RETURN(std::vector<Value> specs,
                   db_->collection(coll).ListIndexes());
  return Value::MakeArray(std::move(specs));
}

absl::StatusOr<Value> EngineBackend::DropIndex(absl::string_view coll,
                                               const Value& name_or_keys) {
  Collection& c = db_->collection(coll);
  ASSIGN_OR_RETURN(std::vector<Value> before, c.ListIndexes());
  if (name_or_keys.is_string() && name_or_keys.string_value() == "*") {
    // dropIndex("*"): every index but _id_, as MongoDB's dropIndexes.
    for (const Value& spec : before) {
      const Value* name = spec.Get("name");
      if (name == nullptr || !name->is_string() ||
          name->string_value() == "_id_") {
        continue;
      }
      RETURN_IF_ERROR(c.DropIndex(name->string_value()));
    }
  } else if (name_or_keys.is_string()) {
    RETURN_IF_ERROR(c.DropIndex(name_or_keys.string_value()));
  } else if (name_or_keys.is_object()) {
    RETURN_IF_ERROR(c.DropIndexByKey(name_or_keys));
  } else {
    return MongoError(absl::StatusCode::kInvalidArgument, kTypeMismatch,
                      "dropIndex takes an index name or a key pattern");
  }
  return Value::MakeObject(
      {{"nIndexesWas", Count(before.size())}, {"ok", Value::Int32(1)}});
}

absl::StatusOr<Value> EngineBackend::DropCollection(absl::string_view coll) {
  ASSIGN_OR_RETURN(bool existed, db_->DropCollection(coll));
  return Value::Bool(existed);
}

absl::StatusOr<Value> EngineBackend::ListCollections() {
  ASSIGN_OR_RETURN(std::vector<std::string> names, db_->ListCollectionNames());
  Value::Array out;
  for (std::string& n : names) out.push_back(Value::String(std::move(n)));
  return Value::MakeArray(std::move(out));
}

absl::StatusOr<Value> EngineBackend::Stats(absl::string_view coll) {
  ASSIGN_OR_RETURN(Value stats, db_->collection(coll).Stats());
  if (!stats.is_object()) return stats;
  stats = Narrow(std::move(stats));
  stats.Set("ns", Value::String(absl::StrCat(database_, ".", coll)));
  if (stats.Get("ok") == nullptr) stats.Set("ok", Value::Int32(1));
  return stats;
}

absl::StatusOr<Value> EngineBackend::Validate(absl::string_view coll,
                                              const Value& options) {
  (void)options;  // {full: true} changes nothing: every check is full
  ASSIGN_OR_RETURN(Value report, db_->collection(coll).Validate());
  Value::Object out = {
      {"ns", Value::String(absl::StrCat(database_, ".", coll))}};
  if (report.is_object()) {
    for (const Field& f : report.object_fields()) {
      if (f.first != "ns" && f.first != "ok") {
        out.emplace_back(f.first, Narrow(f.second));
      }
    }
  }
  out.emplace_back("ok", Value::Int32(1));
  return Value::MakeObject(std::move(out));
}

absl::StatusOr<Value> EngineBackend::Explain(absl::string_view coll,
                                             const shell::FindRequest& req,
                                             absl::string_view verbosity) {
  (void)verbosity;  // the engine always reports executionStats
  ASSIGN_OR_RETURN(Value plan, db_->collection(coll).Explain(
                                   req.filter, ToFindOptions(req)));
  return Narrow(std::move(plan));
}

absl::StatusOr<Value> EngineBackend::RunCommand(const Value& cmd) {
  if (!cmd.is_object() || cmd.object_fields().empty()) {
    return MongoError(absl::StatusCode::kInvalidArgument, kBadValue,
                      "a command must be a non-empty document");
  }
  const std::string& name = cmd.object_fields()[0].first;
  if (name == "collMod") {
    ASSIGN_OR_RETURN(std::string coll, CommandCollection(cmd, name));
    ASSIGN_OR_RETURN(Value reply, db_->collection(coll).CollMod(cmd));
    return Narrow(std::move(reply));
  }
  if (name == "create") {
    ASSIGN_OR_RETURN(std::string coll, CommandCollection(cmd, name));
    for (const Field& f : cmd.object_fields()) {
      if (f.first != "create") {
        return MongoError(absl::StatusCode::kInvalidArgument, kInvalidOptions,
                          absl::StrCat("create: option '", f.first,
                                       "' is not supported by ttldb"));
      }
    }
    RETURN_IF_ERROR(db_->CreateCollection(coll));
    return Ok();
  }
  if (name == "drop") {
    ASSIGN_OR_RETURN(std::string coll, CommandCollection(cmd, name));
    ASSIGN_OR_RETURN(bool existed, db_->DropCollection(coll));
    if (!existed) {
      return MongoError(absl::StatusCode::kNotFound, kNamespaceNotFound,
                        "ns not found");
    }
    return Ok();
  }
  if (name == "dropIndexes") {
    ASSIGN_OR_RETURN(std::string coll, CommandCollection(cmd, name));
    const Value* index = cmd.Get("index");
    return DropIndex(coll, index == nullptr ? Value::String("*") : *index);
  }
  if (name == "listCollections") {
    ASSIGN_OR_RETURN(Value names, ListCollections());
    Value::Array batch;
    for (const Value& n : names.array_items()) {
      batch.push_back(Value::MakeObject(
          {{"name", n}, {"type", Value::String("collection")}}));
    }
    return Value::MakeObject(
        {{"cursor", Value::MakeObject(
                        {{"id", Value::Int64(0)},
                         {"ns", Value::String(absl::StrCat(
                                    database_, ".$cmd.listCollections"))},
                         {"firstBatch", Value::MakeArray(std::move(batch))}})},
         {"ok", Value::Int32(1)}});
  }
  if (name == "ping") return Ok();
  if (name == "serverStatus") return ServerStatus();
  if (name == "setParameter" || name == "getParameter") {
    return MongoError(absl::StatusCode::kFailedPrecondition, 13,
                      absl::StrCat(name,
                                   " may only be run against the admin "
                                   "database."));
  }
  return MongoError(absl::StatusCode::kInvalidArgument, kCommandNotFound,
                    absl::StrCat("no such command: '", name, "'"));
}

absl::StatusOr<Value> EngineBackend::AdminCommand(const Value& cmd) {
  if (cmd.is_object() && !cmd.object_fields().empty()) {
    const std::string& name = cmd.object_fields()[0].first;
    if (name == "setParameter") return SetParameter(cmd);
    if (name == "getParameter") return GetParameter(cmd);
  }
  return RunCommand(cmd);
}

// {setParameter: 1, ttlMonitorSleepSecs: N} -> {was: <old>, ok: 1}, as
// MongoDB replies. One parameter per command, as MongoDB requires.
absl::StatusOr<Value> EngineBackend::SetParameter(const Value& cmd) {
  if (cmd.object_fields().size() != 2) {
    return MongoError(absl::StatusCode::kInvalidArgument, kBadValue,
                      cmd.object_fields().size() < 2
                          ? "no option found to set, use help:true to see "
                            "options "
                          : "setParameter takes one parameter at a time");
  }
  const auto& [name, value] = cmd.object_fields()[1];
  if (name == "ttlMonitorSleepSecs") {
    ASSIGN_OR_RETURN(int64_t secs, WholeNumber(value, name));
    if (secs < 1 || secs > std::numeric_limits<int32_t>::max()) {
      return MongoError(
          absl::StatusCode::kInvalidArgument, kBadValue,
          absl::StrCat("Invalid value for parameter ttlMonitorSleepSecs: ",
                       secs, " is not greater than or equal to 1"));
    }
    const int64_t was = absl::ToInt64Seconds(db_->ttl_monitor_sleep());
    RETURN_IF_ERROR(db_->SetTtlMonitorSleep(absl::Seconds(secs)));
    return Value::MakeObject({{"was", Count(was)}, {"ok", Value::Int32(1)}});
  }
  // MongoDB's int parameters with validator gte 0 (src/mongo/db/ttl/ttl.idl).
  if (name == "ttlIndexDeleteTargetDocs" ||
      name == "ttlIndexDeleteTargetTimeMS" ||
      name == "ttlMonitorSubPassTargetSecs") {
    ASSIGN_OR_RETURN(int64_t n, WholeNumber(value, name));
    if (n < 0 || n > std::numeric_limits<int32_t>::max()) {
      return MongoError(absl::StatusCode::kInvalidArgument, kBadValue,
                        absl::StrCat("Invalid value for parameter ", name, ": ",
                                     n, " is not greater than or equal to 0"));
    }
    int64_t was = 0;
    if (name == "ttlIndexDeleteTargetDocs") {
      was = db_->ttl_batch_docs_max();
      RETURN_IF_ERROR(db_->SetTtlBatchDocsMax(n));
    } else if (name == "ttlIndexDeleteTargetTimeMS") {
      was = absl::ToInt64Milliseconds(db_->ttl_batch_time_max());
      RETURN_IF_ERROR(db_->SetTtlBatchTimeMax(absl::Milliseconds(n)));
    } else {
      was = absl::ToInt64Seconds(db_->ttl_sub_pass_target());
      RETURN_IF_ERROR(db_->SetTtlSubPassTarget(absl::Seconds(n)));
    }
    return Value::MakeObject({{"was", Count(was)}, {"ok", Value::Int32(1)}});
  }
  if (name == "ttlMonitorBatchDeletes") {
    if (value.type() != ValueType::kBool) {
      return MongoError(
          absl::StatusCode::kInvalidArgument, kBadValue,
          absl::StrCat("Invalid value for parameter ttlMonitorBatchDeletes: ",
                       ToJson(value), " is not a boolean"));
    }
    const bool was = db_->ttl_batch_deletes();
    RETURN_IF_ERROR(db_->SetTtlBatchDeletes(value.bool_value()));
    return Value::MakeObject(
        {{"was", Value::Bool(was)}, {"ok", Value::Int32(1)}});
  }
  if (name == "ttlMonitorEnabled") {
    if (value.type() != ValueType::kBool) {
      return MongoError(
          absl::StatusCode::kInvalidArgument, kBadValue,
          absl::StrCat("Invalid value for parameter ttlMonitorEnabled: ",
                       ToJson(value), " is not a boolean"));
    }
    const bool was = db_->ttl_monitor_enabled();
    RETURN_IF_ERROR(db_->SetTtlMonitorEnabled(value.bool_value()));
    return Value::MakeObject(
        {{"was", Value::Bool(was)}, {"ok", Value::Int32(1)}});
  }
  return MongoError(absl::StatusCode::kInvalidArgument, kBadValue,
                    absl::StrCat("attempted to set unrecognized parameter [",
                                 name, "], use help:true to see options "));
}

// {getParameter: 1, ttlMonitorSleepSecs: 1} -> {ttlMonitorSleepSecs: 60,
// ok: 1}; getParameter: "*" returns every TTL parameter.
absl::StatusOr<Value> EngineBackend::GetParameter(const Value& cmd) {
  const Value& selector = cmd.object_fields()[0].second;
  const bool all = selector.is_string() && selector.string_value() == "*";
  Value::Object out;
  auto add = [&](absl::string_view name) {
    if (name == "ttlMonitorSleepSecs") {
      out.emplace_back(std::string(name),
                       Count(absl::ToInt64Seconds(db_->ttl_monitor_sleep())));
      return true;
    }
    if (name == "ttlMonitorEnabled") {
      out.emplace_back(std::string(name),
                       Value::Bool(db_->ttl_monitor_enabled()));
      return true;
    }
    if (name == "ttlMonitorBatchDeletes") {
      out.emplace_back(std::string(name),
                       Value::Bool(db_->ttl_batch_deletes()));
      return true;
    }
    if (name == "ttlIndexDeleteTargetDocs") {
      out.emplace_back(std::string(name), Count(db_->ttl_batch_docs_max()));
      return true;
    }
    if (name == "ttlIndexDeleteTargetTimeMS") {
      out.emplace_back(
          std::string(name),
          Count(absl::ToInt64Milliseconds(db_->ttl_batch_time_max())));
      return true;
    }
    if (name == "ttlMonitorSubPassTargetSecs") {
      out.emplace_back(std::string(name),
                       Count(absl::ToInt64Seconds(db_->ttl_sub_pass_target())));
      return true;
    }
    return false;
  };
  if (all) {
    add("ttlIndexDeleteTargetDocs");
    add("ttlIndexDeleteTargetTimeMS");
    add("ttlMonitorBatchDeletes");
    add("ttlMonitorEnabled");
    add("ttlMonitorSleepSecs");
    add("ttlMonitorSubPassTargetSecs");
  } else {
    for (size_t i = 1; i < cmd.object_fields().size(); ++i) {
      const std::string& name = cmd.object_fields()[i].first;
      if (!add(name)) {
        return MongoError(absl::StatusCode::kInvalidArgument, kInvalidOptions,
                          absl::StrCat("no option found to get: ", name));
      }
    }
    if (out.empty()) {
      return MongoError(absl::StatusCode::kInvalidArgument, kInvalidOptions,
                        "no option found to get");
    }
  }
  out.emplace_back("ok", Value::Int32(1));
  return Value::MakeObject(std::move(out));
}

absl::StatusOr<Value> EngineBackend::ServerStatus() {
  return db_->ServerStatus();
}

absl::Status EngineBackend::UseDatabase(absl::string_view name) {
  database_ = std::string(name);
  return absl::OkStatus();
}

absl::StatusOr<Value> EngineBackend::ListDatabases() {
  // One database per directory: it is listed under the current name.
  return Value::MakeArray({Value::MakeObject(
      {{"name", Value::String(database_)}, {"sizeOnDisk", Value::Int32(0)}})});
}

}  // namespace ttldb
