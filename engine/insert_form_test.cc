// Inserts whose JSON text is already the storage form are stored as that
// text (storage/insert_form.h, ParseDocumentNotingForm in ttldb/json.h).
// The stored bytes must be exactly what serializing the document writes,
// for every input, shortcut or not; errors must be unchanged and change
// nothing. MongoDB stores _id first (insert.cpp fixDocumentForInsert: an
// _id elsewhere is moved to the front, an absent one generated in front);
// its error codes and messages for bad documents are pinned below with the
// MongoDB source each comes from.
#include "storage/insert_form.h"

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/strings/str_cat.h"
#include "base/status.h"
#include "document/bson.h"
#include "document/compare.h"
#include "engine/database_internal.h"
#include "engine/db_impl.h"
#include "gtest/gtest.h"
#include "leveldb/db.h"
#include "storage/keys.h"
#include "tests/test_util.h"
#include "ttldb/clock.h"
#include "ttldb/database.h"
#include "ttldb/json.h"

namespace ttldb {
namespace {

using std::literals::string_view_literals::operator""sv;

struct Fixture {
  TempDir dir;
  FakeClock clock{kTestStart};
  std::unique_ptr<Database> db;
  DbImpl* engine = nullptr;

  Fixture() { Open(); }
  void Open() {
    Options options;
    options.ttl_monitor_enabled = false;
    options.clock = &clock;
    db = std::move(Database::Open(dir.path(), options).value());
    engine = DatabaseInternal::engine(*db);
  }
  void Reopen() {
    ASSERT_TRUE(db->Close().ok());
    db.reset();
    Open();
  }
  // The bytes stored for `id` in `coll`, read from LevelDB itself.
  std::string Stored(absl::string_view coll, const Value& id) {
    auto state = engine->GetState(coll);
    EXPECT_NE(state, nullptr);
    if (state == nullptr) return "";
    std::string out;
    leveldb::Status s =
        engine->db()->Get(leveldb::ReadOptions(),
                          DocumentKey(state->info.id(), EncodeId(id)), &out);
    EXPECT_TRUE(s.ok()) << s.ToString();
    return out;
  }
};

// What the write path stores without the shortcut: the parsed document,
// _id moved to the front or `id` put there, serialized.
std::string Serialized(absl::string_view text, const Value& id) {
  Value v = ParseDocument(text).value();
  Value::Object& fields = v.mutable_object_fields();
  Value::Object out;
  out.emplace_back("_id", id);
  bool skipped = false;
  for (Field& f : fields) {
    if (!skipped && f.first == "_id") {
      skipped = true;
      continue;
    }
    out.push_back(std::move(f));
  }
  return ToJson(Value::MakeObject(std::move(out)), JsonFormat::kStorage);
}

struct Case {
  const char* text;
  bool storage_form;  // what ParseDocumentNotingForm must say
};

// Inputs in the storage form, and near misses that are not.
const Case kCases[] = {
    // The benchmark's document.
    {R"({"_id":"k000000000042","accessTime":{"$date":{"$numberLong":"1800000000000"}},"userId":"user-0000042","group":4,"payload":"abc xyz"})",
     true},
    {R"({"_id":1,"a":"x"})", true},
    // _id absent: generated and spliced in front.
    {R"({})", true},
    {R"({"a":1})", true},
    {R"({"a":{"_id":5},"b":[{"_id":6}]})", true},
    // _id not first: moved, so serialized.
    {R"({"a":1,"_id":2})", true},
    {R"({"a":1,"_id":2,"_id":3})", true},
    {R"({"_id":1,"a":1,"a":2})", true},  // duplicates kept in order
    // Dates.
    {R"({"_id":2,"d":{"$date":{"$numberLong":"-5"}}})", true},
    {R"({"_id":3,"d":{"$date":{"$numberLong":"0"}}})", true},
    {R"({"_id":3,"d":{"$date":{"$numberLong":"-9223372036854775808"}}})", true},
    {R"({"_id":3,"d":{"$date":{"$numberLong":"007"}}})", false},
    {R"({"_id":3,"d":{"$date":{"$numberLong":"-0"}}})", false},
    {R"({"_id":3,"d":{"$date":{ "$numberLong":"5"}}})", false},
    {R"({"_id":3,"d":{"$date":"2020-01-01T00:00:00Z"}})", false},
    {R"({"_id":3,"d":{"$date":"2020-01-01T00:00:00.000Z"}})", false},
    {R"({"_id":3,"d":{"$date":1577836800000}})", false},
    {R"({"_id":3,"d":{"$date":{"$numberLong":"1\u0030"}}})", false},
    // Integers.
    {R"({"_id":6,"x":-2147483648,"y":2147483647,"z":0,"w":-1})", true},
    {R"({"_id":6,"x":-0})", false},
    {R"({"_id":6,"x":2147483648})", false},  // int64: {"$numberLong"}
    {R"({"_id":6,"x":-2147483649})", false},
    {R"({"_id":6,"x":123456789012345678901})", false},  // a double
    {R"({"_id":4,"n":{"$numberLong":"123456789012"}})", true},
    {R"({"_id":5,"n":{"$numberLong":"5"}})", true},
    {R"({"_id":5,"n":{"$numberLong":"-0"}})", false},
    {R"({"_id":5,"n":{"$numberLong":"05"}})", false},
    {R"({"_id":5,"n":{"$numberInt":"5"}})", false},
    // Doubles: the shortest text, with ".0" when it has no '.' or 'e'.
    {R"({"_id":7,"a":1.5})", true},
    {R"({"_id":7,"b":-0.0})", true},
    {R"({"_id":7,"c":1e+300})", true},
    {R"({"_id":7,"d":100000.0})", false},  // shortest: 1e+05
    {R"({"_id":7,"d":1e+05})", true},
    {R"({"_id":7,"d":1234567.0})", true},
    {R"({"_id":7,"e":1e-07})", true},
    {R"({"_id":7,"f":0.1})", true},
    {R"({"_id":7,"g":123.456})", true},
    {R"({"_id":7,"a":1.50})", false},
    {R"({"_id":7,"a":1E5})", false},
    {R"({"_id":7,"a":1e5})", false},
    {R"({"_id":7,"a":1e300})", false},
    {R"({"_id":7,"a":0.10})", false},
    {R"({"_id":7,"a":100000.00})", false},
    {R"({"_id":7,"a":1.0e-7})", false},
    {R"({"_id":7,"a":{"$numberDouble":"1.5"}})", false},
    {R"({"_id":7,"a":{"$numberDouble":"NaN"}})", false},
    // Strings: the writer's escapes only.
    {R"({"_id":8,"s":"a\"b\\c\nd\re\tf\bg\fh\u0001i\u001fj\u007f"})", false},
    {R"({"_id":8,"s":"a\"b\\c\nd\re\tf\bg\fh\u0001i\u001fj"})", true},
    {"{\"_id\":8,\"s\":\"del\x7f\"}", true},
    {R"({"_id":8,"s":"a\/b"})", false},
    {R"({"_id":8,"s":"\u0041"})", false},
    {R"({"_id":8,"s":"\u000a"})", false},
    {R"({"_id":8,"s":"\u001F"})", false},
    {R"({"_id":8,"s":"\u00e9"})", false},
    {R"({"_id":8,"s":"\u0000"})", false},  // storable, written \u0000
    {R"({"_id":8,"s":"\ud83d\ude00"})", false},
    {R"({"_id":8,"s\n\u0002":"key escapes"})", true},
    // UTF-8 as it is.
    {"{\"_id\":9,\"s\":\"\xc3\xa9\xe6\xbc\xa2\xf0\x9f\x98\x80\","
     "\"\xd0\xba\xd0\xbb\":\"\xd0\xb7\"}",
     true},
    // Nesting, empty containers, literals.
    {R"({"_id":10,"a":[1,[2,{"b":[]}],{}],"o":{"p":{"q":null,"r":true,"s":false}}})",
     true},
    {R"({"_id":{"a":1,"b":[1,2]},"x":1})", true},
    {R"({"_id":[1]})", true},  // parses; the insert refuses it
    // Wrappers.
    {R"({"_id":{"$oid":"0123456789abcdef01234567"},"a":1})", true},
    {R"({"_id":{"$oid":"0123456789ABCDEF01234567"},"a":1})", false},
    {R"({"_id":11,"m":{"$numberDecimal":"1.5"}})", true},
    {R"({"_id":11,"m":{"$numberDecimal":"1.50"}})", true},
    {R"({"_id":11,"m":{"$numberDecimal":"1E+2"}})", true},
    {R"({"_id":11,"m":{"$numberDecimal":"100"}})", true},
    {R"({"_id":11,"m":{"$numberDecimal":"1e2"}})", false},
    {R"({"_id":11,"m":{"$numberDecimal":"0.000001"}})", true},
    {R"({"_id":11,"m":{"$numberDecimal":"1E-7"}})", true},
    {R"({"_id":11,"m":{"$numberDecimal":"0.0000001"}})", false},
    {R"({"_id":12,"t":{"$timestamp":{"t":1,"i":2}}})", false},
    {R"({"_id":12,"r":{"$regularExpression":{"pattern":"a","options":"i"}}})",
     false},
    {R"({"_id":12,"b":{"$binary":{"base64":"AQI=","subType":"00"}}})", false},
    {R"({"_id":12,"k":{"$minKey":1}})", false},
    {R"({"_id":12,"o":{"$dollar":1}})", false},  // a '$' name: full path
    // Whitespace anywhere.
    {R"({ "_id":1})", false},
    {R"({"_id" :1})", false},
    {R"({"_id": 1})", false},
    {R"({"_id":1 })", false},
    {R"({"_id":1,"a":[1, 2]})", false},
    {" {\"_id\":1}", false},
    {"{\"_id\":1}\n", false},
    {"{\"_id\":1,\"a\":{\t}}", false},
};

TEST(InsertFormTest, StoredBytesAreTheSerializationForEveryInput) {
  Fixture f;
  int n = 0;
  for (const Case& c : kCases) {
    SCOPED_TRACE(c.text);
    bool form = !c.storage_form;
    absl::StatusOr<Value> parsed = ParseDocumentNotingForm(c.text, &form);
    ASSERT_TRUE(parsed.ok()) << parsed.status();
    EXPECT_EQ(form, c.storage_form);
    // Same document as ParseDocument, whatever the flag says.
    EXPECT_TRUE(IdenticalValues(*parsed, ParseDocument(c.text).value()));

    // Each case in its own collection: the same _id may recur.
    const std::string text_coll = absl::StrCat("t", n);
    const std::string value_coll = absl::StrCat("v", n);
    ++n;
    absl::StatusOr<Value> id = f.db->collection(text_coll).InsertOne(c.text);
    if (!id.ok()) {
      // Refused either way, with the same error; nothing is created.
      absl::StatusOr<Value> by_value =
          f.db->collection(value_coll).InsertOne(*parsed);
      ASSERT_FALSE(by_value.ok());
      EXPECT_EQ(id.status(), by_value.status());
      EXPECT_EQ(f.engine->GetState(text_coll), nullptr);
      continue;
    }
    const std::string stored = f.Stored(text_coll, *id);
    EXPECT_EQ(stored, Serialized(c.text, *id));
    // The document as a Value (never the shortcut), with the same _id.
    Value with_id = ParseDocument(Serialized(c.text, *id)).value();
    ASSERT_TRUE(f.db->collection(value_coll).InsertOne(with_id).ok());
    EXPECT_EQ(f.Stored(value_coll, *id), stored);
    // Read back (from the cache, written through) as the document.
    absl::StatusOr<Value> back = f.db->collection(text_coll).FindById(*id);
    ASSERT_TRUE(back.ok()) << back.status();
    EXPECT_TRUE(IdenticalValues(*back, with_id)) << ToJson(*back);
  }
  // And from LevelDB after a reopen (no cache).
  f.Reopen();
  n = 0;
  for (const Case& c : kCases) {
    SCOPED_TRACE(c.text);
    Collection& coll = f.db->collection(absl::StrCat("t", n++));
    absl::StatusOr<std::vector<Value>> docs =
        coll.Find("{}").value()->ToVector();
    if (f.engine->GetState(coll.name()) == nullptr) continue;
    ASSERT_TRUE(docs.ok());
    ASSERT_EQ(docs->size(), 1u);
    const Value& id = *(*docs)[0].Get("_id");
    EXPECT_TRUE(IdenticalValues((*docs)[0],
                                ParseDocument(Serialized(c.text, id)).value()));
  }
}

// Nesting at the limit: 100 levels of containers is the storage form and
// stored as it is; 101 is refused by the parse, as before.
TEST(InsertFormTest, NestingAtTheLimit) {
  Fixture f;
  auto nested = [](int levels) {
    // The document is level 1.
    std::string s = "{\"_id\":1,\"a\":";
    for (int i = 1; i < levels; ++i) s += "[";
    s += "0";
    for (int i = 1; i < levels; ++i) s += "]";
    s += "}";
    return s;
  };
  const std::string ok = nested(100);
  bool form = false;
  ASSERT_TRUE(ParseDocumentNotingForm(ok, &form).ok());
  EXPECT_TRUE(form);
  ASSERT_TRUE(f.db->collection("c").InsertOne(ok).ok());
  EXPECT_EQ(f.Stored("c", Value::Int32(1)), ok);

  absl::StatusOr<Value> deep = f.db->collection("c").InsertOne(nested(101));
  ASSERT_FALSE(deep.ok());
  EXPECT_EQ(deep.status().code(), absl::StatusCode::kInvalidArgument);
  std::string path = "a";
  for (int i = 0; i < 99; ++i) path += ".0";
  EXPECT_EQ(std::string(deep.status().message()),
            "invalid document: document nesting is deeper than the maximum "
            "of 100 (at field '" +
                path + "')");
  EXPECT_EQ(f.db->collection("c").CountDocuments().value(), 1);
}

// The exact BSON size of {"_id": 1, "a": [0, 0, ...]} with n items (BSON
// spec: int32 elements of 4 bytes, array items named "0", "1", ...).
size_t BsonOfZeros(size_t n) {
  size_t array = 4 + 1;
  size_t digits = 1, next = 10;
  for (size_t i = 0; i < n; ++i) {
    if (i == next) ++digits, next *= 10;
    array += 1 + digits + 1 + 4;
  }
  return 4 + (1 + 3 + 1 + 4) + (1 + 1 + 1 + array) + 1;
}

std::string Zeros(size_t n) {
  std::string s = "{\"_id\":1,\"a\":[";
  for (size_t i = 0; i < n; ++i) s += i ? ",0" : "0";
  s += "]}";
  return s;
}

// storage/insert_form.h skips the BSON size below 2 MiB of storage JSON:
// the worst case there (one-digit integers in an array) is well within
// 16 MiB. Above it the size is computed, and a document over 16 MiB of
// BSON is refused with MongoDB's message (insert.cpp
// fixDocumentForInsert: "object to insert too large. size in bytes: ...,
// max size: ...", BadValue) and nothing is stored.
TEST(InsertFormTest, TheBsonBoundAndItsLimit) {
  Fixture f;
  // The largest such document within the bound.
  const size_t n_ok = (kMaxJsonBytesWithinBsonLimit - 16) / 2;
  const std::string ok = Zeros(n_ok);
  ASSERT_LE(ok.size(), kMaxJsonBytesWithinBsonLimit);
  EXPECT_LE(BsonOfZeros(n_ok), kMaxDocumentBytes);
  EXPECT_EQ(BsonDocumentSize(ParseDocument(ok).value()), BsonOfZeros(n_ok));
  ASSERT_TRUE(f.db->collection("c").InsertOne(ok).ok());

  // 3 MiB of zeros: about 19 MiB of BSON.
  const size_t n_big = (3u << 20) / 2;
  const std::string big = Zeros(n_big);
  bool form = false;
  ASSERT_TRUE(ParseDocumentNotingForm(big, &form).ok());
  EXPECT_TRUE(form);
  ASSERT_GT(BsonOfZeros(n_big), kMaxDocumentBytes);
  absl::StatusOr<Value> refused = f.db->collection("d").InsertOne(big);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(ErrorCode(refused.status()), kBadValue);
  EXPECT_EQ(refused.status().message(),
            absl::StrCat("object to insert too large. size in bytes: ",
                         BsonOfZeros(n_big), ", max size: 16777216"));
  EXPECT_EQ(f.engine->GetState("d"), nullptr);
}

struct ErrorCase {
  const char* text;
  int code;                  // ErrorCode: 0 for a plain InvalidArgument
  std::string_view message;  // empty: not pinned here (json_error_test)
};

// Refused inserts, in the storage form or not: same code and message as
// before the shortcut, nothing written.
const ErrorCase kErrors[] = {
    // storable.h: a NUL in a field name (MongoDB: "Document can't have
    // embedded null characters in field names" is not reachable there;
    // ttldb names the path).
    {R"({"_id":1,"a\u0000b":1})", kBadValue,
     "document cannot be stored: field names cannot contain the null "
     "character (at 'a\0b')"sv},
    {R"({"_id":1,"o":{"\u0000":1}})", kBadValue,
     "document cannot be stored: field names cannot contain the null "
     "character (at 'o.\0')"sv},
    // A nested Extended JSON keyword that stays an object.
    {R"({"_id":1,"o":{"$type":"x"}})", kBadValue,
     "document cannot be stored: '$type' is an Extended JSON type keyword: "
     "the document would read back with another type (at 'o.$type')"},
    // insert.cpp / storage_validation.cpp: top-level '$' names and bad _id.
    {R"({"_id":1,"$x":1})", kBadValue,
     "Document can't have $ prefixed field names: $x"},
    {R"({"_id":[1]})", kInvalidIdField,
     "The '_id' value cannot be of type array"},
    {R"({"a":1,"_id":[1,2]})", kInvalidIdField,
     "The '_id' value cannot be of type array"},
    {R"({"_id":{"$regularExpression":{"pattern":"a","options":""}}})",
     kInvalidIdField, "The '_id' value cannot be of type regex"},
    {R"({"_id":{"a":{"$x":1}}})", 52,
     "_id fields may not contain '$'-prefixed fields: $x is not valid for "
     "storage."},
    // Parse errors.
    {R"({"_id":1,})", 0, ""},
    {R"([1])", 0,
     "invalid document: a document must be a JSON object, not array"},
    {R"({"_id":{"$date":{"$numberLong":"x"}}})", 0, ""},
};

TEST(InsertFormTest, ErrorsAreUnchangedAndWriteNothing) {
  Fixture f;
  ASSERT_TRUE(f.db->collection("c").InsertOne(R"({"_id":0})").ok());
  for (const ErrorCase& e : kErrors) {
    const std::string text = e.text;
    SCOPED_TRACE(text);
    absl::StatusOr<Value> r = f.db->collection("c").InsertOne(text);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_EQ(ErrorCode(r.status()), e.code) << r.status();
    if (!e.message.empty()) {
      EXPECT_EQ(std::string(r.status().message()), std::string(e.message))
          << r.status();
    }
    // A new collection is not created either.
    absl::StatusOr<Value> fresh = f.db->collection("new").InsertOne(text);
    ASSERT_FALSE(fresh.ok());
    EXPECT_EQ(fresh.status(), r.status());
    EXPECT_EQ(f.engine->GetState("new"), nullptr);
  }
  EXPECT_EQ(f.db->collection("c").CountDocuments().value(), 1);
  EXPECT_EQ(f.Stored("c", Value::Int32(0)), R"({"_id":0})");
}

}  // namespace
}  // namespace ttldb
