#include "query/shell_format.h"

#include "absl/strings/str_cat.h"
#include "document/compare.h"
#include "document/json.h"

namespace ttldb {
namespace query_internal {

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

bool ExactEqual(const Value& a, const Value& b) {
  if (a.type() != b.type()) return false;
  switch (a.type()) {
    case ValueType::kObject: {
      const auto& fa = a.object_fields();
      const auto& fb = b.object_fields();
      if (fa.size() != fb.size()) return false;
      for (size_t i = 0; i < fa.size(); ++i) {
        if (fa[i].first != fb[i].first ||
            !ExactEqual(fa[i].second, fb[i].second)) {
          return false;
        }
      }
      return true;
    }
    case ValueType::kArray: {
      const auto& ia = a.array_items();
      const auto& ib = b.array_items();
      if (ia.size() != ib.size()) return false;
      for (size_t i = 0; i < ia.size(); ++i) {
        if (!ExactEqual(ia[i], ib[i])) return false;
      }
      return true;
    }
    case ValueType::kDouble:
      // Equal doubles; NaN equals NaN.
      return a.double_value() == b.double_value() ||
             (a.double_value() != a.double_value() &&
              b.double_value() != b.double_value());
    case ValueType::kDecimal:
      // Same bits: 1.0 and 1.00 are different values to store.
      return a.decimal_value() == b.decimal_value();
    case ValueType::kRegex:
      return a.regex_value().pattern == b.regex_value().pattern &&
             a.regex_value().options == b.regex_value().options;
    case ValueType::kBinary:
      return a.binary_value().subtype == b.binary_value().subtype &&
             a.binary_value().data == b.binary_value().data;
    default:
      return CompareValues(a, b) == 0;
  }
}

}  // namespace query_internal
}  // namespace ttldb
