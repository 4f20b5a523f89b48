// The engine's side of the change log (storage/change_log.h): building the
// event of each document change into the batch that commits the change,
// handing out sequence numbers under write_mu_, recovering them at open,
// reading events for the change streams (engine/change_stream.cc), waking
// the streams that wait, and retention.
#include "storage/change_log.h"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "base/status.h"
#include "catalog/index_spec_proto.h"
#include "document/compare.h"
#include "engine/db_impl.h"
#include "index/index_spec.h"
#include "index/key_codec.h"
#include "leveldb/write_batch.h"
#include "storage/keys.h"
#include "storage/leveldb_status.h"
#include "ttldb/json.h"

namespace ttldb {
namespace {

// Events deleted per batch (and per hold of write_mu_) by retention.
constexpr size_t kTrimBatch = 1000;
// A trim that deleted at least this many events compacts their range, so
// a stream resumed near the start of the log does not step over the
// tombstones.
constexpr int64_t kCompactAfterTrimmed = 20'000;
// Below this estimate the log's size is counted exactly at open (a scan of
// at most about this many bytes).
constexpr uint64_t kExactSizeBelow = 8 << 20;

void AppendKeyJson(const Value& id, std::string* out) {
  out->append("{\"_id\":");
  AppendJson(id, JsonFormat::kStorage, out);
  out->push_back('}');
}

// MongoDB's updateDescription of the change from `old_v` to `new_v` (both
// objects), as the delta oplog entry's diff gives it
// (change_stream_document_diff_parser.cpp): changed or added fields as
// dotted paths into updatedFields (a subdocument present in both is
// compared field by field, an array element by element), removed fields in
// removedFields, arrays that got shorter in truncatedArrays ({field,
// newSize}), and in disambiguatedPaths each of those paths that a dotted
// string cannot say unambiguously (a numeric field name below the top, or a
// name with a dot, and everything below it) as the array of its parts,
// array indices as numbers.
class DiffBuilder {
 public:
  void Diff(const Value& old_v, const Value& new_v) {
    // A stored document may repeat a name (the JSON API accepts it): the
    // k-th field named N in new_v pairs with the k-th named N in old_v, as
    // Value::Set and the touch text path (engine/touch_text.h) change the
    // first. Hashing keeps a document of many fields linear, not quadratic.
    const Value::Object& old_fields = old_v.object_fields();
    absl::flat_hash_map<absl::string_view, std::vector<size_t>> old_at;
    old_at.reserve(old_fields.size());
    for (size_t i = 0; i < old_fields.size(); ++i) {
      old_at[old_fields[i].first].push_back(i);
    }
    absl::flat_hash_map<absl::string_view, size_t> new_count;
    for (const auto& [name, n] : new_v.object_fields()) {
      const size_t k = new_count[name]++;
      const auto it = old_at.find(name);
      Push(name);
      if (it == old_at.end() || k >= it->second.size()) {
        Updated(n);
      } else {
        DiffValue(old_fields[it->second[k]].second, n);
      }
      Pop();
    }
    absl::flat_hash_map<absl::string_view, size_t> old_count;
    for (const auto& [name, o] : old_fields) {
      const size_t k = old_count[name]++;
      const auto it = new_count.find(name);
      if (it == new_count.end() || k >= it->second) {
        Push(name);
        removed_.push_back(Value::String(path_));
        NoteAmbiguous();
        Pop();
      }
    }
  }

  // {updatedFields, removedFields, truncatedArrays[, disambiguatedPaths]}:
  // the last only when a path needs it (a stream without
  // showExpandedEvents leaves it out; one with it shows {} when absent).
  Value Description() && {
    Value::Object out = {
        {"updatedFields", Value::MakeObject(std::move(updated_))},
        {"removedFields", Value::MakeArray(std::move(removed_))},
        {"truncatedArrays", Value::MakeArray(std::move(truncated_))}};
    if (!disambiguated_.empty()) {
      out.emplace_back("disambiguatedPaths",
                       Value::MakeObject(std::move(disambiguated_)));
    }
    return Value::MakeObject(std::move(out));
  }

 private:
  struct Part {
    size_t path_size;  // path_'s size before this part
    bool index;        // an array index
    bool ambiguous;    // the path is ambiguous from this part on
  };

  void DiffValue(const Value& o, const Value& n) {
    if (o.is_object() && n.is_object()) {
      Diff(o, n);
      return;
    }
    if (o.is_array() && n.is_array()) {
      const Value::Array& oa = o.array_items();
      const Value::Array& na = n.array_items();
      if (na.size() < oa.size()) {
        truncated_.push_back(Value::MakeObject(
            {{"field", Value::String(path_)},
             {"newSize", Value::Int32(static_cast<int32_t>(na.size()))}}));
        NoteAmbiguous();
      }
      for (size_t i = 0; i < na.size(); ++i) {
        Push(absl::StrCat(i), /*index=*/true);
        if (i >= oa.size()) {
          Updated(na[i]);
        } else {
          DiffValue(oa[i], na[i]);
        }
        Pop();
      }
      return;
    }
    if (!ExactEqual(o, n)) Updated(n);
  }

  void Updated(const Value& v) {
    updated_.emplace_back(path_, v);
    NoteAmbiguous();
  }

  // FieldRef::isNumericPathComponentStrict: digits, no leading zero.
  static bool Numeric(absl::string_view s) {
    if (s.empty() || (s.size() > 1 && s[0] == '0')) return false;
    for (char c : s) {
      if (c < '0' || c > '9') return false;
    }
    return true;
  }

  void Push(absl::string_view part, bool index = false) {
    const bool before = !parts_.empty() && parts_.back().ambiguous;
    const bool ambiguous =
        before || (!index && ((!parts_.empty() && Numeric(part)) ||
                              part.find('.') != absl::string_view::npos));
    parts_.push_back({path_.size(), index, ambiguous});
    if (!path_.empty()) path_.push_back('.');
    path_.append(part.data(), part.size());
  }

  void Pop() {
    path_.resize(parts_.back().path_size);
    parts_.pop_back();
  }

  void NoteAmbiguous() {
    if (parts_.empty() || !parts_.back().ambiguous) return;
    Value::Array parts;
    for (size_t i = 0; i < parts_.size(); ++i) {
      const size_t begin =
          parts_[i].path_size + (parts_[i].path_size == 0 ? 0 : 1);
      const size_t end =
          i + 1 < parts_.size() ? parts_[i + 1].path_size : path_.size();
      const std::string part = path_.substr(begin, end - begin);
      int index = 0;
      if (parts_[i].index && absl::SimpleAtoi(part, &index)) {
        parts.push_back(Value::Int32(index));
      } else {
        parts.push_back(Value::String(part));
      }
    }
    disambiguated_.emplace_back(path_, Value::MakeArray(std::move(parts)));
  }

  std::string path_;
  std::vector<Part> parts_;
  Value::Object updated_;
  Value::Array removed_;
  Value::Array truncated_;
  Value::Object disambiguated_;
};

}  // namespace

void DbImpl::AppendChangeLocked(const ChangeRecord& record,
                                leveldb::WriteBatch* batch) {
  change_seq_ = NextChangeSeq(change_seq_, clock_->WallNow());
  const std::string key = ChangeLogKey(change_seq_);
  const std::string value = EncodeChangeRecord(record);
  batch->Put(key, value);
  change_log_bytes_.fetch_add(static_cast<int64_t>(key.size() + value.size()),
                              std::memory_order_relaxed);
  change_appended_.store(change_seq_, std::memory_order_release);
}

void DbImpl::LogDocumentChangeLocked(const CollectionState& state,
                                     const Value* old_doc, const Value* new_doc,
                                     absl::string_view new_json,
                                     bool replacement, bool expired,
                                     leveldb::WriteBatch* batch) {
  if (!change_log_on()) return;
  const bool images = state.info.change_stream_pre_and_post_images();
  ChangeRecord r;
  r.expired = expired;
  r.wall_millis = absl::ToUnixMillis(clock_->WallNow());
  r.coll = state.info.name();
  const Value* any = new_doc != nullptr ? new_doc : old_doc;
  AppendKeyJson(*any->Get("_id"), &r.key_json);
  if (old_doc == nullptr) {
    r.op = ChangeOp::kInsert;
    r.doc_json.assign(new_json.data(), new_json.size());
  } else if (new_doc == nullptr) {
    r.op = ChangeOp::kDelete;
  } else if (replacement) {
    r.op = ChangeOp::kReplace;
    r.doc_json.assign(new_json.data(), new_json.size());
  } else {
    r.op = ChangeOp::kUpdate;
    DiffBuilder diff;
    diff.Diff(*old_doc, *new_doc);
    AppendJson(std::move(diff).Description(), JsonFormat::kStorage,
               &r.update_json);
    if (images) r.doc_json.assign(new_json.data(), new_json.size());
  }
  if (images && old_doc != nullptr) {
    AppendJson(*old_doc, JsonFormat::kStorage, &r.pre_json);
  }
  AppendChangeLocked(r, batch);
}

void DbImpl::LogCatalogChangeLocked(absl::string_view coll,
                                    absl::string_view to,
                                    leveldb::WriteBatch* batch) {
  if (!change_log_on()) return;
  ChangeRecord r;
  r.op = to.empty() ? ChangeOp::kDrop : ChangeOp::kRename;
  r.wall_millis = absl::ToUnixMillis(clock_->WallNow());
  r.coll = std::string(coll);
  r.to_coll = std::string(to);
  AppendChangeLocked(r, batch);
}

void DbImpl::LogDdlLocked(ChangeOp op, absl::string_view coll,
                          const Value& description,
                          leveldb::WriteBatch* batch) {
  if (!change_log_on()) return;
  ChangeRecord r;
  r.op = op;
  r.wall_millis = absl::ToUnixMillis(clock_->WallNow());
  r.coll = std::string(coll);
  AppendJson(description, JsonFormat::kStorage, &r.op_json);
  AppendChangeLocked(r, batch);
}

void DbImpl::LogCreateLocked(const proto::CollectionInfo& info,
                             leveldb::WriteBatch* batch) {
  if (!change_log_on()) return;
  // The create oplog entry's fields but `create` (create_collection.cpp):
  // the _id index's spec.
  LogDdlLocked(
      ChangeOp::kCreate, info.name(),
      Value::MakeObject(
          {{"idIndex",
            Value::MakeObject(
                {{"v", Value::Int32(2)},
                 {"key", Value::MakeObject({{"_id", Value::Int32(1)}})},
                 {"name", Value::String("_id_")}})}}),
      batch);
  for (const proto::IndexSpec& spec : info.indexes()) {
    LogDdlLocked(
        ChangeOp::kCreateIndexes, info.name(),
        Value::MakeObject({{"indexes", Value::MakeArray({IndexSpecToValue(
                                           IndexSpecFromProto(spec))})}}),
        batch);
  }
}

void DbImpl::LogExpiredKeyLocked(const CollectionState& state,
                                 absl::string_view encoded_id,
                                 leveldb::WriteBatch* batch) {
  if (!change_log_on()) return;
  ChangeRecord r;
  r.op = ChangeOp::kDelete;
  r.expired = true;
  r.wall_millis = absl::ToUnixMillis(clock_->WallNow());
  r.coll = state.info.name();
  absl::string_view in = encoded_id;
  absl::StatusOr<Value> id = DecodeKeyValue(&in, /*descending=*/false);
  AppendKeyJson(id.ok() ? *id : Value::Null(), &r.key_json);
  AppendChangeLocked(r, batch);
}

void DbImpl::PublishChanges() {
  const uint64_t appended = change_appended_.load(std::memory_order_acquire);
  change_committed_.store(appended);
  if (change_waiters_.load() > 0) {
    MutexLock l(&change_mu_);
    change_cv_.SignalAll();
  }
}

uint64_t DbImpl::LastChangeSeq() {
  // The sequence handed out so far, queued commits included: no wait.
  WritersLock l(this, WritersLock::Grouped());
  return change_seq_;
}

void DbImpl::WakeChangeWaiters() {
  MutexLock l(&change_mu_);
  change_cv_.SignalAll();
}

void DbImpl::WaitForChanges(uint64_t after, absl::Duration timeout,
                            const std::atomic<bool>* interrupted) {
  const absl::Time deadline = absl::Now() + timeout;
  MutexLock l(&change_mu_);
  change_waiters_.fetch_add(1);
  while (change_committed_.load() <= after && !change_closing_.load() &&
         (interrupted == nullptr || !interrupted->load())) {
    const absl::Duration left = deadline - absl::Now();
    if (left <= absl::ZeroDuration()) break;
    change_cv_.WaitFor(left);
  }
  change_waiters_.fetch_sub(1);
}

absl::Status DbImpl::ReadChanges(
    uint64_t after, size_t max,
    std::vector<std::pair<uint64_t, ChangeRecord>>* out) {
  RETURN_IF_ERROR(CheckOpen());
  if (after == UINT64_MAX) return absl::OkStatus();
  std::unique_ptr<leveldb::Iterator> it(
      db_->NewIterator(storage::VerifiedRead()));
  for (it->Seek(ChangeLogKey(after + 1)); it->Valid() && out->size() < max;
       it->Next()) {
    uint64_t seq = 0;
    const absl::string_view key(it->key().data(), it->key().size());
    if (!ParseChangeLogKey(key, &seq)) break;  // past the log
    ChangeRecord r;
    RETURN_IF_ERROR(DecodeChangeRecord(
        absl::string_view(it->value().data(), it->value().size()), &r));
    out->emplace_back(seq, std::move(r));
  }
  if (!it->status().ok()) {
    return storage::FromLevelDB(it->status(), "reading the change log");
  }
  return absl::OkStatus();
}

absl::Status DbImpl::RecoverChangeLog() {
  std::string trimmed;
  leveldb::Status s =
      db_->Get(storage::VerifiedRead(), ChangeLogTrimmedKey(), &trimmed);
  uint64_t trimmed_seq = 0;
  if (s.ok()) {
    if (!DecodeSeq(trimmed, &trimmed_seq)) {
      return MongoError(absl::StatusCode::kDataLoss, kDataCorruptionDetected,
                        "the change log's trimmed mark is damaged");
    }
  } else if (!s.IsNotFound()) {
    return storage::FromLevelDB(s, "reading the change log");
  }
  uint64_t last = trimmed_seq;
  const std::string prefix = ChangeLogPrefix();
  // The log is not the data: a damaged block of it must not keep the
  // database from opening (docs/reliability.md). Streams that read the
  // damaged records fail with DataLoss; new sequence numbers start at the
  // current second, above every record written before it.
  auto damaged = [&](const leveldb::Status& s) {
    Log(LogLevel::kWarning,
        absl::StrCat("the change log could not be read at open (", s.ToString(),
                     "): new events start at the current time"));
    last = std::max(last, NextChangeSeq(0, clock_->WallNow()) - 1);
  };
  const std::string end = KeyPrefixEnd(prefix);
  std::unique_ptr<leveldb::Iterator> it(
      db_->NewIterator(storage::VerifiedRead()));
  it->Seek(end);
  if (it->Valid()) {
    it->Prev();
  } else {
    it->SeekToLast();
  }
  uint64_t seq = 0;
  if (it->Valid() &&
      ParseChangeLogKey(absl::string_view(it->key().data(), it->key().size()),
                        &seq)) {
    last = std::max(last, seq);
  }
  if (!it->status().ok()) damaged(it->status());
  uint64_t bytes = 0;
  leveldb::Range range(prefix, end);
  db_->GetApproximateSizes(&range, 1, &bytes);
  if (bytes < kExactSizeBelow) {
    // LevelDB's estimate counts table blocks only: a small log (in one
    // block, or in the memtable) reads as 0. Counted exactly instead.
    bytes = 0;
    for (it->Seek(prefix); it->Valid() && it->key().starts_with(prefix);
         it->Next()) {
      bytes += it->key().size() + it->value().size();
    }
    if (!it->status().ok()) damaged(it->status());
  }
  it.reset();
  if (!options_.change_log && !options_.read_only && bytes > 0) {
    // Opened without the log: what it held cannot be resumed across the
    // events this open does not write. It goes, and every older token is
    // history lost (286) once the log is on again.
    RETURN_IF_ERROR(DeleteRange(prefix, end));
    // Above the last event: a token of it is lost too (the checks compare
    // a stream's position with `<`).
    ++last;
    leveldb::WriteBatch batch;
    batch.Put(ChangeLogTrimmedKey(), EncodeSeq(last));
    leveldb::WriteOptions wo;
    wo.sync = true;
    leveldb::Status s = Commit(wo, &batch);
    if (!s.ok()) return storage::FromLevelDB(s, "clearing the change log");
    trimmed_seq = last;
    bytes = 0;
  }
  WritersLock l(this, WritersLock::Grouped());  // at open: nothing queued
  change_seq_ = last;
  change_appended_.store(last);
  change_committed_.store(last);
  change_trimmed_.store(trimmed_seq);
  change_log_bytes_.store(static_cast<int64_t>(bytes));
  return absl::OkStatus();
}

void DbImpl::AfterPass(absl::Time now) {
  absl::Status s = TrimChangeLog(now);
  if (!s.ok()) {
    Log(LogLevel::kWarning,
        absl::StrCat("change log retention: ", s.message()));
  }
}

absl::Status DbImpl::TrimChangeLog(absl::Time now) {
  if (options_.read_only) return absl::OkStatus();
  const bool by_age = options_.change_log_retention > absl::ZeroDuration();
  const int64_t cutoff_millis =
      by_age ? absl::ToUnixMillis(now - options_.change_log_retention)
             : INT64_MIN;
  const int64_t max_bytes = options_.change_log_max_bytes;
  int64_t deleted = 0;
  std::string first_deleted;
  while (true) {
    RETURN_IF_ERROR(CheckWritable());
    // Trims the oldest events, which no queued commit (each appends newer
    // ones) touches: no wait for them.
    WritersLock l(this, WritersLock::Grouped());
    leveldb::WriteBatch batch;
    uint64_t last_deleted = 0;
    size_t n = 0;
    int64_t freed = 0;
    std::unique_ptr<leveldb::Iterator> it(
        db_->NewIterator(storage::VerifiedRead()));
    for (it->Seek(ChangeLogKey(change_trimmed_.load() + 1));
         it->Valid() && n < kTrimBatch; it->Next()) {
      uint64_t seq = 0;
      const absl::string_view key(it->key().data(), it->key().size());
      if (!ParseChangeLogKey(key, &seq)) break;
      const absl::string_view value(it->value().data(), it->value().size());
      int64_t wall = INT64_MAX;
      ChangeRecord r;
      if (DecodeChangeRecord(value, &r).ok()) wall = r.wall_millis;
      const bool too_old = wall < cutoff_millis;
      const bool too_big =
          max_bytes > 0 && change_log_bytes_.load() - freed > max_bytes;
      if (!too_old && !too_big) break;
      if (first_deleted.empty()) first_deleted = std::string(key);
      DeleteChangeRecord(key, &batch);
      freed += static_cast<int64_t>(key.size() + value.size());
      last_deleted = seq;
      ++n;
    }
    if (!it->status().ok()) {
      return storage::FromLevelDB(it->status(), "reading the change log");
    }
    it.reset();
    if (n == 0) break;
    batch.Put(ChangeLogTrimmedKey(), EncodeSeq(last_deleted));
    leveldb::Status s = Commit(leveldb::WriteOptions(), &batch);
    if (!s.ok()) return storage::FromLevelDB(s, "trimming the change log");
    change_trimmed_.store(last_deleted);
    change_log_bytes_.fetch_sub(freed);
    deleted += static_cast<int64_t>(n);
    if (n < kTrimBatch) break;
  }
  if (deleted >= kCompactAfterTrimmed) {
    ScheduleCompaction(first_deleted, ChangeLogKey(change_trimmed_.load() + 1));
  }
  return absl::OkStatus();
}

}  // namespace ttldb
