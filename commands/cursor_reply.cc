#include "commands/cursor_reply.h"

#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "base/op_deadline.h"
#include "base/sha256.h"
#include "base/status.h"
#include "commands/command_args.h"
#include "commands/server_state.h"
#include "commands/tailable_cursor.h"
#include "document/bson.h"
#include "ttldb/json.h"

namespace ttldb {
namespace commands {
namespace {
// 16 MiB: a reply batch stays within BSONObjMaxUserSize (find_common.cpp).
constexpr size_t kMaxBatchBytes = 16 * 1024 * 1024;
}  // namespace

absl::StatusOr<Value::Array> FillBatch(ServerCursor* c, int64_t batch_size,
                                       bool* exhausted) {
  Value::Array batch;
  size_t bytes = 0;
  *exhausted = false;
  while (batch_size <= 0 || static_cast<int64_t>(batch.size()) < batch_size) {
    if (c->remaining == 0) {
      *exhausted = true;
      break;
    }
    std::optional<Value> doc;
    if (c->pending.has_value()) {
      doc = std::move(c->pending);
      c->pending.reset();
    } else {
      ASSIGN_OR_RETURN(doc, c->cursor->Next());
    }
    if (!doc.has_value()) {
      if (c->tail != nullptr && c->tail->tailable) {
        // A tailable cursor stays open at the end, unless it never had a
        // position (an empty collection).
        c->tail->at_end = true;
        if (!c->tail->last_id.has_value()) *exhausted = true;
        break;
      }
      *exhausted = true;
      break;
    }
    const size_t size = BsonDocumentSize(*doc);
    if (!batch.empty() && bytes + size > kMaxBatchBytes) {
      c->pending = std::move(doc);
      break;
    }
    bytes += size;
    batch.push_back(*std::move(doc));
    if (c->tail != nullptr) NoteTailDocument(c->tail.get(), batch.back());
    if (c->remaining > 0) --c->remaining;
  }
  if (c->remaining == 0) *exhausted = true;
  return batch;
}

Value CursorReply(absl::string_view ns, int64_t id, Value::Array batch,
                  bool first) {
  return Value::MakeObject(
      {{"cursor", Value::MakeObject({{first ? "firstBatch" : "nextBatch",
                                      Value::MakeArray(std::move(batch))},
                                     {"id", Value::Int64(id)},
                                     {"ns", Value::String(std::string(ns))}})},
       {"ok", Value::Double(1)}});
}

namespace {

// 16 bytes as a UUID's text: 8-4-4-4-12 lowercase hex digits.
std::string UuidText(absl::string_view b) {
  std::string hex = absl::BytesToHexString(b);
  return absl::StrCat(hex.substr(0, 8), "-", hex.substr(8, 4), "-",
                      hex.substr(12, 4), "-", hex.substr(16, 4), "-",
                      hex.substr(20));
}

}  // namespace

std::optional<std::string> SessionOf(const CommandContext& ctx) {
  const Value* lsid = ctx.cmd.Get("lsid");
  if (lsid == nullptr) return std::nullopt;
  const Value* id = lsid->is_object() ? lsid->Get("id") : nullptr;
  std::string id_text = id != nullptr && id->type() == ValueType::kBinary &&
                                id->binary_value().data.size() == 16
                            ? UuidText(id->binary_value().data)
                            : ToJson(*lsid);
  // The user's digest (logical_session_id_helpers.cpp
  // getLogicalSessionUserDigestFor): SHA-256 of "user@db", of "" without
  // a user (kNoAuthDigest).
  std::string user;
  if (ctx.server->options.auth && ctx.connection != nullptr &&
      ctx.connection->user() != nullptr) {
    user = absl::StrCat(ctx.connection->user()->user, "@",
                        ctx.connection->user()->db);
  }
  return absl::StrCat(id_text, " - ", absl::Base64Escape(Sha256(user)),
                      " -  - ");
}

CursorRequester RequesterOf(const CommandContext& ctx) {
  CursorRequester r;
  r.session = SessionOf(ctx);
  if (!ctx.server->options.auth) return r;
  r.check_owner = true;
  if (ctx.connection != nullptr && ctx.connection->user() != nullptr) {
    r.user = *ctx.connection->user();
  }
  return r;
}

absl::StatusOr<Value> FirstBatchReply(CommandContext& ctx,
                                      std::unique_ptr<ServerCursor> cursor,
                                      int64_t batch_size, bool single_batch) {
  bool exhausted = false;
  Value::Array batch;
  if (batch_size != 0) {
    // batchSize 0 asks for an open cursor and no documents yet.
    ASSIGN_OR_RETURN(batch,
                     FillBatch(cursor.get(),
                               batch_size < 0 ? kDefaultFirstBatch : batch_size,
                               &exhausted));
  }
  const std::string ns = cursor->ns;
  if (const ScopedOpDeadline* d = CurrentOpDeadline(); d != nullptr) {
    cursor->time_left = d->deadline() - d->clock()->SteadyNow();
  }
  if (exhausted || single_batch)
    return CursorReply(ns, 0, std::move(batch), true);
  ASSIGN_OR_RETURN(ServerCursor * registered,
                   RegisterCursor(ctx, std::move(cursor)));
  const int64_t id = registered->id;
  ctx.server->cursors->Release(registered, /*exhausted=*/false);
  return CursorReply(ns, id, std::move(batch), true);
}

absl::StatusOr<ServerCursor*> RegisterCursor(
    CommandContext& ctx, std::unique_ptr<ServerCursor> cursor) {
  cursor->connection_id = ctx.connection == nullptr
                              ? 0
                              : static_cast<uint64_t>(ctx.connection->id());
  cursor->owner = RequesterOf(ctx).user;
  cursor->session = SessionOf(ctx);
  return ctx.server->cursors->Register(std::move(cursor));
}

absl::StatusOr<int64_t> CursorBatchSize(const Value& cursor_opts,
                                        absl::string_view command) {
  if (!cursor_opts.is_object()) return -1;
  const Value* b = cursor_opts.Get("batchSize");
  if (b == nullptr) return -1;
  if (!b->is_number()) {
    return IdlWrongTypes(absl::StrCat(command, ".cursor.batchSize"), *b,
                         "[long, int, decimal, double]");
  }
  const int64_t batch_size = static_cast<int64_t>(b->AsDouble());
  if (batch_size < 0) {
    return IdlBadValue("batchSize", ">= 0", batch_size);
  }
  return batch_size;
}

namespace {

// Documents held in memory, as an engine cursor.
class ArrayCursor : public Cursor {
 public:
  explicit ArrayCursor(Value::Array docs) : docs_(std::move(docs)) {}
  absl::StatusOr<std::optional<Value>> Next() override {
    if (next_ == docs_.size()) return std::optional<Value>();
    return std::optional<Value>(std::move(docs_[next_++]));
  }

 private:
  Value::Array docs_;
  size_t next_ = 0;
};

}  // namespace

absl::StatusOr<Value> ArrayCursorReply(CommandContext& ctx, std::string ns,
                                       Value::Array docs, int64_t batch_size) {
  auto cursor = std::make_unique<ServerCursor>();
  cursor->db = ctx.db;
  cursor->ns = std::move(ns);
  cursor->cursor = std::make_unique<ArrayCursor>(std::move(docs));
  ASSIGN_OR_RETURN(
      Value reply,
      FirstBatchReply(
          ctx, std::move(cursor),
          batch_size < 0 ? std::numeric_limits<int64_t>::max() : batch_size,
          /*single_batch=*/false));
  // {id, ns, firstBatch}: listCollections' and listIndexes' order.
  const Value* c = reply.Get("cursor");
  return Value::MakeObject(
      {{"cursor", Value::MakeObject({{"id", *c->Get("id")},
                                     {"ns", *c->Get("ns")},
                                     {"firstBatch", *c->Get("firstBatch")}})},
       {"ok", Value::Double(1)}});
}

}  // namespace commands
}  // namespace ttldb
