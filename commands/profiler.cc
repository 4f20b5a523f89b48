#include "commands/profiler.h"

#include <random>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "base/op_context.h"
#include "base/status.h"
#include "commands/operation_registry.h"
#include "commands/server_state.h"
#include "document/bson.h"
#include "query/filter.h"
#include "ttldb/collection.h"
#include "ttldb/database.h"
#include "ttldb/options.h"

namespace ttldb {
namespace commands {
namespace {

// Neither profiled nor logged: the handshake and authentication (whose
// payloads mongod redacts), which every connection sends.
bool Unprofiled(absl::string_view name) {
  return name == "hello" || name == "isMaster" || name == "ismaster" ||
         name == "saslStart" || name == "saslContinue" || name == "ping" ||
         name == "buildInfo" || name == "buildinfo" || name == "endSessions";
}

double Uniform01() {
  thread_local std::mt19937_64 gen{std::random_device{}()};
  return std::uniform_real_distribution<double>(0.0, 1.0)(gen);
}

size_t BatchSize(const Value& reply) {
  const Value* cursor = reply.Get("cursor");
  if (cursor == nullptr || !cursor->is_object()) return 0;
  const Value* batch = cursor->Get("firstBatch");
  if (batch == nullptr) batch = cursor->Get("nextBatch");
  return batch != nullptr && batch->is_array() ? batch->array_items().size()
                                               : 0;
}

bool HasCursor(const Value& reply) { return reply.Get("cursor") != nullptr; }

// The write counts of insert/update/delete (OpDebug::append: ninserted,
// nMatched, nModified, nUpserted, ndeleted).
void AppendWriteCounts(absl::string_view name, const Value& reply,
                       Value::Object* out) {
  const Value* n = reply.Get("n");
  if (n == nullptr || !n->is_number()) return;
  const int64_t count = static_cast<int64_t>(n->AsDouble());
  if (name == "insert") {
    out->emplace_back("ninserted", NumberValue(count));
  } else if (name == "delete") {
    out->emplace_back("ndeleted", NumberValue(count));
  } else if (name == "update") {
    const Value* upserted = reply.Get("upserted");
    const int64_t nupserted =
        upserted != nullptr && upserted->is_array()
            ? static_cast<int64_t>(upserted->array_items().size())
            : 0;
    const Value* modified = reply.Get("nModified");
    out->emplace_back("nMatched", NumberValue(count - nupserted));
    out->emplace_back(
        "nModified",
        NumberValue(modified != nullptr && modified->is_number()
                        ? static_cast<int64_t>(modified->AsDouble())
                        : 0));
    if (nupserted > 0) {
      out->emplace_back("nUpserted", NumberValue(nupserted));
    }
  }
}

// findAndModify's counts, from its lastErrorObject {n, updatedExisting,
// upserted} (OpDebug's nMatched / nUpserted / ndeleted of
// find_and_modify.cpp). nModified is not known here and left out.
void AppendFindAndModifyCounts(const Value& cmd, const Value& reply,
                               Value::Object* out) {
  const Value* last = reply.Get("lastErrorObject");
  if (last == nullptr || !last->is_object()) return;
  const Value* n = last->Get("n");
  const int64_t count =
      n != nullptr && n->is_number() ? static_cast<int64_t>(n->AsDouble()) : 0;
  const Value* remove = cmd.Get("remove");
  if (remove != nullptr && remove->type() == ValueType::kBool &&
      remove->bool_value()) {
    out->emplace_back("ndeleted", NumberValue(count));
    return;
  }
  const bool upserted = last->Get("upserted") != nullptr;
  out->emplace_back("nMatched", NumberValue(upserted ? 0 : count));
  if (upserted) out->emplace_back("nUpserted", NumberValue(1));
}

// The index keys the operation wrote and deleted (OpDebug keysInserted /
// keysDeleted, the _id index's included), for the writes.
void AppendKeyCounts(absl::string_view name, const OpCounters& counters,
                     Value::Object* out) {
  if (name != "insert" && name != "update" && name != "delete" &&
      name != "findAndModify" && counters.keys_inserted == 0 &&
      counters.keys_deleted == 0) {
    return;
  }
  out->emplace_back("keysInserted", NumberValue(counters.keys_inserted));
  out->emplace_back("keysDeleted", NumberValue(counters.keys_deleted));
}

// A failed command's ok/errMsg/errName/errCode (OpDebug::append).
void AppendError(const Value& reply, Value::Object* out) {
  const Value* ok = reply.Get("ok");
  if (ok == nullptr || !ok->is_number() || ok->AsDouble() != 0) return;
  out->emplace_back("ok", Value::Int32(0));
  for (const char* f : {"errmsg", "codeName", "code"}) {
    const Value* v = reply.Get(f);
    if (v == nullptr) continue;
    const char* as = f[0] == 'e'   ? "errMsg"
                     : f[4] == 'N' ? "errName"
                                   : "errCode";
    out->emplace_back(as, *v);
  }
}

std::string AppName(const Operation& op) {
  if (op.client_metadata == nullptr) return "";
  const Value* app = op.client_metadata->Get("application");
  const Value* name =
      app != nullptr && app->is_object() ? app->Get("name") : nullptr;
  return name != nullptr && name->is_string() ? name->string_value() : "";
}

// The system.profile entry (src/mongo/db/introspect.cpp profile(),
// OpDebug::append).
Value ProfileEntry(const Operation& op, absl::string_view name,
                   const Value& reply, int64_t millis,
                   const OpCounters& counters) {
  Value::Object e;
  e.emplace_back("op", Value::String(std::string(LogicalOp(name))));
  e.emplace_back("ns", Value::String(CommandNs(op.db, *op.command)));
  e.emplace_back("command", *op.command);
  e.emplace_back("keysExamined", NumberValue(counters.keys_examined));
  e.emplace_back("docsExamined", NumberValue(counters.docs_examined));
  if (HasCursor(reply)) {
    const Value* cursor = reply.Get("cursor");
    const Value* id = cursor->is_object() ? cursor->Get("id") : nullptr;
    if (id != nullptr && id->is_number() && id->AsDouble() == 0) {
      e.emplace_back("cursorExhausted", Value::Bool(true));
    }
  }
  AppendWriteCounts(name, reply, &e);
  if (name == "findAndModify") {
    AppendFindAndModifyCounts(*op.command, reply, &e);
  }
  AppendKeyCounts(name, counters, &e);
  e.emplace_back("numYield", Value::Int32(0));
  if (HasCursor(reply)) {
    e.emplace_back("nreturned",
                   NumberValue(static_cast<int64_t>(BatchSize(reply))));
  }
  AppendError(reply, &e);
  e.emplace_back("locks", Value::MakeObject());
  e.emplace_back("flowControl", Value::MakeObject());
  e.emplace_back("responseLength",
                 NumberValue(static_cast<int64_t>(BsonDocumentSize(reply))));
  e.emplace_back("protocol", Value::String("op_msg"));
  e.emplace_back("millis", NumberValue(millis));
  if (!counters.plan_summary.empty()) {
    e.emplace_back("planSummary", Value::String(counters.plan_summary));
  }
  e.emplace_back("ts", Value::Date(absl::ToUnixMillis(op.start_wall)));
  e.emplace_back(
      "client",
      Value::String(op.peer->empty() ? std::string("127.0.0.1") : *op.peer));
  if (std::string app = AppName(op); !app.empty()) {
    e.emplace_back("appName", Value::String(std::move(app)));
  }
  Value::Array users;
  std::string user;
  if (op.user.has_value()) {
    users.push_back(Value::MakeObject({{"user", Value::String(op.user->user)},
                                       {"db", Value::String(op.user->db)}}));
    user = absl::StrCat(op.user->user, "@", op.user->db);
  }
  e.emplace_back("allUsers", Value::MakeArray(std::move(users)));
  e.emplace_back("user", Value::String(std::move(user)));
  return Value::MakeObject(std::move(e));
}

// The "Slow query" line's attributes (CurOp::completeAndLogOperation,
// OpDebug::report).
Value SlowQueryAttr(const Operation& op, absl::string_view name,
                    const Value& reply, int64_t millis,
                    const OpCounters& counters) {
  Value::Object a;
  a.emplace_back("type", Value::String("command"));
  a.emplace_back("isFromUserConnection", Value::Bool(true));
  a.emplace_back("ns", Value::String(CommandNs(op.db, *op.command)));
  a.emplace_back("collectionType", Value::String("normal"));
  if (std::string app = AppName(op); !app.empty()) {
    a.emplace_back("appName", Value::String(std::move(app)));
  }
  a.emplace_back("command", *op.command);
  if (!counters.plan_summary.empty()) {
    a.emplace_back("planSummary", Value::String(counters.plan_summary));
  }
  a.emplace_back("keysExamined", NumberValue(counters.keys_examined));
  a.emplace_back("docsExamined", NumberValue(counters.docs_examined));
  AppendWriteCounts(name, reply, &a);
  if (name == "findAndModify") {
    AppendFindAndModifyCounts(*op.command, reply, &a);
  }
  AppendKeyCounts(name, counters, &a);
  if (HasCursor(reply)) {
    a.emplace_back("nreturned",
                   NumberValue(static_cast<int64_t>(BatchSize(reply))));
  }
  a.emplace_back("numYields", Value::Int32(0));
  AppendError(reply, &a);
  a.emplace_back("reslen",
                 NumberValue(static_cast<int64_t>(BsonDocumentSize(reply))));
  a.emplace_back("locks", Value::MakeObject());
  a.emplace_back("protocol", Value::String("op_msg"));
  a.emplace_back("durationMillis", NumberValue(millis));
  return Value::MakeObject(std::move(a));
}

// `db`'s settings out of the profiler's tables (the caller holds its lock).
ProfileSettings SettingsOf(
    absl::string_view db, const absl::flat_hash_map<std::string, int>& levels,
    const absl::flat_hash_map<std::string, Value>& filters, int64_t slow_ms,
    double sample_rate) {
  ProfileSettings s;
  auto it = levels.find(db);
  if (it != levels.end()) s.level = it->second;
  auto f = filters.find(db);
  if (f != filters.end()) s.filter = f->second;
  s.slow_ms = slow_ms;
  s.sample_rate = sample_rate;
  return s;
}

}  // namespace

ProfileSettings Profiler::Get(absl::string_view db) const {
  absl::MutexLock lock(&mu_);
  return SettingsOf(db, levels_, filters_, slow_ms_, sample_rate_);
}

ProfileSettings Profiler::Set(absl::string_view db, const ProfileSettings& s) {
  absl::MutexLock lock(&mu_);
  ProfileSettings was =
      SettingsOf(db, levels_, filters_, slow_ms_, sample_rate_);
  if (s.level == 0) {
    levels_.erase(db);
  } else {
    levels_[db] = s.level;
  }
  if (s.filter.is_null()) {
    filters_.erase(db);
  } else {
    filters_[db] = s.filter;
  }
  slow_ms_ = s.slow_ms;
  sample_rate_ = s.sample_rate;
  slow_ms_fast_.store(s.slow_ms);
  any_profiled_.store(!levels_.empty() || !filters_.empty());
  return was;
}

void Profiler::Record(ServerState* server, const Operation& op,
                      const Value& reply, absl::Duration elapsed,
                      const OpCounters& counters) {
  const Value& cmd = *op.command;
  if (!cmd.is_object() || cmd.object_fields().empty()) return;
  const std::string& name = cmd.object_fields()[0].first;
  if (Unprofiled(name)) return;
  // Whole milliseconds, truncated, as mongod's executionTime.
  const int64_t millis = absl::ToInt64Milliseconds(elapsed);
  if (!any_profiled_.load() && millis < slow_ms_fast_.load()) return;
  const ProfileSettings s = Get(op.db);
  bool slow = false;
  bool profile = s.level == 2;
  Value entry;
  if (!s.filter.is_null()) {
    // A filter replaces slowms and sampleRate for both the log and level 1
    // (profile_filter_impl.cpp), matched against the profile entry.
    entry = ProfileEntry(op, name, reply, millis, counters);
    absl::StatusOr<Filter> f = Filter::Parse(s.filter);
    slow = f.ok() && f->Matches(entry);
    profile = profile || (s.level == 1 && slow);
  } else {
    // shouldLogSlowOpWithSampling: sampled and at least slowms.
    const bool sampled = s.sample_rate >= 1.0 || Uniform01() < s.sample_rate;
    slow = sampled && millis >= s.slow_ms;
    profile = profile || (s.level == 1 && slow);
  }
  if (slow) {
    server->log->Write(server->clock->WallNow(), "I", "COMMAND", 51803,
                       absl::StrCat("conn", op.connection_id), "Slow query",
                       SlowQueryAttr(op, name, reply, millis, counters));
  }
  // The profile command is never profiled: mongod raises an operation's
  // profiling level when it enters a namespace (CurOp::enter, from
  // AutoStatsTracker), which profile does not (jstests/core/administrative/
  // profile/profile_sampling.js counts exactly the operations between two
  // setProfilingLevel calls).
  if (!profile || name == "profile") return;
  absl::StatusOr<std::shared_ptr<Database>> db =
      server->databases->Get(op.db, /*create=*/false);
  if (!db.ok() || *db == nullptr) return;
  if (entry.is_null()) entry = ProfileEntry(op, name, reply, millis, counters);
  WriteEntry(db->get(), op.db, entry);
}

absl::Status Profiler::EnsureProfileCollection(Database* db,
                                               absl::string_view db_name) {
  Collection& coll = db->collection(kProfileCollection);
  ASSIGN_OR_RETURN(Value options, coll.Options());
  const Value* capped = options.Get("capped");
  if (capped != nullptr && capped->type() == ValueType::kBool &&
      capped->bool_value()) {
    return absl::OkStatus();
  }
  ValidationOptions capped_options;
  capped_options.capped_size = kMaxBytes;
  absl::Status created =
      db->CreateCollection(kProfileCollection, capped_options);
  if (created.ok() || ErrorCode(created) != kNamespaceExists) return created;
  // It exists: capped since the check above (another thread made it), or
  // a plain collection.
  ASSIGN_OR_RETURN(options, coll.Options());
  capped = options.Get("capped");
  if (capped != nullptr && capped->type() == ValueType::kBool &&
      capped->bool_value()) {
    return absl::OkStatus();
  }
  return MongoError(absl::StatusCode::kAlreadyExists, kNamespaceExists,
                    absl::StrCat(db_name, ".", kProfileCollection,
                                 " exists but isn't capped"));
}

void Profiler::Forget(absl::string_view db) {
  absl::MutexLock lock(&mu_);
  levels_.erase(db);
  filters_.erase(db);
  any_profiled_.store(!levels_.empty() || !filters_.empty());
}

void Profiler::WriteEntry(Database* db, const std::string& db_name,
                          const Value& entry) {
  // The profiler never fails the operation it records (profile_collection.cpp
  // logs and goes on); the capped collection bounds it.
  if (!EnsureProfileCollection(db, db_name).ok()) return;
  db->collection(kProfileCollection).InsertOne(entry).IgnoreError();
}

}  // namespace commands
}  // namespace ttldb
