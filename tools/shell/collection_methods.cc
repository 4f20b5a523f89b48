// The methods of db, collections and find cursors: how the shell's calls
// map onto ShellBackend.
#include <cstdlib>

#include "absl/strings/str_cat.h"
#include "base/status.h"
#include "tools/shell/evaluator.h"
#include "tools/shell/evaluator_internal.h"
#include "tools/shell/interrupt.h"

namespace ttldb {
namespace shell {

using internal::Arg;
using internal::BoolOption;
using internal::Collection;
using internal::CommandArg;
using internal::CountValue;
using internal::FieldOf;
using internal::HasOperatorKeys;
using internal::HumanSize;
using internal::IntArg;
using internal::IsNumeric;
using internal::JsNumber;
using internal::NodeText;
using internal::NumberOf;
using internal::ObjectArg;
using internal::RequireArgs;
using internal::SetField;
using internal::Truthy;
using internal::TypeError;
using Kind = ShellValue::Kind;

namespace {

// Where a write method takes its options (with writeConcern), or -1.
int WriteOptionsArg(const std::string& method) {
  if (method == "insertOne" || method == "insertMany" || method == "insert" ||
      method == "deleteOne" || method == "deleteMany" || method == "remove") {
    return 1;
  }
  if (method == "updateOne" || method == "updateMany" ||
      method == "replaceOne" || method == "update" ||
      method == "findOneAndUpdate" || method == "findOneAndReplace") {
    return 2;
  }
  if (method == "findOneAndDelete" || method == "bulkWrite") return 1;
  return -1;
}

// Whether the writeConcern in a write method's options asks for a synced
// write. On a standalone server (write_concern.cpp validateWriteConcern(),
// WriteConcernOptions::parse()): w may be 0, 1 or "majority"; j: true or
// fsync: true wait for the journal; both together are an error; wtimeout
// only matters with w > 1.
absl::StatusOr<bool> WriteConcernSync(const std::string& method,
                                      const std::vector<ShellValue>& args) {
  const int i = WriteOptionsArg(method);
  if (i < 0 || args.size() <= static_cast<size_t>(i) ||
      args[i].kind != Kind::kValue || !args[i].value.is_object()) {
    return false;
  }
  const Value* wc = FieldOf(args[i].value, "writeConcern");
  if (wc == nullptr || !wc->is_object()) return false;
  const Value* w = FieldOf(*wc, "w");
  const Value* j = FieldOf(*wc, "j");
  const Value* fsync = FieldOf(*wc, "fsync");
  const bool want_j = j != nullptr && Truthy(*j);
  const bool want_fsync = fsync != nullptr && Truthy(*fsync);
  if (want_j && want_fsync) {
    return MongoError(absl::StatusCode::kInvalidArgument, kFailedToParse,
                      "fsync and j options cannot be used together");
  }
  if (w != nullptr && w->is_number() && w->AsDouble() > 1) {
    return MongoError(absl::StatusCode::kInvalidArgument, kBadValue,
                      "cannot use 'w' > 1 when a host is not replicated");
  }
  if (w != nullptr && w->is_string() && w->string_value() != "majority") {
    return MongoError(
        absl::StatusCode::kInvalidArgument, kBadValue,
        absl::StrCat("cannot use non-majority 'w' mode ", w->string_value(),
                     " when a host is not a member of a "
                     "replica set"));
  }
  return want_j || want_fsync;
}

// Asks the backend for synced writes for the life of one write method.
class SyncedWrites {
 public:
  SyncedWrites(ShellBackend* backend, bool sync)
      : backend_(backend), sync_(sync) {
    if (sync_) backend_->SetSyncWrites(true);
  }
  ~SyncedWrites() {
    if (sync_) backend_->SetSyncWrites(false);
  }
  SyncedWrites(const SyncedWrites&) = delete;
  SyncedWrites& operator=(const SyncedWrites&) = delete;

 private:
  ShellBackend* const backend_;
  const bool sync_;
};

}  // namespace

absl::StatusOr<ShellValue> Evaluator::CallDbMethod(const std::string& method,
                                                   const Args& args,
                                                   const Node& node) {
  auto wrap = [](absl::StatusOr<Value> v) -> absl::StatusOr<ShellValue> {
    if (!v.ok()) return v.status();
    return ShellValue::Of(*std::move(v));
  };
  if (method == "getCollection" || method == "getSiblingCollection") {
    absl::StatusOr<Value> name = Arg(args, 0, Value::Null(), "name");
    if (!name.ok()) return name.status();
    if (!name->is_string() || name->string_value().empty()) {
      return absl::InvalidArgumentError(
          "MongoInvalidArgumentError: Collection name must be a non-empty "
          "string");
    }
    return Collection(name->string_value());
  }
  if (method == "getCollectionNames") return wrap(backend_->ListCollections());
  if (method == "getName") {
    return ShellValue::Of(Value::String(options_.database));
  }
  if (method == "runCommand" || method == "adminCommand") {
    absl::StatusOr<Value> cmd = CommandArg(args);
    if (!cmd.ok()) return cmd.status();
    return wrap(method == "runCommand" ? backend_->RunCommand(*cmd)
                                       : backend_->AdminCommand(*cmd));
  }
  if (method == "serverStatus") return wrap(backend_->ServerStatus());
  if (method == "stats") return DbStats(args);
  if (method == "createCollection") {
    absl::StatusOr<Value> name = Arg(args, 0, Value::Null(), "name");
    if (!name.ok()) return name.status();
    if (!name->is_string()) {
      return absl::InvalidArgumentError(
          "MongoInvalidArgumentError: Collection name must be a string");
    }
    absl::StatusOr<Value> options = ObjectArg(args, 1, "options");
    if (!options.ok()) return options.status();
    return wrap(backend_->CreateCollection(name->string_value(), *options));
  }
  if (method == "help") {
    *out_ << HelpText();
    return ShellValue::Undefined();
  }
  return TypeError(absl::StrCat(NodeText(*node.target), " is not a function"));
}

absl::StatusOr<ShellValue> Evaluator::CallCollectionMethod(
    const std::string& coll, const std::string& method, const Args& args,
    const Node& node) {
  auto wrap = [](absl::StatusOr<Value> v) -> absl::StatusOr<ShellValue> {
    if (!v.ok()) return v.status();
    return ShellValue::Of(*std::move(v));
  };
  ASSIGN_OR_RETURN(const bool sync, WriteConcernSync(method, args));
  SyncedWrites synced(backend_, sync);
  ASSIGN_OR_RETURN(std::optional<ShellValue> modified,
                   CallModifyMethod(coll, method, args));
  if (modified.has_value()) return *std::move(modified);
  if (method == "find") {
    ShellValue cursor;
    cursor.kind = Kind::kCursor;
    cursor.collection = coll;
    cursor.cursor_state = std::make_shared<CursorState>();
    ASSIGN_OR_RETURN(cursor.find.filter, ObjectArg(args, 0, "filter"));
    ASSIGN_OR_RETURN(cursor.find.projection, ObjectArg(args, 1, "projection"));
    return cursor;
  }
  if (method == "aggregate") {
    // mongosh: aggregate([stages], options) or aggregate(stage, stage, ...).
    ShellValue cursor;
    cursor.kind = Kind::kCursor;
    cursor.collection = coll;
    ASSIGN_OR_RETURN(Value first, Arg(args, 0, Value::MakeArray(), "pipeline"));
    Value options = Value::MakeObject();
    if (first.is_array()) {
      cursor.pipeline = first;
      ASSIGN_OR_RETURN(options, ObjectArg(args, 1, "options"));
    } else {
      Value::Array stages;
      for (const ShellValue& a : args) {
        if (a.kind != Kind::kValue || !a.value.is_object()) {
          return absl::InvalidArgumentError(
              "MongoInvalidArgumentError: Argument \"pipeline\" must be an "
              "array of stages");
        }
        stages.push_back(a.value);
      }
      cursor.pipeline = Value::MakeArray(std::move(stages));
    }
    cursor.aggregate_options = options;
    if (const Value* e = FieldOf(options, "explain"); e && Truthy(*e)) {
      return wrap(backend_->ExplainAggregate(coll, cursor.pipeline, options));
    }
    return cursor;
  }
  if (method == "findOne") {
    ASSIGN_OR_RETURN(Value filter, ObjectArg(args, 0, "filter"));
    ASSIGN_OR_RETURN(Value projection, ObjectArg(args, 1, "projection"));
    return wrap(backend_->FindOne(coll, filter, projection));
  }
  if (method == "insertOne") {
    RETURN_IF_ERROR(RequireArgs(args, 1, "Collection.insertOne"));
    ASSIGN_OR_RETURN(Value doc, ObjectArg(args, 0, "doc"));
    return wrap(backend_->InsertOne(coll, doc));
  }
  if (method == "insertMany" || method == "insert") {
    if (method == "insert") {
      Warn("insert",
           "Collection.insert() is deprecated. Use insertOne, insertMany, "
           "or bulkWrite.");
    }
    RETURN_IF_ERROR(RequireArgs(args, 1, absl::StrCat("Collection.", method)));
    ASSIGN_OR_RETURN(Value docs, Arg(args, 0, Value::Null(), "docs"));
    ASSIGN_OR_RETURN(Value options, ObjectArg(args, 1, "options"));
    const Value* ordered = FieldOf(options, "ordered");
    const bool is_ordered = ordered == nullptr || Truthy(*ordered);
    if (docs.is_array()) {
      for (const Value& d : docs.array_items()) {
        if (!d.is_object()) {
          return absl::InvalidArgumentError(
              "MongoInvalidArgumentError: Argument \"docs\" must be an "
              "array of documents");
        }
      }
      return wrap(backend_->InsertMany(coll, docs.array_items(), is_ordered));
    }
    if (method == "insertMany" || !docs.is_object()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "MongoInvalidArgumentError: Argument \"docs\" must be ",
          method == "insertMany" ? "an array of documents" : "an object"));
    }
    // Legacy insert of one document replies as insertMany does.
    ASSIGN_OR_RETURN(Value reply, backend_->InsertOne(coll, docs));
    const Value* id = FieldOf(reply, "insertedId");
    return ShellValue::Of(Value::MakeObject(
        {{"acknowledged", Value::Bool(true)},
         {"insertedIds",
          Value::MakeObject({{"0", id != nullptr ? *id : Value::Null()}})}}));
  }
  if (method == "updateOne" || method == "updateMany" ||
      method == "replaceOne" || method == "update") {
    if (method == "update") {
      Warn("update",
           "Collection.update() is deprecated. Use updateOne, updateMany, "
           "or bulkWrite.");
    }
    RETURN_IF_ERROR(RequireArgs(args, method == "update" ? 2 : 1,
                                absl::StrCat("Collection.", method)));
    ASSIGN_OR_RETURN(Value filter, ObjectArg(args, 0, "filter"));
    ASSIGN_OR_RETURN(Value update, Arg(args, 1, Value::Null(), "update"));
    bool upsert = false, multi = false;
    Value array_filters;  // null: none
    if (args.size() > 2 && args[2].kind == Kind::kValue &&
        args[2].value.type() == ValueType::kBool) {
      // Legacy update(filter, update, upsert, multi).
      upsert = args[2].value.bool_value();
      if (args.size() > 3 && args[3].kind == Kind::kValue) {
        multi = Truthy(args[3].value);
      }
    } else {
      ASSIGN_OR_RETURN(Value options, ObjectArg(args, 2, "options"));
      upsert = BoolOption(options, "upsert");
      multi = BoolOption(options, "multi");
      if (const Value* af = options.Get("arrayFilters")) array_filters = *af;
    }
    const bool pipeline = update.is_array();
    if (!update.is_object() && !pipeline) {
      return absl::InvalidArgumentError(
          "MongoInvalidArgumentError: Update document must be an object or "
          "a pipeline");
    }
    const bool has_ops = pipeline || HasOperatorKeys(update);
    if (method == "update") {
      if (!has_ops) {
        return wrap(backend_->ReplaceOne(coll, filter, update, upsert));
      }
      return wrap(multi ? backend_->UpdateMany(coll, filter, update, upsert,
                                               array_filters)
                        : backend_->UpdateOne(coll, filter, update, upsert,
                                              array_filters));
    }
    if (method == "replaceOne") {
      if (pipeline || HasOperatorKeys(update)) {
        return absl::InvalidArgumentError(
            "MongoInvalidArgumentError: Replacement document must not "
            "contain atomic operators");
      }
      return wrap(backend_->ReplaceOne(coll, filter, update, upsert));
    }
    if (!has_ops) {
      return absl::InvalidArgumentError(
          "MongoInvalidArgumentError: Update document requires atomic "
          "operators");
    }
    return wrap(
        method == "updateOne"
            ? backend_->UpdateOne(coll, filter, update, upsert, array_filters)
            : backend_->UpdateMany(coll, filter, update, upsert,
                                   array_filters));
  }
  if (method == "deleteOne" || method == "deleteMany") {
    RETURN_IF_ERROR(RequireArgs(args, 1, absl::StrCat("Collection.", method)));
    ASSIGN_OR_RETURN(Value filter, ObjectArg(args, 0, "filter"));
    return wrap(method == "deleteOne" ? backend_->DeleteOne(coll, filter)
                                      : backend_->DeleteMany(coll, filter));
  }
  if (method == "remove") {
    Warn("remove",
         "Collection.remove() is deprecated. Use deleteOne, deleteMany, "
         "findOneAndDelete, or bulkWrite.");
    RETURN_IF_ERROR(RequireArgs(args, 1, "Collection.remove"));
    ASSIGN_OR_RETURN(Value filter, ObjectArg(args, 0, "filter"));
    ASSIGN_OR_RETURN(Value just_one,
                     Arg(args, 1, Value::Bool(false), "justOne"));
    const bool one = just_one.is_object() ? BoolOption(just_one, "justOne")
                                          : Truthy(just_one);
    return wrap(one ? backend_->DeleteOne(coll, filter)
                    : backend_->DeleteMany(coll, filter));
  }
  if (method == "count" || method == "countDocuments") {
    if (method == "count") {
      Warn("count",
           "Collection.count() is deprecated. Use countDocuments or "
           "estimatedDocumentCount.");
    }
    ASSIGN_OR_RETURN(Value filter, ObjectArg(args, 0, "filter"));
    ASSIGN_OR_RETURN(Value options, ObjectArg(args, 1, "options"));
    int64_t skip = 0, limit = 0;
    if (const Value* s = FieldOf(options, "skip")) {
      ASSIGN_OR_RETURN(skip, IntArg({ShellValue::Of(*s)}, 0, "skip"));
    }
    if (const Value* l = FieldOf(options, "limit")) {
      ASSIGN_OR_RETURN(limit, IntArg({ShellValue::Of(*l)}, 0, "limit"));
    }
    return wrap(backend_->CountDocuments(coll, filter, skip, limit));
  }
  if (method == "estimatedDocumentCount") {
    return wrap(backend_->EstimatedDocumentCount(coll));
  }
  if (method == "distinct") {
    ASSIGN_OR_RETURN(Value key, Arg(args, 0, Value::Null(), "key"));
    if (!key.is_string()) {
      return absl::InvalidArgumentError(
          "MongoInvalidArgumentError: Argument \"key\" must be a string");
    }
    ASSIGN_OR_RETURN(Value filter, ObjectArg(args, 1, "filter"));
    return wrap(backend_->Distinct(coll, key.string_value(), filter));
  }
  if (method == "createIndex" || method == "ensureIndex") {
    RETURN_IF_ERROR(RequireArgs(args, 1, absl::StrCat("Collection.", method)));
    ASSIGN_OR_RETURN(Value keys, ObjectArg(args, 0, "keys"));
    ASSIGN_OR_RETURN(Value options, ObjectArg(args, 1, "options"));
    return wrap(backend_->CreateIndex(coll, keys, options));
  }
  if (method == "createIndexes") {
    RETURN_IF_ERROR(RequireArgs(args, 1, "Collection.createIndexes"));
    ASSIGN_OR_RETURN(Value list, Arg(args, 0, Value::Null(), "keyPatterns"));
    if (!list.is_array()) {
      return absl::InvalidArgumentError(
          "MongoInvalidArgumentError: Argument \"keyPatterns\" must be an "
          "array");
    }
    ASSIGN_OR_RETURN(Value options, ObjectArg(args, 1, "options"));
    Value::Array names;
    for (const Value& keys : list.array_items()) {
      ASSIGN_OR_RETURN(Value name, backend_->CreateIndex(coll, keys, options));
      names.push_back(std::move(name));
    }
    return ShellValue::Of(Value::MakeArray(std::move(names)));
  }
  if (method == "getIndexes" || method == "getIndexSpecs" ||
      method == "getIndices") {
    return wrap(backend_->ListIndexes(coll));
  }
  if (method == "dropIndex") {
    ASSIGN_OR_RETURN(Value which, Arg(args, 0, Value::Null(), "index"));
    if (!which.is_string() && !which.is_object()) {
      return absl::InvalidArgumentError(
          "MongoInvalidArgumentError: Argument \"index\" must be a name or "
          "a key pattern");
    }
    return wrap(backend_->DropIndex(coll, which));
  }
  if (method == "dropIndexes") {
    ASSIGN_OR_RETURN(Value indexes, backend_->ListIndexes(coll));
    int64_t was = indexes.is_array() ? indexes.array_items().size() : 0;
    if (indexes.is_array()) {
      for (const Value& spec : indexes.array_items()) {
        const Value* name = FieldOf(spec, "name");
        if (name == nullptr || !name->is_string() ||
            name->string_value() == "_id_") {
          continue;
        }
        RETURN_IF_ERROR(backend_->DropIndex(coll, *name).status());
      }
    }
    return ShellValue::Of(Value::MakeObject(
        {{"nIndexesWas", CountValue(was)},
         {"msg", Value::String("non-_id indexes dropped for collection")},
         {"ok", Value::Int32(1)}}));
  }
  if (method == "drop") return wrap(backend_->DropCollection(coll));
  if (method == "stats") return wrap(backend_->Stats(coll));
  if (method == "validate") {
    ASSIGN_OR_RETURN(Value options, ObjectArg(args, 0, "options"));
    return wrap(backend_->Validate(coll, options));
  }
  if (method == "getName") return ShellValue::Of(Value::String(coll));
  if (method == "getFullName") {
    return ShellValue::Of(
        Value::String(absl::StrCat(options_.database, ".", coll)));
  }
  return TypeError(absl::StrCat(NodeText(*node.target), " is not a function"));
}

absl::StatusOr<std::vector<Value>> Evaluator::RunCursor(
    const ShellValue& cursor) {
  if (cursor.cursor_state != nullptr && cursor.cursor_state->started) {
    CursorState& st = *cursor.cursor_state;
    std::vector<Value> rest(st.docs.begin() + st.pos, st.docs.end());
    st.pos = st.docs.size();
    return rest;
  }
  std::vector<Value> docs;
  if (!cursor.pipeline.is_null()) {
    ASSIGN_OR_RETURN(docs,
                     backend_->Aggregate(cursor.collection, cursor.pipeline,
                                         cursor.aggregate_options));
  } else {
    ASSIGN_OR_RETURN(docs, backend_->Find(cursor.collection, cursor.find));
  }
  if (InterruptRequested()) return InterruptedError();
  for (const auto& transform : cursor.transforms) {
    ShellValue fn;
    fn.kind = Kind::kFunction;
    fn.function = transform;
    for (Value& doc : docs) {
      ASSIGN_OR_RETURN(ShellValue v, CallFunction(fn, {ShellValue::Of(doc)}));
      if (v.kind == Kind::kUndefined) {
        doc = Value::Null();
      } else if (v.kind != Kind::kValue) {
        return TypeError("cursor.map(): the function must return a value");
      } else {
        doc = std::move(v.value);
      }
    }
  }
  return docs;
}

absl::StatusOr<std::vector<Value>> Evaluator::DrainCursor(
    const ShellValue& cursor) {
  ASSIGN_OR_RETURN(std::vector<Value> docs, RunCursor(cursor));
  if (cursor.cursor_state != nullptr && !cursor.cursor_state->started) {
    cursor.cursor_state->started = true;
    cursor.cursor_state->docs.clear();
    cursor.cursor_state->pos = 0;
  }
  return docs;
}

absl::StatusOr<ShellValue> Evaluator::CallCursorMethod(
    const ShellValue& cursor, const std::string& method, const Args& args,
    const Node& node) {
  ShellValue next = cursor;
  const bool started =
      cursor.cursor_state != nullptr && cursor.cursor_state->started;
  if (started &&
      (method == "sort" || method == "limit" || method == "skip" ||
       method == "hint" || method == "allowDiskUse" || method == "map")) {
    // The Node driver's AbstractCursor once iteration has begun.
    return absl::InvalidArgumentError(
        "MongoCursorInUseError: Cursor is already initialized");
  }
  if (method == "next" || method == "hasNext" || method == "tryNext") {
    // mongosh: next() and tryNext() return null once the cursor is
    // exhausted; hasNext() says whether next() has a document.
    std::shared_ptr<CursorState> st = cursor.cursor_state;
    if (st == nullptr) st = std::make_shared<CursorState>();
    if (!st->started) {
      ShellValue fresh = cursor;
      fresh.cursor_state = nullptr;
      ASSIGN_OR_RETURN(st->docs, RunCursor(fresh));
      st->started = true;
      st->pos = 0;
    }
    if (method == "hasNext") {
      return ShellValue::Of(Value::Bool(st->pos < st->docs.size()));
    }
    if (st->pos >= st->docs.size()) return ShellValue::Of(Value::Null());
    return ShellValue::Of(st->docs[st->pos++]);
  }
  if (method == "map") {
    if (args.empty() || args[0].kind != Kind::kFunction ||
        args[0].function == nullptr) {
      return TypeError("cursor.map() takes a function, e.g. d => d.name");
    }
    next.transforms.push_back(args[0].function);
    next.cursor_state = std::make_shared<CursorState>();
    return next;
  }
  if (method == "isExhausted") {
    return ShellValue::Of(
        Value::Bool(started && cursor.cursor_state->pos >=
                                   cursor.cursor_state->docs.size()));
  }
  if (method == "sort") {
    ASSIGN_OR_RETURN(next.find.sort, ObjectArg(args, 0, "sort"));
    return next;
  }
  if (method == "limit") {
    ASSIGN_OR_RETURN(next.find.limit, IntArg(args, 0, "limit"));
    return next;
  }
  if (method == "skip") {
    ASSIGN_OR_RETURN(next.find.skip, IntArg(args, 0, "skip"));
    if (next.find.skip < 0) {
      return absl::InvalidArgumentError(
          "MongoServerError: skip value must be non-negative");
    }
    return next;
  }
  if (method == "hint") {
    // MongoDB's cursor.hint(index): an index name or key pattern; the
    // server checks it when the cursor runs.
    ASSIGN_OR_RETURN(Value hint, Arg(args, 0, Value::Null(), "hint"));
    if (!hint.is_string() && !hint.is_object()) {
      return absl::InvalidArgumentError(
          "MongoServerError[BadValue]: hint must be a string or an object");
    }
    next.find.hint = std::move(hint);
    return next;
  }
  if (method == "allowDiskUse") {
    // mongosh's cursor.allowDiskUse(allow = true).
    next.find.allow_disk_use = true;
    if (!args.empty() && args[0].kind == Kind::kValue) {
      next.find.allow_disk_use = Truthy(args[0].value);
    }
    return next;
  }
  if (method == "pretty" || method == "batchSize" || method == "maxTimeMS" ||
      method == "noCursorTimeout") {
    return next;  // printing is always pretty; the rest do not apply
  }
  if (method == "count" || method == "size") {
    bool apply = method == "size";
    if (!args.empty() && args[0].kind == Kind::kValue) {
      apply = apply || Truthy(args[0].value);
    }
    ASSIGN_OR_RETURN(Value n, backend_->CountDocuments(
                                  cursor.collection, cursor.find.filter,
                                  apply ? cursor.find.skip : 0,
                                  apply ? std::llabs(cursor.find.limit) : 0));
    return ShellValue::Of(std::move(n));
  }
  if (method == "itcount" || method == "toArray") {
    ASSIGN_OR_RETURN(std::vector<Value> docs, DrainCursor(cursor));
    if (method == "itcount") {
      return ShellValue::Of(CountValue(docs.size()));
    }
    return ShellValue::Of(Value::MakeArray(std::move(docs)));
  }
  if (method == "explain") {
    ASSIGN_OR_RETURN(Value verbosity,
                     Arg(args, 0, Value::String("queryPlanner"), "verbosity"));
    std::string v = "queryPlanner";
    if (verbosity.is_string()) {
      v = verbosity.string_value();
    } else if (verbosity.type() == ValueType::kBool) {
      v = verbosity.bool_value() ? "allPlansExecution" : "queryPlanner";
    }
    if (!cursor.pipeline.is_null()) {
      ASSIGN_OR_RETURN(Value plan, backend_->ExplainAggregate(
                                       cursor.collection, cursor.pipeline,
                                       cursor.aggregate_options));
      return ShellValue::Of(std::move(plan));
    }
    ASSIGN_OR_RETURN(Value plan,
                     backend_->Explain(cursor.collection, cursor.find, v));
    return ShellValue::Of(std::move(plan));
  }
  if (method == "forEach") {
    if (args.empty() || args[0].kind != Kind::kFunction) {
      return TypeError(
          "forEach takes a function: print, printjson or one written in "
          "the script (d => print(d.name))");
    }
    ASSIGN_OR_RETURN(std::vector<Value> docs, DrainCursor(cursor));
    for (const Value& d : docs) {
      if (InterruptRequested()) return InterruptedError();
      if (args[0].function == nullptr) {
        // print(doc) and printjson(doc) print a document the same way.
        *out_ << Render(d) << "\n";
        continue;
      }
      ASSIGN_OR_RETURN(ShellValue ignored,
                       CallFunction(args[0], {ShellValue::Of(d)}));
      (void)ignored;
    }
    return ShellValue::Undefined();
  }
  return TypeError(absl::StrCat(NodeText(*node.target), " is not a function"));
}

}  // namespace shell
}  // namespace ttldb
