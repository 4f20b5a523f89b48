// listCollections, create, drop, renameCollection, collMod, validate,
// collStats, createIndexes, listIndexes and dropIndexes.
#include <string>

#include "absl/strings/str_cat.h"
#include "commands/command_test_util.h"
#include "gtest/gtest.h"
#include "ttldb/json.h"

namespace ttldb {
namespace commands {
namespace {

using CollectionTest = CommandTest;

// listCollections (list_collections.cpp, whose reply is
// cursor_response.cpp's appendCursorResponseObject: id, ns, then
// firstBatch): a cursor {id: 0, ns:
// "<db>.$cmd.listCollections", firstBatch: [{name, type, options, info,
// idIndex}]}; nameOnly gives {name, type}; filter matches the entries.
TEST_F(CollectionTest, ListCollections) {
  EXPECT_EQ(RunJson("test", R"({"create": "b"})"), R"({"ok":1.0})");
  Run("test", R"({"insert": "a", "documents": [{}]})");
  EXPECT_EQ(RunJson("test", R"({"listCollections": 1, "nameOnly": true})"),
            R"({"cursor":{"id":{"$numberLong":"0"},)"
            R"("ns":"test.$cmd.listCollections","firstBatch":[)"
            R"({"name":"a","type":"collection"},)"
            R"({"name":"b","type":"collection"}]},"ok":1.0})");
  EXPECT_EQ(RunJson("test", R"({"listCollections": 1,
                     "filter": {"name": "b"}})"),
            R"({"cursor":{"id":{"$numberLong":"0"},)"
            R"("ns":"test.$cmd.listCollections","firstBatch":[)"
            R"({"name":"b","type":"collection","options":{},)"
            R"("info":{"readOnly":false},"idIndex":{"v":2,"key":{"_id":1},)"
            R"("name":"_id_"}}]},"ok":1.0})");
}

// cursor.batchSize bounds the first batch of listCollections and
// listIndexes, and getMore of "$cmd.listCollections" / the collection
// reads the rest, as MongoDB's cursors do
// (jstests/core/administrative/profile/profile_list_collections.js and
// profile_list_indexes.js send {cursor: {batchSize: 1}} and a getMore).
TEST_F(CollectionTest, ListingsHonourBatchSize) {
  for (const char* c : {"a", "b", "c"}) {
    Run("test", absl::StrCat(R"({"insert": ")", c, R"(", "documents": [{}]})"));
  }
  Run("test",
      R"({"createIndexes": "a", "indexes": [{"key": {"x": 1}, "name": "x_1"},
                 {"key": {"y": 1}, "name": "y_1"}]})");
  auto names = [](const Value& reply, const char* batch) {
    std::string out;
    for (const Value& d : reply.Get("cursor")->Get(batch)->array_items()) {
      absl::StrAppend(&out, out.empty() ? "" : ",",
                      d.Get("name")->string_value());
    }
    return out;
  };
  Value first = Run("test", R"({"listCollections": 1, "nameOnly": true,
                                "cursor": {"batchSize": 1}})");
  EXPECT_EQ(names(first, "firstBatch"), "a") << ToJson(first);
  const std::string id =
      ToJson(*first.Get("cursor")->Get("id"), JsonFormat::kStorage);
  ASSERT_NE(id, R"({"$numberLong":"0"})");
  Value rest =
      Run("test", absl::StrCat(R"({"getMore": )", id,
                               R"(, "collection": "$cmd.listCollections"})"));
  EXPECT_EQ(names(rest, "nextBatch"), "b,c") << ToJson(rest);
  EXPECT_EQ(ToJson(*rest.Get("cursor")->Get("id")), "0");
  Value idx =
      Run("test", R"({"listIndexes": "a", "cursor": {"batchSize": 2}})");
  EXPECT_EQ(names(idx, "firstBatch"), "_id_,x_1") << ToJson(idx);
  const std::string idx_id =
      ToJson(*idx.Get("cursor")->Get("id"), JsonFormat::kStorage);
  Value more = Run("test", absl::StrCat(R"({"getMore": )", idx_id,
                                        R"(, "collection": "a"})"));
  EXPECT_EQ(names(more, "nextBatch"), "y_1") << ToJson(more);
  // batchSize 0: an open cursor and no entries yet; a wrong type: 14.
  Value none =
      Run("test", R"({"listIndexes": "a", "cursor": {"batchSize": 0}})");
  EXPECT_EQ(names(none, "firstBatch"), "");
  EXPECT_EQ(RunJson("test",
                    R"({"listCollections": 1, "cursor": {"batchSize": "x"}})"),
            R"({"ok":0.0,"errmsg":"BSON field 'listCollections.cursor.)"
            R"(batchSize' is the wrong type 'string', expected types )"
            R"('[long, int, decimal, double]'","code":14,)"
            R"("codeName":"TypeMismatch"})");
}

// Document validation through the commands (collection_impl.cpp,
// write_ops_exec.cpp): create with a validator; an insert that fails it is
// a write error {index, code: 121, errInfo, errmsg} (WriteError::serialize:
// the status' extra info between code and errmsg), whose errInfo is
// jstests/core/doc_validation/doc_validation_options.js's; listCollections
// shows the options; collMod changes them; bypassDocumentValidation skips
// the check.
TEST_F(CollectionTest, DocumentValidation) {
  EXPECT_EQ(RunJson("test", R"({"create": "v", "validator": {"a": 1}})"),
            R"({"ok":1.0})");
  EXPECT_EQ(RunJson("test", R"({"insert": "v", "documents": [{"_id": 1,
                                "a": 2}]})"),
            R"({"n":0,"writeErrors":[{"index":0,"code":121,)"
            R"("errInfo":{"failingDocumentId":1,"details":{)"
            R"("operatorName":"$eq","specifiedAs":{"a":1},)"
            R"("reason":"comparison failed","consideredValue":2}},)"
            R"("errmsg":"Document failed validation"}],"ok":1.0})");
  EXPECT_EQ(RunJson("test", R"({"insert": "v", "documents": [{"_id": 1,
                                "a": 2}], "bypassDocumentValidation": true})"),
            R"({"n":1,"ok":1.0})");
  EXPECT_EQ(RunJson("test", R"({"listCollections": 1,
                                "filter": {"name": "v"}})"),
            R"({"cursor":{"id":{"$numberLong":"0"},)"
            R"("ns":"test.$cmd.listCollections","firstBatch":[)"
            R"({"name":"v","type":"collection","options":{"validator":)"
            R"({"a":1},"validationLevel":"strict","validationAction":)"
            R"("error"},"info":{"readOnly":false},"idIndex":{"v":2,"key":)"
            R"({"_id":1},"name":"_id_"}}]},"ok":1.0})");
  // findAndModify's failure is the command's error, with errInfo.
  EXPECT_EQ(RunJson("test", R"({"findAndModify": "v", "query": {"_id": 1},
                                "update": {"$set": {"a": 3}}})"),
            R"({"ok":0.0,"errmsg":"Document failed validation","code":121,)"
            R"("codeName":"DocumentValidationFailure","errInfo":{)"
            R"("failingDocumentId":1,"details":{"operatorName":"$eq",)"
            R"("specifiedAs":{"a":1},"reason":"comparison failed",)"
            R"("consideredValue":3}}})");
  EXPECT_EQ(RunJson("test", R"({"collMod": "v", "validationLevel": "off"})"),
            R"({"ok":1.0})");
  EXPECT_EQ(RunJson("test", R"({"insert": "v", "documents": [{"a": 5}]})"),
            R"({"n":1,"ok":1.0})");
  // Bad options: IDL's type and enum errors, disallowed operators.
  EXPECT_EQ(Run("test", R"({"create": "w", "validator": 7})")
                .Get("code")
                ->int32_value(),
            14);
  EXPECT_EQ(Run("test", R"({"create": "w", "validator": {"a": 1},
                            "validationLevel": "x"})")
                .Get("code")
                ->int32_value(),
            2);
  EXPECT_EQ(Run("test", R"({"collMod": "v", "validator": {"$where": "1"}})")
                .Get("code")
                ->int32_value(),
            224);
  EXPECT_EQ(Run("admin", R"({"create": "w", "validator": {"a": 1}})")
                .Get("code")
                ->int32_value(),
            72);
}

// create on an existing collection with the same options succeeds
// (jstests/core/ddl/create_collection.js: "Creating a collection that
// already exists with no options specified reports success"); an unknown
// option is IDLUnknownField; options ttldb lacks are InvalidOptions.
TEST_F(CollectionTest, CreateIsIdempotent) {
  EXPECT_EQ(RunJson("test", R"({"create": "b"})"), R"({"ok":1.0})");
  EXPECT_EQ(RunJson("test", R"({"create": "b"})"), R"({"ok":1.0})");
  EXPECT_EQ(RunJson("test", R"({"create": "x", "unknown": 1})"),
            R"({"ok":0.0,"errmsg":"BSON field 'create.unknown' is an )"
            R"(unknown field.","code":40415,"codeName":"Location40415"})");
  EXPECT_EQ(ToJson(*Run("test", R"({"create": "x", "timeseries":
                         {"timeField": "t"}})")
                        .Get("code")),
            "72");
  EXPECT_EQ(RunJson("test", R"({"create": "y", "capped": false})"),
            R"({"ok":1.0})");
}

// drop: {nIndexesWas, ns, ok}; a missing collection is {ok: 1} in 8.0.
TEST_F(CollectionTest, Drop) {
  Run("test", R"({"insert": "a", "documents": [{}]})");
  EXPECT_EQ(RunJson("test", R"({"drop": "a"})"),
            R"({"nIndexesWas":1,"ns":"test.a","ok":1.0})");
  EXPECT_EQ(RunJson("test", R"({"drop": "a"})"), R"({"ok":1.0})");
}

// renameCollection runs on admin with full namespaces
// (rename_collection_cmd.cpp); same database only in ttldb.
TEST_F(CollectionTest, RenameCollection) {
  Run("test", R"({"insert": "a", "documents": [{"_id": 1}]})");
  Run("test", R"({"insert": "b", "documents": [{"_id": 2}]})");
  EXPECT_EQ(ToJson(*Run("test", R"({"renameCollection": "test.a",
                         "to": "test.c"})")
                        .Get("code")),
            "13");
  EXPECT_EQ(RunJson("admin", R"({"renameCollection": "test.a",
                     "to": "test.b"})"),
            R"({"ok":0.0,"errmsg":"target namespace exists","code":48,)"
            R"("codeName":"NamespaceExists"})");
  EXPECT_EQ(RunJson("admin", R"({"renameCollection": "test.zz",
                     "to": "test.y"})"),
            R"({"ok":0.0,"errmsg":"Source collection test.zz does not )"
            R"(exist","code":26,"codeName":"NamespaceNotFound"})");
  EXPECT_EQ(ToJson(*Run("admin", R"({"renameCollection": "test.a",
                         "to": "other.a"})")
                        .Get("code")),
            "20");
  EXPECT_EQ(RunJson("admin", R"({"renameCollection": "test.a",
                     "to": "test.b", "dropTarget": true})"),
            R"({"ok":1.0})");
  EXPECT_EQ(RunJson("test", R"({"find": "b"})"),
            R"({"cursor":{"firstBatch":[{"_id":1}],"id":{"$numberLong":"0"},)"
            R"("ns":"test.b"},"ok":1.0})");
}

// createIndexes (create_indexes.idl reply): createdCollectionAutomatically,
// numIndexesBefore, numIndexesAfter; an existing index adds the note "all
// indexes already exist"; listIndexes is a cursor over the specs.
TEST_F(CollectionTest, Indexes) {
  EXPECT_EQ(RunJson("test", R"({"createIndexes": "e", "indexes": [{"key":
                     {"lastModifiedDate": 1}, "name": "lastModifiedDate_1",
                     "expireAfterSeconds": 3600}]})"),
            R"({"createdCollectionAutomatically":true,"numIndexesBefore":1,)"
            R"("numIndexesAfter":2,"ok":1.0})");
  EXPECT_EQ(RunJson("test", R"({"createIndexes": "e", "indexes": [{"key":
                     {"lastModifiedDate": 1}, "name": "lastModifiedDate_1",
                     "expireAfterSeconds": 3600}]})"),
            R"({"numIndexesBefore":2,"numIndexesAfter":2,)"
            R"("note":"all indexes already exist","ok":1.0})");
  EXPECT_EQ(RunJson("test", R"({"listIndexes": "e"})"),
            R"({"cursor":{"id":{"$numberLong":"0"},"ns":"test.e",)"
            R"("firstBatch":[{"v":2,"key":{"_id":1},"name":"_id_"},)"
            R"({"v":2,"key":{"lastModifiedDate":1},)"
            R"("name":"lastModifiedDate_1","expireAfterSeconds":3600}]},)"
            R"("ok":1.0})");
  EXPECT_EQ(RunJson("test", R"({"listIndexes": "nope"})"),
            R"({"ok":0.0,"errmsg":"ns does not exist: test.nope","code":26,)"
            R"("codeName":"NamespaceNotFound"})");
  // Same key, other options: IndexOptionsConflict (85) from the engine.
  EXPECT_EQ(ToJson(*Run("test", R"({"createIndexes": "e", "indexes":
                         [{"key": {"lastModifiedDate": 1}, "name":
                         "lastModifiedDate_1", "expireAfterSeconds": 10}]})")
                        .Get("code")),
            "85");
  // collMod changes expireAfterSeconds in place.
  Value mod = Run("test", R"({"collMod": "e", "index": {"name":
                   "lastModifiedDate_1", "expireAfterSeconds": 60}})");
  EXPECT_EQ(ToJson(*mod.Get("expireAfterSeconds_old")), "3600");
  EXPECT_EQ(ToJson(*mod.Get("expireAfterSeconds_new")), "60");
  EXPECT_EQ(ToJson(*mod.Get("ok")), "1.0");
  // dropIndexes by name, by key, "*".
  Run("test", R"({"createIndexes": "e", "indexes": [{"key": {"a": 1},
       "name": "a_1"}, {"key": {"b": 1}, "name": "b_1"}]})");
  EXPECT_EQ(RunJson("test", R"({"dropIndexes": "e", "index": "a_1"})"),
            R"({"nIndexesWas":4,"ok":1.0})");
  EXPECT_EQ(RunJson("test", R"({"dropIndexes": "e", "index": {"b": 1}})"),
            R"({"nIndexesWas":3,"ok":1.0})");
  EXPECT_EQ(RunJson("test", R"({"dropIndexes": "e", "index": ["zz"]})"),
            R"({"ok":0.0,"errmsg":"index not found with name [zz]",)"
            R"("code":27,"codeName":"IndexNotFound"})");
  EXPECT_EQ(RunJson("test", R"({"dropIndexes": "e", "index": "*"})"),
            R"({"nIndexesWas":2,"ok":1.0})");
  EXPECT_EQ(RunJson("test", R"({"dropIndexes": "nope", "index": "*"})"),
            R"({"ok":0.0,"errmsg":"ns not found test.nope","code":26,)"
            R"("codeName":"NamespaceNotFound"})");
}

// validate and collStats name the namespace.
TEST_F(CollectionTest, ValidateAndCollStats) {
  Run("test", R"({"insert": "a", "documents": [{"x": 1}]})");
  Value v = Run("test", R"({"validate": "a", "full": true})");
  EXPECT_EQ(ToJson(*v.Get("ns")), R"("test.a")");
  EXPECT_EQ(ToJson(*v.Get("valid")), "true");
  EXPECT_EQ(ToJson(*v.Get("ok")), "1.0");
  EXPECT_EQ(RunJson("test", R"({"validate": "zz"})"),
            R"({"ok":0.0,"errmsg":"Collection 'test.zz' does not exist to )"
            R"(validate.","code":26,"codeName":"NamespaceNotFound"})");
  Value s = Run("test", R"({"collStats": "a"})");
  EXPECT_EQ(ToJson(*s.Get("ns")), R"("test.a")");
  EXPECT_EQ(ToJson(*s.Get("count")), "1");
}

}  // namespace
}  // namespace commands
}  // namespace ttldb
