#include "storage/unknown_ranges.h"

#include <memory>

#include "absl/strings/str_cat.h"
#include "google/protobuf/descriptor.h"
#include "google/protobuf/message.h"
#include "index/key_codec.h"
#include "storage/keys.h"
#include "storage/leveldb_status.h"

namespace ttldb {
namespace {

// The first key after every key that starts with `prefix` ("" when none:
// the end of the key space).
std::string After(const std::string& prefix) { return KeyPrefixEnd(prefix); }

}  // namespace

void CatalogIds::Add(const proto::CollectionInfo& info, bool damaged) {
  Collection& c = collections[info.id()];
  c.damaged = c.damaged || damaged;
  c.next_index_id = std::max(c.next_index_id, info.next_index_id());
  // Every repeated IndexSpec field of CollectionInfo names indexes whose
  // ids are in use (today `indexes`; an index build in progress may be
  // listed in another), so reflection finds them all.
  const google::protobuf::Descriptor* d = info.GetDescriptor();
  const google::protobuf::Reflection* r = info.GetReflection();
  for (int f = 0; f < d->field_count(); ++f) {
    const google::protobuf::FieldDescriptor* field = d->field(f);
    if (!field->is_repeated() ||
        field->type() != google::protobuf::FieldDescriptor::TYPE_MESSAGE ||
        field->message_type() != proto::IndexSpec::descriptor()) {
      continue;
    }
    for (int i = 0; i < r->FieldSize(info, field); ++i) {
      const auto& spec = static_cast<const proto::IndexSpec&>(
          r->GetRepeatedMessage(info, field, i));
      c.index_ids.insert(spec.id());
    }
  }
}

std::string UnknownRange::Describe() const {
  if (index_id.has_value()) {
    return absl::StrCat("index entries under index id ", *index_id,
                        " of collection id ", collection_id);
  }
  return absl::StrCat(documents ? "documents" : "index entries",
                      " under collection id ", collection_id);
}

absl::StatusOr<std::vector<UnknownRange>> FindUnknownRanges(
    leveldb::DB* db, const leveldb::ReadOptions& ro, const CatalogIds& ids) {
  std::vector<UnknownRange> out;
  std::unique_ptr<leveldb::Iterator> it(db->NewIterator(ro));
  for (const char tag : {kDocumentTag, kIndexTag}) {
    const bool documents = tag == kDocumentTag;
    it->Seek(std::string(1, tag));
    while (it->Valid() && it->key()[0] == tag) {
      const leveldb::Slice key = it->key();
      if (key.size() < 5) {  // not a ttldb key: step over it
        it->Next();
        continue;
      }
      const uint32_t coll = DecodeU32(key.data() + 1);
      const std::string prefix =
          documents ? DocumentPrefix(coll) : CollectionIndexPrefix(coll);
      const std::string prefix_end = After(prefix);
      auto known = ids.collections.find(coll);
      if (known == ids.collections.end()) {
        UnknownRange r;
        r.collection_id = coll;
        r.documents = documents;
        r.begin = prefix;
        r.end = prefix_end;
        r.reclaimable = !ids.unparsed_entry;
        out.push_back(std::move(r));
      } else if (!documents) {
        // Index by index: one seek per index id present.
        while (it->Valid() && it->key().starts_with(prefix)) {
          const leveldb::Slice ikey = it->key();
          if (ikey.size() < 9) {
            it->Next();
            continue;
          }
          const uint32_t index_id = DecodeU32(ikey.data() + 5);
          const std::string iprefix = IndexPrefix(coll, index_id);
          const std::string iend = After(iprefix);
          if (known->second.index_ids.count(index_id) == 0) {
            UnknownRange r;
            r.collection_id = coll;
            r.index_id = index_id;
            r.begin = iprefix;
            r.end = iend;
            r.reclaimable = !known->second.damaged &&
                            index_id < known->second.next_index_id;
            out.push_back(std::move(r));
          }
          if (iend.empty()) {
            it->SeekToLast();
            it->Next();
          } else {
            it->Seek(iend);
          }
        }
        if (!it->status().ok()) break;
        continue;
      }
      if (prefix_end.empty()) break;
      it->Seek(prefix_end);
    }
    if (!it->status().ok()) {
      return storage::FromLevelDB(it->status(),
                                  "reading the database's key ranges");
    }
  }
  return out;
}

absl::StatusOr<int64_t> CountKeys(leveldb::DB* db,
                                  const leveldb::ReadOptions& ro,
                                  const UnknownRange& range) {
  std::unique_ptr<leveldb::Iterator> it(db->NewIterator(ro));
  int64_t n = 0;
  for (it->Seek(range.begin);
       it->Valid() && (range.end.empty() || it->key().compare(range.end) < 0);
       it->Next()) {
    ++n;
  }
  if (!it->status().ok()) {
    return storage::FromLevelDB(it->status(),
                                absl::StrCat("reading ", range.Describe()));
  }
  return n;
}

absl::StatusOr<std::map<uint32_t, int64_t>> KeyCountsById(leveldb::DB* db,
                                                          char tag) {
  std::map<uint32_t, int64_t> out;
  std::unique_ptr<leveldb::Iterator> it(
      db->NewIterator(storage::VerifiedRead()));
  for (it->Seek(std::string(1, tag)); it->Valid() && it->key()[0] == tag;
       it->Next()) {
    if (it->key().size() < 5) continue;
    ++out[DecodeU32(it->key().data() + 1)];
  }
  if (!it->status().ok()) {
    return storage::FromLevelDB(it->status(), "reading the database");
  }
  return out;
}

}  // namespace ttldb
