// Date operators: $year $month $dayOfMonth $hour $minute $second
// $millisecond $dayOfWeek $dayOfYear $week $isoWeek $isoWeekYear
// $isoDayOfWeek (each with the {date, timezone} form), $dateToString,
// $dateFromString, $dateAdd, $dateSubtract, $dateDiff, $dateTrunc,
// $dateToParts, $dateFromParts. Time zones from the system's tzdata via
// Abseil (expr/date_util.h). Semantics and errors from
// src/mongo/db/exec/expression/evaluate_date.cpp and
// src/mongo/db/pipeline/expression.cpp (the parsers).
#include <limits>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/time/civil_time.h"
#include "expr/date_util.h"
#include "expr/ops_util.h"
#include "ttldb/json.h"

namespace ttldb {
namespace agg {
namespace {

using internal::DebugString;
using internal::ExprError;
using internal::ExprPtr;
using internal::Nullish;
using internal::Ok;
using internal::Opt;
using internal::ParseResult;
using internal::TypeNameOf;

// Value::coerceToDate: dates, timestamps and ObjectIds.
absl::StatusOr<int64_t> CoerceToDate(const Opt& v) {
  switch (v->type()) {
    case ValueType::kDate:
      return v->date_millis();
    case ValueType::kTimestamp:
      return int64_t{v->timestamp_value().t} * 1000;
    case ValueType::kObjectId:
      return int64_t{v->oid_value().Seconds()} * 1000;
    default:
      return ExprError(16006, absl::StrCat("can't convert from BSON type ",
                                           TypeNameOf(v), " to Date"));
  }
}

// The zone of an optional timezone argument; std::nullopt when it
// evaluated to null or missing (the operator then yields null).
absl::StatusOr<std::optional<ZoneInfo>> EvalZone(const ExprPtr& tz,
                                                 const Value& doc,
                                                 Variables* vars) {
  if (tz == nullptr) return std::optional<ZoneInfo>(ZoneInfo{});
  ASSIGN_OR_RETURN(Opt v, tz->Evaluate(doc, vars));
  if (Nullish(v)) return std::optional<ZoneInfo>();
  if (!v->is_string()) {
    return ExprError(40517, absl::StrCat("timezone must evaluate to a string, "
                                         "found ",
                                         TypeNameOf(v)));
  }
  ASSIGN_OR_RETURN(ZoneInfo z, LoadZone(v->string_value()));
  return std::optional<ZoneInfo>(z);
}

// Reads named arguments of an object operand; unknown names fail with
// `unknown_code` "<prefix><name>".
using Named = std::vector<std::pair<std::string, const Value*>>;
absl::Status ReadNamed(const Value& operand, const char* op,
                       const std::vector<std::string>& allowed,
                       int unknown_code, absl::string_view unknown_prefix,
                       Named* out) {
  for (const auto& [name, v] : operand.object_fields()) {
    if (std::find(allowed.begin(), allowed.end(), name) == allowed.end()) {
      return ExprError(unknown_code, absl::StrCat(unknown_prefix, name));
    }
    out->emplace_back(name, &v);
  }
  return absl::OkStatus();
}

absl::StatusOr<ExprPtr> ParseNamed(const Named& named, absl::string_view name,
                                   ParseContext* ctx) {
  for (const auto& [n, v] : named) {
    if (n == name) return ParseExpression(*v, ctx);
  }
  return ExprPtr();
}

// ---- $year ... $isoDayOfWeek ----

enum class Part {
  kYear,
  kMonth,
  kDayOfMonth,
  kHour,
  kMinute,
  kSecond,
  kMillisecond,
  kDayOfWeek,
  kDayOfYear,
  kWeek,
  kIsoWeek,
  kIsoWeekYear,
  kIsoDayOfWeek,
};

class DatePartExpr : public Expression {
 public:
  DatePartExpr(Part part, ExprPtr date, ExprPtr tz)
      : part_(part), date_(std::move(date)), tz_(std::move(tz)) {}
  ExprResult Evaluate(const Value& doc, Variables* vars) const override {
    ASSIGN_OR_RETURN(Opt d, date_->Evaluate(doc, vars));
    ASSIGN_OR_RETURN(std::optional<ZoneInfo> z, EvalZone(tz_, doc, vars));
    if (Nullish(d) || !z.has_value()) return internal::Null();
    ASSIGN_OR_RETURN(int64_t millis, CoerceToDate(d));
    const DateParts p = ToParts(millis, z->tz);
    switch (part_) {
      case Part::kYear:
        return Ok(Value::Int32(static_cast<int32_t>(p.year)));
      case Part::kMonth:
        return Ok(Value::Int32(p.month));
      case Part::kDayOfMonth:
        return Ok(Value::Int32(p.day));
      case Part::kHour:
        return Ok(Value::Int32(p.hour));
      case Part::kMinute:
        return Ok(Value::Int32(p.minute));
      case Part::kSecond:
        return Ok(Value::Int32(p.second));
      case Part::kMillisecond:
        return Ok(Value::Int32(p.millisecond));
      case Part::kDayOfWeek:
        return Ok(Value::Int32(p.day_of_week));
      case Part::kDayOfYear:
        return Ok(Value::Int32(p.day_of_year));
      case Part::kWeek:
        return Ok(Value::Int32(p.week));
      case Part::kIsoWeek:
        return Ok(Value::Int32(p.iso_week));
      case Part::kIsoWeekYear:
        return Ok(Value::Int32(static_cast<int32_t>(p.iso_week_year)));
      case Part::kIsoDayOfWeek:
        return Ok(Value::Int32(p.iso_day_of_week));
    }
    return internal::Null();
  }

 private:
  Part part_;
  ExprPtr date_, tz_;
};

template <Part kPart, const char* kOp>
ParseResult ParseDatePart(const Value& operand, ParseContext* ctx) {
  if (operand.is_object() && (operand.object_fields().empty() ||
                              operand.object_fields()[0].first[0] != '$')) {
    Named named;
    for (const auto& [name, v] : operand.object_fields()) {
      if (name != "date" && name != "timezone") {
        return ExprError(40535, absl::StrCat("unrecognized option to ", kOp,
                                             ": \"", name, "\""));
      }
      named.emplace_back(name, &v);
    }
    ASSIGN_OR_RETURN(ExprPtr date, ParseNamed(named, "date", ctx));
    if (date == nullptr) {
      return ExprError(40539, absl::StrCat("missing 'date' argument to ", kOp,
                                           ", provided: ", ToJson(operand)));
    }
    ASSIGN_OR_RETURN(ExprPtr tz, ParseNamed(named, "timezone", ctx));
    return ExprPtr(new DatePartExpr(kPart, std::move(date), std::move(tz)));
  }
  if (operand.is_array()) {
    if (operand.array_items().size() != 1) {
      return ExprError(40536, absl::StrCat(kOp,
                                           " accepts exactly one argument "
                                           "if given an array, but was "
                                           "given ",
                                           operand.array_items().size()));
    }
    ASSIGN_OR_RETURN(ExprPtr date,
                     ParseExpression(operand.array_items()[0], ctx));
    return ExprPtr(new DatePartExpr(kPart, std::move(date), nullptr));
  }
  ASSIGN_OR_RETURN(ExprPtr date, ParseExpression(operand, ctx));
  return ExprPtr(new DatePartExpr(kPart, std::move(date), nullptr));
}

// ---- $dateToString ----

class DateToStringExpr : public Expression {
 public:
  DateToStringExpr(ExprPtr date, ExprPtr format, ExprPtr tz, ExprPtr on_null)
      : date_(std::move(date)),
        format_(std::move(format)),
        tz_(std::move(tz)),
        on_null_(std::move(on_null)) {}
  ExprResult Evaluate(const Value& doc, Variables* vars) const override {
    ASSIGN_OR_RETURN(Opt d, date_->Evaluate(doc, vars));
    std::optional<std::string> format;
    if (format_ != nullptr) {
      ASSIGN_OR_RETURN(Opt f, format_->Evaluate(doc, vars));
      if (Nullish(f)) return internal::Null();
      if (!f->is_string()) {
        return ExprError(
            18533, absl::StrCat("$dateToString requires that "
                                "'format' be a string, found: ",
                                TypeNameOf(f), " with value ", DebugString(f)));
      }
      RETURN_IF_ERROR(ValidateDateFormat(f->string_value()));
      format = f->string_value();
    }
    ASSIGN_OR_RETURN(std::optional<ZoneInfo> z, EvalZone(tz_, doc, vars));
    if (!z.has_value()) return internal::Null();
    if (Nullish(d)) {
      if (on_null_ != nullptr) return on_null_->Evaluate(doc, vars);
      return internal::Null();
    }
    ASSIGN_OR_RETURN(int64_t millis, CoerceToDate(d));
    if (!format.has_value()) {
      format = z->is_utc ? "%Y-%m-%dT%H:%M:%S.%LZ" : "%Y-%m-%dT%H:%M:%S.%L";
    }
    ASSIGN_OR_RETURN(std::string s, FormatDate(*format, millis, z->tz));
    return Ok(Value::String(std::move(s)));
  }

 private:
  ExprPtr date_, format_, tz_, on_null_;
};

ParseResult ParseDateToString(const Value& operand, ParseContext* ctx) {
  if (!operand.is_object()) {
    return ExprError(18629, absl::StrCat("$dateToString only supports an "
                                         "object as its argument"));
  }
  Named named;
  RETURN_IF_ERROR(ReadNamed(
      operand, "$dateToString", {"date", "format", "timezone", "onNull"}, 18534,
      "Unrecognized argument to $dateToString: ", &named));
  ASSIGN_OR_RETURN(ExprPtr date, ParseNamed(named, "date", ctx));
  if (date == nullptr) {
    return ExprError(18628, "Missing 'date' parameter to $dateToString");
  }
  for (const auto& [n, v] : named) {
    if (n == "format" && v->is_string()) {
      RETURN_IF_ERROR(ValidateDateFormat(v->string_value()));
    }
  }
  ASSIGN_OR_RETURN(ExprPtr format, ParseNamed(named, "format", ctx));
  ASSIGN_OR_RETURN(ExprPtr tz, ParseNamed(named, "timezone", ctx));
  ASSIGN_OR_RETURN(ExprPtr on_null, ParseNamed(named, "onNull", ctx));
  return ExprPtr(new DateToStringExpr(std::move(date), std::move(format),
                                      std::move(tz), std::move(on_null)));
}

// ---- $dateFromString ----

class DateFromStringExpr : public Expression {
 public:
  DateFromStringExpr(ExprPtr s, ExprPtr format, ExprPtr tz, ExprPtr on_null,
                     ExprPtr on_error)
      : s_(std::move(s)),
        format_(std::move(format)),
        tz_(std::move(tz)),
        on_null_(std::move(on_null)),
        on_error_(std::move(on_error)) {}
  ExprResult Evaluate(const Value& doc, Variables* vars) const override {
    ASSIGN_OR_RETURN(Opt s, s_->Evaluate(doc, vars));
    std::optional<std::string> format;
    if (format_ != nullptr) {
      ASSIGN_OR_RETURN(Opt f, format_->Evaluate(doc, vars));
      if (Nullish(f)) return internal::Null();
      if (!f->is_string()) {
        return ExprError(
            40684, absl::StrCat("$dateFromString requires that "
                                "'format' be a string, found: ",
                                TypeNameOf(f), " with value ", DebugString(f)));
      }
      format = f->string_value();
    }
    ASSIGN_OR_RETURN(std::optional<ZoneInfo> z, EvalZone(tz_, doc, vars));
    if (!z.has_value()) return internal::Null();
    if (Nullish(s)) {
      if (on_null_ != nullptr) return on_null_->Evaluate(doc, vars);
      return internal::Null();
    }
    if (!s->is_string()) {
      if (on_error_ != nullptr) return on_error_->Evaluate(doc, vars);
      return ExprError(
          241, absl::StrCat("$dateFromString requires that "
                            "'dateString' be a string, found: ",
                            TypeNameOf(s), " with value ", DebugString(s)));
    }
    auto millis = ParseDateString(s->string_value(), z->tz, format);
    if (!millis.ok()) {
      if (ErrorCode(millis.status()) == 241 && on_error_ != nullptr) {
        return on_error_->Evaluate(doc, vars);
      }
      return millis.status();
    }
    return Ok(Value::Date(*millis));
  }

 private:
  ExprPtr s_, format_, tz_, on_null_, on_error_;
};

ParseResult ParseDateFromString(const Value& operand, ParseContext* ctx) {
  if (!operand.is_object()) {
    return ExprError(40540, absl::StrCat("$dateFromString only supports an "
                                         "object as an argument, found: ",
                                         TypeName(operand.type())));
  }
  Named named;
  RETURN_IF_ERROR(
      ReadNamed(operand, "$dateFromString",
                {"dateString", "format", "timezone", "onNull", "onError"},
                40541, "Unrecognized argument to $dateFromString: ", &named));
  ASSIGN_OR_RETURN(ExprPtr s, ParseNamed(named, "dateString", ctx));
  if (s == nullptr) {
    return ExprError(40542,
                     "Missing 'dateString' parameter to $dateFromString");
  }
  ASSIGN_OR_RETURN(ExprPtr format, ParseNamed(named, "format", ctx));
  ASSIGN_OR_RETURN(ExprPtr tz, ParseNamed(named, "timezone", ctx));
  ASSIGN_OR_RETURN(ExprPtr on_null, ParseNamed(named, "onNull", ctx));
  ASSIGN_OR_RETURN(ExprPtr on_error, ParseNamed(named, "onError", ctx));
  return ExprPtr(new DateFromStringExpr(std::move(s), std::move(format),
                                        std::move(tz), std::move(on_null),
                                        std::move(on_error)));
}

// ---- Units: $dateAdd, $dateSubtract, $dateDiff, $dateTrunc ----

enum class Unit {
  kYear,
  kQuarter,
  kMonth,
  kWeek,
  kDay,
  kHour,
  kMinute,
  kSecond,
  kMillisecond
};

absl::StatusOr<Unit> ParseUnit(const Opt& v, absl::string_view op) {
  if (!v->is_string()) {
    return ExprError(5439013, absl::StrCat(op,
                                           " requires 'unit' to be a "
                                           "string, but got ",
                                           TypeNameOf(v)));
  }
  static const std::vector<std::pair<const char*, Unit>> kUnits = {
      {"year", Unit::kYear},
      {"quarter", Unit::kQuarter},
      {"month", Unit::kMonth},
      {"week", Unit::kWeek},
      {"day", Unit::kDay},
      {"hour", Unit::kHour},
      {"minute", Unit::kMinute},
      {"second", Unit::kSecond},
      {"millisecond", Unit::kMillisecond}};
  for (const auto& [n, u] : kUnits) {
    if (v->string_value() == n) return u;
  }
  return ExprError(5439014, absl::StrCat(op,
                                         " parameter 'unit' value cannot "
                                         "be recognized as a time unit: ",
                                         v->string_value()));
}

int64_t UnitMillis(Unit u) {
  switch (u) {
    case Unit::kWeek:
      return 7 * 86400000LL;
    case Unit::kDay:
      return 86400000LL;
    case Unit::kHour:
      return 3600000LL;
    case Unit::kMinute:
      return 60000LL;
    case Unit::kSecond:
      return 1000LL;
    default:
      return 1;
  }
}

absl::CivilSecond LocalCivil(int64_t millis, absl::TimeZone tz) {
  return tz.At(absl::FromUnixMillis(millis)).cs;
}

int64_t FloorDivision(int64_t a, int64_t b) {
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}

int64_t MillisOf(absl::CivilSecond cs, int ms, absl::TimeZone tz) {
  return absl::ToUnixMillis(absl::FromCivil(cs, tz)) + ms;
}

// dateAdd (date_time_support.cpp): month units keep the local time and clamp
// the day to the month's end; day and week units move local days; smaller
// units are exact durations.
absl::StatusOr<int64_t> AddUnits(int64_t millis, Unit u, int64_t amount,
                                 absl::TimeZone tz) {
  const int ms = static_cast<int>(millis - FloorDivision(millis, 1000) * 1000);
  switch (u) {
    case Unit::kYear:
    case Unit::kQuarter:
    case Unit::kMonth: {
      const int64_t months = amount * (u == Unit::kYear      ? 12
                                       : u == Unit::kQuarter ? 3
                                                             : 1);
      absl::CivilSecond cs = LocalCivil(millis, tz);
      absl::CivilMonth m(cs.year(), cs.month());
      absl::CivilMonth target = m + months;
      absl::CivilDay last = absl::CivilDay(target + 1) - 1;
      int day = std::min<int>(cs.day(), last.day());
      absl::CivilSecond out(target.year(), target.month(), day, cs.hour(),
                            cs.minute(), cs.second());
      return MillisOf(out, ms, tz);
    }
    case Unit::kWeek:
    case Unit::kDay: {
      absl::CivilSecond cs = LocalCivil(millis, tz);
      absl::CivilDay d(cs);
      d += amount * (u == Unit::kWeek ? 7 : 1);
      absl::CivilSecond out(d.year(), d.month(), d.day(), cs.hour(),
                            cs.minute(), cs.second());
      return MillisOf(out, ms, tz);
    }
    default: {
      int64_t delta, r;
      if (__builtin_mul_overflow(amount, UnitMillis(u), &delta) ||
          __builtin_add_overflow(millis, delta, &r)) {
        return ExprError(5166406, "$dateAdd overflowed");
      }
      return r;
    }
  }
}

class DateAddExpr : public Expression {
 public:
  DateAddExpr(const char* op, bool subtract, ExprPtr start, ExprPtr unit,
              ExprPtr amount, ExprPtr tz)
      : op_(op),
        subtract_(subtract),
        start_(std::move(start)),
        unit_(std::move(unit)),
        amount_(std::move(amount)),
        tz_(std::move(tz)) {}
  ExprResult Evaluate(const Value& doc, Variables* vars) const override {
    ASSIGN_OR_RETURN(Opt start, start_->Evaluate(doc, vars));
    ASSIGN_OR_RETURN(Opt unit, unit_->Evaluate(doc, vars));
    ASSIGN_OR_RETURN(Opt amount, amount_->Evaluate(doc, vars));
    ASSIGN_OR_RETURN(std::optional<ZoneInfo> z, EvalZone(tz_, doc, vars));
    if (Nullish(start) || Nullish(unit) || Nullish(amount) || !z.has_value()) {
      return internal::Null();
    }
    if (start->type() != ValueType::kDate &&
        start->type() != ValueType::kTimestamp &&
        start->type() != ValueType::kObjectId) {
      return ExprError(5166403, absl::StrCat(op_,
                                             " requires startDate to be "
                                             "convertible to a date"));
    }
    ASSIGN_OR_RETURN(int64_t millis, CoerceToDate(start));
    if (!unit->is_string()) {
      return ExprError(5166404, absl::StrCat(op_,
                                             " expects string defining "
                                             "the time unit"));
    }
    ASSIGN_OR_RETURN(Unit u, ParseUnit(unit, op_));
    int64_t n = 0;
    if (!amount->is_number() || !internal::IsIntegral64(*amount, &n)) {
      return ExprError(5166405, absl::StrCat(op_,
                                             " expects integer amount "
                                             "of time units"));
    }
    if (subtract_) {
      if (n == std::numeric_limits<int64_t>::min()) {
        return ExprError(
            6045000,
            absl::StrCat("invalid ", op_, " 'amount' parameter value: ", n));
      }
      n = -n;
    }
    ASSIGN_OR_RETURN(int64_t r, AddUnits(millis, u, n, z->tz));
    return Ok(Value::Date(r));
  }

 private:
  const char* op_;
  bool subtract_;
  ExprPtr start_, unit_, amount_, tz_;
};

template <bool kSubtract>
ParseResult ParseDateAdd(const Value& operand, ParseContext* ctx) {
  const char* op = kSubtract ? "$dateSubtract" : "$dateAdd";
  if (!operand.is_object()) {
    return ExprError(5166400, absl::StrCat(op,
                                           " expects an object as its "
                                           "argument"));
  }
  Named named;
  RETURN_IF_ERROR(ReadNamed(
      operand, op, {"startDate", "unit", "amount", "timezone"}, 5166401,
      absl::StrCat("Unrecognized argument to ", op, ": "), &named));
  ASSIGN_OR_RETURN(ExprPtr start, ParseNamed(named, "startDate", ctx));
  ASSIGN_OR_RETURN(ExprPtr unit, ParseNamed(named, "unit", ctx));
  ASSIGN_OR_RETURN(ExprPtr amount, ParseNamed(named, "amount", ctx));
  if (start == nullptr || unit == nullptr || amount == nullptr) {
    return ExprError(5166402, absl::StrCat(op,
                                           " requires startDate, unit, "
                                           "and amount to be present"));
  }
  ASSIGN_OR_RETURN(ExprPtr tz, ParseNamed(named, "timezone", ctx));
  return ExprPtr(new DateAddExpr(op, kSubtract, std::move(start),
                                 std::move(unit), std::move(amount),
                                 std::move(tz)));
}

// 0 (Monday) .. 6 (Sunday) from a startOfWeek name (full or 3 letters,
// any case).
absl::StatusOr<int> ParseStartOfWeek(const Opt& v, absl::string_view op) {
  if (!v->is_string()) {
    return ExprError(5439015, absl::StrCat(op,
                                           " requires 'startOfWeek' to be "
                                           "a string, but got ",
                                           TypeNameOf(v)));
  }
  static const char* kDays[] = {"monday", "tuesday",  "wednesday", "thursday",
                                "friday", "saturday", "sunday"};
  std::string s = absl::AsciiStrToLower(v->string_value());
  for (int i = 0; i < 7; ++i) {
    if (s == kDays[i] || s == std::string(kDays[i], 3)) return i;
  }
  return ExprError(5439016, absl::StrCat(op,
                                         " parameter 'startOfWeek' value "
                                         "cannot be recognized as a day "
                                         "of a week: ",
                                         v->string_value()));
}

// The startOfWeek of $dateDiff and $dateTrunc: Sunday (6) when absent or when
// the unit is not a week; nullopt when it evaluates to null or missing (the
// whole expression is then null).
absl::StatusOr<std::optional<int>> EvalStartOfWeek(const ExprPtr& sow, Unit u,
                                                   const Value& doc,
                                                   Variables* vars,
                                                   absl::string_view op) {
  if (sow == nullptr || u != Unit::kWeek) return 6;
  ASSIGN_OR_RETURN(Opt s, sow->Evaluate(doc, vars));
  if (Nullish(s)) return std::nullopt;
  return ParseStartOfWeek(s, op);
}

// A date, timestamp or ObjectId operand as milliseconds; otherwise MongoDB's
// "<op> requires '<which>' to be a date" error with `code`.
absl::StatusOr<int64_t> RequireDateLike(const Opt& v, absl::string_view op,
                                        absl::string_view which, int code) {
  if (v->type() != ValueType::kDate && v->type() != ValueType::kTimestamp &&
      v->type() != ValueType::kObjectId) {
    return ExprError(
        code, absl::StrCat(op, " requires '", which, "' to be a date, but got ",
                           TypeNameOf(v)));
  }
  return CoerceToDate(v);
}

// The number of `u` boundaries between two instants (dateDiff).
int64_t DiffUnits(int64_t a, int64_t b, Unit u, absl::TimeZone tz,
                  int start_of_week) {
  const absl::CivilSecond ca = LocalCivil(a, tz), cb = LocalCivil(b, tz);
  switch (u) {
    case Unit::kYear:
      return cb.year() - ca.year();
    case Unit::kQuarter:
      return (cb.year() * 4 + (cb.month() - 1) / 3) -
             (ca.year() * 4 + (ca.month() - 1) / 3);
    case Unit::kMonth:
      return (cb.year() * 12 + cb.month()) - (ca.year() * 12 + ca.month());
    case Unit::kWeek: {
      auto week_start = [&](absl::CivilSecond c) {
        absl::CivilDay d(c);
        int mon0 = static_cast<int>(absl::GetWeekday(d));
        return d - ((mon0 - start_of_week + 7) % 7);
      };
      return (week_start(cb) - week_start(ca)) / 7;
    }
    case Unit::kDay:
      return absl::CivilDay(cb) - absl::CivilDay(ca);
    default: {
      // Local time, so that a DST change does not shift the boundaries of
      // hours... MongoDB counts these in UTC (fixed-length units).
      const int64_t unit = UnitMillis(u);
      return FloorDivision(b, unit) - FloorDivision(a, unit);
    }
  }
}

class DateDiffExpr : public Expression {
 public:
  DateDiffExpr(ExprPtr start, ExprPtr end, ExprPtr unit, ExprPtr tz,
               ExprPtr sow)
      : start_(std::move(start)),
        end_(std::move(end)),
        unit_(std::move(unit)),
        tz_(std::move(tz)),
        sow_(std::move(sow)) {}
  ExprResult Evaluate(const Value& doc, Variables* vars) const override {
    ASSIGN_OR_RETURN(Opt start, start_->Evaluate(doc, vars));
    ASSIGN_OR_RETURN(Opt end, end_->Evaluate(doc, vars));
    ASSIGN_OR_RETURN(Opt unit, unit_->Evaluate(doc, vars));
    ASSIGN_OR_RETURN(std::optional<ZoneInfo> z, EvalZone(tz_, doc, vars));
    if (Nullish(start) || Nullish(end) || Nullish(unit) || !z.has_value()) {
      return internal::Null();
    }
    ASSIGN_OR_RETURN(int64_t a,
                     RequireDateLike(start, "$dateDiff", "startDate", 5166307));
    ASSIGN_OR_RETURN(int64_t b,
                     RequireDateLike(end, "$dateDiff", "endDate", 5166307));
    ASSIGN_OR_RETURN(Unit u, ParseUnit(unit, "$dateDiff"));
    ASSIGN_OR_RETURN(std::optional<int> sow,
                     EvalStartOfWeek(sow_, u, doc, vars, "$dateDiff"));
    if (!sow.has_value()) return internal::Null();
    return Ok(Value::Int64(DiffUnits(a, b, u, z->tz, *sow)));
  }

 private:
  ExprPtr start_, end_, unit_, tz_, sow_;
};

ParseResult ParseDateDiff(const Value& operand, ParseContext* ctx) {
  if (!operand.is_object()) {
    return ExprError(5166301,
                     "$dateDiff only supports an object as its "
                     "argument");
  }
  Named named;
  RETURN_IF_ERROR(
      ReadNamed(operand, "$dateDiff",
                {"startDate", "endDate", "unit", "timezone", "startOfWeek"},
                5166302, "Unrecognized argument to $dateDiff: ", &named));
  ASSIGN_OR_RETURN(ExprPtr start, ParseNamed(named, "startDate", ctx));
  ASSIGN_OR_RETURN(ExprPtr end, ParseNamed(named, "endDate", ctx));
  ASSIGN_OR_RETURN(ExprPtr unit, ParseNamed(named, "unit", ctx));
  if (start == nullptr) {
    return ExprError(5166303, "Missing 'startDate' parameter to $dateDiff");
  }
  if (end == nullptr) {
    return ExprError(5166304, "Missing 'endDate' parameter to $dateDiff");
  }
  if (unit == nullptr) {
    return ExprError(5166305, "Missing 'unit' parameter to $dateDiff");
  }
  ASSIGN_OR_RETURN(ExprPtr tz, ParseNamed(named, "timezone", ctx));
  ASSIGN_OR_RETURN(ExprPtr sow, ParseNamed(named, "startOfWeek", ctx));
  return ExprPtr(new DateDiffExpr(std::move(start), std::move(end),
                                  std::move(unit), std::move(tz),
                                  std::move(sow)));
}

// dateTrunc: bins of binSize units counted from the reference instant
// 2000-01-01T00:00:00 in the zone (for weeks, the first startOfWeek day on
// or after it).
int64_t TruncUnits(int64_t millis, Unit u, int64_t bin, absl::TimeZone tz,
                   int start_of_week) {
  const absl::CivilSecond c = LocalCivil(millis, tz);
  switch (u) {
    case Unit::kYear:
    case Unit::kQuarter:
    case Unit::kMonth: {
      const int64_t per = u == Unit::kYear ? 12 : u == Unit::kQuarter ? 3 : 1;
      const int64_t months = (c.year() - 2000) * 12 + (c.month() - 1);
      const int64_t step = per * bin;
      const int64_t start = FloorDivision(months, step) * step;
      absl::CivilMonth m = absl::CivilMonth(2000, 1) + start;
      return MillisOf(absl::CivilSecond(m), 0, tz);
    }
    case Unit::kWeek: {
      absl::CivilDay ref(2000, 1, 1);
      int mon0 = static_cast<int>(absl::GetWeekday(ref));
      ref += (start_of_week - mon0 + 7) % 7;
      const int64_t days = absl::CivilDay(c) - ref;
      const int64_t start = FloorDivision(days, 7 * bin) * 7 * bin;
      return MillisOf(absl::CivilSecond(ref + start), 0, tz);
    }
    case Unit::kDay: {
      const absl::CivilDay ref(2000, 1, 1);
      const int64_t days = absl::CivilDay(c) - ref;
      const int64_t start = FloorDivision(days, bin) * bin;
      return MillisOf(absl::CivilSecond(ref + start), 0, tz);
    }
    default: {
      // Fixed-length units, counted in local time from the reference.
      const int64_t unit = UnitMillis(u) * bin;
      const int64_t offset_ms =
          int64_t{tz.At(absl::FromUnixMillis(millis)).offset} * 1000;
      const int64_t ref = absl::ToUnixMillis(
          absl::FromCivil(absl::CivilSecond(2000, 1, 1), absl::UTCTimeZone()));
      const int64_t local = millis + offset_ms;
      return ref + FloorDivision(local - ref, unit) * unit - offset_ms;
    }
  }
}

class DateTruncExpr : public Expression {
 public:
  DateTruncExpr(ExprPtr date, ExprPtr unit, ExprPtr bin, ExprPtr tz,
                ExprPtr sow)
      : date_(std::move(date)),
        unit_(std::move(unit)),
        bin_(std::move(bin)),
        tz_(std::move(tz)),
        sow_(std::move(sow)) {}
  ExprResult Evaluate(const Value& doc, Variables* vars) const override {
    ASSIGN_OR_RETURN(Opt date, date_->Evaluate(doc, vars));
    ASSIGN_OR_RETURN(Opt unit, unit_->Evaluate(doc, vars));
    ASSIGN_OR_RETURN(std::optional<ZoneInfo> z, EvalZone(tz_, doc, vars));
    if (Nullish(date) || Nullish(unit) || !z.has_value()) {
      return internal::Null();
    }
    ASSIGN_OR_RETURN(int64_t millis,
                     RequireDateLike(date, "$dateTrunc", "date", 5439012));
    ASSIGN_OR_RETURN(Unit u, ParseUnit(unit, "$dateTrunc"));
    int64_t bin = 1;
    if (bin_ != nullptr) {
      ASSIGN_OR_RETURN(Opt b, bin_->Evaluate(doc, vars));
      if (Nullish(b)) return internal::Null();
      if (!b->is_number() || !internal::IsIntegral64(*b, &bin) || bin <= 0) {
        return ExprError(
            5439017, absl::StrCat("$dateTrunc requires 'binSize' "
                                  "to be a 64-bit integer, but "
                                  "got value '",
                                  DebugString(b), "' of type ", TypeNameOf(b)));
      }
    }
    ASSIGN_OR_RETURN(std::optional<int> sow,
                     EvalStartOfWeek(sow_, u, doc, vars, "$dateTrunc"));
    if (!sow.has_value()) return internal::Null();
    return Ok(Value::Date(TruncUnits(millis, u, bin, z->tz, *sow)));
  }

 private:
  ExprPtr date_, unit_, bin_, tz_, sow_;
};

ParseResult ParseDateTrunc(const Value& operand, ParseContext* ctx) {
  if (!operand.is_object()) {
    return ExprError(5439007,
                     "$dateTrunc only supports an object as its "
                     "argument");
  }
  Named named;
  RETURN_IF_ERROR(
      ReadNamed(operand, "$dateTrunc",
                {"date", "unit", "binSize", "timezone", "startOfWeek"}, 5439008,
                "Unrecognized argument to $dateTrunc: ", &named));
  ASSIGN_OR_RETURN(ExprPtr date, ParseNamed(named, "date", ctx));
  ASSIGN_OR_RETURN(ExprPtr unit, ParseNamed(named, "unit", ctx));
  if (date == nullptr) {
    return ExprError(5439009, "Missing 'date' parameter to $dateTrunc");
  }
  if (unit == nullptr) {
    return ExprError(5439010, "Missing 'unit' parameter to $dateTrunc");
  }
  ASSIGN_OR_RETURN(ExprPtr bin, ParseNamed(named, "binSize", ctx));
  ASSIGN_OR_RETURN(ExprPtr tz, ParseNamed(named, "timezone", ctx));
  ASSIGN_OR_RETURN(ExprPtr sow, ParseNamed(named, "startOfWeek", ctx));
  return ExprPtr(new DateTruncExpr(std::move(date), std::move(unit),
                                   std::move(bin), std::move(tz),
                                   std::move(sow)));
}

// ---- $dateToParts / $dateFromParts ----

class DateToPartsExpr : public Expression {
 public:
  DateToPartsExpr(ExprPtr date, ExprPtr tz, ExprPtr iso)
      : date_(std::move(date)), tz_(std::move(tz)), iso_(std::move(iso)) {}
  ExprResult Evaluate(const Value& doc, Variables* vars) const override {
    ASSIGN_OR_RETURN(Opt date, date_->Evaluate(doc, vars));
    ASSIGN_OR_RETURN(std::optional<ZoneInfo> z, EvalZone(tz_, doc, vars));
    bool iso = false;
    if (iso_ != nullptr) {
      ASSIGN_OR_RETURN(Opt i, iso_->Evaluate(doc, vars));
      if (Nullish(i)) return internal::Null();
      if (i->type() != ValueType::kBool) {
        return ExprError(40521, absl::StrCat("iso8601 must evaluate to a bool, "
                                             "found ",
                                             TypeNameOf(i)));
      }
      iso = i->bool_value();
    }
    if (Nullish(date) || !z.has_value()) return internal::Null();
    ASSIGN_OR_RETURN(int64_t millis, CoerceToDate(date));
    const DateParts p = ToParts(millis, z->tz);
    Value::Object o;
    if (iso) {
      o.emplace_back("isoWeekYear",
                     Value::Int32(static_cast<int32_t>(p.iso_week_year)));
      o.emplace_back("isoWeek", Value::Int32(p.iso_week));
      o.emplace_back("isoDayOfWeek", Value::Int32(p.iso_day_of_week));
    } else {
      o.emplace_back("year", Value::Int32(static_cast<int32_t>(p.year)));
      o.emplace_back("month", Value::Int32(p.month));
      o.emplace_back("day", Value::Int32(p.day));
    }
    o.emplace_back("hour", Value::Int32(p.hour));
    o.emplace_back("minute", Value::Int32(p.minute));
    o.emplace_back("second", Value::Int32(p.second));
    o.emplace_back("millisecond", Value::Int32(p.millisecond));
    return Ok(Value::MakeObject(std::move(o)));
  }

 private:
  ExprPtr date_, tz_, iso_;
};

ParseResult ParseDateToParts(const Value& operand, ParseContext* ctx) {
  if (!operand.is_object()) {
    return ExprError(40524,
                     "$dateToParts only supports an object as its "
                     "argument");
  }
  Named named;
  RETURN_IF_ERROR(ReadNamed(operand, "$dateToParts",
                            {"date", "timezone", "iso8601"}, 40520,
                            "Unrecognized argument to $dateToParts: ", &named));
  ASSIGN_OR_RETURN(ExprPtr date, ParseNamed(named, "date", ctx));
  if (date == nullptr) {
    return ExprError(40522, "Missing 'date' parameter to $dateToParts");
  }
  ASSIGN_OR_RETURN(ExprPtr tz, ParseNamed(named, "timezone", ctx));
  ASSIGN_OR_RETURN(ExprPtr iso, ParseNamed(named, "iso8601", ctx));
  return ExprPtr(
      new DateToPartsExpr(std::move(date), std::move(tz), std::move(iso)));
}

class DateFromPartsExpr : public Expression {
 public:
  // parts: year|isoWeekYear, month|isoWeek, day|isoDayOfWeek, hour, minute,
  // second, millisecond.
  DateFromPartsExpr(bool iso, std::vector<ExprPtr> parts, ExprPtr tz)
      : iso_(iso), parts_(std::move(parts)), tz_(std::move(tz)) {}
  ExprResult Evaluate(const Value& doc, Variables* vars) const override {
    static const char* kNames[2][7] = {
        {"year", "month", "day", "hour", "minute", "second", "millisecond"},
        {"isoWeekYear", "isoWeek", "isoDayOfWeek", "hour", "minute", "second",
         "millisecond"}};
    int64_t v[7] = {1970, 1, 1, 0, 0, 0, 0};
    for (int i = 0; i < 7; ++i) {
      if (parts_[i] == nullptr) continue;
      ASSIGN_OR_RETURN(Opt x, parts_[i]->Evaluate(doc, vars));
      if (Nullish(x)) return internal::Null();
      const char* name = kNames[iso_ ? 1 : 0][i];
      if (!x->is_number() || !internal::IsIntegral64(*x, &v[i])) {
        return ExprError(
            40515, absl::StrCat("'", name,
                                "' must evaluate to an "
                                "integer, found ",
                                TypeNameOf(x), " with value ", DebugString(x)));
      }
      if (i == 0) {
        if (v[i] < 1 || v[i] > 9999) {
          return ExprError(40523, absl::StrCat("'", name,
                                               "' must evaluate to "
                                               "an integer in the range 1 to "
                                               "9999, found ",
                                               v[i]));
        }
      } else if (v[i] < -32768 || v[i] > 32767) {
        return ExprError(31034, absl::StrCat("'", name,
                                             "' must evaluate to a "
                                             "value in the range [-32768, "
                                             "32767]; value ",
                                             v[i], " is not in range"));
      }
    }
    ASSIGN_OR_RETURN(std::optional<ZoneInfo> z, EvalZone(tz_, doc, vars));
    if (!z.has_value()) return internal::Null();
    absl::CivilDay day;
    if (iso_) {
      absl::CivilDay jan4(v[0], 1, 4);
      absl::CivilDay monday = jan4 - static_cast<int>(absl::GetWeekday(jan4));
      day = monday + (v[1] - 1) * 7 + (v[2] - 1);
    } else {
      // Months and days beyond their ranges carry (CivilSecond normalizes).
      day = absl::CivilDay(absl::CivilMonth(v[0], 1) + (v[1] - 1)) + (v[2] - 1);
    }
    absl::CivilSecond cs =
        absl::CivilSecond(day) + v[3] * 3600 + v[4] * 60 + v[5];
    return Ok(
        Value::Date(absl::ToUnixMillis(absl::FromCivil(cs, z->tz)) + v[6]));
  }

 private:
  bool iso_;
  std::vector<ExprPtr> parts_;
  ExprPtr tz_;
};

ParseResult ParseDateFromParts(const Value& operand, ParseContext* ctx) {
  if (!operand.is_object()) {
    return ExprError(40519,
                     "$dateFromParts only supports an object as its "
                     "argument");
  }
  Named named;
  RETURN_IF_ERROR(ReadNamed(
      operand, "$dateFromParts",
      {"year", "month", "day", "hour", "minute", "second", "millisecond",
       "isoWeekYear", "isoWeek", "isoDayOfWeek", "timezone"},
      40518, "Unrecognized argument to $dateFromParts: ", &named));
  auto has = [&](const char* n) {
    for (const auto& [k, v] : named) {
      if (k == n) return true;
    }
    return false;
  };
  const bool iso = has("isoWeekYear");
  if (iso && (has("year") || has("month") || has("day"))) {
    return ExprError(40489,
                     "$dateFromParts does not allow mixing natural "
                     "dates with ISO dates");
  }
  if (!iso && (has("isoWeek") || has("isoDayOfWeek"))) {
    return ExprError(40489,
                     "$dateFromParts does not allow mixing natural "
                     "dates with ISO dates");
  }
  if (!iso && !has("year")) {
    return ExprError(40516,
                     "$dateFromParts requires either 'year' or "
                     "'isoWeekYear' to be present");
  }
  static const char* kNames[2][7] = {
      {"year", "month", "day", "hour", "minute", "second", "millisecond"},
      {"isoWeekYear", "isoWeek", "isoDayOfWeek", "hour", "minute", "second",
       "millisecond"}};
  std::vector<ExprPtr> parts;
  for (int i = 0; i < 7; ++i) {
    ASSIGN_OR_RETURN(ExprPtr e, ParseNamed(named, kNames[iso ? 1 : 0][i], ctx));
    parts.push_back(std::move(e));
  }
  ASSIGN_OR_RETURN(ExprPtr tz, ParseNamed(named, "timezone", ctx));
  return ExprPtr(new DateFromPartsExpr(iso, std::move(parts), std::move(tz)));
}

constexpr char kYear[] = "$year", kMonth[] = "$month",
               kDayOfMonth[] = "$dayOfMonth", kHour[] = "$hour",
               kMinute[] = "$minute", kSecond[] = "$second",
               kMillisecond[] = "$millisecond", kDayOfWeek[] = "$dayOfWeek",
               kDayOfYear[] = "$dayOfYear", kWeek[] = "$week",
               kIsoWeek[] = "$isoWeek", kIsoWeekYear[] = "$isoWeekYear",
               kIsoDayOfWeek[] = "$isoDayOfWeek";

// $tsSecond / $tsIncrement: the parts of a timestamp, as longs.
template <bool kSecond>
ExprResult TsPart(std::vector<Opt>& a) {
  const char* op = kSecond ? "$tsSecond" : "$tsIncrement";
  if (Nullish(a[0])) return internal::Null();
  if (a[0]->type() != ValueType::kTimestamp) {
    return ExprError(kSecond ? 5687301 : 5687302,
                     absl::StrCat("Argument to ", op,
                                  " must be a timestamp, "
                                  "but is ",
                                  TypeNameOf(a[0])));
  }
  const Timestamp& ts = a[0]->timestamp_value();
  return Ok(Value::Int64(kSecond ? ts.t : ts.i));
}

}  // namespace

void RegisterDateOperators() {
  TTLDB_REGISTER_EAGER("$tsSecond", 1, 1, TsPart<true>);
  TTLDB_REGISTER_EAGER("$tsIncrement", 1, 1, TsPart<false>);
  RegisterOperator(kYear, ParseDatePart<Part::kYear, kYear>);
  RegisterOperator(kMonth, ParseDatePart<Part::kMonth, kMonth>);
  RegisterOperator(kDayOfMonth, ParseDatePart<Part::kDayOfMonth, kDayOfMonth>);
  RegisterOperator(kHour, ParseDatePart<Part::kHour, kHour>);
  RegisterOperator(kMinute, ParseDatePart<Part::kMinute, kMinute>);
  RegisterOperator(kSecond, ParseDatePart<Part::kSecond, kSecond>);
  RegisterOperator(kMillisecond,
                   ParseDatePart<Part::kMillisecond, kMillisecond>);
  RegisterOperator(kDayOfWeek, ParseDatePart<Part::kDayOfWeek, kDayOfWeek>);
  RegisterOperator(kDayOfYear, ParseDatePart<Part::kDayOfYear, kDayOfYear>);
  RegisterOperator(kWeek, ParseDatePart<Part::kWeek, kWeek>);
  RegisterOperator(kIsoWeek, ParseDatePart<Part::kIsoWeek, kIsoWeek>);
  RegisterOperator(kIsoWeekYear,
                   ParseDatePart<Part::kIsoWeekYear, kIsoWeekYear>);
  RegisterOperator(kIsoDayOfWeek,
                   ParseDatePart<Part::kIsoDayOfWeek, kIsoDayOfWeek>);
  RegisterOperator("$dateToString", ParseDateToString);
  RegisterOperator("$dateFromString", ParseDateFromString);
  RegisterOperator("$dateAdd", ParseDateAdd<false>);
  RegisterOperator("$dateSubtract", ParseDateAdd<true>);
  RegisterOperator("$dateDiff", ParseDateDiff);
  RegisterOperator("$dateTrunc", ParseDateTrunc);
  RegisterOperator("$dateToParts", ParseDateToParts);
  RegisterOperator("$dateFromParts", ParseDateFromParts);
}

}  // namespace agg
}  // namespace ttldb
