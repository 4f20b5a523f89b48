#include "tools/shell/evaluator.h"

#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "base/status.h"
#include "gtest/gtest.h"
#include "tools/shell/interrupt.h"
#include "ttldb/json.h"

namespace ttldb {
namespace shell {
namespace {

// 2026-11-21T10:00:00Z
constexpr int64_t kNov21 = 1795255200000;

ObjectId CountedId(uint8_t n) {
  ObjectId id;
  id.bytes[0] = 0x65;
  id.bytes[11] = n;
  return id;
}

const Value* Get(const Value& obj, const std::string& name) {
  for (const Field& f : obj.object_fields()) {
    if (f.first == name) return &f.second;
  }
  return nullptr;
}

// An in-memory backend: top-level equality and $gt filters, $set updates,
// a call log. Enough to check the evaluator's dispatch and printing.
class FakeBackend : public ShellBackend {
 public:
  std::map<std::string, std::vector<Value>> colls;
  std::vector<std::string> log;
  FindRequest last_find;
  uint8_t next_id = 1;
  bool sync = false;
  // "<collection> sync=<0|1>" for every document written or deleted.
  std::vector<std::string> writes;
  void SetSyncWrites(bool s) override { sync = s; }

  static bool Matches(const Value& doc, const Value& filter) {
    for (const Field& f : filter.object_fields()) {
      const Value* v = Get(doc, f.first);
      if (f.second.is_object() && Get(f.second, "$gt") != nullptr) {
        if (v == nullptr || !v->is_number() ||
            v->AsDouble() <= Get(f.second, "$gt")->AsDouble()) {
          return false;
        }
      } else if (v == nullptr || ToJson(*v) != ToJson(f.second)) {
        return false;
      }
    }
    return true;
  }
  Value Ack(Value::Object fields) {
    fields.insert(fields.begin(), {"acknowledged", Value::Bool(true)});
    return Value::MakeObject(std::move(fields));
  }

  absl::StatusOr<Value> InsertOne(absl::string_view coll,
                                  const Value& doc) override {
    Value d = doc;
    if (Get(d, "_id") == nullptr) {
      d.mutable_object_fields().insert(
          d.mutable_object_fields().begin(),
          {"_id", Value::Oid(CountedId(next_id++))});
    }
    colls[std::string(coll)].push_back(d);
    writes.push_back(absl::StrCat(coll, " sync=", sync));
    return Ack({{"insertedId", *Get(d, "_id")}});
  }
  absl::StatusOr<Value> InsertMany(absl::string_view coll,
                                   const std::vector<Value>& docs,
                                   bool ordered) override {
    log.push_back(absl::StrCat("InsertMany ordered=", ordered));
    Value ids = Value::MakeObject();
    for (size_t i = 0; i < docs.size(); ++i) {
      Value reply = *InsertOne(coll, docs[i]);
      ids.mutable_object_fields().emplace_back(absl::StrCat(i),
                                               *Get(reply, "insertedId"));
    }
    return Ack({{"insertedIds", ids}});
  }
  absl::StatusOr<std::vector<Value>> Find(absl::string_view coll,
                                          const FindRequest& req) override {
    last_find = req;
    std::vector<Value> out;
    for (const Value& d : colls[std::string(coll)]) {
      if (Matches(d, req.filter)) out.push_back(d);
    }
    if (req.limit > 0 && out.size() > static_cast<size_t>(req.limit)) {
      out.resize(req.limit);
    }
    return out;
  }
  absl::StatusOr<Value> Update(absl::string_view coll, const Value& filter,
                               const Value& update, bool upsert, bool many,
                               const char* name) {
    log.push_back(absl::StrCat(name, " upsert=", upsert));
    int n = 0;
    for (Value& d : colls[std::string(coll)]) {
      if (!Matches(d, filter) || (n > 0 && !many)) continue;
      ++n;
      writes.push_back(absl::StrCat(coll, " sync=", sync));
      if (const Value* set = Get(update, "$set")) {
        for (const Field& f : set->object_fields()) d.Set(f.first, f.second);
      }
    }
    return Ack({{"insertedId", Value::Null()},
                {"matchedCount", Value::Int32(n)},
                {"modifiedCount", Value::Int32(n)},
                {"upsertedCount", Value::Int32(0)}});
  }
  absl::StatusOr<Value> UpdateOne(absl::string_view coll, const Value& filter,
                                  const Value& update, bool upsert,
                                  const Value& array_filters) override {
    if (!array_filters.is_null()) {
      log.push_back(absl::StrCat("arrayFilters=", ToJson(array_filters)));
    }
    return Update(coll, filter, update, upsert, false, "UpdateOne");
  }
  absl::StatusOr<Value> UpdateMany(absl::string_view coll, const Value& filter,
                                   const Value& update, bool upsert,
                                   const Value& array_filters) override {
    if (!array_filters.is_null()) {
      log.push_back(absl::StrCat("arrayFilters=", ToJson(array_filters)));
    }
    return Update(coll, filter, update, upsert, true, "UpdateMany");
  }
  absl::StatusOr<Value> ReplaceOne(absl::string_view coll, const Value& filter,
                                   const Value& update, bool upsert) override {
    return Update(coll, filter, update, upsert, false, "ReplaceOne");
  }
  absl::StatusOr<Value> Delete(absl::string_view coll, const Value& filter,
                               bool many) {
    auto& docs = colls[std::string(coll)];
    int n = 0;
    for (auto it = docs.begin(); it != docs.end();) {
      if (Matches(*it, filter) && (many || n == 0)) {
        writes.push_back(absl::StrCat(coll, " sync=", sync));
        it = docs.erase(it);
        ++n;
      } else {
        ++it;
      }
    }
    return Ack({{"deletedCount", Value::Int32(n)}});
  }
  absl::StatusOr<Value> DeleteOne(absl::string_view coll,
                                  const Value& filter) override {
    return Delete(coll, filter, false);
  }
  absl::StatusOr<Value> DeleteMany(absl::string_view coll,
                                   const Value& filter) override {
    return Delete(coll, filter, true);
  }
  absl::StatusOr<Value> CountDocuments(absl::string_view coll,
                                       const Value& filter, int64_t skip,
                                       int64_t limit) override {
    log.push_back(absl::StrCat("CountDocuments skip=", skip, " limit=", limit));
    FindRequest req;
    req.filter = filter;
    req.limit = limit;
    return Value::Int32(static_cast<int32_t>(Find(coll, req)->size()));
  }
  absl::StatusOr<Value> Distinct(absl::string_view, absl::string_view key,
                                 const Value&) override {
    return Value::MakeArray({Value::String(std::string(key))});
  }
  absl::StatusOr<Value> CreateIndex(absl::string_view coll, const Value& keys,
                                    const Value& options) override {
    if (Get(options, "expireAfterSeconds") != nullptr &&
        Get(options, "expireAfterSeconds")->is_string()) {
      return MongoError(absl::StatusCode::kInvalidArgument, kCannotCreateIndex,
                        "TTL index 'expireAfterSeconds' option must be "
                        "numeric");
    }
    log.push_back(absl::StrCat("CreateIndex ", coll, " ", ToJson(keys), " ",
                               ToJson(options)));
    std::string name;
    for (const Field& f : keys.object_fields()) {
      absl::StrAppend(&name, name.empty() ? "" : "_", f.first, "_",
                      f.second.int32_value());
    }
    return Value::String(name);
  }
  absl::StatusOr<Value> ListIndexes(absl::string_view) override {
    return Value::MakeArray({Value::MakeObject(
        {{"v", Value::Int32(2)},
         {"key", Value::MakeObject({{"_id", Value::Int32(1)}})},
         {"name", Value::String("_id_")}})});
  }
  absl::StatusOr<Value> DropIndex(absl::string_view,
                                  const Value& which) override {
    log.push_back(absl::StrCat("DropIndex ", ToJson(which)));
    return Value::MakeObject(
        {{"nIndexesWas", Value::Int32(2)}, {"ok", Value::Int32(1)}});
  }
  absl::StatusOr<Value> DropCollection(absl::string_view coll) override {
    return Value::Bool(colls.erase(std::string(coll)) > 0);
  }
  absl::StatusOr<Value> ListCollections() override {
    Value::Array names;
    for (const auto& [name, docs] : colls) names.push_back(Value::String(name));
    return Value::MakeArray(std::move(names));
  }
  absl::StatusOr<Value> Stats(absl::string_view coll) override {
    return Value::MakeObject(
        {{"ns", Value::String(absl::StrCat("test.", coll))},
         {"count", Value::Int32(static_cast<int32_t>(
                       colls[std::string(coll)].size()))}});
  }
  absl::StatusOr<Value> Validate(absl::string_view, const Value&) override {
    return Value::MakeObject({{"valid", Value::Bool(true)}});
  }
  absl::StatusOr<Value> Explain(absl::string_view, const FindRequest& req,
                                absl::string_view verbosity) override {
    return Value::MakeObject(
        {{"verbosity", Value::String(std::string(verbosity))},
         {"limit", Value::Int64(req.limit)}});
  }
  absl::StatusOr<Value> RunCommand(const Value& cmd) override {
    log.push_back(absl::StrCat("RunCommand ", ToJson(cmd)));
    return Value::MakeObject({{"ok", Value::Int32(1)}});
  }
  absl::StatusOr<Value> AdminCommand(const Value& cmd) override {
    log.push_back(absl::StrCat("AdminCommand ", ToJson(cmd)));
    return Value::MakeObject(
        {{"was", Value::Int32(60)}, {"ok", Value::Int32(1)}});
  }
  absl::StatusOr<Value> ServerStatus() override {
    return Value::MakeObject({{"ok", Value::Int32(1)}});
  }
};

class EvaluatorTest : public ::testing::Test {
 protected:
  EvaluatorOptions Options(OutputMode mode = OutputMode::kShell) {
    EvaluatorOptions o;
    o.mode = mode;
    o.now_millis = [] { return kNov21; };
    o.time_zone = absl::UTCTimeZone();
    o.sleep = [this](int64_t ms) { slept_ += ms; };
    o.new_object_id = [] { return CountedId(0xee); };
    return o;
  }
  // Runs `script`; returns the output, then "!" and the error if any.
  std::string Run(const std::string& script,
                  OutputMode mode = OutputMode::kShell) {
    std::ostringstream out;
    Evaluator ev(&backend_, &out, Options(mode));
    absl::Status s = ev.Run(script);
    std::string result = out.str();
    if (!s.ok()) absl::StrAppend(&result, "! ", FormatError(s));
    return result;
  }

  FakeBackend backend_;
  int64_t slept_ = 0;
};

TEST_F(EvaluatorTest, TtlTutorialSession) {
  EXPECT_EQ(
      Run(R"(db.eventlog.createIndex( { "lastModifiedDate": 1 }, { expireAfterSeconds: 3600 } )
db.log_events.insertOne( { "expireAt": new Date('July 22, 2013 14:00:00'), "logEvent": 2, "logMessage": "Success!" } )
db.log_events.createIndex( { "expireAt": 1 }, { expireAfterSeconds: 0 } )
db.log_events.find()
db.runCommand({collMod: "eventlog", index: {keyPattern: {lastModifiedDate: 1}, expireAfterSeconds: 7200}})
db.adminCommand({setParameter: 1, ttlMonitorSleepSecs: 1})
show collections
)"),
      "lastModifiedDate_1\n"
      "{\n"
      "  acknowledged: true,\n"
      "  insertedId: ObjectId('650000000000000000000001')\n"
      "}\n"
      "expireAt_1\n"
      "[\n"
      "  {\n"
      "    _id: ObjectId('650000000000000000000001'),\n"
      "    expireAt: ISODate('2013-07-22T14:00:00.000Z'),\n"
      "    logEvent: 2,\n"
      "    logMessage: 'Success!'\n"
      "  }\n"
      "]\n"
      "{ ok: 1 }\n"
      "{ was: 60, ok: 1 }\n"
      "log_events\n");
  EXPECT_EQ(
      absl::StrJoin(backend_.log, "\n"),
      "CreateIndex eventlog {\"lastModifiedDate\":1} "
      "{\"expireAfterSeconds\":3600}\n"
      "CreateIndex log_events {\"expireAt\":1} {\"expireAfterSeconds\":0}\n"
      "RunCommand {\"collMod\":\"eventlog\",\"index\":{\"keyPattern\":{"
      "\"lastModifiedDate\":1},\"expireAfterSeconds\":7200}}\n"
      "AdminCommand {\"setParameter\":1,\"ttlMonitorSleepSecs\":1}");
}

TEST_F(EvaluatorTest, VariablesAndMemberAccess) {
  EXPECT_EQ(Run("var r = db.c.insertOne({a: 1}); r.insertedId\n"
                "r.acknowledged\nr.missing\nlet n = [1, 2, 3]; n.length; n[1]\n"
                "var d = {a: {b: 1}}\nd.a.b = 'x'\nd\nd['a']\n"
                "const k = 1\nk = 2"),
            "ObjectId('650000000000000000000001')\ntrue\n3\n2\nx\n"
            "{ a: { b: 'x' } }\n{ b: 'x' }\n"
            "! TypeError: Assignment to constant variable.");
}

// cursor.hint(index): a name or a key pattern reaches the backend as given
// (MongoDB's cursor.hint; the server resolves it).
TEST_F(EvaluatorTest, HintReachesTheBackend) {
  EXPECT_EQ(Run("db.c.find({a: 1}).hint('a_1').toArray().length"), "0\n");
  EXPECT_EQ(ToJson(backend_.last_find.hint), R"("a_1")");
  EXPECT_EQ(Run("db.c.find().sort({a: 1}).hint({a: 1, b: -1}).itcount()"),
            "0\n");
  EXPECT_EQ(ToJson(backend_.last_find.hint), R"({"a":1,"b":-1})");
  EXPECT_EQ(Run("db.c.find().hint({$natural: 1}).itcount()"), "0\n");
  EXPECT_EQ(ToJson(backend_.last_find.hint), R"({"$natural":1})");
  // cursor.allowDiskUse([allow]) (mongosh's), on to the find command.
  EXPECT_EQ(Run("db.c.find().sort({a: 1}).allowDiskUse().itcount()"), "0\n");
  EXPECT_TRUE(backend_.last_find.allow_disk_use);
  EXPECT_EQ(Run("db.c.find().allowDiskUse(false).itcount()"), "0\n");
  EXPECT_FALSE(backend_.last_find.allow_disk_use);
  EXPECT_EQ(Run("db.c.find().hint(5)"),
            "! MongoServerError[BadValue]: hint must be a string or an object");
}

TEST_F(EvaluatorTest, FindChainReachesTheBackend) {
  EXPECT_EQ(Run("db.eventLog.insertMany([{pageID: 100}, {pageID: 101}, "
                "{pageID: 102}])\n"
                "db.eventLog.find({pageID: {$gt: 100}}, {pageID: 1})"
                ".sort({accessTime: -1}).skip(0).limit(5).pretty()"),
            "{\n"
            "  acknowledged: true,\n"
            "  insertedIds: {\n"
            "    '0': ObjectId('650000000000000000000001'),\n"
            "    '1': ObjectId('650000000000000000000002'),\n"
            "    '2': ObjectId('650000000000000000000003')\n"
            "  }\n"
            "}\n"
            "[\n"
            "  { _id: ObjectId('650000000000000000000002'), pageID: 101 },\n"
            "  { _id: ObjectId('650000000000000000000003'), pageID: 102 }\n"
            "]\n");
  EXPECT_EQ(ToJson(backend_.last_find.filter), R"({"pageID":{"$gt":100}})");
  EXPECT_EQ(ToJson(backend_.last_find.projection), R"({"pageID":1})");
  EXPECT_EQ(ToJson(backend_.last_find.sort), R"({"accessTime":-1})");
  EXPECT_EQ(backend_.last_find.limit, 5);
  EXPECT_EQ(Run("db.eventLog.find().count()\n"
                "db.eventLog.find().limit(2).size()\n"
                "db.eventLog.find().toArray().length\n"
                "db.eventLog.find().itcount()\n"
                "db.eventLog.find({pageID: 101}).limit(1).explain()\n"
                "db.empty.find()\n"
                "db.eventLog.findOne({pageID: 7})"),
            "3\n2\n3\n3\n{ verbosity: 'queryPlanner', limit: Long('1') }\n"
            "null\n");
  EXPECT_EQ(absl::StrJoin(backend_.log, ","),
            "InsertMany ordered=1,CountDocuments skip=0 limit=0,"
            "CountDocuments skip=0 limit=2");
}

// writeConcern on a standalone mongod: j (or fsync) waits for the journal
// (write_concern.cpp waitForWriteConcern), w > 1 and tag modes are BadValue
// (validateWriteConcern()), j with fsync is FailedToParse
// (WriteConcernOptions::parse()); jstests/core/write/write_concern.js (w: 0,
// 1 and "majority" work, w: 2 fails). A refused write writes nothing.
TEST_F(EvaluatorTest, WriteConcernJournalAsksForSyncedWrites) {
  Run("db.c.insertOne({a: 1})\n"
      "db.c.insertOne({a: 2}, {writeConcern: {w: 1, j: true}})\n"
      "db.c.insertMany([{a: 3}, {a: 4}], {writeConcern: {fsync: true}})\n"
      "db.c.updateOne({a: 1}, {$set: {b: 1}}, {writeConcern: {j: true}})\n"
      "db.c.updateMany({}, {$set: {b: 2}}, {writeConcern: {j: false}})\n"
      "db.c.replaceOne({a: 2}, {a: 2}, {writeConcern: {w: 'majority', "
      "j: 1}})\n"
      "db.c.deleteOne({a: 3}, {writeConcern: {j: true, wtimeout: 5}})\n"
      "db.c.deleteMany({a: 4}, {writeConcern: {w: 0}})\n"
      "db.c.insertOne({a: 5})\n");
  EXPECT_EQ(absl::StrJoin(backend_.writes, ","),
            "c sync=0,c sync=1,c sync=1,c sync=1,c sync=1,"
            "c sync=0,c sync=0,c sync=0,c sync=0,"
            "c sync=1,c sync=1,c sync=0,c sync=0");
  EXPECT_FALSE(backend_.sync);
  backend_.writes.clear();
  EXPECT_EQ(Run("db.c.insertOne({a: 6}, {writeConcern: {w: 2}})"),
            "! MongoServerError[BadValue]: cannot use 'w' > 1 when a host is "
            "not replicated");
  EXPECT_EQ(Run("db.c.deleteMany({}, {writeConcern: {w: 'dc1'}})"),
            "! MongoServerError[BadValue]: cannot use non-majority 'w' mode "
            "dc1 when a host is not a member of a replica set");
  EXPECT_EQ(
      Run("db.c.updateOne({}, {$set: {x: 1}}, {writeConcern: {j: true, "
          "fsync: true}})"),
      "! MongoServerError[FailedToParse]: fsync and j options cannot be used "
      "together");
  EXPECT_TRUE(backend_.writes.empty());
}

TEST_F(EvaluatorTest, LegacyWritesPrintMongoshReplies) {
  EXPECT_EQ(Run("db.c.insert({a: 1})\ndb.c.insert({a: 2})\n"
                "db.c.update({a: 1}, {$set: {b: 1}})\n"
                "db.c.update({}, {$set: {b: 2}}, {multi: true, upsert: true})\n"
                "db.c.update({a: 9}, {a: 9, z: 1}, true)\n"
                "db.c.count()\n"
                "db.c.remove({a: 1}, true)\n"
                "db.c.remove({})\n"),
            "DeprecationWarning: Collection.insert() is deprecated. Use "
            "insertOne, insertMany, or bulkWrite.\n"
            "{\n  acknowledged: true,\n  insertedIds: { '0': "
            "ObjectId('650000000000000000000001') }\n}\n"
            "{\n  acknowledged: true,\n  insertedIds: { '0': "
            "ObjectId('650000000000000000000002') }\n}\n"
            "DeprecationWarning: Collection.update() is deprecated. Use "
            "updateOne, updateMany, or bulkWrite.\n"
            "{\n  acknowledged: true,\n  insertedId: null,\n  matchedCount: "
            "1,\n  modifiedCount: 1,\n  upsertedCount: 0\n}\n"
            "{\n  acknowledged: true,\n  insertedId: null,\n  matchedCount: "
            "2,\n  modifiedCount: 2,\n  upsertedCount: 0\n}\n"
            "{\n  acknowledged: true,\n  insertedId: null,\n  matchedCount: "
            "0,\n  modifiedCount: 0,\n  upsertedCount: 0\n}\n"
            "DeprecationWarning: Collection.count() is deprecated. Use "
            "countDocuments or estimatedDocumentCount.\n"
            "2\n"
            "DeprecationWarning: Collection.remove() is deprecated. Use "
            "deleteOne, deleteMany, findOneAndDelete, or bulkWrite.\n"
            "{ acknowledged: true, deletedCount: 1 }\n"
            "{ acknowledged: true, deletedCount: 1 }\n");
  EXPECT_EQ(absl::StrJoin(backend_.log, ","),
            "UpdateOne upsert=0,UpdateMany upsert=1,ReplaceOne upsert=1,"
            "CountDocuments skip=0 limit=0");
}

// mongosh passes the arrayFilters option of updateOne/updateMany/update
// through to the server (update_arrayFilters.js).
TEST_F(EvaluatorTest, ArrayFiltersOptionIsPassedThrough) {
  Run("db.c.updateOne({}, {$set: {'a.$[i]': 1}}, {arrayFilters: [{i: 0}]})\n"
      "db.c.updateMany({}, {$set: {'a.$[i]': 1}}, {arrayFilters: [{i: 0}]})\n"
      "db.c.update({}, {$set: {'a.$[i]': 1}}, {arrayFilters: [{i: 0}], "
      "multi: true})\n"
      "db.c.updateOne({}, {$set: {a: 1}})\n");
  EXPECT_EQ(absl::StrJoin(backend_.log, ","),
            R"(arrayFilters=[{"i":0}],UpdateOne upsert=0,)"
            R"(arrayFilters=[{"i":0}],UpdateMany upsert=0,)"
            R"(arrayFilters=[{"i":0}],UpdateMany upsert=0,UpdateOne upsert=0)");
}

TEST_F(EvaluatorTest, ModernWrites) {
  EXPECT_EQ(Run("db.c.insertOne({a: 1, t: new Date()})\n"
                "db.c.updateOne({a: 1}, {$set: {t: ISODate('2020-01-01')}}, "
                "{upsert: true})\n"
                "db.c.findOne({}, {a: 1})\n"
                "db.c.updateMany({a: 1}, {a: 2})\n"),
            "{\n  acknowledged: true,\n  insertedId: "
            "ObjectId('650000000000000000000001')\n}\n"
            "{\n  acknowledged: true,\n  insertedId: null,\n  matchedCount: "
            "1,\n  modifiedCount: 1,\n  upsertedCount: 0\n}\n"
            "{\n  _id: ObjectId('650000000000000000000001'),\n  a: 1,\n  t: "
            "ISODate('2020-01-01T00:00:00.000Z')\n}\n"
            "! MongoInvalidArgumentError: Update document requires atomic "
            "operators");
  EXPECT_EQ(Run("db.c.replaceOne({a: 1}, {$set: {a: 2}})"),
            "! MongoInvalidArgumentError: Replacement document must not "
            "contain atomic operators");
  EXPECT_EQ(Run("db.c.deleteMany({a: 1})\ndb.c.deleteOne({a: 1})"),
            "{ acknowledged: true, deletedCount: 1 }\n"
            "{ acknowledged: true, deletedCount: 0 }\n");
}

TEST_F(EvaluatorTest, CollectionAndDatabaseHelpers) {
  EXPECT_EQ(Run("db.getCollection('a b').insertOne({})\n"
                "db['x'].insertOne({})\n"
                "db.getCollectionNames()\n"
                "db.x.getIndexes()\n"
                "db.x.dropIndex('a_1')\n"
                "db.x.dropIndex({a: 1})\n"
                "db.x.distinct('k')\n"
                "db.x.stats()\n"
                "db.x.validate()\n"
                "db.x.drop()\n"
                "db.x.drop()\n"
                "db.getName()\n"
                "db.x\n"
                "db.system.indexes.getFullName()\n"
                "db.serverStatus()\n"
                "db.runCommand('ping')\n"
                "db.x.ensureIndex({a: 1})\n"),
            "{\n  acknowledged: true,\n  insertedId: "
            "ObjectId('650000000000000000000001')\n}\n"
            "{\n  acknowledged: true,\n  insertedId: "
            "ObjectId('650000000000000000000002')\n}\n"
            "[ 'a b', 'x' ]\n"
            "[ { v: 2, key: { _id: 1 }, name: '_id_' } ]\n"
            "{ nIndexesWas: 2, ok: 1 }\n{ nIndexesWas: 2, ok: 1 }\n"
            "[ 'k' ]\n{ ns: 'test.x', count: 1 }\n{ valid: true }\n"
            "true\nfalse\ntest\ntest.x\ntest.system.indexes\n{ ok: 1 }\n"
            "{ ok: 1 }\na_1\n");
  EXPECT_EQ(backend_.log[1], "DropIndex {\"a\":1}");
  EXPECT_EQ(backend_.log[2], "RunCommand {\"ping\":1}");
}

TEST_F(EvaluatorTest, GlobalsAndShellCommands) {
  EXPECT_EQ(Run("print('a', 1, {b: 2})\nprintjson({b: [1, 'x']})\n"
                "sleep(250)\nDate.now()\nnew Date()\nDate()\n"
                "ObjectId()\nNumberLong(5)\nnew Date(0).getTime()\n"
                "ISODate('2013-07-22T14:00:00Z').toISOString()\n"
                "ObjectId('65a1b2c3d4e5f60718293a4b').getTimestamp()\n"
                "ObjectId('65a1b2c3d4e5f60718293a4b').str\n"
                "x = -5;\n-x;\n[-Infinity, NaN, -0, 1.0, 2.5]\n"
                "use other\nuse other\nit\nquit()\nprint('not reached')"),
            "a 1 { b: 2 }\n{ b: [ 1, 'x' ] }\n1795255200000\n"
            "ISODate('2026-11-21T10:00:00.000Z')\n"
            "Sat Nov 21 2026 10:00:00 GMT+0000 (UTC)\n"
            "ObjectId('6500000000000000000000ee')\nLong('5')\n0\n"
            "2013-07-22T14:00:00.000Z\nISODate('2024-01-12T21:44:35.000Z')\n"
            "65a1b2c3d4e5f60718293a4b\n-5\n5\n[ -Infinity, NaN, -0, 1, 2.5 ]\n"
            "switched to db other\nalready on db other\nno cursor\n");
  EXPECT_EQ(slept_, 250);
  EXPECT_EQ(Run("show dbs"), "! Error: show dbs is not supported");
  EXPECT_EQ(Run("show users"),
            "! MongoshInvalidInputError: [COMMON-10001] 'users' is not a "
            "valid argument for \"show\".");
  EXPECT_EQ(Run("db.c.find().forEach(printjson)"), "");
}

// ECMA-262 number semantics (13.7, 13.8: ToNumber, ToPrimitive, string
// concatenation), shown as mongosh shows the resulting JavaScript value.
TEST_F(EvaluatorTest, Arithmetic) {
  EXPECT_EQ(Run("10 / 4; 7 % -3; -7 % 3; 1 + 2 * 3; (1 + 2) * 3; 2 - 3 - 4;"
                "0.1 + 0.2; 1 / 0; -1 / 0; 0 / 0; -(0); 2 * -0;"),
            "2.5\n1\n-1\n7\n9\n-5\n0.30000000000000004\nInfinity\n"
            "-Infinity\nNaN\n-0\n-0\n");
  EXPECT_EQ(Run("'a' + 1 + 2; 1 + 2 + 'a'; '6' * '7'; '10' / '4'; +'0x1F';"
                "+' 12 '; +'1e3'; +'abc'; +''; +true; +null; +undefined;"
                "+[]; +[7]; +{}; 'n=' + null; 'u=' + undefined; [1, 2] + '';"
                "'x' + 2.5; 'x' + -0; 'x' + 1e21; true + 1;"),
            "a12\n3a\n42\n2.5\n31\n12\n1000\nNaN\n0\n1\n0\nNaN\n0\n7\n"
            "NaN\nn=null\nu=undefined\n1,2\nx2.5\nx0\nx1e+21\n2\n");
  // Dates: minus gives milliseconds, plus concatenates toString().
  EXPECT_EQ(Run("new Date(Date.now() - 3600 * 1000);"
                "new Date(0) - 0; Date.now() - new Date(0);"
                "new Date(0) + '!';"),
            "ISODate('2026-11-21T09:00:00.000Z')\n0\n1795255200000\n"
            "Thu Jan 01 1970 00:00:00 GMT+0000 (UTC)!\n");
  EXPECT_EQ(Run("var x = 10; x / 2 / 5; x = x * 3; db.c.insertOne({a: x / 4,"
                " b: x - 30, c: 'k' + x}); db.c.findOne({}, {_id: 0})"),
            "1\n30\n{\n  acknowledged: true,\n"
            "  insertedId: ObjectId('650000000000000000000001')\n}\n"
            "{ _id: ObjectId('650000000000000000000001'), a: 7.5, b: 0, c: "
            "'k30' }\n");
  EXPECT_EQ(Run("NumberLong(5) * 2; -NumberLong(5); db + '!'; db.c + '!'"),
            "10\nLong('-5')\ntest!\ntest.c!\n");
}

// ECMA-262 13.10.1 IsLessThan (after ToPrimitive with hint number: two
// strings compare by UTF-16 code units, else both as numbers, NaN false),
// as V8 in mongosh answers each line.
TEST_F(EvaluatorTest, RelationalOperators) {
  EXPECT_EQ(Run("1 < 2; 2 < 1; 1 <= 1; 1 >= 2; 2 > 1; -0 < 0; -0 <= 0"),
            "true\nfalse\ntrue\nfalse\ntrue\nfalse\ntrue\n");
  EXPECT_EQ(Run("'10' < '9'; 10 < 9; '10' < 9; 'a' < 'b'; 'B' < 'a';"
                "'abc' < 'abd'; '' < 'a'; 'ab' > 'a'"),
            "true\nfalse\nfalse\ntrue\ntrue\ntrue\ntrue\ntrue\n");
  // U+1F600 is the surrogate pair D83D DE00, below U+FF5E in UTF-16 order
  // (above it in UTF-8 byte order).
  EXPECT_EQ(Run("'\\u{1F600}' < '\\uFF5E'"), "true\n");
  EXPECT_EQ(Run("NaN < 1; NaN >= 1; undefined < 1; undefined >= 1; null < 1;"
                "null >= 0; 'x' < 1; 'x' >= 1; true > false; [2] > 1;"
                "[1, 2] < 2"),
            "false\nfalse\nfalse\nfalse\ntrue\ntrue\nfalse\nfalse\n"
            "true\ntrue\nfalse\n");
  // Dates compare by their time value; NumberLong by its number.
  EXPECT_EQ(Run("new Date(0) < new Date(1); new Date(5) <= 5;"
                "new Date(Date.now() - 1000) < new Date();"
                "NumberLong(5) < 6; NumberLong(5) > NumberLong(4)"),
            "true\ntrue\ntrue\ntrue\ntrue\n");
}

// ECMA-262 7.2.14 IsLooselyEqual and 7.2.15 IsStrictlyEqual. Objects
// (documents, arrays, Dates, Longs, ObjectIds) are equal only to
// themselves: two values are never the same object.
TEST_F(EvaluatorTest, EqualityOperators) {
  EXPECT_EQ(Run("1 == '1'; 1 === '1'; null == undefined; null === undefined;"
                "null == 0; undefined == 0; 0 == ''; 0 == '0'; '' == '0';"
                "NaN == NaN; NaN != NaN; -0 === 0"),
            "true\nfalse\ntrue\nfalse\nfalse\nfalse\ntrue\ntrue\n"
            "false\nfalse\ntrue\ntrue\n");
  EXPECT_EQ(Run("true == 1; true === 1; '1' == true; 2 == true; 'a' === 'a';"
                "1 != 2; 1 !== 1; 'a' !== 'b'"),
            "true\nfalse\ntrue\nfalse\ntrue\ntrue\nfalse\ntrue\n");
  EXPECT_EQ(Run("[1] == 1; [1, 2] == '1,2'; ({}) == '[object Object]';"
                "[1] === [1]; ({a: 1}) == ({a: 1}); NumberLong(5) == 5;"
                "NumberLong(5) === 5; new Date(0) == 0;"
                "new Date(0) == new Date(0)"),
            "true\ntrue\ntrue\nfalse\nfalse\ntrue\nfalse\nfalse\n"
            "false\n");
  EXPECT_EQ(Run("db == 'test'; db === 'test'; db === db; db.c == 'test.c';"
                "db.c === 'test.c'; db != null"),
            "true\nfalse\ntrue\ntrue\nfalse\ntrue\n");
  EXPECT_EQ(Run("var d = {a: 5, s: 'x'}; d.a === 5 && d.s == 'x'; d.b == null;"
                "d.b === undefined; d.b === null"),
            "true\ntrue\ntrue\nfalse\n");
}

// ECMA-262 13.13 binary logical operators (they return an operand, and
// short-circuit), 13.5.7 logical NOT (ToBoolean: every object is true,
// NumberLong(0) too) and 13.14 the conditional operator.
TEST_F(EvaluatorTest, LogicalAndConditionalOperators) {
  EXPECT_EQ(Run("1 && 2; 0 && 2; 0 || 'x'; '' || null; null || undefined;"
                "'a' && 'b' || 'c'"),
            "2\n0\nx\nnull\nb\n");
  EXPECT_EQ(Run("!0; !!'a'; !''; ![]; !{}; !NumberLong(0); !undefined; !db;"
                "!NaN; !null"),
            "true\ntrue\ntrue\nfalse\nfalse\nfalse\ntrue\nfalse\ntrue\n"
            "true\n");
  EXPECT_EQ(Run("false && db.c.insertOne({a: 1}); 1 || db.c.insertOne({a: 1});"
                "db.c.countDocuments()"),
            "false\n1\n0\n");
  EXPECT_TRUE(backend_.colls["c"].empty());
  EXPECT_EQ(Run("1 < 2 ? 'yes' : 'no'; var x = 5; x > 3 ? x * 2 : -x;"
                "x < 0 ? 'neg' : x == 0 ? 'zero' : 'pos';"
                "x > 9 && print('no') || 'skipped'"),
            "yes\n10\npos\nskipped\n");
  EXPECT_EQ(Run("db.c.insertMany([{_id: 1, a: 1}, {_id: 2, a: 5}]).insertedIds"
                "[1] === 2;"
                "db.c.find().map(d => d.a > 2 ? 'big' : 'small').toArray();"
                "db.c.findOne({_id: 2}).a >= 5 ? 'ok' : 'bad'"),
            "true\n[ 'small', 'big' ]\nok\n");
  // Recursion with a base case now reads as JavaScript.
  EXPECT_EQ(Run("var fact = n => n <= 1 ? 1 : n * fact(n - 1); fact(10)"),
            "3628800\n");
}

// Ctrl-C (the interrupt flag) stops a script inside function calls, not
// only between statements: before, `g(60)` below ran 2^60 calls.
TEST_F(EvaluatorTest, InterruptStopsFunctionCalls) {
  EvaluatorOptions options = Options();
  options.sleep = [](int64_t) { InterruptFlag().store(true); };
  std::ostringstream out;
  Evaluator ev(&backend_, &out, options);
  absl::Status s = ev.Run(
      "var f = n => { sleep(1); return [f(n), f(n)] }\n"
      "f(1)");
  InterruptFlag().store(false);
  EXPECT_EQ(FormatError(s),
            "MongoshInterruptedError: execution was interrupted");
}

// mongosh's assertArgsDefinedType (packages/shell-api/src/collection.ts:
// insertOne asserts [doc], update asserts [filter, update]).
TEST_F(EvaluatorTest, RequiredArgumentsAreChecked) {
  EXPECT_EQ(Run("db.c.insertOne()"),
            "! MongoshInvalidInputError: [COMMON-10001] Missing required "
            "argument at position 0 (Collection.insertOne)");
  EXPECT_EQ(Run("db.c.insertOne(undefined)"),
            "! MongoshInvalidInputError: [COMMON-10001] Missing required "
            "argument at position 0 (Collection.insertOne)");
  EXPECT_EQ(Run("db.c.insertMany()"),
            "! MongoshInvalidInputError: [COMMON-10001] Missing required "
            "argument at position 0 (Collection.insertMany)");
  EXPECT_EQ(Run("db.c.deleteMany()"),
            "! MongoshInvalidInputError: [COMMON-10001] Missing required "
            "argument at position 0 (Collection.deleteMany)");
  EXPECT_EQ(Run("db.c.updateOne()"),
            "! MongoshInvalidInputError: [COMMON-10001] Missing required "
            "argument at position 0 (Collection.updateOne)");
  EXPECT_EQ(Run("db.c.createIndex()"),
            "! MongoshInvalidInputError: [COMMON-10001] Missing required "
            "argument at position 0 (Collection.createIndex)");
  EXPECT_EQ(Run("db.c.update({})"),
            "DeprecationWarning: Collection.update() is deprecated. Use "
            "updateOne, updateMany, or bulkWrite.\n"
            "! MongoshInvalidInputError: [COMMON-10001] Missing required "
            "argument at position 1 (Collection.update)");
  EXPECT_TRUE(backend_.colls["c"].empty());
}

TEST_F(EvaluatorTest, JsonMode) {
  EXPECT_EQ(Run("db.c.insertOne({a: 1, d: new Date(0)})\n"
                "db.c.insertOne({a: 2.5})\n"
                "db.c.find()\ndb.c.createIndex({a: 1})\n"
                "printjson({x: NumberLong(3)})",
                OutputMode::kJson),
            "{\"acknowledged\":true,\"insertedId\":{\"$oid\":"
            "\"650000000000000000000001\"}}\n"
            "{\"acknowledged\":true,\"insertedId\":{\"$oid\":"
            "\"650000000000000000000002\"}}\n"
            "{\"_id\":{\"$oid\":\"650000000000000000000001\"},\"a\":1,\"d\":{"
            "\"$date\":\"1970-01-01T00:00:00.000Z\"}}\n"
            "{\"_id\":{\"$oid\":\"650000000000000000000002\"},\"a\":2.5}\n"
            "\"a_1\"\n"
            "{\"x\":3}\n");
}

TEST_F(EvaluatorTest, ErrorsStopTheScript) {
  EXPECT_EQ(Run("print(1)\ndb.c.foo()\nprint(2)"),
            "1\n! TypeError: db.c.foo is not a function");
  EXPECT_EQ(Run("print(1)\nprint(nope)"),
            "1\n! ReferenceError: nope is not defined");
  EXPECT_EQ(Run("print(1)\nprint(2))"),
            "! SyntaxError: Unexpected token ')' (line 2, column 9)");
  EXPECT_EQ(Run("db.c.createIndex({t: 1}, {expireAfterSeconds: 'x'})"),
            "! MongoServerError[CannotCreateIndex]: TTL index "
            "'expireAfterSeconds' option must be numeric");
  EXPECT_EQ(Run("db.c.insertOne({a: NumberDecimal('1.5.')})"),
            "! BSONError: \"1.5.\" is not a valid Decimal128 string");
  EXPECT_EQ(Run("var u; u.x"),
            "! TypeError: Cannot read properties of undefined (reading 'x')");
  EXPECT_EQ(Run("db.c.insertOne(5)"),
            "! MongoInvalidArgumentError: Argument \"doc\" must be an object");
  EXPECT_EQ(Run("new Foo()"), "! TypeError: Foo is not a constructor");
}

TEST_F(EvaluatorTest, ItPrintsTheNextBatch) {
  std::ostringstream out;
  EvaluatorOptions o = Options();
  o.cursor_batch_size = 2;
  Evaluator ev(&backend_, &out, o);
  ASSERT_TRUE(ev.Run("it\ndb.c.insertMany([{a: 1}, {a: 2}, {a: 3}])").ok());
  out.str("");
  ASSERT_TRUE(ev.Run("db.c.find()").ok());
  ASSERT_TRUE(ev.Run("it").ok());
  ASSERT_TRUE(ev.Run("it").ok());
  EXPECT_EQ(out.str(),
            "[\n"
            "  { _id: ObjectId('650000000000000000000001'), a: 1 },\n"
            "  { _id: ObjectId('650000000000000000000002'), a: 2 }\n"
            "]\n"
            "Type \"it\" for more\n"
            "[ { _id: ObjectId('650000000000000000000003'), a: 3 } ]\n"
            "no cursor\n");
}

TEST_F(EvaluatorTest, ScriptModeDoesNotEchoResults) {
  std::ostringstream out;
  EvaluatorOptions o = Options();
  o.print_results = false;
  Evaluator ev(&backend_, &out, o);
  ASSERT_TRUE(ev.Run("db.c.insertOne({a: 1})\nprint('done')").ok());
  EXPECT_EQ(out.str(), "done\n");
  EXPECT_FALSE(ev.exit_requested());
  ASSERT_TRUE(ev.Run("exit").ok());
  EXPECT_TRUE(ev.exit_requested());
}

TEST_F(EvaluatorTest, ReplFeedsOneEntryAtATime) {
  std::ostringstream out;
  Evaluator ev(&backend_, &out, Options());
  std::string buffer;
  std::vector<std::string> errors;
  for (const char* line : {"db.c.insertOne({", "  a: 1", "})", "db.c",
                           "  .find()", "db.c.find(", ")"}) {
    buffer += line;
    buffer += "\n";
    if (!StatementIsComplete(buffer)) continue;
    absl::Status s = ev.Run(buffer);
    if (!s.ok()) errors.push_back(FormatError(s));
    buffer.clear();
  }
  EXPECT_EQ(absl::StrJoin(errors, ","),
            "SyntaxError: Unexpected token '.' (line 1, column 3)");
  // The REPL runs "db.c" at once, so ".find()" alone is a syntax error in a
  // REPL (as in mongosh); scripts chain it.
  EXPECT_EQ(out.str(),
            "{\n  acknowledged: true,\n  insertedId: "
            "ObjectId('650000000000000000000001')\n}\ntest.c\n"
            "[ { _id: ObjectId('650000000000000000000001'), a: 1 } ]\n");
}

// mongosh prints a find that exceeds the blocking sort's memory limit as
// MongoServerError[QueryExceededMemoryLimitNoDiskUseAllowed] (code 292,
// src/mongo/base/error_codes.yml; message from exec/sort_executor.cpp).
TEST(FormatErrorTest, SortMemoryLimitPrintsAsMongosh) {
  const std::string message =
      "Executor error during find command :: caused by :: Sort exceeded "
      "memory limit of 104857600 bytes, but did not opt in to external "
      "sorting.";
  EXPECT_EQ(
      FormatError(
          MongoError(absl::StatusCode::kResourceExhausted, 292, message)),
      "MongoServerError[QueryExceededMemoryLimitNoDiskUseAllowed]: " + message);
}

}  // namespace
}  // namespace shell
}  // namespace ttldb
