#include "remote/bson_doc.h"

#include <bson/bson.h>

#include <utility>

#include "absl/strings/str_cat.h"
#include "base/status.h"
#include "document/bson.h"

namespace ttldb {
namespace remote {

BsonDoc::BsonDoc() : bson_(bson_new()) {}

absl::StatusOr<BsonDoc> BsonDoc::From(const Value& doc) {
  if (!doc.is_object()) {
    return MongoError(absl::StatusCode::kInvalidArgument, kTypeMismatch,
                      "expected a document");
  }
  ASSIGN_OR_RETURN(std::string bytes, ValueToBson(doc));
  bson_t* b = bson_new_from_data(reinterpret_cast<const uint8_t*>(bytes.data()),
                                 bytes.size());
  if (b == nullptr) {
    return MongoError(absl::StatusCode::kInvalidArgument, kInvalidBSON,
                      "libbson refused the document");
  }
  return BsonDoc(b);
}

absl::StatusOr<BsonDoc> BsonDoc::FromArray(const Value& array) {
  if (!array.is_array()) {
    return MongoError(absl::StatusCode::kInvalidArgument, kTypeMismatch,
                      "expected an array");
  }
  Value::Object fields;
  fields.reserve(array.array_items().size());
  for (size_t i = 0; i < array.array_items().size(); ++i) {
    fields.emplace_back(absl::StrCat(i), array.array_items()[i]);
  }
  return From(Value::MakeObject(std::move(fields)));
}

BsonDoc::BsonDoc(BsonDoc&& other) noexcept : bson_(other.bson_) {
  other.bson_ = nullptr;
}

BsonDoc& BsonDoc::operator=(BsonDoc&& other) noexcept {
  if (this != &other) {
    if (bson_ != nullptr) bson_destroy(bson_);
    bson_ = other.bson_;
    other.bson_ = nullptr;
  }
  return *this;
}

BsonDoc::~BsonDoc() {
  if (bson_ != nullptr) bson_destroy(bson_);
}

absl::StatusOr<Value> ToValue(const bson_t* doc) {
  return BsonToValue(bson_get_data(doc), doc->len);
}

}  // namespace remote
}  // namespace ttldb
