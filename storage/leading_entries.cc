#include "storage/leading_entries.h"

#include "index/key_codec.h"
#include "storage/collection_state.h"
#include "ttldb/value.h"

namespace ttldb {
namespace {

// The first byte of every ascending Date key (its type bracket).
char AscendingDateTag() {
  static const char tag = [] {
    std::string out;
    AppendKeyValue(Value::Date(0), /*descending=*/false, &out);
    return out[0];
  }();
  return tag;
}

}  // namespace

bool LeadingEntries::Eligible(const IndexState& index) {
  return index.ttl_seconds.has_value() && index.spec.key.size() == 1 &&
         index.spec.key[0].direction > 0;
}

std::string LeadingEntries::DateBracket(absl::string_view prefix) {
  std::string out(prefix);
  out.push_back(AscendingDateTag());
  return out;
}

bool LeadingEntries::IsBelowDates(absl::string_view key, size_t prefix_size) {
  return key.size() > prefix_size &&
         static_cast<unsigned char>(key[prefix_size]) <
             static_cast<unsigned char>(AscendingDateTag());
}

void LeadingEntries::Set(const std::string& prefix, int64_t count) {
  MutexLock l(&mu_);
  counts_[prefix] = count;
}

void LeadingEntries::SetNotTracked(const std::string& prefix) {
  MutexLock l(&mu_);
  counts_[prefix] = kNotTracked;
}

void LeadingEntries::Erase(const std::string& prefix) {
  MutexLock l(&mu_);
  counts_.erase(prefix);
}

void LeadingEntries::Add(const std::string& prefix, int64_t delta) {
  MutexLock l(&mu_);
  auto it = counts_.find(prefix);
  if (it != counts_.end() && it->second != kNotTracked) it->second += delta;
}

std::optional<int64_t> LeadingEntries::Get(const std::string& prefix) const {
  MutexLock l(&mu_);
  auto it = counts_.find(prefix);
  if (it == counts_.end() || it->second == kNotTracked) return std::nullopt;
  return it->second;
}

bool LeadingEntries::Known(const std::string& prefix) const {
  MutexLock l(&mu_);
  return counts_.find(prefix) != counts_.end();
}

}  // namespace ttldb
