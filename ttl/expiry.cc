#include "ttl/expiry.h"

#include <limits>
#include <vector>

#include "document/path.h"

namespace ttldb {
namespace {

constexpr int64_t kInt64Max = std::numeric_limits<int64_t>::max();
constexpr int64_t kInt64Min = std::numeric_limits<int64_t>::min();

// The exact value of now - E * 1000 in milliseconds (128-bit: no
// intermediate can overflow for any int64 inputs).
__int128 ExactCutoffMillis(absl::Time now, int64_t expire_after_seconds) {
  return static_cast<__int128>(absl::ToUnixMillis(now)) -
         static_cast<__int128>(expire_after_seconds) * 1000;
}

void ConsiderDate(const Value& v, std::optional<int64_t>* earliest) {
  if (v.type() != ValueType::kDate) return;
  if (!earliest->has_value() || v.date_millis() < **earliest) {
    *earliest = v.date_millis();
  }
}

}  // namespace

std::optional<int64_t> EarliestIndexedDateMillis(const IndexSpec& spec,
                                                 const Value& doc) {
  if (spec.key.empty()) return std::nullopt;
  const std::string& path = spec.key[0].path;
  std::optional<int64_t> earliest;
  if (doc.is_object() && path.find('.') == std::string::npos) {
    // A top-level field (the usual TTL index): what CollectPathValues
    // collects for one component, without its vectors.
    const Value* v = doc.Get(path);
    if (v == nullptr) return earliest;
    if (v->is_array()) {
      for (const Value& item : v->array_items()) ConsiderDate(item, &earliest);
    } else {
      ConsiderDate(*v, &earliest);
    }
    return earliest;
  }
  std::vector<const Value*> values;
  CollectPathValues(doc, path, &values);
  for (const Value* v : values) {
    if (v->is_array()) {
      // An array at the end of the path contributes its elements (one
      // level, as index keys do); a nested array is not a Date.
      for (const Value& item : v->array_items()) ConsiderDate(item, &earliest);
    } else {
      ConsiderDate(*v, &earliest);
    }
  }
  return earliest;
}

int64_t CutoffMillis(absl::Time now, int64_t expire_after_seconds) {
  // ToUnixMillis rounds toward the infinite past (a Date equal to now's
  // millisecond is expired with E = 0) and saturates for infinite times.
  const __int128 exact = ExactCutoffMillis(now, expire_after_seconds);
  if (exact < kInt64Min) return kInt64Min;
  if (exact > kInt64Max) return kInt64Max;
  return static_cast<int64_t>(exact);
}

bool IsDateExpired(int64_t date_millis, int64_t expire_after_seconds,
                   absl::Time now) {
  // Infinite times are beyond every Date, whatever E is.
  if (now == absl::InfiniteFuture()) return true;
  if (now == absl::InfinitePast()) return false;
  return date_millis <= ExactCutoffMillis(now, expire_after_seconds);
}

bool IsExpired(const IndexSpec& spec, int64_t expire_after_seconds,
               const Value& doc, absl::Time now) {
  std::optional<int64_t> earliest = EarliestIndexedDateMillis(spec, doc);
  return earliest.has_value() &&
         IsDateExpired(*earliest, expire_after_seconds, now);
}

absl::Time ExpiryTime(int64_t date_millis, int64_t expire_after_seconds) {
  // absl::Time arithmetic saturates to the infinite future / past.
  return absl::FromUnixMillis(date_millis) +
         absl::Seconds(expire_after_seconds);
}

}  // namespace ttldb
