#include "catalog/entry_edits.h"

#include <algorithm>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "base/status.h"
#include "catalog/index_spec_proto.h"

namespace ttldb {
namespace {

// Removes the spec with `index_id` from `specs`; false when none has it.
bool EraseSpec(google::protobuf::RepeatedPtrField<proto::IndexSpec>* specs,
               uint32_t index_id, proto::IndexSpec* erased = nullptr) {
  for (int i = 0; i < specs->size(); ++i) {
    if (specs->Get(i).id() != index_id) continue;
    if (erased != nullptr) *erased = std::move(*specs->Mutable(i));
    specs->DeleteSubrange(i, 1);
    return true;
  }
  return false;
}

}  // namespace

proto::CollectionInfo NewCollectionEntry(absl::string_view name,
                                         const IndexSpec* first_index) {
  proto::CollectionInfo info;
  info.set_name(std::string(name));
  info.set_next_index_id(1);
  if (first_index != nullptr) {
    IndexSpec spec = *first_index;
    spec.id = 1;
    spec.multikey = false;
    info.set_next_index_id(2);
    IndexSpecToProto(spec, info.add_indexes());
  }
  return info;
}

proto::IndexSpec* FindStoredIndex(proto::CollectionInfo* info,
                                  uint32_t index_id) {
  for (proto::IndexSpec& stored : *info->mutable_indexes()) {
    if (stored.id() == index_id) return &stored;
  }
  return nullptr;
}

void AddBuildingIndex(IndexSpec* spec, proto::CollectionInfo* info) {
  spec->id = info->next_index_id();
  info->set_next_index_id(info->next_index_id() + 1);
  IndexSpecToProto(*spec, info->add_building_indexes());
}

bool MarkIndexBuilt(uint32_t index_id, bool multikey,
                    proto::CollectionInfo* info) {
  proto::IndexSpec stored;
  if (!EraseSpec(info->mutable_building_indexes(), index_id, &stored)) {
    return false;
  }
  stored.set_multikey(multikey);
  *info->add_indexes() = std::move(stored);
  return true;
}

bool AbandonBuildingIndex(uint32_t index_id, proto::CollectionInfo* info) {
  if (!EraseSpec(info->mutable_building_indexes(), index_id)) return false;
  info->add_abandoned_index_ids(index_id);
  return true;
}

std::vector<proto::IndexSpec> AbandonAllBuildingIndexes(
    proto::CollectionInfo* info) {
  std::vector<proto::IndexSpec> abandoned(info->building_indexes().begin(),
                                          info->building_indexes().end());
  for (const proto::IndexSpec& spec : abandoned) {
    info->add_abandoned_index_ids(spec.id());
  }
  info->clear_building_indexes();
  return abandoned;
}

bool ForgetAbandonedIndex(uint32_t index_id, proto::CollectionInfo* info) {
  auto* ids = info->mutable_abandoned_index_ids();
  auto found = std::find(ids->begin(), ids->end(), index_id);
  if (found == ids->end()) return false;
  ids->erase(found);
  return true;
}

bool RemoveIndex(uint32_t index_id, proto::CollectionInfo* info) {
  return EraseSpec(info->mutable_indexes(), index_id);
}

absl::StatusOr<proto::CollectionInfo> RenamedEntry(
    absl::string_view from, absl::string_view to, const CollectionState* source,
    const CollectionState* target, bool drop_target) {
  // A rename onto itself: jstests/core/rename_collection_to_itself.js.
  if (from == to) {
    return MongoError(absl::StatusCode::kInvalidArgument, kIllegalOperation,
                      "Can't rename a collection to itself");
  }
  if (source == nullptr) {
    return MongoError(
        absl::StatusCode::kNotFound, kNamespaceNotFound,
        absl::StrCat("Source collection ", from, " does not exist"));
  }
  if (target != nullptr && !drop_target) {
    return MongoError(absl::StatusCode::kAlreadyExists, kNamespaceExists,
                      "target namespace exists");
  }
  proto::CollectionInfo info = source->info;
  info.set_name(std::string(to));
  return info;
}

}  // namespace ttldb
