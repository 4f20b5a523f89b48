#include "catalog/collection_catalog.h"

#include "absl/strings/str_cat.h"
#include "base/status.h"

namespace ttldb {

absl::Status NamespaceExistsError(absl::string_view name) {
  return MongoError(absl::StatusCode::kAlreadyExists, kNamespaceExists,
                    absl::StrCat("Namespace ", name, " already exists"));
}

CollectionCatalog::StatePtr CollectionCatalog::Get(
    absl::string_view name) const {
  MutexLock l(&mu_);
  auto it = states_.find(name);
  return it == states_.end() ? nullptr : it->second;
}

CollectionCatalog::StatePtr CollectionCatalog::GetById(uint32_t id) const {
  MutexLock l(&mu_);
  for (const auto& [name, state] : states_) {
    if (state->info.id() == id) return state;
  }
  return nullptr;
}

void CollectionCatalog::Publish(const std::string& name, StatePtr state) {
  MutexLock l(&mu_);
  if (state == nullptr) {
    states_.erase(name);
  } else {
    states_[name] = std::move(state);
  }
}

std::vector<std::pair<std::string, CollectionCatalog::StatePtr>>
CollectionCatalog::Snapshot() const {
  MutexLock l(&mu_);
  return std::vector<std::pair<std::string, StatePtr>>(states_.begin(),
                                                       states_.end());
}

std::vector<std::string> CollectionCatalog::Names() const {
  MutexLock l(&mu_);
  std::vector<std::string> names;
  names.reserve(states_.size());
  for (const auto& [name, state] : states_) names.push_back(name);
  return names;
}

void CollectionCatalog::SetDamaged(
    std::map<std::string, std::string, std::less<>> damaged,
    CatalogIds damaged_ids) {
  MutexLock l(&mu_);
  damaged_ = std::move(damaged);
  damaged_ids_ = std::move(damaged_ids);
}

std::optional<std::string> CollectionCatalog::Damage(
    absl::string_view name) const {
  MutexLock l(&mu_);
  auto it = damaged_.find(name);
  if (it == damaged_.end()) return std::nullopt;
  return it->second;
}

std::map<std::string, std::string> CollectionCatalog::AllDamage() const {
  MutexLock l(&mu_);
  return std::map<std::string, std::string>(damaged_.begin(), damaged_.end());
}

bool CollectionCatalog::ForgetDamaged(absl::string_view name) {
  MutexLock l(&mu_);
  auto it = damaged_.find(name);
  if (it == damaged_.end()) return false;
  damaged_.erase(it);
  return true;
}

CatalogIds CollectionCatalog::Ids() const {
  MutexLock l(&mu_);
  CatalogIds ids = damaged_ids_;
  for (const auto& [name, state] : states_) ids.Add(state->info);
  return ids;
}

}  // namespace ttldb
