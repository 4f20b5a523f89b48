// DocumentWriter (storage/document_writer.h) against a real LevelDB database:
// what each entry point puts into the batch is exactly the document and the
// entries its indexes derive, and a deletion leaves nothing behind. MongoDB's
// counterpart is src/mongo/db/collection_crud/collection_write_path.h
// (insertDocument / updateDocument / deleteDocument: the document and its
// index keys change together).
#include "storage/document_writer.h"

#include <stdlib.h>

#include <map>
#include <memory>
#include <string>

#include "absl/strings/str_cat.h"
#include "base/status.h"
#include "gtest/gtest.h"
#include "leveldb/db.h"
#include "leveldb/write_batch.h"
#include "storage/entry_value.h"
#include "storage/keys.h"
#include "ttldb/json.h"

namespace ttldb {
namespace {

constexpr uint32_t kColl = 7;

std::shared_ptr<const IndexState> MakeIndex(uint32_t id, const char* path,
                                            bool ttl) {
  auto idx = std::make_shared<IndexState>();
  idx->spec.id = id;
  idx->spec.name = absl::StrCat(path, "_1");
  idx->spec.key.push_back({path, 1});
  if (ttl) {
    idx->spec.expire_after_seconds = 60;
    idx->ttl_seconds = 60;
  }
  idx->spec.multikey = false;
  idx->multikey = false;
  idx->prefix = IndexPrefix(kColl, id);
  return idx;
}

class DocumentWriterTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = ::testing::TempDir() + "/document_writer_XXXXXX";
    ASSERT_NE(mkdtemp(tmpl.data()), nullptr);
    dir_ = tmpl;
    leveldb::Options options;
    options.create_if_missing = true;
    leveldb::DB* raw = nullptr;
    ASSERT_TRUE(leveldb::DB::Open(options, dir_, &raw).ok());
    db_.reset(raw);
    state_.info.set_id(kColl);
    state_.info.set_name("c");
    state_.doc_prefix = DocumentPrefix(kColl);
    state_.indexes.push_back(MakeIndex(1, "a", /*ttl=*/false));
    state_.indexes.push_back(MakeIndex(2, "t", /*ttl=*/true));
  }
  void TearDown() override {
    db_.reset();
    leveldb::DestroyDB(dir_, leveldb::Options());
  }

  static Value Doc(absl::string_view json) {
    absl::StatusOr<Value> v = ParseDocument(json);
    EXPECT_TRUE(v.ok()) << v.status();
    return *std::move(v);
  }

  // Every key of the database and its value.
  std::map<std::string, std::string> Dump() {
    std::map<std::string, std::string> out;
    std::unique_ptr<leveldb::Iterator> it(
        db_->NewIterator(leveldb::ReadOptions()));
    for (it->SeekToFirst(); it->Valid(); it->Next()) {
      out[it->key().ToString()] = it->value().ToString();
    }
    EXPECT_TRUE(it->status().ok());
    return out;
  }

  void Commit(leveldb::WriteBatch* batch) {
    ASSERT_TRUE(db_->Write(leveldb::WriteOptions(), batch).ok());
  }

  // Inserts `doc` through a writer and commits it.
  void Insert(const Value& doc) {
    leveldb::WriteBatch batch;
    DocumentWriter writer(state_, &batch);
    const std::string id = EncodeId(*doc.Get("_id"));
    DocKeys keys;
    ASSERT_TRUE(ComputeDocKeys(writer.indexes(), doc, id, &keys).ok());
    ASSERT_TRUE(writer.Insert(id, AsJson(doc), keys, NoCheck).ok());
    Commit(&batch);
  }

  static std::string AsJson(const Value& doc) {
    std::string json;
    AppendJson(doc, JsonFormat::kStorage, &json);
    return json;
  }

  static absl::Status NoCheck(const DocumentWriter::IndexChange&) {
    return absl::OkStatus();
  }

  // The entry key of `value` (a JSON scalar) for `doc_id` in index `idx`.
  std::string EntryKey(size_t idx, absl::string_view value, int doc_id) {
    std::vector<std::string> keys;
    Value doc = Doc(absl::StrCat("{\"_id\": ", doc_id, ", \"",
                                 state_.indexes[idx]->spec.key[0].path,
                                 "\": ", value, "}"));
    EXPECT_TRUE(IndexEntryKeys(*state_.indexes[idx], doc,
                               EncodeId(Value::Int32(doc_id)), &keys)
                    .ok());
    EXPECT_EQ(keys.size(), 1u);
    return keys.empty() ? "" : keys[0];
  }

  std::string dir_;
  std::unique_ptr<leveldb::DB> db_;
  CollectionState state_;
};

constexpr absl::string_view kDoc1 =
    R"({"_id": 1, "a": 5, "t": {"$date": "2026-01-01T00:00:00Z"}})";
constexpr absl::string_view kDate = R"({"$date": "2026-01-01T00:00:00Z"})";

TEST_F(DocumentWriterTest, InsertPutsTheDocumentAndEveryEntry) {
  const Value doc = Doc(kDoc1);
  Insert(doc);
  const std::string id = EncodeId(Value::Int32(1));
  std::map<std::string, std::string> stored = Dump();
  ASSERT_EQ(stored.size(), 3u);
  EXPECT_EQ(stored[DocumentKey(kColl, id)], AsJson(doc));
  EXPECT_EQ(stored[EntryKey(0, "5", 1)], id);
  // The TTL entry carries the document's key in the other index.
  absl::string_view parsed_id;
  std::vector<SiblingIndex> siblings;
  ASSERT_TRUE(
      ParseSiblings(stored[EntryKey(1, kDate, 1)], &parsed_id, &siblings));
  EXPECT_EQ(parsed_id, id);
  ASSERT_EQ(siblings.size(), 1u);
  EXPECT_EQ(siblings[0].index_id, 1u);
}

TEST_F(DocumentWriterTest, ReplaceMovesChangedEntriesAndRewritesSiblings) {
  const Value old_doc = Doc(kDoc1);
  Insert(old_doc);
  const Value new_doc =
      Doc(R"({"_id": 1, "a": 6, "t": {"$date": "2026-01-01T00:00:00Z"}})");
  const std::string id = EncodeId(Value::Int32(1));
  leveldb::WriteBatch batch;
  DocumentWriter writer(state_, &batch);
  DocKeys old_keys, new_keys;
  ASSERT_TRUE(ComputeDocKeys(writer.indexes(), old_doc, id, &old_keys).ok());
  ASSERT_TRUE(ComputeDocKeys(writer.indexes(), new_doc, id, &new_keys, &old_doc,
                             &old_keys)
                  .ok());
  int changes = 0;
  ASSERT_TRUE(writer
                  .Replace(id, old_keys, AsJson(new_doc), new_keys,
                           [&](const DocumentWriter::IndexChange& c) {
                             ++changes;
                             EXPECT_FALSE(c.building);
                             // Only index a changes; t keeps its key.
                             EXPECT_EQ(c.added.size(), c.i == 0 ? 1u : 0u);
                             EXPECT_EQ(c.removed.size(), c.i == 0 ? 1u : 0u);
                             return absl::OkStatus();
                           })
                  .ok());
  EXPECT_EQ(changes, 2);
  Commit(&batch);
  std::map<std::string, std::string> stored = Dump();
  ASSERT_EQ(stored.size(), 3u);
  EXPECT_EQ(stored.count(EntryKey(0, "5", 1)), 0u);
  EXPECT_EQ(stored[EntryKey(0, "6", 1)], id);
  absl::string_view parsed_id;
  std::vector<SiblingIndex> siblings;
  ASSERT_TRUE(
      ParseSiblings(stored[EntryKey(1, kDate, 1)], &parsed_id, &siblings));
  ASSERT_EQ(siblings.size(), 1u);
  ASSERT_EQ(siblings[0].keys.size(), 1u);
  // The sibling key is the new a:6 key (without prefix and id).
  const std::string a6 = EntryKey(0, "6", 1);
  EXPECT_EQ(
      siblings[0].keys[0],
      a6.substr(state_.indexes[0]->prefix.size(),
                a6.size() - state_.indexes[0]->prefix.size() - id.size()));
}

TEST_F(DocumentWriterTest, RemoveDeletesEverything) {
  const Value doc = Doc(kDoc1);
  Insert(doc);
  leveldb::WriteBatch batch;
  DocumentWriter writer(state_, &batch);
  DocumentWriter::Removed removed;
  ASSERT_TRUE(writer.Remove(EncodeId(Value::Int32(1)), doc, &removed).ok());
  Commit(&batch);
  EXPECT_TRUE(Dump().empty());
  EXPECT_EQ(removed.entries, 2);
  ASSERT_EQ(removed.doc_keys.size(), 1u);
  EXPECT_EQ(removed.doc_keys[0], DocumentKey(kColl, EncodeId(Value::Int32(1))));
  EXPECT_TRUE(removed.below_dates.empty());
}

TEST_F(DocumentWriterTest, RemoveBySiblingsDeletesEverythingUnread) {
  Insert(Doc(kDoc1));
  Insert(
      Doc(R"({"_id": 2, "a": "x", "t": {"$date": "2026-01-02T00:00:00Z"}})"));
  const std::string entry = EntryKey(1, kDate, 1);
  const std::string value = Dump()[entry];
  absl::string_view id;
  std::vector<SiblingIndex> siblings;
  ASSERT_TRUE(ParseSiblings(value, &id, &siblings));
  leveldb::WriteBatch batch;
  DocumentWriter writer(state_, &batch);
  DocumentWriter::Removed removed;
  writer.RemoveBySiblings(entry, id, siblings, &removed);
  Commit(&batch);
  EXPECT_EQ(removed.entries, 2);
  EXPECT_EQ(removed.doc_keys.size(), 1u);
  // Only document 2 and its two entries are left.
  std::map<std::string, std::string> stored = Dump();
  EXPECT_EQ(stored.size(), 3u);
  EXPECT_EQ(stored.count(DocumentKey(kColl, EncodeId(Value::Int32(2)))), 1u);
  EXPECT_EQ(stored.count(DocumentKey(kColl, EncodeId(Value::Int32(1)))), 0u);
}

TEST_F(DocumentWriterTest, RefusedCheckStopsTheWrite) {
  leveldb::WriteBatch batch;
  DocumentWriter writer(state_, &batch);
  const Value doc = Doc(kDoc1);
  const std::string id = EncodeId(Value::Int32(1));
  DocKeys keys;
  ASSERT_TRUE(ComputeDocKeys(writer.indexes(), doc, id, &keys).ok());
  absl::Status s = writer.Insert(
      id, AsJson(doc), keys, [](const DocumentWriter::IndexChange& c) {
        return c.i == 0 ? absl::AlreadyExistsError("dup") : absl::OkStatus();
      });
  EXPECT_TRUE(absl::IsAlreadyExists(s)) << s;
}

TEST_F(DocumentWriterTest, BuildingIndexesGetEveryKey) {
  auto building = MakeIndex(3, "b", /*ttl=*/false);
  state_.building.push_back(building);
  leveldb::WriteBatch batch;
  DocumentWriter writer(state_, &batch);
  EXPECT_EQ(writer.published(), 2u);
  EXPECT_TRUE(writer.building());
  const Value doc = Doc(R"({"_id": 1, "a": 5, "b": 9})");
  const std::string id = EncodeId(Value::Int32(1));
  DocKeys keys;
  ASSERT_TRUE(ComputeDocKeys(writer.indexes(), doc, id, &keys).ok());
  bool saw_building = false;
  ASSERT_TRUE(writer
                  .Insert(id, AsJson(doc), keys,
                          [&](const DocumentWriter::IndexChange& c) {
                            if (c.building) {
                              saw_building = true;
                              EXPECT_EQ(c.all.size(), 1u);
                            }
                            return absl::OkStatus();
                          })
                  .ok());
  EXPECT_TRUE(saw_building);
  Commit(&batch);
  std::vector<std::string> b_keys;
  ASSERT_TRUE(IndexEntryKeys(*building, doc, id, &b_keys).ok());
  ASSERT_EQ(b_keys.size(), 1u);
  EXPECT_EQ(Dump()[b_keys[0]], id);
}

}  // namespace
}  // namespace ttldb
