// Collection::Watch and Database::Watch: change streams over the change log
// (engine/change_log.cc), with MongoDB 8.0's event shape
// (src/mongo/db/pipeline/change_stream_event_transform.cpp,
// ChangeStreamDefaultEventTransformation::applyTransformation: _id,
// operationType, clusterTime, wallTime, fullDocument, ns, documentKey,
// updateDescription; the post-image and pre-image stages add fullDocument
// and fullDocumentBeforeChange after them).
#include "ttldb/change_stream.h"

#include <atomic>
#include <deque>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "base/status.h"
#include "document/compare.h"
#include "engine/backend.h"
#include "engine/db_impl.h"
#include "storage/change_log.h"
#include "ttldb/collection.h"
#include "ttldb/database.h"
#include "ttldb/json.h"

namespace ttldb {
namespace {

// Events read from the log per LevelDB scan.
constexpr size_t kReadAhead = 256;

// {_data: "82" + the clusterTime's 8 bytes in hex}: the first bytes of
// MongoDB's own tokens (resume_token.cpp: the KeyString of a Timestamp
// starts with type byte 130), so tokens of one database compare in event
// order, as MongoDB's do. Opaque to drivers.
// An invalidate event's token has a suffix (MongoDB's fromInvalidate):
// startAfter it starts after the drop, resumeAfter it is refused.
Value TokenOf(uint64_t seq, bool invalidate = false) {
  return Value::MakeObject(
      {{"_data",
        Value::String(absl::StrCat("82",
                                   absl::AsciiStrToUpper(absl::StrCat(
                                       absl::Hex(seq, absl::kZeroPad16))),
                                   invalidate ? "01" : ""))}});
}

bool IsInvalidateToken(const Value& token) {
  const Value* data = token.is_object() ? token.Get("_data") : nullptr;
  return data != nullptr && data->is_string() &&
         data->string_value().size() == 20 &&
         absl::EndsWith(data->string_value(), "01");
}

absl::StatusOr<uint64_t> SeqOfToken(const Value& token,
                                    absl::string_view field) {
  const Value* data = token.is_object() ? token.Get("_data") : nullptr;
  if (data == nullptr || !data->is_string()) {
    return MongoError(absl::StatusCode::kInvalidArgument, kBadValue,
                      absl::StrCat("'", field,
                                   "' must be a resume token: {_data: "
                                   "<hex string>}"));
  }
  const std::string& hex = data->string_value();
  uint64_t seq = 0;
  bool ok = hex.size() >= 18 && absl::StartsWith(hex, "82");
  for (size_t i = 2; ok && i < 18; ++i) {
    const char c = absl::ascii_tolower(hex[i]);
    int d = c >= '0' && c <= '9'   ? c - '0'
            : c >= 'a' && c <= 'f' ? c - 'a' + 10
                                   : -1;
    if (d < 0) ok = false;
    seq = (seq << 4) | static_cast<uint64_t>(d < 0 ? 0 : d);
  }
  if (!ok) {
    return MongoError(
        absl::StatusCode::kInvalidArgument, kBadValue,
        absl::StrCat("'", field, "' is not a resume token of ttldb: ", hex));
  }
  return seq;
}

absl::Status HistoryLost() {
  // resume_token / change_stream_history_lost: the same words as mongod's
  // "Resume of change stream was not possible, as the resume point may no
  // longer be in the oplog."
  return MongoError(absl::StatusCode::kOutOfRange, kChangeStreamHistoryLost,
                    "Resume of change stream was not possible, as the resume "
                    "point may no longer be in the change log (retention: "
                    "Options::change_log_retention, change_log_max_bytes)");
}

absl::StatusOr<Value> ParseJson(const std::string& json) {
  if (json.empty()) return Value::Null();
  return ParseDocument(json);
}

const char* OperationType(ChangeOp op) {
  switch (op) {
    case ChangeOp::kInsert:
      return "insert";
    case ChangeOp::kUpdate:
      return "update";
    case ChangeOp::kReplace:
      return "replace";
    case ChangeOp::kDelete:
      return "delete";
    case ChangeOp::kDrop:
      return "drop";
    case ChangeOp::kRename:
      return "rename";
    case ChangeOp::kDropDatabase:
      return "dropDatabase";
    case ChangeOp::kCreate:
      return "create";
    case ChangeOp::kCreateIndexes:
      return "createIndexes";
    case ChangeOp::kDropIndexes:
      return "dropIndexes";
  }
  return "unknown";
}

class ChangeStreamImpl : public ChangeStream {
 public:
  ChangeStreamImpl(DbImpl* engine, std::string coll,
                   ChangeStreamOptions options,
                   std::unique_ptr<EventPipeline> pipeline, uint64_t position)
      : engine_(engine),
        coll_(std::move(coll)),
        options_(std::move(options)),
        pipeline_(std::move(pipeline)),
        position_(position),
        read_(position) {}

  absl::StatusOr<std::optional<Value>> Next(absl::Duration timeout) override {
    if (!status_.ok()) return status_;
    if (invalidated_) return std::optional<Value>();
    if (invalidate_after_.has_value()) {
      // After the drop or rename of the watched collection
      // (document_source_change_stream_check_invalidate.cpp): the stream
      // ends with an invalidate event, which no stage filters out.
      invalidated_ = true;
      const uint64_t seq = *invalidate_after_;
      Value::Object ev;
      ev.emplace_back("_id", TokenOf(seq, /*invalidate=*/true));
      ev.emplace_back("operationType", Value::String("invalidate"));
      ev.emplace_back("clusterTime",
                      Value::Ts(Timestamp{static_cast<uint32_t>(seq >> 32),
                                          static_cast<uint32_t>(seq)}));
      ev.emplace_back("wallTime", Value::Date(invalidate_wall_));
      return std::optional<Value>(Value::MakeObject(std::move(ev)));
    }
    const absl::Time deadline = absl::Now() + timeout;
    while (true) {
      if (buffer_.empty()) {
        absl::Status s = Fill();
        if (!s.ok()) return status_ = s;
      }
      if (buffer_.empty()) {
        const absl::Duration left = deadline - absl::Now();
        if (left <= absl::ZeroDuration() || interrupted_.load()) {
          return std::optional<Value>();
        }
        engine_->WaitForChanges(read_, left, &interrupted_);
        RETURN_IF_ERROR(engine_->CheckOpen());
        continue;
      }
      auto [seq, record] = std::move(buffer_.front());
      buffer_.pop_front();
      position_ = seq;
      if (!Wanted(record)) continue;
      if (!coll_.empty() &&
          (record.op == ChangeOp::kDrop || record.op == ChangeOp::kRename)) {
        invalidate_after_ = seq;
        invalidate_wall_ = record.wall_millis;
      }
      absl::StatusOr<Value> event = MakeEvent(seq, record);
      if (!event.ok()) return status_ = event.status();
      const Value token =
          event->Get("_id") != nullptr ? *event->Get("_id") : Value::Null();
      absl::StatusOr<std::optional<Value>> out =
          pipeline_->Apply(*std::move(event));
      if (!out.ok()) return status_ = out.status();
      if (!out->has_value()) continue;
      const Value* id = (*out)->Get("_id");
      if (id == nullptr || !ExactEqual(*id, token)) {
        // document_source_change_stream_check_resumability: the token must
        // survive the pipeline, or the stream could not resume.
        return status_ = MongoError(
                   absl::StatusCode::kFailedPrecondition,
                   kChangeStreamFatalError,
                   "Encountered an event whose _id field, which contains the "
                   "resume token, was modified by the pipeline. Modifying the "
                   "_id field of an event makes it impossible to resume the "
                   "stream from that point. Only transformations that retain "
                   "the unmodified _id field are allowed.");
      }
      return out;
    }
  }

  Value ResumeToken() const override {
    return TokenOf(position_, invalidated_);
  }
  bool Invalidated() const override { return invalidated_; }
  void Interrupt() override {
    interrupted_.store(true);
    engine_->WakeChangeWaiters();
  }
  bool Interrupted() const override { return interrupted_.load(); }

 private:
  absl::Status Fill() {
    if (read_ < engine_->TrimmedChangeSeq()) return HistoryLost();
    std::vector<std::pair<uint64_t, ChangeRecord>> got;
    RETURN_IF_ERROR(engine_->ReadChanges(read_, kReadAhead, &got));
    // Retention may have trimmed between the check and the read.
    if (read_ < engine_->TrimmedChangeSeq() &&
        (got.empty() || got.front().first > read_ + 1)) {
      return HistoryLost();
    }
    for (auto& e : got) {
      read_ = e.first;
      buffer_.push_back(std::move(e));
    }
    return absl::OkStatus();
  }

  static bool IsDdl(ChangeOp op) {
    return op == ChangeOp::kCreate || op == ChangeOp::kCreateIndexes ||
           op == ChangeOp::kDropIndexes;
  }

  bool Wanted(const ChangeRecord& r) const {
    if (IsDdl(r.op) && !options_.show_expanded_events) return false;
    if (!coll_.empty()) return r.coll == coll_;
    return !absl::StartsWith(r.coll, "system.");
  }

  // A post- or pre-image stored with the event: the document, or null when
  // none was stored ("whenAvailable"), or 47 NoMatchingDocument when one
  // is "required".
  static absl::StatusOr<Value> Image(const std::string& json, bool required,
                                     absl::string_view kind, uint64_t seq) {
    if (!json.empty()) return ParseJson(json);
    if (!required) return Value::Null();
    return MongoError(
        absl::StatusCode::kNotFound, kNoMatchingDocument,
        absl::StrCat("Change stream was configured to require a ", kind,
                     "-image for all update, delete and replace events, but "
                     "the ",
                     kind,
                     "-image was not found for event: ", ToJson(TokenOf(seq))));
  }

  absl::StatusOr<Value> MakeEvent(uint64_t seq, const ChangeRecord& r) {
    Value::Object ev;
    ev.emplace_back("_id", TokenOf(seq));
    ev.emplace_back("operationType", Value::String(OperationType(r.op)));
    ev.emplace_back("clusterTime",
                    Value::Ts(Timestamp{static_cast<uint32_t>(seq >> 32),
                                        static_cast<uint32_t>(seq)}));
    ev.emplace_back("wallTime", Value::Date(r.wall_millis));
    const bool has_doc =
        r.op == ChangeOp::kInsert || r.op == ChangeOp::kReplace;
    if (has_doc) {
      ASSIGN_OR_RETURN(Value doc, ParseJson(r.doc_json));
      ev.emplace_back("fullDocument", std::move(doc));
    }
    ev.emplace_back(
        "ns",
        Value::MakeObject({{"db", Value::String(engine_->options().db_name)},
                           {"coll", Value::String(r.coll)}}));
    if (r.op == ChangeOp::kRename) {
      ev.emplace_back(
          "to",
          Value::MakeObject({{"db", Value::String(engine_->options().db_name)},
                             {"coll", Value::String(r.to_coll)}}));
    }
    ASSIGN_OR_RETURN(Value key, ParseJson(r.key_json));
    if (!key.is_null()) ev.emplace_back("documentKey", key);
    const bool expanded = options_.show_expanded_events;
    if (expanded && IsDdl(r.op)) {
      ASSIGN_OR_RETURN(Value desc, ParseJson(r.op_json));
      ev.emplace_back("operationDescription", std::move(desc));
    } else if (expanded && r.op == ChangeOp::kRename) {
      ev.emplace_back(
          "operationDescription",
          Value::MakeObject(
              {{"to", Value::MakeObject(
                          {{"db", Value::String(engine_->options().db_name)},
                           {"coll", Value::String(r.to_coll)}})}}));
    }
    if (r.op == ChangeOp::kUpdate) {
      ASSIGN_OR_RETURN(Value desc, ParseJson(r.update_json));
      // disambiguatedPaths is stored only when a path needs it; a stream
      // with showExpandedEvents always shows it, one without never.
      if (expanded && desc.Get("disambiguatedPaths") == nullptr) {
        desc.Set("disambiguatedPaths", Value::MakeObject());
      } else if (!expanded) {
        desc.Remove("disambiguatedPaths");
      }
      ev.emplace_back("updateDescription", std::move(desc));
      const std::string& mode = options_.full_document;
      if (mode == "updateLookup") {
        const Value* id = key.is_object() ? key.Get("_id") : nullptr;
        absl::StatusOr<Value> current =
            id == nullptr ? absl::StatusOr<Value>(absl::NotFoundError(""))
                          : engine_->collection(r.coll).FindById(*id);
        if (current.ok()) {
          ev.emplace_back("fullDocument", *std::move(current));
        } else if (absl::IsNotFound(current.status())) {
          ev.emplace_back("fullDocument", Value::Null());
        } else {
          return current.status();
        }
      } else if (mode == "whenAvailable" || mode == "required") {
        ASSIGN_OR_RETURN(Value doc,
                         Image(r.doc_json, mode == "required", "post", seq));
        ev.emplace_back("fullDocument", std::move(doc));
      }
    }
    const std::string& before = options_.full_document_before_change;
    if (before != "off" &&
        (r.op == ChangeOp::kUpdate || r.op == ChangeOp::kReplace ||
         r.op == ChangeOp::kDelete)) {
      ASSIGN_OR_RETURN(Value doc,
                       Image(r.pre_json, before == "required", "pre", seq));
      ev.emplace_back("fullDocumentBeforeChange", std::move(doc));
    }
    if (expanded && r.op == ChangeOp::kCreate) {
      ev.emplace_back("nsType", Value::String("collection"));
    }
    // Beyond MongoDB: a TTL deletion says so (docs/change_streams.md).
    if (r.expired) ev.emplace_back("expired", Value::Bool(true));
    return Value::MakeObject(std::move(ev));
  }

  DbImpl* const engine_;
  const std::string coll_;  // empty: every collection of the database
  const ChangeStreamOptions options_;
  std::unique_ptr<EventPipeline> pipeline_;
  uint64_t position_;  // the last event returned or skipped
  uint64_t read_;      // the last event read from the log
  std::deque<std::pair<uint64_t, ChangeRecord>> buffer_;
  absl::Status status_;
  // The watched collection's drop or rename was returned: next comes the
  // invalidate event, then nothing.
  std::optional<uint64_t> invalidate_after_;
  std::atomic<bool> interrupted_{false};
  int64_t invalidate_wall_ = 0;
  bool invalidated_ = false;
};

absl::StatusOr<std::unique_ptr<ChangeStream>> OpenStream(
    DbImpl* engine, const std::string& coll, const ChangeStreamOptions& o) {
  RETURN_IF_ERROR(engine->CheckOpen());
  if (!engine->options().change_log) {
    return MongoError(absl::StatusCode::kFailedPrecondition,
                      kChangeStreamNotSupported,
                      "The $changeStream stage is only supported on replica "
                      "sets, or on a ttldb database opened with its change "
                      "log (Options::change_log)");
  }
  const std::string& fd = o.full_document;
  if (fd != "default" && fd != "updateLookup" && fd != "whenAvailable" &&
      fd != "required") {
    return MongoError(absl::StatusCode::kInvalidArgument, kBadValue,
                      absl::StrCat("Enumeration value '", fd,
                                   "' for field 'fullDocument' is not a "
                                   "valid value."));
  }
  const std::string& fb = o.full_document_before_change;
  if (fb != "off" && fb != "whenAvailable" && fb != "required") {
    return MongoError(absl::StatusCode::kInvalidArgument, kBadValue,
                      absl::StrCat("Enumeration value '", fb,
                                   "' for field 'fullDocumentBeforeChange' is "
                                   "not a valid value."));
  }
  const int starts = o.resume_after.has_value() + o.start_after.has_value() +
                     o.start_at_operation_time.has_value();
  if (starts > 1) {
    // document_source_change_stream.cpp: 40674 / 50865.
    return MongoError(absl::StatusCode::kInvalidArgument, kBadValue,
                      "Only one type of resume option is allowed, but "
                      "multiple were found.");
  }
  uint64_t position = 0;
  bool resuming = true;
  if (o.resume_after.has_value()) {
    if (IsInvalidateToken(*o.resume_after)) {
      // document_source_change_stream.cpp (InvalidResumeToken).
      return MongoError(absl::StatusCode::kInvalidArgument, kInvalidResumeToken,
                        "Attempting to resume a change stream using "
                        "'resumeAfter' is not allowed from an invalidate "
                        "notification.");
    }
    ASSIGN_OR_RETURN(position, SeqOfToken(*o.resume_after, "resumeAfter"));
  } else if (o.start_after.has_value()) {
    ASSIGN_OR_RETURN(position, SeqOfToken(*o.start_after, "startAfter"));
  } else if (o.start_at_operation_time.has_value()) {
    const Timestamp ts = *o.start_at_operation_time;
    const uint64_t seq = (static_cast<uint64_t>(ts.t) << 32) | ts.i;
    position = seq == 0 ? 0 : seq - 1;
  } else {
    resuming = false;
    position = engine->LastChangeSeq();
  }
  if (resuming && position < engine->TrimmedChangeSeq()) return HistoryLost();
  ASSIGN_OR_RETURN(std::unique_ptr<EventPipeline> pipeline,
                   PrepareEventPipeline(engine, coll, o.pipeline));
  return std::unique_ptr<ChangeStream>(std::make_unique<ChangeStreamImpl>(
      engine, coll, o, std::move(pipeline), position));
}

}  // namespace

absl::StatusOr<std::unique_ptr<ChangeStream>> Collection::Watch(
    const ChangeStreamOptions& options) {
  if (backend_ != nullptr) return backend_->Watch(options);
  RETURN_IF_ERROR(ValidateCollectionName(name_));
  RETURN_IF_ERROR(engine_->RefuseView(name_));  // 166, as MongoDB's
  return OpenStream(engine_, name_, options);
}

absl::StatusOr<std::unique_ptr<ChangeStream>> Database::Watch(
    const ChangeStreamOptions& options) {
  if (backend_ != nullptr) return backend_->Watch(options);
  return OpenStream(engine_.get(), "", options);
}

}  // namespace ttldb
