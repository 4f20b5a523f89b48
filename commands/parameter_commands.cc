// getParameter / setParameter for the TTL monitor's run-time parameters
// (src/mongo/db/ttl/ttl.idl), allowDiskUseByDefault (query_knobs.idl) and
// featureCompatibilityVersion, which mongosh asks for. A setting applies to
// every open database and to those opened later.
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "base/status.h"
#include "commands/command_args.h"
#include "commands/command_context.h"
#include "commands/reply.h"
#include "ttldb/json.h"

namespace ttldb {
namespace commands {
namespace {

// A whole number (Int32, Int64 or a Double without a fraction).
absl::StatusOr<int64_t> WholeNumber(const Value& v, absl::string_view name) {
  if (v.type() == ValueType::kInt32 || v.type() == ValueType::kInt64) {
    return v.int64_value();
  }
  if ((v.type() == ValueType::kDouble || v.type() == ValueType::kDecimal) &&
      std::isfinite(v.AsDouble()) && std::trunc(v.AsDouble()) == v.AsDouble() &&
      std::fabs(v.AsDouble()) < 9e15) {
    return static_cast<int64_t>(v.AsDouble());
  }
  return MongoError(absl::StatusCode::kInvalidArgument, kBadValue,
                    absl::StrCat("Invalid value for parameter ", name, ": ",
                                 ToJson(v), " is not a whole number"));
}

absl::Status NotBoolean(absl::string_view name, const Value& v) {
  return MongoError(absl::StatusCode::kInvalidArgument, kBadValue,
                    absl::StrCat("Invalid value for parameter ", name, ": ",
                                 ToJson(v), " is not a boolean"));
}

// Applies `apply` to every open database, then records `update` for the
// databases opened later.
absl::Status ApplyEverywhere(
    ServerState* s, const std::function<absl::Status(Database*)>& apply,
    const std::function<void(Options*)>& update) {
  absl::Status first;
  s->databases->ForEachOpen([&](const std::string&, Database* db) {
    absl::Status st = apply(db);
    if (first.ok() && !st.ok()) first = st;
  });
  RETURN_IF_ERROR(first);
  s->databases->UpdateOptions(update);
  return absl::OkStatus();
}

Value Was(Value was) { return OkReply({{"was", std::move(was)}}); }

// {setParameter: 1, ttlMonitorSleepSecs: N} -> {was: <old>, ok: 1}. One
// parameter per command, as MongoDB requires.
absl::StatusOr<Value> SetParameter(CommandContext& ctx) {
  const auto& fields = ctx.cmd.object_fields();
  std::vector<const Field*> params;
  for (size_t i = 1; i < fields.size(); ++i) {
    if (!IsGenericArgument(fields[i].first)) params.push_back(&fields[i]);
  }
  if (params.size() != 1) {
    return MongoError(absl::StatusCode::kInvalidArgument, kBadValue,
                      params.empty()
                          ? "no option found to set, use help:true to see "
                            "options "
                          : "Only one parameter can be set at a time");
  }
  const std::string& name = params[0]->first;
  const Value& value = params[0]->second;
  ServerState* s = ctx.server;
  const Options o = s->databases->options();
  if (name == "ttlMonitorSleepSecs") {
    ASSIGN_OR_RETURN(int64_t secs, WholeNumber(value, name));
    if (secs < 1 || secs > std::numeric_limits<int32_t>::max()) {
      return MongoError(
          absl::StatusCode::kInvalidArgument, kBadValue,
          absl::StrCat("Invalid value for parameter ttlMonitorSleepSecs: ",
                       secs, " is not greater than or equal to 1"));
    }
    RETURN_IF_ERROR(ApplyEverywhere(
        s,
        [&](Database* db) {
          return db->SetTtlMonitorSleep(absl::Seconds(secs));
        },
        [&](Options* opt) { opt->ttl_monitor_sleep = absl::Seconds(secs); }));
    return Was(Count(absl::ToInt64Seconds(o.ttl_monitor_sleep)));
  }
  // MongoDB's int parameters with validator gte 0 (ttl.idl).
  if (name == "ttlIndexDeleteTargetDocs" ||
      name == "ttlIndexDeleteTargetTimeMS" ||
      name == "ttlMonitorSubPassTargetSecs") {
    ASSIGN_OR_RETURN(int64_t n, WholeNumber(value, name));
    if (n < 0 || n > std::numeric_limits<int32_t>::max()) {
      return MongoError(absl::StatusCode::kInvalidArgument, kBadValue,
                        absl::StrCat("Invalid value for parameter ", name, ": ",
                                     n, " is not greater than or equal to 0"));
    }
    if (name == "ttlIndexDeleteTargetDocs") {
      RETURN_IF_ERROR(ApplyEverywhere(
          s, [&](Database* db) { return db->SetTtlBatchDocsMax(n); },
          [&](Options* opt) { opt->ttl_batch_docs_max = n; }));
      return Was(Count(o.ttl_batch_docs_max));
    }
    if (name == "ttlIndexDeleteTargetTimeMS") {
      RETURN_IF_ERROR(ApplyEverywhere(
          s,
          [&](Database* db) {
            return db->SetTtlBatchTimeMax(absl::Milliseconds(n));
          },
          [&](Options* opt) {
            opt->ttl_batch_time_max = absl::Milliseconds(n);
          }));
      return Was(Count(absl::ToInt64Milliseconds(o.ttl_batch_time_max)));
    }
    RETURN_IF_ERROR(ApplyEverywhere(
        s,
        [&](Database* db) { return db->SetTtlSubPassTarget(absl::Seconds(n)); },
        [&](Options* opt) { opt->ttl_sub_pass_target = absl::Seconds(n); }));
    return Was(Count(absl::ToInt64Seconds(o.ttl_sub_pass_target)));
  }
  if (name == "ttlMonitorBatchDeletes") {
    if (value.type() != ValueType::kBool) return NotBoolean(name, value);
    const bool b = value.bool_value();
    RETURN_IF_ERROR(ApplyEverywhere(
        s, [&](Database* db) { return db->SetTtlBatchDeletes(b); },
        [&](Options* opt) { opt->ttl_batch_deletes = b; }));
    return Was(Value::Bool(o.ttl_batch_deletes));
  }
  if (name == "allowDiskUseByDefault") {
    if (value.type() != ValueType::kBool) return NotBoolean(name, value);
    return Was(
        Value::Bool(s->allow_disk_use_by_default.exchange(value.bool_value())));
  }
  if (name == "ttlMonitorEnabled") {
    if (value.type() != ValueType::kBool) return NotBoolean(name, value);
    const bool b = value.bool_value();
    RETURN_IF_ERROR(ApplyEverywhere(
        s, [&](Database* db) { return db->SetTtlMonitorEnabled(b); },
        [&](Options* opt) { opt->ttl_monitor_enabled = b; }));
    return Was(Value::Bool(o.ttl_monitor_enabled));
  }
  return MongoError(absl::StatusCode::kInvalidArgument, kBadValue,
                    absl::StrCat("attempted to set unrecognized parameter [",
                                 name, "], use help:true to see options "));
}

// {getParameter: 1, ttlMonitorSleepSecs: 1} -> {ttlMonitorSleepSecs: 60,
// ok: 1}; getParameter: "*" returns every parameter ttldb has.
absl::StatusOr<Value> GetParameter(CommandContext& ctx) {
  const Options o = ctx.server->databases->options();
  Value::Object out;
  auto add = [&](absl::string_view name) {
    Value v;
    if (name == "allowDiskUseByDefault") {
      v = Value::Bool(ctx.server->allow_disk_use_by_default.load());
    } else if (name == "ttlMonitorSleepSecs") {
      v = Count(absl::ToInt64Seconds(o.ttl_monitor_sleep));
    } else if (name == "ttlMonitorEnabled") {
      v = Value::Bool(o.ttl_monitor_enabled);
    } else if (name == "ttlMonitorBatchDeletes") {
      v = Value::Bool(o.ttl_batch_deletes);
    } else if (name == "ttlIndexDeleteTargetDocs") {
      v = Count(o.ttl_batch_docs_max);
    } else if (name == "ttlIndexDeleteTargetTimeMS") {
      v = Count(absl::ToInt64Milliseconds(o.ttl_batch_time_max));
    } else if (name == "ttlMonitorSubPassTargetSecs") {
      v = Count(absl::ToInt64Seconds(o.ttl_sub_pass_target));
    } else if (name == "featureCompatibilityVersion") {
      v = Value::MakeObject({{"version", Value::String("8.0")}});
    } else {
      return false;
    }
    out.emplace_back(std::string(name), std::move(v));
    return true;
  };
  const Value& selector = ctx.first();
  if (selector.is_string() && selector.string_value() == "*") {
    for (absl::string_view n :
         {"allowDiskUseByDefault", "featureCompatibilityVersion",
          "ttlIndexDeleteTargetDocs", "ttlIndexDeleteTargetTimeMS",
          "ttlMonitorBatchDeletes", "ttlMonitorEnabled", "ttlMonitorSleepSecs",
          "ttlMonitorSubPassTargetSecs"}) {
      add(n);
    }
    return OkReply(std::move(out));
  }
  const auto& fields = ctx.cmd.object_fields();
  for (size_t i = 1; i < fields.size(); ++i) {
    const std::string& name = fields[i].first;
    if (IsGenericArgument(name)) continue;
    if (!add(name)) {
      return MongoError(absl::StatusCode::kInvalidArgument, kInvalidOptions,
                        absl::StrCat("no option found to get: ", name));
    }
  }
  if (out.empty()) {
    return MongoError(absl::StatusCode::kInvalidArgument, kInvalidOptions,
                      "no option found to get");
  }
  return OkReply(std::move(out));
}

}  // namespace

void AddParameterCommands(std::vector<CommandSpec>* specs) {
  specs->push_back({"setParameter", SetParameter, /*admin_only=*/true});
  specs->push_back({"getParameter", GetParameter, /*admin_only=*/true});
}

}  // namespace commands
}  // namespace ttldb
