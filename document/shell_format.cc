#include "document/shell_format.h"

#include "absl/strings/str_cat.h"
#include "ttldb/json.h"

namespace ttldb {

std::string ShellString(const Value& v) {
  switch (v.type()) {
    case ValueType::kObject: {
      std::string out = "{";
      bool first = true;
      for (const auto& [name, item] : v.object_fields()) {
        if (!first) out += ", ";
        first = false;
        absl::StrAppend(&out, name, ": ", ShellString(item));
      }
      return out + "}";
    }
    case ValueType::kArray: {
      std::string out = "[";
      bool first = true;
      for (const Value& item : v.array_items()) {
        if (!first) out += ", ";
        first = false;
        out += ShellString(item);
      }
      return out + "]";
    }
    case ValueType::kObjectId:
      return absl::StrCat("ObjectId('", v.oid_value().ToHex(), "')");
    case ValueType::kDate:
      return absl::StrCat("new Date(", v.date_millis(), ")");
    case ValueType::kDecimal:
      // BSONElement::toString (mongo/bson/bsonelement.cpp).
      return absl::StrCat("NumberDecimal(\"", v.decimal_value().ToString(),
                          "\")");
    default:
      return ToJson(v);
  }
}

std::string ShellField(absl::string_view name, const Value& v) {
  return absl::StrCat("{", name, ": ", ShellString(v), "}");
}

std::string ShellId(const Value& doc) {
  const Value* id = doc.is_object() ? doc.Get("_id") : nullptr;
  return id == nullptr ? "{}" : ShellField("_id", *id);
}

}  // namespace ttldb
