#include "commands/server_log.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "commands/operation_registry.h"
#include "ttldb/json.h"

namespace ttldb {
namespace commands {

void ServerLog::Write(absl::Time t, absl::string_view severity,
                      absl::string_view component, int id,
                      absl::string_view ctx, absl::string_view msg,
                      const Value& attr) {
  // logv2's JSON formatter: t as {"$date": ISO-8601 with a +00:00 offset}.
  std::string date = IsoDateUtcOffset(t);
  Value::Object line = {
      {"t", Value::MakeObject({{"$date", Value::String(date)}})},
      {"s", Value::String(std::string(severity))},
      {"c", Value::String(std::string(component))},
      {"id", Value::Int32(id)},
      {"ctx", Value::String(std::string(ctx))},
      {"msg", Value::String(std::string(msg))},
  };
  if (attr.is_object()) line.emplace_back("attr", attr);
  std::string text = ToJson(Value::MakeObject(std::move(line)));
  if (sink_) sink_(text);
  absl::MutexLock lock(&mu_);
  ++total_;
  lines_.push_back(std::move(text));
  if (lines_.size() > kMaxLines) lines_.pop_front();
}

std::vector<std::string> ServerLog::Lines() const {
  absl::MutexLock lock(&mu_);
  return std::vector<std::string>(lines_.begin(), lines_.end());
}

int64_t ServerLog::total_lines_written() const {
  absl::MutexLock lock(&mu_);
  return total_;
}

}  // namespace commands
}  // namespace ttldb
