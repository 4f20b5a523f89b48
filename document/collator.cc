#include "document/collator.h"

#include <unicode/coll.h>
#include <unicode/locid.h>
#include <unicode/stringpiece.h>
#include <unicode/ucol.h>
#include <unicode/unistr.h>

#include <cmath>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "base/status.h"
#include "document/compare.h"
#include "ttldb/json.h"

namespace ttldb {

struct Collator::Icu {
  std::unique_ptr<icu::Collator> collator;
};

Collator::Collator() = default;
Collator::~Collator() = default;

namespace {

// The field names of a collation document, as MongoDB's CollationSpec
// spells them (collation_spec.h), in the order MongoDB reports them.
constexpr absl::string_view kLocale = "locale";
constexpr absl::string_view kCaseLevel = "caseLevel";
constexpr absl::string_view kCaseFirst = "caseFirst";
constexpr absl::string_view kStrength = "strength";
constexpr absl::string_view kNumericOrdering = "numericOrdering";
constexpr absl::string_view kAlternate = "alternate";
constexpr absl::string_view kMaxVariable = "maxVariable";
constexpr absl::string_view kNormalization = "normalization";
constexpr absl::string_view kBackwards = "backwards";
constexpr absl::string_view kVersionField = "version";

absl::Status Error(int code, absl::string_view message) {
  const absl::StatusCode kind = code == kNoSuchKey
                                    ? absl::StatusCode::kNotFound
                                    : absl::StatusCode::kInvalidArgument;
  return MongoError(kind, code, message);
}

std::string CollationSpecText(const Value& spec) { return ToJson(spec); }

// bsonExtractTypedField's wrong-type error (bson_extract.cpp).
absl::Status ExtractWrongType(absl::string_view field,
                              absl::string_view expected, const Value& v) {
  return Error(kTypeMismatch,
               absl::StrCat("\"", field, "\" had the wrong type. Expected ",
                            expected, ", found ", TypeName(v.type())));
}

// A bool field: absent (nullopt), or its value, or TypeMismatch.
absl::StatusOr<std::optional<bool>> BoolField(const Value& spec,
                                              absl::string_view field) {
  const Value* v = spec.Get(field);
  if (v == nullptr) return std::optional<bool>();
  if (v->type() != ValueType::kBool) return ExtractWrongType(field, "bool", *v);
  return std::optional<bool>(v->bool_value());
}

absl::StatusOr<std::optional<std::string>> StringField(
    const Value& spec, absl::string_view field) {
  const Value* v = spec.Get(field);
  if (v == nullptr) return std::optional<std::string>();
  if (v->type() != ValueType::kString)
    return ExtractWrongType(field, "string", *v);
  return std::optional<std::string>(v->string_value());
}

// bsonExtractIntegerField: a number exactly representable as an int64.
absl::StatusOr<std::optional<int64_t>> IntegerField(const Value& spec,
                                                    absl::string_view field) {
  const Value* v = spec.Get(field);
  if (v == nullptr) return std::optional<int64_t>();
  if (!IsNumber(v->type())) {
    return Error(kTypeMismatch,
                 absl::StrCat("Expected field \"", field,
                              "\" to have numeric type, but found ",
                              TypeName(v->type())));
  }
  if (v->type() == ValueType::kInt32 || v->type() == ValueType::kInt64) {
    return std::optional<int64_t>(v->int64_value());
  }
  const double d = v->AsDouble();
  // 2^63: the first double above every int64.
  if (!std::isfinite(d) || std::trunc(d) != d || d >= 9223372036854775808.0 ||
      d < -9223372036854775808.0) {
    return Error(kBadValue,
                 absl::StrCat("Expected field \"", field,
                              "\" to have a value exactly representable as a "
                              "64-bit integer, but found ",
                              field, ": ", ToJson(*v)));
  }
  return std::optional<int64_t>(static_cast<int64_t>(d));
}

absl::Status IcuFailure(absl::string_view what, UErrorCode status,
                        const Value& spec) {
  return Error(kOperationFailed,
               absl::StrCat(what, ": ", u_errorName(status),
                            ". Collation spec: ", CollationSpecText(spec)));
}

// Sets one ICU attribute, or OperationFailed as MongoDB reports it.
absl::Status SetAttribute(icu::Collator* c, UColAttribute attr,
                          UColAttributeValue value, absl::string_view field,
                          const Value& spec) {
  UErrorCode status = U_ZERO_ERROR;
  c->setAttribute(attr, value, status);
  if (U_FAILURE(status)) {
    return IcuFailure(absl::StrCat("Failed to set '", field, "' attribute"),
                      status, spec);
  }
  return absl::OkStatus();
}

absl::StatusOr<UColAttributeValue> GetAttribute(const icu::Collator& c,
                                                UColAttribute attr,
                                                absl::string_view field,
                                                const Value& spec) {
  UErrorCode status = U_ZERO_ERROR;
  const UColAttributeValue v = c.getAttribute(attr, status);
  if (U_FAILURE(status)) {
    return IcuFailure(absl::StrCat("Failed to get '", field,
                                   "' attribute from icu::Collator"),
                      status, spec);
  }
  return v;
}

// A boolean option: given (set on the collator) or the locale's default.
absl::StatusOr<bool> BoolOption(const Value& spec, absl::string_view field,
                                UColAttribute attr, icu::Collator* c,
                                int* parsed) {
  ASSIGN_OR_RETURN(std::optional<bool> given, BoolField(spec, field));
  if (given.has_value()) {
    ++*parsed;
    RETURN_IF_ERROR(
        SetAttribute(c, attr, *given ? UCOL_ON : UCOL_OFF, field, spec));
    return *given;
  }
  ASSIGN_OR_RETURN(UColAttributeValue v, GetAttribute(*c, attr, field, spec));
  return v == UCOL_ON;
}

absl::Status OneOf(absl::string_view field, absl::string_view a,
                   absl::string_view b, absl::string_view c,
                   absl::string_view got) {
  std::string choices =
      c.empty() ? absl::StrCat("'", a, "' or '", b, "'")
                : absl::StrCat("'", a, "', '", b, "', or '", c, "'");
  return Error(kFailedToParse, absl::StrCat("Field '", field, "' must be ",
                                            choices, ". Got: ", got));
}

}  // namespace

absl::StatusOr<std::shared_ptr<const Collator>> Collator::Make(
    const Value& spec) {
  if (!spec.is_object()) {
    return Error(kTypeMismatch,
                 absl::StrCat("collation must be an object, not ",
                              TypeName(spec.type())));
  }
  // parseLocaleID.
  const Value* locale_value = spec.Get(kLocale);
  if (locale_value == nullptr) {
    return Error(kNoSuchKey, "Missing expected field \"locale\"");
  }
  if (locale_value->type() != ValueType::kString) {
    return ExtractWrongType(kLocale, "string", *locale_value);
  }
  const std::string& locale_id = locale_value->string_value();
  if (locale_id.find('\0') != std::string::npos) {
    return Error(kBadValue,
                 absl::StrCat("Field 'locale' cannot contain null byte. "
                              "Collation spec: ",
                              CollationSpecText(spec)));
  }
  if (locale_id == "simple") {
    if (spec.object_fields().size() > 1) {
      return Error(kFailedToParse,
                   absl::StrCat("If locale=simple, no other fields should be "
                                "present in: ",
                                CollationSpecText(spec)));
    }
    return std::shared_ptr<const Collator>();
  }
  if (locale_id.empty()) {
    return Error(kBadValue,
                 absl::StrCat("Field 'locale' cannot be the empty string in: ",
                              CollationSpecText(spec)));
  }
  const icu::Locale user_locale =
      icu::Locale::createFromName(locale_id.c_str());
  if (user_locale.isBogus()) {
    return Error(kBadValue, absl::StrCat("Field 'locale' is not valid in: ",
                                         CollationSpecText(spec)));
  }
  UErrorCode status = U_ZERO_ERROR;
  std::unique_ptr<icu::Collator> icu_collator(
      icu::Collator::createInstance(user_locale, status));
  if (U_FAILURE(status) || icu_collator == nullptr) {
    return IcuFailure("Failed to create collator", status, spec);
  }
  // validateLocaleID: ICU must know the locale as given, without
  // canonicalizing or falling back; the error names what ICU would use.
  status = U_ZERO_ERROR;
  const icu::Locale valid = icu_collator->getLocale(ULOC_VALID_LOCALE, status);
  if (U_FAILURE(status)) {
    return IcuFailure("Failed to get locale from icu::Collator", status, spec);
  }
  const std::string valid_name = valid.getName();
  if (valid_name != locale_id) {
    std::string message =
        absl::StrCat("Field 'locale' is invalid in: ", CollationSpecText(spec));
    if (valid_name != "root" && !valid_name.empty()) {
      absl::StrAppend(&message, ". Did you mean '", valid_name, "'?");
    }
    return Error(kBadValue, message);
  }

  // parseToCollationSpec: each option given is set on the collator, each
  // absent one is read back from it (the locale's default).
  icu::Collator* c = icu_collator.get();
  int parsed = 1;  // locale
  ASSIGN_OR_RETURN(bool case_level,
                   BoolOption(spec, kCaseLevel, UCOL_CASE_LEVEL, c, &parsed));

  std::string case_first;
  ASSIGN_OR_RETURN(std::optional<std::string> case_first_given,
                   StringField(spec, kCaseFirst));
  if (case_first_given.has_value()) {
    ++parsed;
    UColAttributeValue v;
    if (*case_first_given == "upper") {
      v = UCOL_UPPER_FIRST;
    } else if (*case_first_given == "lower") {
      v = UCOL_LOWER_FIRST;
    } else if (*case_first_given == "off") {
      v = UCOL_OFF;
    } else {
      return OneOf(kCaseFirst, "upper", "lower", "off", *case_first_given);
    }
    RETURN_IF_ERROR(SetAttribute(c, UCOL_CASE_FIRST, v, kCaseFirst, spec));
    case_first = *case_first_given;
  } else {
    ASSIGN_OR_RETURN(UColAttributeValue v,
                     GetAttribute(*c, UCOL_CASE_FIRST, kCaseFirst, spec));
    case_first = v == UCOL_UPPER_FIRST
                     ? "upper"
                     : (v == UCOL_LOWER_FIRST ? "lower" : "off");
  }

  int strength = 3;
  ASSIGN_OR_RETURN(std::optional<int64_t> strength_given,
                   IntegerField(spec, kStrength));
  if (strength_given.has_value()) {
    ++parsed;
    static constexpr UColAttributeValue kStrengths[] = {
        UCOL_PRIMARY, UCOL_SECONDARY, UCOL_TERTIARY, UCOL_QUATERNARY,
        UCOL_IDENTICAL};
    if (*strength_given < 1 || *strength_given > 5) {
      return Error(kFailedToParse,
                   absl::StrCat("Field 'strength' must be an integer 1 "
                                "through 5. Got: ",
                                *strength_given));
    }
    strength = static_cast<int>(*strength_given);
    RETURN_IF_ERROR(SetAttribute(c, UCOL_STRENGTH, kStrengths[strength - 1],
                                 kStrength, spec));
  } else {
    ASSIGN_OR_RETURN(UColAttributeValue v,
                     GetAttribute(*c, UCOL_STRENGTH, kStrength, spec));
    switch (v) {
      case UCOL_PRIMARY:
        strength = 1;
        break;
      case UCOL_SECONDARY:
        strength = 2;
        break;
      case UCOL_QUATERNARY:
        strength = 4;
        break;
      case UCOL_IDENTICAL:
        strength = 5;
        break;
      default:
        strength = 3;
    }
  }

  ASSIGN_OR_RETURN(
      bool numeric_ordering,
      BoolOption(spec, kNumericOrdering, UCOL_NUMERIC_COLLATION, c, &parsed));

  std::string alternate;
  ASSIGN_OR_RETURN(std::optional<std::string> alternate_given,
                   StringField(spec, kAlternate));
  if (alternate_given.has_value()) {
    ++parsed;
    UColAttributeValue v;
    if (*alternate_given == "non-ignorable") {
      v = UCOL_NON_IGNORABLE;
    } else if (*alternate_given == "shifted") {
      v = UCOL_SHIFTED;
    } else {
      return OneOf(kAlternate, "non-ignorable", "shifted", "",
                   *alternate_given);
    }
    RETURN_IF_ERROR(
        SetAttribute(c, UCOL_ALTERNATE_HANDLING, v, kAlternate, spec));
    alternate = *alternate_given;
  } else {
    ASSIGN_OR_RETURN(
        UColAttributeValue v,
        GetAttribute(*c, UCOL_ALTERNATE_HANDLING, kAlternate, spec));
    alternate = v == UCOL_SHIFTED ? "shifted" : "non-ignorable";
  }

  std::string max_variable;
  ASSIGN_OR_RETURN(std::optional<std::string> max_variable_given,
                   StringField(spec, kMaxVariable));
  if (max_variable_given.has_value()) {
    ++parsed;
    UColReorderCode code;
    if (*max_variable_given == "punct") {
      code = UCOL_REORDER_CODE_PUNCTUATION;
    } else if (*max_variable_given == "space") {
      code = UCOL_REORDER_CODE_SPACE;
    } else {
      return OneOf(kMaxVariable, "punct", "space", "", *max_variable_given);
    }
    status = U_ZERO_ERROR;
    c->setMaxVariable(code, status);
    if (U_FAILURE(status)) {
      return IcuFailure("Failed to set 'maxVariable' attribute", status, spec);
    }
    max_variable = *max_variable_given;
  } else {
    max_variable =
        c->getMaxVariable() == UCOL_REORDER_CODE_SPACE ? "space" : "punct";
  }

  ASSIGN_OR_RETURN(
      bool normalization,
      BoolOption(spec, kNormalization, UCOL_NORMALIZATION_MODE, c, &parsed));
  ASSIGN_OR_RETURN(
      bool backwards,
      BoolOption(spec, kBackwards, UCOL_FRENCH_COLLATION, c, &parsed));

  ASSIGN_OR_RETURN(std::optional<std::string> version_given,
                   StringField(spec, kVersionField));
  if (version_given.has_value()) {
    if (*version_given != kVersion) {
      return Error(kIncompatibleCollationVersion,
                   absl::StrCat("Requested collation version ", *version_given,
                                " but the only available collator version "
                                "was ",
                                kVersion, ". Requested collation spec: ",
                                CollationSpecText(spec)));
    }
    ++parsed;
  }
  if (parsed < static_cast<int>(spec.object_fields().size())) {
    return Error(kFailedToParse,
                 absl::StrCat("Collation spec contains unknown field. "
                              "Collation spec: ",
                              CollationSpecText(spec)));
  }

  Value resolved = Value::MakeObject({
      {std::string(kLocale), Value::String(user_locale.getName())},
      {std::string(kCaseLevel), Value::Bool(case_level)},
      {std::string(kCaseFirst), Value::String(case_first)},
      {std::string(kStrength), Value::Int32(strength)},
      {std::string(kNumericOrdering), Value::Bool(numeric_ordering)},
      {std::string(kAlternate), Value::String(alternate)},
      {std::string(kMaxVariable), Value::String(max_variable)},
      {std::string(kNormalization), Value::Bool(normalization)},
      {std::string(kBackwards), Value::Bool(backwards)},
      {std::string(kVersionField), Value::String(std::string(kVersion))},
  });
  // validateCollationSpec.
  if (backwards && strength == 1) {
    return Error(kBadValue,
                 absl::StrCat("'backwards' is invalid with 'strength' of 1 "
                              "in: ",
                              CollationSpecText(resolved)));
  }
  if (case_first != "off" && !case_level && strength <= 2) {
    return Error(kBadValue,
                 absl::StrCat("'caseFirst' is invalid unless 'caseLevel' is "
                              "on or 'strength' is greater than 2 in: ",
                              CollationSpecText(resolved)));
  }

  std::shared_ptr<Collator> out(new Collator());
  out->spec_ = std::move(resolved);
  out->spec_json_ = ToJson(out->spec_);
  out->icu_ = std::make_unique<Icu>();
  out->icu_->collator = std::move(icu_collator);
  return std::shared_ptr<const Collator>(std::move(out));
}

int Collator::CompareStrings(absl::string_view a, absl::string_view b) const {
  UErrorCode status = U_ZERO_ERROR;
  const UCollationResult r = icu_->collator->compareUTF8(
      icu::StringPiece(a.data(), static_cast<int32_t>(a.size())),
      icu::StringPiece(b.data(), static_cast<int32_t>(b.size())), status);
  if (U_FAILURE(status)) {
    // Cannot happen for a valid collator; keep a total order regardless.
    const int c = a.compare(b);
    return c < 0 ? -1 : (c > 0 ? 1 : 0);
  }
  return r == UCOL_LESS ? -1 : (r == UCOL_GREATER ? 1 : 0);
}

std::string Collator::Key(absl::string_view s) const {
  const icu::UnicodeString u = icu::UnicodeString::fromUTF8(
      icu::StringPiece(s.data(), static_cast<int32_t>(s.size())));
  std::string key(64 + 4 * static_cast<size_t>(u.length()), '\0');
  int32_t n =
      icu_->collator->getSortKey(u, reinterpret_cast<uint8_t*>(key.data()),
                                 static_cast<int32_t>(key.size()));
  if (n > static_cast<int32_t>(key.size())) {
    key.resize(static_cast<size_t>(n));
    n = icu_->collator->getSortKey(u, reinterpret_cast<uint8_t*>(key.data()),
                                   n);
  }
  // n counts the terminating NUL, which no two keys differ in.
  key.resize(n > 0 ? static_cast<size_t>(n - 1) : 0);
  return key;
}

Value Collator::KeyValue(const Value& v) const {
  switch (v.type()) {
    case ValueType::kString:
      return Value::String(Key(v.string_value()));
    case ValueType::kArray: {
      if (!HoldsString(v)) return v;
      Value::Array items;
      items.reserve(v.array_items().size());
      for (const Value& item : v.array_items()) items.push_back(KeyValue(item));
      return Value::MakeArray(std::move(items));
    }
    case ValueType::kObject: {
      if (!HoldsString(v)) return v;
      Value::Object fields;
      fields.reserve(v.object_fields().size());
      for (const auto& [name, field] : v.object_fields()) {
        fields.emplace_back(name, KeyValue(field));
      }
      return Value::MakeObject(std::move(fields));
    }
    default:
      return v;
  }
}

bool Collator::Equals(const Collator& other) const {
  return spec_json_ == other.spec_json_;
}

bool HoldsString(const Value& v) {
  switch (v.type()) {
    case ValueType::kString:
      return true;
    case ValueType::kArray:
      for (const Value& item : v.array_items()) {
        if (HoldsString(item)) return true;
      }
      return false;
    case ValueType::kObject:
      for (const auto& field : v.object_fields()) {
        if (HoldsString(field.second)) return true;
      }
      return false;
    default:
      return false;
  }
}

int CompareValues(const Value& a, const Value& b, const Collator* collator) {
  if (collator == nullptr) return CompareValues(a, b);
  if (a.type() == ValueType::kString && b.type() == ValueType::kString) {
    return collator->CompareStrings(a.string_value(), b.string_value());
  }
  if (!HoldsString(a) || !HoldsString(b)) return CompareValues(a, b);
  return CompareValues(collator->KeyValue(a), collator->KeyValue(b));
}

Value CollationKeyOf(const Value& v, const Collator* collator) {
  return collator == nullptr ? v : collator->KeyValue(v);
}

bool SameCollation(const Collator* a, const Collator* b) {
  if (a == nullptr || b == nullptr) return a == b;
  return a == b || a->Equals(*b);
}

}  // namespace ttldb
