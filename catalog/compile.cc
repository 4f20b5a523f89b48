#include "catalog/compile.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "base/status.h"
#include "catalog/index_spec_proto.h"
#include "catalog/validation_rules.h"
#include "storage/keys.h"
#include "ttl/ttl_spec.h"
#include "ttldb/json.h"

namespace ttldb {

namespace {

// A stored collation (a resolved spec, written by this code) compiled; a
// damaged one is DataLoss, as a damaged partial filter is.
absl::StatusOr<std::shared_ptr<const Collator>> CompileCollation(
    const std::string& json, const std::string& collection) {
  absl::StatusOr<Value> spec = ParseDocument(json);
  absl::StatusOr<std::shared_ptr<const Collator>> c =
      spec.ok()
          ? Collator::Make(*spec)
          : absl::StatusOr<std::shared_ptr<const Collator>>(spec.status());
  if (!c.ok()) {
    return absl::DataLossError(
        absl::StrCat("collection '", collection,
                     "': corrupt collation: ", c.status().message()));
  }
  return *c;
}

absl::Status CompileValidation(const proto::CollectionInfo& info,
                               CollectionState* state) {
  if (!info.validator_json().empty()) {
    absl::StatusOr<Value> doc = ParseDocument(info.validator_json());
    absl::StatusOr<std::shared_ptr<const Filter>> filter =
        doc.ok() ? ParseValidator(*doc)
                 : absl::StatusOr<std::shared_ptr<const Filter>>(doc.status());
    if (!filter.ok()) {
      return absl::DataLossError(
          absl::StrCat("collection '", info.name(),
                       "': invalid validator: ", filter.status().message()));
    }
    state->validator = *std::move(filter);
    if (HasExpr(state->validator->root())) {
      state->validator_spec_with_expr = *std::move(doc);
    }
  }
  state->validation_moderate = info.validation_level() == "moderate";
  state->validation_off = info.validation_level() == "off";
  state->validation_warn = info.validation_action() == "warn";
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<std::shared_ptr<const CollectionState>> CompileCollection(
    const proto::CollectionInfo& info) {
  auto state = std::make_shared<CollectionState>();
  state->info = info;
  state->doc_prefix = DocumentPrefix(info.id());
  if (!info.collation_json().empty()) {
    ASSIGN_OR_RETURN(state->collator,
                     CompileCollation(info.collation_json(), info.name()));
  }
  auto compile = [&](const proto::IndexSpec& stored)
      -> absl::StatusOr<std::shared_ptr<const IndexState>> {
    auto idx = std::make_shared<IndexState>();
    idx->spec = IndexSpecFromProto(stored);
    const IndexSpec& spec = idx->spec;
    idx->prefix = IndexPrefix(info.id(), spec.id);
    if (!spec.collation_json.empty()) {
      ASSIGN_OR_RETURN(idx->collator,
                       CompileCollation(spec.collation_json, info.name()));
    }
    if (!spec.partial_filter_json.empty()) {
      auto filter_doc = ParseDocument(spec.partial_filter_json);
      if (!filter_doc.ok()) {
        return absl::DataLossError(
            absl::StrCat("collection '", info.name(), "' index '", spec.name,
                         "': corrupt partialFilterExpression: ",
                         filter_doc.status().message()));
      }
      // MongoDB matches a partial filter in its index's collation.
      auto filter = Filter::Parse(*filter_doc, absl::Now(), idx->collator);
      if (!filter.ok()) {
        return absl::DataLossError(absl::StrCat(
            "collection '", info.name(), "' index '", spec.name,
            "': invalid partialFilterExpression: ", filter.status().message()));
      }
      idx->partial.emplace(std::move(*filter));
    }
    idx->ttl_seconds = ActiveExpireAfterSeconds(spec);
    idx->multikey = spec.multikey.value_or(true);
    return std::shared_ptr<const IndexState>(std::move(idx));
  };
  for (const proto::IndexSpec& spec : info.indexes()) {
    ASSIGN_OR_RETURN(auto idx, compile(spec));
    state->indexes.push_back(std::move(idx));
  }
  for (const proto::IndexSpec& spec : info.building_indexes()) {
    ASSIGN_OR_RETURN(auto idx, compile(spec));
    state->building.push_back(std::move(idx));
  }
  RETURN_IF_ERROR(CompileValidation(info, state.get()));
  return std::shared_ptr<const CollectionState>(std::move(state));
}

}  // namespace ttldb
