// MongoDB's document validation (src/mongo/db/catalog/
// collection_impl.cpp checkValidation, coll_mod.cpp, create_collection.cpp):
// the validator's rules, its catalog state and the check every insert and
// update makes before it writes.
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "base/status.h"
#include "catalog/collection_catalog.h"
#include "catalog/entry_edits.h"
#include "catalog/validation_rules.h"
#include "document/idl_errors.h"
#include "engine/backend.h"
#include "engine/db_impl.h"
#include "query/doc_validation_error.h"
#include "ttldb/document_validation_error.h"
#include "ttldb/json.h"

namespace ttldb {
namespace {

bool IsEmptyValidator(const Value& v) {
  return v.is_null() || (v.is_object() && v.object_fields().empty());
}

// Checks the options and writes them into `info`.
absl::Status ApplyValidationOptions(const ValidationOptions& options,
                                    proto::CollectionInfo* info) {
  if (!options.validator.is_null()) {
    RETURN_IF_ERROR(ParseValidator(options.validator).status());
    info->set_validator_json(
        IsEmptyValidator(options.validator)
            ? std::string()
            : ToJson(options.validator, JsonFormat::kStorage));
  }
  if (!options.validation_level.empty()) {
    RETURN_IF_ERROR(CheckValidationLevel(options.validation_level));
    info->set_validation_level(options.validation_level == "strict"
                                   ? std::string()
                                   : options.validation_level);
  }
  if (!options.validation_action.empty()) {
    RETURN_IF_ERROR(CheckValidationAction(options.validation_action));
    info->set_validation_action(options.validation_action == "error"
                                    ? std::string()
                                    : options.validation_action);
  }
  if (options.change_stream_pre_and_post_images.has_value()) {
    info->set_change_stream_pre_and_post_images(
        *options.change_stream_pre_and_post_images);
  }
  // Capped (engine/capped.cc): size makes the collection capped.
  if (options.capped_size.has_value()) {
    RETURN_IF_ERROR(CheckCappedSize(*options.capped_size, "size"));
    info->set_capped(true);
    info->set_capped_size(*options.capped_size);
  }
  if (options.capped_max.has_value()) {
    RETURN_IF_ERROR(CheckCappedMax(*options.capped_max, "max"));
    info->set_capped_max(AdjustCappedMax(*options.capped_max));
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status DbImpl::CheckValidationLocked(const CollectionState& state,
                                           const Value* old_doc,
                                           const Value& new_doc,
                                           const WriteOptions& options) {
  if (state.validator == nullptr || state.validation_off ||
      options.bypass_document_validation) {
    return absl::OkStatus();
  }
  const Filter* validator = state.validator.get();
  std::optional<Filter> with_now;
  if (state.validator_spec_with_expr.has_value()) {
    ASSIGN_OR_RETURN(with_now, Filter::Parse(*state.validator_spec_with_expr,
                                             clock_->WallNow()));
    validator = &*with_now;
  }
  // A $expr whose evaluation fails counts as a failure ("error"), and lets
  // the write through with "warn" (doc_validation_options.js).
  absl::StatusOr<bool> matches = validator->MatchesOrError(new_doc);
  if (matches.ok() && *matches) return absl::OkStatus();
  // moderate: an update of a document that already fails is not checked.
  if (state.validation_moderate && old_doc != nullptr &&
      !validator->Matches(*old_doc)) {
    return absl::OkStatus();
  }
  const Value* id = new_doc.Get("_id");
  Value err_info = Value::MakeObject(
      {{"failingDocumentId", id != nullptr ? *id : Value()},
       {"details", DocValidationDetails(*validator, new_doc)}});
  if (!state.validation_warn) return DocumentValidationError(err_info);
  if (options.validation_warning) {
    options.validation_warning(err_info);
  } else {
    Log(LogLevel::kWarning,
        absl::StrCat("Document would fail validation collection: ",
                     state.info.name(), " errInfo: ", ToJson(err_info)));
  }
  return absl::OkStatus();
}

absl::Status DbImpl::CreateCollection(absl::string_view name,
                                      bool must_not_exist,
                                      const ValidationOptions& validation) {
  RETURN_IF_ERROR(CheckWritable());
  RETURN_IF_ERROR(ValidateCollectionName(name));
  RETURN_IF_ERROR(CheckCollection(name));
  proto::CollectionInfo info = NewCollectionEntry(name);
  if (validation.capped_max.has_value() &&
      !validation.capped_size.has_value()) {
    // create_collection.cpp: a capped collection needs its size.
    return MongoError(absl::StatusCode::kInvalidArgument, kInvalidOptions,
                      "the 'size' field is required when 'capped' is true");
  }
  RETURN_IF_ERROR(ApplyValidationOptions(validation, &info));
  if (!validation.collation.is_null()) {
    if (!validation.collation.is_object()) {
      return MongoError(absl::StatusCode::kInvalidArgument, kTypeMismatch,
                        absl::StrCat("BSON field 'create.collation' is the "
                                     "wrong type '",
                                     TypeName(validation.collation.type()),
                                     "', expected type 'object'"));
    }
    ASSIGN_OR_RETURN(std::shared_ptr<const Collator> collator,
                     Collator::Make(validation.collation));
    if (collator != nullptr) {
      info.set_collation_json(ToJson(collator->spec(), JsonFormat::kRelaxed));
    }
  }
  WritersLock l(this);
  if (GetView(name).has_value()) {
    return NamespaceExistsError(name);
  }
  if (GetState(name) != nullptr) {
    if (!must_not_exist) return absl::OkStatus();
    return MongoError(absl::StatusCode::kAlreadyExists, kNamespaceExists,
                      absl::StrCat("Collection ", name, " already exists."));
  }
  return CommitNewCollectionLocked(std::move(info)).status();
}

absl::StatusOr<Value> DbImpl::CollModValidation(absl::string_view coll,
                                                const Value& command) {
  ValidationOptions options;
  for (const auto& [name, value] : command.object_fields()) {
    if (name == "validator") {
      options.validator = value;
      // collMod's {validator: {}} removes it; a non-object is refused.
      if (value.is_null()) {
        return MongoError(absl::StatusCode::kInvalidArgument, kTypeMismatch,
                          "'validator' must be an object, not null");
      }
    } else if (name == "validationLevel" || name == "validationAction") {
      if (!value.is_string()) {
        return MongoError(
            absl::StatusCode::kInvalidArgument, kTypeMismatch,
            absl::StrCat("BSON field 'collMod.", name, "' is the wrong type '",
                         TypeName(value.type()), "', expected type 'string'"));
      }
      (name == "validationLevel" ? options.validation_level
                                 : options.validation_action) =
          value.string_value();
    } else if (name == "changeStreamPreAndPostImages") {
      ASSIGN_OR_RETURN(options.change_stream_pre_and_post_images,
                       ParsePreAndPostImages(value, "collMod"));
    } else if (name == "cappedSize") {
      // coll_mod.idl: the bounds of create's size.
      ASSIGN_OR_RETURN(int64_t size, IdlSafeInt64(value, "collMod.cappedSize"));
      RETURN_IF_ERROR(CheckCappedSize(size, "cappedSize"));
      options.capped_size = size;
    } else if (name == "cappedMax") {
      ASSIGN_OR_RETURN(int64_t max, IdlSafeInt64(value, "collMod.cappedMax"));
      RETURN_IF_ERROR(CheckCappedMax(max, "cappedMax"));
      options.capped_max = max;
    }
  }
  proto::CollectionInfo unused;
  RETURN_IF_ERROR(ApplyValidationOptions(options, &unused));
  RETURN_IF_ERROR(CheckWritable());
  RETURN_IF_ERROR(CheckCollection(coll));
  WritersLock l(this);
  auto state = GetState(coll);
  if (state == nullptr) {
    return MongoError(absl::StatusCode::kNotFound, kNamespaceNotFound,
                      absl::StrCat("ns does not exist: ", coll));
  }
  if ((options.capped_size.has_value() || options.capped_max.has_value()) &&
      !state->info.capped()) {
    // coll_mod.cpp: the capped bounds of a collection that is not capped.
    return MongoError(absl::StatusCode::kInvalidArgument, kInvalidOptions,
                      absl::StrCat("Unable to set cappedSize/cappedMax on a "
                                   "noncapped collection: ",
                                   options_.db_name, ".", coll));
  }
  proto::CollectionInfo info = state->info;
  RETURN_IF_ERROR(ApplyValidationOptions(options, &info));
  leveldb::WriteBatch batch;
  RETURN_IF_ERROR(CommitCatalogLocked(info, &batch).status());
  return Value::MakeObject();
}

absl::StatusOr<bool> ParsePreAndPostImages(const Value& value,
                                           absl::string_view command) {
  // collection_options.idl: ChangeStreamPreAndPostImagesOptions, one
  // required bool 'enabled'.
  const Value* enabled = value.is_object() ? value.Get("enabled") : nullptr;
  if (!value.is_object()) {
    return MongoError(
        absl::StatusCode::kInvalidArgument, kTypeMismatch,
        absl::StrCat("BSON field '", command,
                     ".changeStreamPreAndPostImages' is the wrong type '",
                     TypeName(value.type()), "', expected type 'object'"));
  }
  if (enabled == nullptr) {
    return MongoError(
        absl::StatusCode::kInvalidArgument, kIDLFailedToParse,
        absl::StrCat("BSON field '", command,
                     ".changeStreamPreAndPostImages.enabled' is missing but "
                     "a required field"));
  }
  if (enabled->type() != ValueType::kBool) {
    return MongoError(
        absl::StatusCode::kInvalidArgument, kTypeMismatch,
        absl::StrCat("BSON field '", command,
                     ".changeStreamPreAndPostImages.enabled' is the wrong "
                     "type '",
                     TypeName(enabled->type()), "', expected type 'bool'"));
  }
  return enabled->bool_value();
}

Value DbImpl::ListedCollectionOptions(const proto::CollectionInfo& info) {
  Value::Object out;
  if (info.capped()) {
    // listCollections' options as create stored them: capped, size, max.
    out.emplace_back("capped", Value::Bool(true));
    out.emplace_back("size", Value::Int64(info.capped_size()));
    if (info.capped_max() > 0) {
      out.emplace_back("max", Value::Int64(info.capped_max()));
    }
  }
  if (!info.collation_json().empty()) {
    absl::StatusOr<Value> c = ParseDocument(info.collation_json());
    if (c.ok()) out.emplace_back("collation", *std::move(c));
  }
  if (info.change_stream_pre_and_post_images()) {
    out.emplace_back("changeStreamPreAndPostImages",
                     Value::MakeObject({{"enabled", Value::Bool(true)}}));
  }
  if (!info.validator_json().empty()) {
    absl::StatusOr<Value> v = ParseDocument(info.validator_json());
    if (v.ok()) out.emplace_back("validator", *std::move(v));
  }
  if (!info.validator_json().empty() || !info.validation_level().empty() ||
      !info.validation_action().empty()) {
    out.emplace_back("validationLevel",
                     Value::String(info.validation_level().empty()
                                       ? "strict"
                                       : info.validation_level()));
    out.emplace_back("validationAction",
                     Value::String(info.validation_action().empty()
                                       ? "error"
                                       : info.validation_action()));
  }
  return Value::MakeObject(std::move(out));
}

absl::StatusOr<Value> Collection::Options() {
  if (backend_ != nullptr) return backend_->Options();
  RETURN_IF_ERROR(engine_->CheckOpen());
  std::shared_ptr<const CollectionState> state = engine_->GetState(name_);
  if (state == nullptr) return Value::MakeObject();
  return DbImpl::ListedCollectionOptions(state->info);
}

}  // namespace ttldb
