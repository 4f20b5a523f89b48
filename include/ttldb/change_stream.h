// Change streams on one database: the events of its change log
// (storage/change_log.h, Options::change_log) as MongoDB 8.0's change
// events, read in commit order with a blocking Next.
//
//   ChangeStreamOptions o;
//   o.full_document_before_change = "whenAvailable";
//   ASSIGN_OR_RETURN(auto stream, db->collection("files").Watch(o));
//   while (running) {
//     ASSIGN_OR_RETURN(std::optional<Value> event,
//                      stream->Next(absl::Seconds(1)));
//     if (!event) continue;        // nothing committed within the second
//     Handle(*event);
//     SaveSomewhere(stream->ResumeToken());   // resume_after, later
//   }
//
// Relation to Options::expiry_listener: the listener is a callback on the
// deleting thread, in memory only: a process that stops misses what
// expired meanwhile, and it sees nothing but TTL deletions. A stream reads
// the durable log: every change, including each TTL deletion (a `delete`
// event with `expired: true`, carrying the expired document as
// fullDocumentBeforeChange when the collection keeps pre-images), and it
// resumes after a restart from the token it last saw, without loss or
// duplicates, as long as the log still holds it (Options::
// change_log_retention, change_log_max_bytes; else 286).
#ifndef TTLDB_CHANGE_STREAM_H_
#define TTLDB_CHANGE_STREAM_H_

#include <optional>
#include <string>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "ttldb/value.h"

namespace ttldb {

// MongoDB's $changeStream options (document_source_change_stream.idl).
// At most one of resume_after, start_after, start_at_operation_time; none:
// the stream starts after the last change committed before Watch.
struct ChangeStreamOptions {
  // A resume token ({_data: "<hex>"}, an event's _id or ResumeToken()):
  // the stream starts after that event. start_after is the same, and also
  // takes an invalidate event's token (resume_after refuses it: 260).
  std::optional<Value> resume_after;
  std::optional<Value> start_after;
  // The first event at or after this clusterTime.
  std::optional<Timestamp> start_at_operation_time;
  // "default" (insert and replace events carry fullDocument),
  // "updateLookup" (update events too: the document as it is when the
  // event is read, null when gone), "whenAvailable" / "required" (update
  // events carry the post-image stored with the event when the collection
  // has changeStreamPreAndPostImages; "required" fails with 47
  // NoMatchingDocument without one).
  std::string full_document = "default";
  // "off", "whenAvailable" or "required": update, replace and delete
  // events carry fullDocumentBeforeChange, the document before the change,
  // when the collection has changeStreamPreAndPostImages.
  std::string full_document_before_change = "off";
  // MongoDB's showExpandedEvents: DDL events too (create, createIndexes,
  // dropIndexes), and with them operationDescription (DDL and rename
  // events) and updateDescription.disambiguatedPaths. ttldb's collections
  // have no UUID: events carry no collectionUUID.
  bool show_expanded_events = false;
  // Stages run over each event ($match, $project, $addFields, $set,
  // $unset, $replaceRoot, $replaceWith): a JSON array or null.
  Value pipeline;
};

// An open change stream. Not thread-safe (one thread at a time); must be
// destroyed before its Database. Database::Close wakes a Next that waits,
// which then fails with FailedPrecondition.
class ChangeStream {
 public:
  virtual ~ChangeStream() = default;
  // The next event, waiting up to `timeout` for one to be committed;
  // std::nullopt if none came in time. Errors: 286 ChangeStreamHistoryLost
  // when retention deleted events the stream had not read yet; 280
  // ChangeStreamFatalError when the pipeline changed an event's _id; the
  // pipeline's own errors.
  virtual absl::StatusOr<std::optional<Value>> Next(absl::Duration timeout) = 0;
  // The token to resume after everything this stream has returned or
  // skipped (filtered out, other collections): the _id of the last event
  // returned, or a later position. MongoDB's postBatchResumeToken.
  virtual Value ResumeToken() const = 0;
  // True once a collection's stream has returned its invalidate event (the
  // collection was dropped or renamed): Next then returns std::nullopt at
  // once. Open a new stream with start_after = ResumeToken() to go on.
  virtual bool Invalidated() const = 0;
  // Thread-safe, unlike the rest: a Next waiting now returns std::nullopt
  // at once, and later ones do not wait (what is committed still comes).
  // killCursors of a stream's cursor during its getMore, which then fails
  // with 237 CursorKilled, as mongod's.
  virtual void Interrupt() = 0;
  virtual bool Interrupted() const = 0;
};

}  // namespace ttldb

#endif  // TTLDB_CHANGE_STREAM_H_
