// Tailable cursors over capped collections (commands/tailable_cursor.h).
#include "commands/tailable_cursor.h"

#include <algorithm>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "base/status.h"
#include "commands/command_args.h"
#include "commands/cursor_reply.h"
#include "document/compare.h"
#include "ttldb/json.h"

namespace ttldb {
namespace commands {
namespace {

// 1 s: mongod's wait of an awaitData getMore without maxTimeMS.
constexpr absl::Duration kDefaultAwait = absl::Seconds(1);
// 10 ms: how often a getMore looks again when no change stream wakes it.
constexpr absl::Duration kPollInterval = absl::Milliseconds(10);

}  // namespace

void NoteTailDocument(TailState* tail, const Value& doc) {
  const Value* id = doc.Get("_id");
  if (id == nullptr) return;  // projected away: the position stays
  if (!tail->last_id.has_value() || CompareValues(*id, *tail->last_id) > 0) {
    tail->last_id = *id;
  }
}

absl::StatusOr<std::shared_ptr<TailState>> CappedScanState(
    Collection& coll, const FindRequest& req) {
  const bool scan =
      (!req.filter.is_object() || req.filter.object_fields().empty()) &&
      req.options.sort.is_null() && req.options.hint.empty() &&
      req.options.hint_keys.is_null();
  if (!scan) return std::shared_ptr<TailState>();
  ASSIGN_OR_RETURN(Value options, coll.Options());
  if (options.Get("capped") == nullptr) return std::shared_ptr<TailState>();
  auto tail = std::make_shared<TailState>();
  tail->tailable = false;
  return tail;
}

absl::Status CheckCappedPosition(ServerCursor* cursor) {
  TailState* tail = cursor->tail.get();
  if (tail == nullptr || tail->tailable || !tail->last_id.has_value()) {
    return absl::OkStatus();
  }
  const std::string ns = cursor->ns;
  const std::string coll = ns.substr(ns.find('.') + 1);
  ASSIGN_OR_RETURN(std::optional<Value> doc,
                   cursor->database->collection(coll).FindOne(
                       Value::MakeObject({{"_id", *tail->last_id}})));
  if (doc.has_value()) return absl::OkStatus();
  // collection_scan.cpp: the record it stood on was deleted.
  return MongoError(absl::StatusCode::kAborted, kCappedPositionLost,
                    absl::StrCat("CollectionScan died due to position in "
                                 "capped collection being deleted. Last "
                                 "seen record id: ",
                                 ToJson(*tail->last_id)));
}

absl::StatusOr<Value> TailableFind(CommandContext& ctx, FindRequest req,
                                   std::shared_ptr<Database> db) {
  const std::string ns = Ns(ctx.db, req.collection);
  ASSIGN_OR_RETURN(std::vector<std::string> names, db->ListCollectionNames());
  if (std::find(names.begin(), names.end(), req.collection) == names.end()) {
    // No collection: nothing to tail, as mongod's EOF plan.
    return CursorReply(ns, 0, {}, true);
  }
  Collection& coll = db->collection(req.collection);
  ASSIGN_OR_RETURN(Value options, coll.Options());
  if (options.Get("capped") == nullptr) {
    // get_executor.cpp prepareExecution: only capped collections.
    return MongoError(absl::StatusCode::kInvalidArgument, kBadValue,
                      absl::StrCat("error processing query: ", ns,
                                   " tailable cursor requested on non capped "
                                   "collection"));
  }
  auto tail = std::make_shared<TailState>();
  tail->collection = req.collection;
  tail->filter = req.filter;
  tail->await_data = req.await_data;
  if (req.await_data) {
    // Watched before the read, so that no insert after it goes unnoticed.
    absl::StatusOr<std::unique_ptr<ChangeStream>> wake = coll.Watch({});
    if (wake.ok()) tail->wake = *std::move(wake);
  }
  {
    // The position before the read: the largest _id now.
    FindOptions last;
    last.sort = Value::MakeObject({{"$natural", Value::Int32(-1)}});
    last.limit = 1;
    last.projection = Value::MakeObject({{"_id", Value::Int32(1)}});
    ASSIGN_OR_RETURN(std::unique_ptr<Cursor> c,
                     coll.Find(Value::MakeObject(), last));
    ASSIGN_OR_RETURN(std::optional<Value> doc, c->Next());
    if (doc.has_value()) NoteTailDocument(tail.get(), *doc);
  }
  ASSIGN_OR_RETURN(std::unique_ptr<Cursor> engine_cursor,
                   coll.Find(req.filter, req.options));
  tail->options = req.options;
  tail->options.skip = 0;
  tail->options.limit = 0;
  auto cursor = std::make_unique<ServerCursor>();
  cursor->db = ctx.db;
  cursor->ns = ns;
  cursor->database = std::move(db);
  cursor->cursor = std::move(engine_cursor);
  cursor->tail = std::move(tail);
  cursor->remaining = req.options.limit > 0 ? req.options.limit : -1;
  return FirstBatchReply(ctx, std::move(cursor), req.batch_size,
                         /*single_batch=*/false);
}

void InterruptTail(TailState* tail) {
  tail->interrupted.store(true);
  if (tail->wake != nullptr) tail->wake->Interrupt();
}

absl::StatusOr<Value> TailableGetMore(CommandContext& ctx, ServerCursor* cursor,
                                      int64_t batch_size,
                                      std::optional<absl::Duration> max_await) {
  TailState* tail = cursor->tail.get();
  Clock* clock = ctx.server->clock;
  // What is left of the wait: a wait that times out ends it, one that an
  // event ends spends what it took (steady time).
  absl::Duration left = tail->await_data ? max_await.value_or(kDefaultAwait)
                                         : absl::ZeroDuration();
  absl::StatusOr<Value::Array> docs;
  bool exhausted = false;
  for (;;) {
    if (tail->at_end && !cursor->pending.has_value() &&
        tail->last_id.has_value()) {
      // Past the position, in natural order.
      Value after = Value::MakeObject(
          {{"_id", Value::MakeObject({{"$gt", *tail->last_id}})}});
      Value filter =
          tail->filter.is_object() && !tail->filter.object_fields().empty()
              ? Value::MakeObject(
                    {{"$and", Value::MakeArray({tail->filter, after})}})
              : after;
      absl::StatusOr<std::unique_ptr<Cursor>> c =
          cursor->database->collection(tail->collection)
              .Find(filter, tail->options);
      if (!c.ok()) {
        docs = c.status();
        break;
      }
      cursor->cursor = *std::move(c);
      tail->at_end = false;
    }
    docs = FillBatch(cursor, batch_size, &exhausted);
    if (!docs.ok() || !docs->empty() || exhausted || !tail->await_data ||
        left <= absl::ZeroDuration() || tail->interrupted.load()) {
      break;
    }
    if (tail->wake != nullptr && !tail->wake_failed) {
      const absl::Time before = clock->SteadyNow();
      absl::StatusOr<std::optional<Value>> event = tail->wake->Next(left);
      if (!event.ok()) {
        tail->wake_failed = true;  // then polling
      } else if (tail->interrupted.load()) {
        break;
      } else if (!event->has_value()) {
        left = absl::ZeroDuration();  // timed out: one more look
      } else {
        left -= std::max(clock->SteadyNow() - before, kPollInterval / 10);
      }
    } else {
      const absl::Duration nap = std::min(kPollInterval, left);
      absl::SleepFor(nap);
      left -= nap;
    }
  }
  const std::string ns = cursor->ns;
  const int64_t id = cursor->id;
  if (tail->interrupted.load()) {
    // killCursors came during the wait (mongod interrupts the getMore
    // with CursorKilled).
    ctx.server->cursors->Release(cursor, /*exhausted=*/true);
    return MongoError(absl::StatusCode::kAborted, kCursorKilled,
                      absl::StrCat("cursor id ", id, " was killed"));
  }
  ctx.server->cursors->Release(cursor, exhausted || !docs.ok());
  if (!docs.ok()) return docs.status();
  return CursorReply(ns, exhausted ? 0 : id, *std::move(docs), false);
}

}  // namespace commands
}  // namespace ttldb
