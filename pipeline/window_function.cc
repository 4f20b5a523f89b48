// The window functions (window_function.h). Each cites the MongoDB 8.0
// source it follows (src/mongo/db/pipeline/window_function/).
#include "pipeline/window_function.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/time/civil_time.h"
#include "absl/time/time.h"
#include "base/op_deadline.h"
#include "base/status.h"
#include "document/bson.h"
#include "document/compare.h"
#include "pipeline/accumulator.h"
#include "pipeline/stage.h"
#include "ttldb/json.h"

namespace ttldb {
namespace agg {

int64_t TimeUnitMillis(absl::string_view unit) {
  if (unit == "week") return 7 * 24 * 3600 * 1000LL;
  if (unit == "day") return 24 * 3600 * 1000LL;
  if (unit == "hour") return 3600 * 1000LL;
  if (unit == "minute") return 60 * 1000LL;
  if (unit == "second") return 1000LL;
  if (unit == "millisecond") return 1LL;
  if (unit == "year" || unit == "quarter" || unit == "month") return 0;
  return -1;
}

bool IsTimeUnit(absl::string_view unit) { return TimeUnitMillis(unit) >= 0; }

bool AddTimeUnits(int64_t millis, absl::string_view unit, int64_t amount,
                  int64_t* out) {
  int64_t fixed = TimeUnitMillis(unit);
  if (fixed > 0) {
    // 1e15 units of a millisecond and more leave the date range anyway.
    if (std::abs(amount) > (std::numeric_limits<int64_t>::max() / fixed)) {
      return false;
    }
    int64_t delta = amount * fixed;
    if ((delta > 0 && millis > std::numeric_limits<int64_t>::max() - delta) ||
        (delta < 0 && millis < std::numeric_limits<int64_t>::min() - delta)) {
      return false;
    }
    *out = millis + delta;
    return true;
  }
  if (std::abs(amount) > 1000000) return false;  // >= 83,000 years
  int64_t months = amount;
  if (unit == "year") months = amount * 12;
  if (unit == "quarter") months = amount * 3;
  absl::Time t = absl::FromUnixMillis(millis);
  absl::CivilSecond cs = absl::ToCivilSecond(t, absl::UTCTimeZone());
  int64_t sub_ms =
      millis - absl::ToUnixMillis(absl::FromCivil(cs, absl::UTCTimeZone()));
  absl::CivilMonth m(cs.year(), cs.month());
  m += months;
  absl::CivilDay last = absl::CivilDay(absl::CivilMonth(m + 1)) - 1;
  int day = std::min<int>(cs.day(), last.day());
  absl::CivilSecond r(m.year(), m.month(), day, cs.hour(), cs.minute(),
                      cs.second());
  *out = absl::ToUnixMillis(absl::FromCivil(r, absl::UTCTimeZone())) + sub_ms;
  return true;
}

absl::Status ChargeWindowMemory(const WindowPartition& p,
                                const std::optional<Value>& v) {
  *p.bytes += v.has_value() ? BsonValueSize(*v) : 1;
  if (*p.bytes > p.max_bytes) {
    return StageError(
        5414201,
        absl::StrCat("Exceeded memory limit in "
                     "DocumentSourceSetWindowFields, used ",
                     *p.bytes, " bytes but max allowed is ", p.max_bytes));
  }
  return absl::OkStatus();
}

namespace {

absl::Status Fail(absl::string_view message) {
  return StageError(kFailedToParse, message);
}

// ---- Bounds (window_bounds.cpp) ---------------------------------------------

struct Bound {
  enum class Kind { kUnbounded, kCurrent, kValue };
  Kind kind = Kind::kUnbounded;
  Value value;  // kValue: the number
};

struct Bounds {
  bool range = false;
  Bound lower, upper;
  std::string unit;  // range with a unit
  bool unbounded() const {
    return lower.kind == Bound::Kind::kUnbounded &&
           upper.kind == Bound::Kind::kUnbounded;
  }
};

bool IsIntegral(const Value& v) {
  if (!v.is_number()) return false;
  if (v.type() == ValueType::kInt32 || v.type() == ValueType::kInt64) {
    return true;
  }
  double d = v.AsDouble();
  return std::isfinite(d) && d == std::floor(d);
}

absl::StatusOr<Bound> ParseBound(const Value& v, bool documents, bool unit,
                                 ParseContext* ctx) {
  Bound b;
  if (v.is_string()) {
    if (v.string_value() == "unbounded") return b;
    if (v.string_value() == "current") {
      b.kind = Bound::Kind::kCurrent;
      return b;
    }
    return Fail("Window bounds must be 'unbounded', 'current', or a number.");
  }
  ASSIGN_OR_RETURN(std::unique_ptr<Expression> e, ParseExpression(v, ctx));
  if (!e->IsConstant())
    return Fail("Window bounds expression must be a constant.");
  Value empty = Value::MakeObject();
  Variables vars(&empty, 0);
  ASSIGN_OR_RETURN(std::optional<Value> c, e->Evaluate(empty, &vars));
  Value n = c.value_or(Value());
  if (documents) {
    if (!IsIntegral(n) || std::fabs(n.AsDouble()) > 2147483647.0) {
      return Fail("Numeric document-based bounds must be an integer");
    }
    n = Value::Int64(static_cast<int64_t>(n.AsDouble()));
  } else if (unit) {
    if (!IsIntegral(n)) {
      return Fail("With 'unit', range-based bounds must be an integer");
    }
  } else if (!n.is_number()) {
    return Fail("Range-based bounds expression must be a number");
  }
  b.kind = Bound::Kind::kValue;
  b.value = std::move(n);
  return b;
}

absl::Status CheckForward(const Bound& lo, const Bound& hi) {
  auto norm = [](const Bound& b) -> std::optional<Value> {
    if (b.kind == Bound::Kind::kCurrent) return Value::Int32(0);
    if (b.kind == Bound::Kind::kValue) return b.value;
    return std::nullopt;
  };
  std::optional<Value> l = norm(lo), h = norm(hi);
  if (l.has_value() && h.has_value() && CompareValues(*l, *h) > 0) {
    return StageError(5339900,
                      absl::StrCat("Lower bound must not exceed upper bound: [",
                                   ToJson(*l), ", ", ToJson(*h), "]"));
  }
  return absl::OkStatus();
}

absl::StatusOr<Bounds> ParseBounds(const Value& w, const WindowSort* sort,
                                   ParseContext* ctx) {
  if (!w.is_object()) return Fail("'window' field must be an object");
  const Value* documents = w.Get("documents");
  const Value* range = w.Get("range");
  const Value* unit = w.Get("unit");
  if (documents != nullptr && range != nullptr) {
    return Fail(
        "Window bounds can specify either 'documents' or 'unit', not "
        "both.");
  }
  if (range == nullptr && unit != nullptr) {
    return Fail(
        "Window bounds can only specify 'unit' with range-based "
        "bounds.");
  }
  Bounds b;
  if (range == nullptr && documents == nullptr) {
    if (!w.object_fields().empty()) {
      return Fail(
          "'window' field can only contain 'documents' as the only "
          "argument or 'range' with an optional 'unit' field");
    }
    return b;
  }
  const Value* pair = documents != nullptr ? documents : range;
  if (!pair->is_array() || pair->array_items().size() != 2) {
    return Fail(absl::StrCat("Window bounds must be a 2-element array: ",
                             documents != nullptr ? "documents" : "range", ": ",
                             ToJson(*pair)));
  }
  if (documents != nullptr) {
    if (w.object_fields().size() != 1) {
      return Fail(
          "'window' field that specifies documents cannot have other "
          "fields");
    }
    ASSIGN_OR_RETURN(b.lower,
                     ParseBound(pair->array_items()[0], true, false, ctx));
    ASSIGN_OR_RETURN(b.upper,
                     ParseBound(pair->array_items()[1], true, false, ctx));
    RETURN_IF_ERROR(CheckForward(b.lower, b.upper));
    if (!b.unbounded() && sort == nullptr) {
      return StageError(5339901, "Document-based bounds require a sortBy");
    }
    return b;
  }
  b.range = true;
  if (unit != nullptr) {
    if (w.object_fields().size() != 2) {
      return Fail(
          "'window' field that specifies unit cannot have other "
          "fields besides 'range'");
    }
    if (!unit->is_string()) return Fail("'unit' must be a string");
    if (!IsTimeUnit(unit->string_value())) {
      return Fail(
          absl::StrCat("unknown time unit value: ", unit->string_value()));
    }
    b.unit = unit->string_value();
  } else if (w.object_fields().size() != 1) {
    return Fail(
        "'window' field that specifies range cannot have other "
        "fields besides 'unit'");
  }
  ASSIGN_OR_RETURN(
      b.lower, ParseBound(pair->array_items()[0], false, unit != nullptr, ctx));
  ASSIGN_OR_RETURN(
      b.upper, ParseBound(pair->array_items()[1], false, unit != nullptr, ctx));
  RETURN_IF_ERROR(CheckForward(b.lower, b.upper));
  if (sort == nullptr || sort->spec.fields().size() != 1) {
    return StageError(5339902,
                      "Range-based bounds require sortBy a single field");
  }
  if (sort->first_direction != 1) {
    return StageError(8947401,
                      "Range-based bounds require an ascending sortBy");
  }
  return b;
}

// ---- Endpoints (partition_iterator.cpp getEndpoints) ------------------------

// The sortBy field's value of each document (missing: null).
absl::StatusOr<std::vector<Value>> SortValues(const WindowPartition& p) {
  std::vector<Value> out;
  out.reserve(p.docs->size());
  for (const Value& d : *p.docs) {
    p.vars->set_root(&d);
    ASSIGN_OR_RETURN(std::optional<Value> v,
                     p.sort->first_value->Evaluate(d, p.vars));
    RETURN_IF_ERROR(ChargeWindowMemory(p, v));
    out.push_back(v.value_or(Value()));
  }
  return out;
}

// Inclusive [lo, hi] of each document's window; lo > hi: empty.
struct Span {
  int64_t lo = 0, hi = -1;
  bool empty() const { return lo > hi; }
};

absl::StatusOr<std::vector<Span>> Spans(const Bounds& b,
                                        const WindowPartition& p) {
  int64_t n = static_cast<int64_t>(p.docs->size());
  std::vector<Span> spans(n);
  if (!b.range) {
    for (int64_t i = 0; i < n; ++i) {
      auto at = [&](const Bound& x, int64_t unbounded) -> int64_t {
        if (x.kind == Bound::Kind::kUnbounded) return unbounded;
        if (x.kind == Bound::Kind::kCurrent) return i;
        return i + x.value.int64_value();
      };
      Span s{std::max<int64_t>(at(b.lower, 0), 0),
             std::min<int64_t>(at(b.upper, n - 1), n - 1)};
      spans[i] = s;
    }
    return spans;
  }
  ASSIGN_OR_RETURN(std::vector<Value> values, SortValues(p));
  bool dates = !b.unit.empty();
  auto fits = [&](const Value& v) {
    return dates ? v.is_date() : v.is_number();
  };
  // The block of documents whose sort value has the window's type: sorted
  // ascending, they are contiguous.
  int64_t first = 0;
  while (first < n && !fits(values[first])) ++first;
  int64_t last = first;
  while (last < n && fits(values[last])) ++last;
  for (int64_t i = 0; i < n; ++i) {
    const Value& base = values[i];
    if (dates) {
      if (!base.is_date()) {
        return StageError(5429513,
                          absl::StrCat("Invalid range: Expected the sortBy "
                                       "field to be a Date, but it was ",
                                       TypeName(base.type())));
      }
    } else {
      if (base.is_date()) {
        return StageError(5429413,
                          "Invalid range: For windows that involve date or "
                          "time ranges, a unit must be provided.");
      }
      if (!base.is_number()) {
        return StageError(5429414,
                          absl::StrCat("Invalid range: Expected the sortBy "
                                       "field to be a number, but it was ",
                                       TypeName(base.type())));
      }
    }
    // The bound's value: base + offset (a date plus units, or a number).
    auto target = [&](const Bound& x, bool* none) -> Value {
      *none = false;
      int64_t amount = 0;
      if (x.kind == Bound::Kind::kValue) {
        if (dates) {
          double d = x.value.AsDouble();
          // Beyond 1e15 units every date is out of reach.
          amount = std::fabs(d) > 1e15
                       ? (d < 0 ? -1000000000000000LL : 1000000000000000LL)
                       : static_cast<int64_t>(d);
        } else {
          return Value::Double(base.AsDouble() + x.value.AsDouble());
        }
      }
      if (!dates) return base;
      int64_t ms = 0;
      if (!AddTimeUnits(base.date_millis(), b.unit, amount, &ms)) {
        *none = true;  // beyond every date: nothing on that side
        ms = amount < 0 ? std::numeric_limits<int64_t>::min()
                        : std::numeric_limits<int64_t>::max();
      }
      return Value::Date(ms);
    };
    // "current" is the current document itself, not its value
    // (range.js: "Unlike '0', 'current' always means the current
    // document").
    Span s;
    if (b.lower.kind == Bound::Kind::kUnbounded) {
      s.lo = 0;
    } else if (b.lower.kind == Bound::Kind::kCurrent) {
      s.lo = i;
    } else {
      bool none = false;
      Value t = target(b.lower, &none);
      int64_t lo = first, hi = last;  // first index with value >= t
      while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2;
        if (CompareValues(values[mid], t) < 0) {
          lo = mid + 1;
        } else {
          hi = mid;
        }
      }
      s.lo = lo;
    }
    if (b.upper.kind == Bound::Kind::kUnbounded) {
      s.hi = n - 1;
    } else if (b.upper.kind == Bound::Kind::kCurrent) {
      s.hi = i;
    } else {
      bool none = false;
      Value t = target(b.upper, &none);
      int64_t lo = first, hi = last;  // first index with value > t
      while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2;
        if (CompareValues(values[mid], t) <= 0) {
          lo = mid + 1;
        } else {
          hi = mid;
        }
      }
      s.hi = lo - 1;
    }
    spans[i] = s;
  }
  return spans;
}

// ---- Accumulators over a window ---------------------------------------------

class AccumulatorWindow : public WindowFunction {
 public:
  AccumulatorWindow(AccumulatorSpec acc, Bounds bounds)
      : acc_(std::move(acc)), bounds_(std::move(bounds)) {}

  absl::Status Compute(const WindowPartition& p,
                       std::vector<std::optional<Value>>* out) const override {
    const std::vector<Value>& docs = *p.docs;
    int64_t n = static_cast<int64_t>(docs.size());
    std::vector<std::optional<Value>> in(n);
    for (int64_t i = 0; i < n; ++i) {
      if (acc_.argument() == nullptr) {
        in[i] = Value::Int32(1);  // $count
      } else {
        p.vars->set_root(&docs[i]);
        ASSIGN_OR_RETURN(in[i], acc_.argument()->Evaluate(docs[i], p.vars));
      }
      RETURN_IF_ERROR(ChargeWindowMemory(p, in[i]));
    }
    // 'n' of $topN & co. is a constant: evaluated against an empty document
    // (window_function_expression.cpp ExpressionN::buildRemovable).
    Value empty = Value::MakeObject();
    auto make = [&]() -> absl::StatusOr<std::unique_ptr<Accumulator>> {
      p.vars->set_root(&empty);
      return acc_.Make(empty, p.vars);
    };
    ASSIGN_OR_RETURN(std::vector<Span> spans, Spans(bounds_, p));
    out->assign(n, std::nullopt);
    bool from_start = true;  // every window starts at the partition's start
    for (const Span& sp : spans) from_start = from_start && sp.lo <= 0;
    if (from_start) {
      // Left-unbounded (or a lower bound reaching past the start): the
      // window only grows (sorted partition), so one accumulator folds each
      // document once.
      ASSIGN_OR_RETURN(std::unique_ptr<Accumulator> a, make());
      int64_t added = 0;
      bool grows = true;  // each window's end at or after the previous one's
      for (int64_t i = 1; i < n && grows; ++i) {
        if (spans[i].hi < spans[i - 1].hi) grows = false;
      }
      if (grows) {
        for (int64_t i = 0; i < n; ++i) {
          while (added <= spans[i].hi) {
            RETURN_IF_ERROR(a->Process(in[added], docs[added]));
            ++added;
          }
          (*out)[i] = a->Final();
          RETURN_IF_ERROR(ChargeWindowMemory(p, (*out)[i]));
        }
        return absl::OkStatus();
      }
    }
    for (int64_t i = 0; i < n; ++i) {
      RETURN_IF_ERROR(CheckOpDeadline());
      ASSIGN_OR_RETURN(std::unique_ptr<Accumulator> a, make());
      for (int64_t j = spans[i].lo; j <= spans[i].hi; ++j) {
        RETURN_IF_ERROR(a->Process(in[j], docs[j]));
      }
      (*out)[i] = a->Final();
      RETURN_IF_ERROR(ChargeWindowMemory(p, (*out)[i]));
    }
    return absl::OkStatus();
  }

 private:
  AccumulatorSpec acc_;
  Bounds bounds_;
};

// ---- $first / $last (window_function_exec_first_last.h) --------------------
// The input at the window's first (last) document; missing stays missing
// (the field is not set); an empty window gives null.

class EndpointWindow : public WindowFunction {
 public:
  EndpointWindow(std::shared_ptr<const Expression> input, Bounds bounds,
                 bool first)
      : input_(std::move(input)), bounds_(std::move(bounds)), first_(first) {}
  absl::Status Compute(const WindowPartition& p,
                       std::vector<std::optional<Value>>* out) const override {
    const std::vector<Value>& docs = *p.docs;
    ASSIGN_OR_RETURN(std::vector<Span> spans, Spans(bounds_, p));
    out->assign(docs.size(), std::nullopt);
    for (size_t i = 0; i < docs.size(); ++i) {
      if (spans[i].empty()) {
        (*out)[i] = Value::Null();
        continue;
      }
      size_t j = static_cast<size_t>(first_ ? spans[i].lo : spans[i].hi);
      p.vars->set_root(&docs[j]);
      ASSIGN_OR_RETURN((*out)[i], input_->Evaluate(docs[j], p.vars));
      RETURN_IF_ERROR(ChargeWindowMemory(p, (*out)[i]));
    }
    return absl::OkStatus();
  }

 private:
  std::shared_ptr<const Expression> input_;
  Bounds bounds_;
  bool first_;
};

// ---- $covariancePop / $covarianceSamp (window_function_covariance.cpp) ------

class CovarianceWindow : public WindowFunction {
 public:
  CovarianceWindow(std::shared_ptr<const Expression> arg, bool sample,
                   Bounds bounds)
      : arg_(std::move(arg)), sample_(sample), bounds_(std::move(bounds)) {}

  absl::Status Compute(const WindowPartition& p,
                       std::vector<std::optional<Value>>* out) const override {
    const std::vector<Value>& docs = *p.docs;
    int64_t n = static_cast<int64_t>(docs.size());
    // The numeric (x, y) pairs; others are ignored.
    std::vector<std::optional<std::pair<double, double>>> xy(n);
    for (int64_t i = 0; i < n; ++i) {
      p.vars->set_root(&docs[i]);
      ASSIGN_OR_RETURN(std::optional<Value> v, arg_->Evaluate(docs[i], p.vars));
      if (v.has_value() && v->is_array() && v->array_items().size() == 2 &&
          v->array_items()[0].is_number() && v->array_items()[1].is_number()) {
        xy[i] = std::make_pair(v->array_items()[0].AsDouble(),
                               v->array_items()[1].AsDouble());
      }
    }
    ASSIGN_OR_RETURN(std::vector<Span> spans, Spans(bounds_, p));
    out->assign(n, std::nullopt);
    for (int64_t i = 0; i < n; ++i) {
      RETURN_IF_ERROR(CheckOpDeadline());
      double k = 0, mx = 0, my = 0, c = 0;
      for (int64_t j = spans[i].lo; j <= spans[i].hi; ++j) {
        if (!xy[j].has_value()) continue;
        ++k;
        double dx = xy[j]->first - mx;
        mx += dx / k;
        my += (xy[j]->second - my) / k;
        c += dx * (xy[j]->second - my);
      }
      double d = sample_ ? k - 1 : k;
      (*out)[i] = d <= 0 ? Value::Null() : Value::Double(c / d);
    }
    return absl::OkStatus();
  }

 private:
  std::shared_ptr<const Expression> arg_;
  bool sample_;
  Bounds bounds_;
};

// ---- $rank / $denseRank / $documentNumber (accumulator_rank.cpp) ------------

class RankWindow : public WindowFunction {
 public:
  explicit RankWindow(std::string op) : op_(std::move(op)) {}
  absl::Status Compute(const WindowPartition& p,
                       std::vector<std::optional<Value>>* out) const override {
    int64_t n = static_cast<int64_t>(p.docs->size());
    out->assign(n, std::nullopt);
    int64_t rank = 0, dense = 0;
    for (int64_t i = 0; i < n; ++i) {
      bool tie = i > 0 &&
                 p.sort->spec.CompareKeys((*p.keys)[i - 1], (*p.keys)[i]) == 0;
      if (!tie) {
        rank = i + 1;
        ++dense;
      }
      int64_t v = op_ == "$documentNumber" ? i + 1
                  : op_ == "$rank"         ? rank
                                           : dense;
      // int while it fits, as MongoDB's Value(long long) narrows in BSON
      // only when asked: the ranks are ints in mongod's replies.
      (*out)[i] = v <= std::numeric_limits<int32_t>::max()
                      ? Value::Int32(static_cast<int32_t>(v))
                      : Value::Int64(v);
    }
    return absl::OkStatus();
  }

 private:
  std::string op_;
};

// ---- $shift (window_function_shift.cpp, window_function_exec_shift) ---------

class ShiftWindow : public WindowFunction {
 public:
  ShiftWindow(std::shared_ptr<const Expression> output, int64_t by,
              Value default_value)
      : output_(std::move(output)),
        by_(by),
        default_(std::move(default_value)) {}
  absl::Status Compute(const WindowPartition& p,
                       std::vector<std::optional<Value>>* out) const override {
    const std::vector<Value>& docs = *p.docs;
    int64_t n = static_cast<int64_t>(docs.size());
    out->assign(n, std::nullopt);
    for (int64_t i = 0; i < n; ++i) {
      int64_t j = i + by_;
      if (j < 0 || j >= n) {
        (*out)[i] = default_;
        RETURN_IF_ERROR(ChargeWindowMemory(p, default_));
        continue;
      }
      p.vars->set_root(&docs[j]);
      ASSIGN_OR_RETURN(std::optional<Value> v,
                       output_->Evaluate(docs[j], p.vars));
      // A missing value takes the default too (jstests/aggregation/sources/
      // setWindowFields/shift.js: output "$b" over {_id: 2} gives "c").
      (*out)[i] = v.has_value() ? std::move(*v) : default_;
      RETURN_IF_ERROR(ChargeWindowMemory(p, (*out)[i]));
    }
    return absl::OkStatus();
  }

 private:
  std::shared_ptr<const Expression> output_;
  int64_t by_;
  Value default_;
};

// ---- $locf (window_function_exec_locf? accumulator_locf.cpp) ---------------

class LocfWindow : public WindowFunction {
 public:
  explicit LocfWindow(std::shared_ptr<const Expression> input)
      : input_(std::move(input)) {}
  absl::Status Compute(const WindowPartition& p,
                       std::vector<std::optional<Value>>* out) const override {
    const std::vector<Value>& docs = *p.docs;
    out->assign(docs.size(), std::nullopt);
    Value last = Value::Null();
    for (size_t i = 0; i < docs.size(); ++i) {
      p.vars->set_root(&docs[i]);
      ASSIGN_OR_RETURN(std::optional<Value> v,
                       input_->Evaluate(docs[i], p.vars));
      if (!Nullish(v)) last = *v;
      (*out)[i] = last;
      RETURN_IF_ERROR(ChargeWindowMemory(p, last));
    }
    return absl::OkStatus();
  }

 private:
  std::shared_ptr<const Expression> input_;
};

// ---- $linearFill (window_function_exec_linear_fill.cpp) ---------------------

class LinearFillWindow : public WindowFunction {
 public:
  explicit LinearFillWindow(std::shared_ptr<const Expression> input)
      : input_(std::move(input)) {}
  absl::Status Compute(const WindowPartition& p,
                       std::vector<std::optional<Value>>* out) const override {
    const std::vector<Value>& docs = *p.docs;
    int64_t n = static_cast<int64_t>(docs.size());
    ASSIGN_OR_RETURN(std::vector<Value> xs, SortValues(p));
    std::vector<std::optional<Value>> ys(n);
    for (int64_t i = 0; i < n; ++i) {
      p.vars->set_root(&docs[i]);
      ASSIGN_OR_RETURN(ys[i], input_->Evaluate(docs[i], p.vars));
      RETURN_IF_ERROR(ChargeWindowMemory(p, ys[i]));
      RETURN_IF_ERROR(ChargeWindowMemory(p, ys[i]));  // and its output
    }
    out->assign(n, std::nullopt);
    auto x_of = [](const Value& v) {
      return v.is_date() ? static_cast<double>(v.date_millis()) : v.AsDouble();
    };
    std::optional<Value> last_x;
    int64_t prev = -1;  // the last document with a value
    for (int64_t i = 0; i < n; ++i) {
      const Value& x = xs[i];
      if (!(ys[i].has_value() && ys[i]->is_number()) && !Nullish(ys[i])) {
        return StageError(kTypeMismatch,
                          absl::StrCat("Value to be filled must be numeric or "
                                       "nullish, but found ",
                                       TypeName(ys[i]->type())));
      }
      if (!x.is_number() && !x.is_date()) {
        return StageError(kTypeMismatch,
                          absl::StrCat("Value of the sortBy field must be "
                                       "numeric or a date, but found ",
                                       TypeName(x.type())));
      }
      if (last_x.has_value() && CompareValues(*last_x, x) == 0) {
        return StageError(6050106,
                          "There can be no repeated values in the sort field");
      }
      if (last_x.has_value() && last_x->is_date() != x.is_date()) {
        return StageError(kTypeMismatch,
                          absl::StrCat("Conflicting sort value types, "
                                       "previously received type ",
                                       TypeName(last_x->type()), ", but found ",
                                       TypeName(x.type())));
      }
      last_x = x;
      if (!Nullish(ys[i])) {
        (*out)[i] = ys[i];
        prev = i;
        continue;
      }
      (*out)[i] = Value::Null();
      if (prev < 0) continue;
      int64_t next = i + 1;
      while (next < n && Nullish(ys[next])) ++next;
      if (next >= n || !ys[next]->is_number() ||
          !(xs[next].is_number() || xs[next].is_date())) {
        continue;
      }
      double x1 = x_of(xs[prev]), y1 = ys[prev]->AsDouble();
      double x2 = x_of(xs[next]), y2 = ys[next]->AsDouble();
      (*out)[i] = Value::Double(y1 + (x_of(x) - x1) * ((y2 - y1) / (x2 - x1)));
    }
    return absl::OkStatus();
  }

 private:
  std::shared_ptr<const Expression> input_;
};

// ---- $expMovingAvg (accumulator_exp_moving_avg.cpp) -------------------------

class ExpMovingAvgWindow : public WindowFunction {
 public:
  ExpMovingAvgWindow(std::shared_ptr<const Expression> input, long double alpha)
      : input_(std::move(input)), alpha_(alpha) {}
  absl::Status Compute(const WindowPartition& p,
                       std::vector<std::optional<Value>>* out) const override {
    const std::vector<Value>& docs = *p.docs;
    out->assign(docs.size(), std::nullopt);
    // MongoDB computes in Decimal128 and returns a double; long double
    // (64-bit mantissa) rounds to the same double but in rare ties.
    std::optional<long double> ema;
    long double alpha = alpha_;
    for (size_t i = 0; i < docs.size(); ++i) {
      p.vars->set_root(&docs[i]);
      ASSIGN_OR_RETURN(std::optional<Value> v,
                       input_->Evaluate(docs[i], p.vars));
      if (v.has_value() && v->is_number()) {
        long double x = v->AsDouble();
        ema = ema.has_value() ? x * alpha + *ema * (1 - alpha) : x;
      }
      (*out)[i] = ema.has_value() ? Value::Double(static_cast<double>(*ema))
                                  : Value::Null();
    }
    return absl::OkStatus();
  }

 private:
  std::shared_ptr<const Expression> input_;
  long double alpha_;
};

// ---- $derivative / $integral ------------------------------------------------
// window_function_exec_derivative.cpp, window_function_integral.cpp.

class DerivativeWindow : public WindowFunction {
 public:
  DerivativeWindow(std::shared_ptr<const Expression> input, std::string unit,
                   Bounds bounds, bool integral)
      : input_(std::move(input)),
        unit_(std::move(unit)),
        bounds_(std::move(bounds)),
        integral_(integral) {}

  absl::Status Compute(const WindowPartition& p,
                       std::vector<std::optional<Value>>* out) const override {
    const std::vector<Value>& docs = *p.docs;
    int64_t n = static_cast<int64_t>(docs.size());
    ASSIGN_OR_RETURN(std::vector<Value> xs, SortValues(p));
    std::vector<std::optional<Value>> ys(n);
    for (int64_t i = 0; i < n; ++i) {
      p.vars->set_root(&docs[i]);
      ASSIGN_OR_RETURN(ys[i], input_->Evaluate(docs[i], p.vars));
      RETURN_IF_ERROR(ChargeWindowMemory(p, ys[i]));
      RETURN_IF_ERROR(ChargeWindowMemory(p, ys[i]));  // and its output
    }
    ASSIGN_OR_RETURN(std::vector<Span> spans, Spans(bounds_, p));
    double unit_ms =
        unit_.empty() ? 1.0 : static_cast<double>(TimeUnitMillis(unit_));
    auto x_of = [](const Value& v) {
      return v.is_date() ? static_cast<double>(v.date_millis()) : v.AsDouble();
    };
    out->assign(n, std::nullopt);
    for (int64_t i = 0; i < n; ++i) {
      RETURN_IF_ERROR(CheckOpDeadline());
      const Span& s = spans[i];
      if (s.empty()) {
        (*out)[i] = Value::Null();
        continue;
      }
      if (integral_) {
        double sum = 0;
        for (int64_t j = s.lo; j <= s.hi; ++j) {
          RETURN_IF_ERROR(CheckIntegralPoint(xs[j], ys[j]));
          if (j > s.lo) {
            sum += (x_of(xs[j]) - x_of(xs[j - 1])) *
                   (ys[j]->AsDouble() + ys[j - 1]->AsDouble());
          }
        }
        // Sum of (dx * (y1 + y2)), halved once (integralOfTwoPoints...).
        double r = sum / 2.0;
        if (!unit_.empty()) r /= unit_ms;
        (*out)[i] = s.lo == s.hi ? Value::Int32(0) : Value::Double(r);
        continue;
      }
      const Value& lx = xs[s.lo];
      const Value& rx = xs[s.hi];
      if (!unit_.empty()) {
        if (!lx.is_date() || !rx.is_date()) {
          return StageError(5624900,
                            "$derivative with 'unit' expects the sortBy field "
                            "to be a Date");
        }
      } else {
        if (lx.is_date() || rx.is_date()) {
          return StageError(5624901,
                            "$derivative where the sortBy is a Date requires "
                            "an 'unit'");
        }
        if (!lx.is_number() || !rx.is_number()) {
          return StageError(5624902,
                            "$derivative (with no 'unit') expects the sortBy "
                            "field to be numeric");
        }
      }
      double run = x_of(rx) - x_of(lx);
      const std::optional<Value>& ly = ys[s.lo];
      const std::optional<Value>& ry = ys[s.hi];
      if (Nullish(ly) || Nullish(ry)) {
        return StageError(5624903,
                          "$derivative input must not be null or missing");
      }
      if (!ly->is_number() || !ry->is_number()) {
        return StageError(16556,
                          absl::StrCat("cant $subtract a", TypeName(ly->type()),
                                       " from a ", TypeName(ry->type())));
      }
      if (run == 0) {
        (*out)[i] = Value::Null();
        continue;
      }
      double r = (ry->AsDouble() - ly->AsDouble()) / run;
      if (!unit_.empty()) r *= unit_ms;
      (*out)[i] = Value::Double(r);
    }
    return absl::OkStatus();
  }

 private:
  absl::Status CheckIntegralPoint(const Value& x,
                                  const std::optional<Value>& y) const {
    if (!y.has_value() || !y->is_number() || !(x.is_number() || x.is_date())) {
      return StageError(5423900,
                        "The input value of $integral window function must be "
                        "a vector of 2 value, the first value must be numeric "
                        "or date type and the second must be numeric.");
    }
    if (!unit_.empty() && !x.is_date()) {
      return StageError(5423901,
                        "$integral with 'unit' expects the sortBy field to be "
                        "a Date");
    }
    if (unit_.empty() && !x.is_number()) {
      return StageError(5423902,
                        "$integral (with no 'unit') expects the sortBy field "
                        "to be numeric");
    }
    return absl::OkStatus();
  }

  std::shared_ptr<const Expression> input_;
  std::string unit_;
  Bounds bounds_;
  bool integral_;
};

// ---- Parsing (window_function_expression.{h,cpp}) ---------------------------

bool IsWindowFunctionName(absl::string_view op) {
  static const char* const kNames[] = {"$sum",           "$avg",
                                       "$min",           "$max",
                                       "$count",         "$push",
                                       "$addToSet",      "$first",
                                       "$last",          "$stdDevPop",
                                       "$stdDevSamp",    "$minN",
                                       "$maxN",          "$firstN",
                                       "$lastN",         "$top",
                                       "$bottom",        "$topN",
                                       "$bottomN",       "$rank",
                                       "$denseRank",     "$documentNumber",
                                       "$shift",         "$locf",
                                       "$linearFill",    "$expMovingAvg",
                                       "$derivative",    "$integral",
                                       "$covariancePop", "$covarianceSamp"};
  for (const char* n : kNames) {
    if (op == n) return true;
  }
  return false;
}

absl::StatusOr<std::unique_ptr<const WindowFunction>> ParseFunction(
    const Value& spec, const WindowSort* sort, ParseContext* ctx) {
  // Expression::parse: the first $-prefixed field names the function.
  std::string op;
  for (const Field& f : spec.object_fields()) {
    if (!f.first.empty() && f.first[0] == '$') {
      if (!IsWindowFunctionName(f.first)) {
        return Fail(absl::StrCat("Unrecognized window function, ", f.first));
      }
      op = f.first;
      break;
    }
  }
  if (op.empty()) {
    return Fail(
        absl::StrCat("Expected a $-prefixed window function",
                     spec.object_fields().empty()
                         ? ""
                         : absl::StrCat(", ", spec.object_fields()[0].first)));
  }
  const Value& arg = *spec.Get(op);
  const Value* window = spec.Get("window");

  if (op == "$rank" || op == "$denseRank" || op == "$documentNumber") {
    // ExpressionFromRankAccumulator::parse
    if (spec.object_fields().size() != 1) {
      return StageError(5371601,
                        "Rank style window functions take no other arguments");
    }
    if (!arg.is_object() || !arg.object_fields().empty()) {
      return StageError(5371603, absl::StrCat(op,
                                              " must be specified with "
                                              "'{}' as the value"));
    }
    if (sort == nullptr || sort->spec.fields().size() != 1) {
      return StageError(5371602,
                        absl::StrCat(op,
                                     " must be specified with a top level "
                                     "sortBy expression with exactly one "
                                     "element"));
    }
    return std::unique_ptr<const WindowFunction>(
        std::make_unique<RankWindow>(op));
  }
  if (op == "$shift") {
    // window_function_shift.cpp
    for (const Field& f : spec.object_fields()) {
      if (f.first == "window") {
        return Fail("$shift does not accept a 'window' field");
      }
      if (f.first != op) {
        return Fail(absl::StrCat("Window function found an unknown argument: ",
                                 f.first));
      }
    }
    if (!arg.is_object()) return Fail("Argument to $shift must be an object");
    std::shared_ptr<const Expression> output;
    std::optional<int64_t> by;
    Value def = Value::Null();
    for (const Field& f : arg.object_fields()) {
      if (f.first == "output") {
        ASSIGN_OR_RETURN(output, ParseExpression(f.second, ctx));
      } else if (f.first == "default") {
        ASSIGN_OR_RETURN(std::unique_ptr<Expression> e,
                         ParseExpression(f.second, ctx));
        if (!e->IsConstant()) {
          return Fail(
              "'$shift:default' expression must yield a constant "
              "value.");
        }
        Value empty = Value::MakeObject();
        Variables vars(&empty, 0);
        ASSIGN_OR_RETURN(std::optional<Value> c, e->Evaluate(empty, &vars));
        def = c.value_or(Value::Null());
      } else if (f.first == "by") {
        if (!IsIntegral(f.second) ||
            std::fabs(f.second.AsDouble()) > 2147483647.0) {
          return Fail(
              absl::StrCat("'$shift:by' field must be an integer, but "
                           "found  by: ",
                           ToJson(f.second)));
        }
        by = static_cast<int64_t>(f.second.AsDouble());
      } else {
        return Fail("Unknown argument in $shift");
      }
    }
    if (output == nullptr) {
      return Fail("$shift requires an 'output' expression.");
    }
    if (!by.has_value()) {
      return Fail("$shift requires 'by' as an integer value.");
    }
    if (sort == nullptr) return Fail("'$shift' requires a sortBy");
    return std::unique_ptr<const WindowFunction>(
        std::make_unique<ShiftWindow>(output, *by, def));
  }
  if (op == "$expMovingAvg") {
    // ExpressionExpMovingAvg::parse
    if (spec.object_fields().size() != 1 || !arg.is_object()) {
      return Fail(
          "$expMovingAvg must have exactly one argument that is an "
          "object");
    }
    const Value* input = arg.Get("input");
    if (arg.object_fields().size() != 2 || input == nullptr) {
      return Fail(
          "$expMovingAvg sub object must have exactly two fields: An "
          "'input' field, and either an 'N' field or an 'alpha' "
          "field");
    }
    if (sort == nullptr) {
      return Fail("$expMovingAvg requires an explicit 'sortBy'");
    }
    ASSIGN_OR_RETURN(std::shared_ptr<const Expression> in,
                     ParseExpression(*input, ctx));
    long double alpha = 0;
    if (const Value* n = arg.Get("N")) {
      if (!n->is_number()) {
        return Fail(
            absl::StrCat("'N' field must be an integer, but found "
                         "type ",
                         TypeName(n->type())));
      }
      double d = n->AsDouble();
      if (d != std::floor(d)) {
        return Fail(absl::StrCat(
            "'N' field must be an integer, but found  N: ", ToJson(*n),
            ". To use a non-integer, use the 'alpha' "
            "argument instead"));
      }
      if (d <= 0) {
        return Fail(absl::StrCat("'N' must be greater than zero. Got ",
                                 static_cast<int64_t>(d)));
      }
      alpha = 2.0L / (static_cast<long double>(d) + 1.0L);
    } else if (const Value* a = arg.Get("alpha")) {
      if (!a->is_number()) return Fail("'alpha' must be a number");
      alpha = a->AsDouble();
      if (!(alpha > 0 && alpha < 1)) {
        return Fail(
            absl::StrCat("'alpha' must be between 0 and 1 "
                         "(exclusive), found alpha: ",
                         ToJson(*a)));
      }
    } else {
      return Fail(
          "Got unrecognized field in $expMovingAvg$expMovingAvg sub "
          "object must have exactly two fields: An 'input' field, and "
          "either an 'N' field or an 'alpha' field");
    }
    return std::unique_ptr<const WindowFunction>(
        std::make_unique<ExpMovingAvgWindow>(in, alpha));
  }
  if (op == "$locf" || op == "$linearFill") {
    // ExpressionFromLeftUnboundedWindowFunction / ExpressionLinearFill
    for (const Field& f : spec.object_fields()) {
      if (f.first != op && f.first != "window") {
        if (IsWindowFunctionName(f.first)) {
          return Fail("Cannot specify two functions in window function spec");
        }
        return Fail(absl::StrCat("Window function found an unknown argument: ",
                                 f.first));
      }
    }
    if (window != nullptr) {
      return Fail(absl::StrCat("'window' field is not allowed in ", op));
    }
    ASSIGN_OR_RETURN(std::shared_ptr<const Expression> in,
                     ParseExpression(arg, ctx));
    if (op == "$locf") {
      return std::unique_ptr<const WindowFunction>(
          std::make_unique<LocfWindow>(in));
    }
    if (sort == nullptr || sort->spec.fields().size() != 1) {
      return StageError(605001,
                        "$linearFill must be specified with a top level "
                        "sortBy expression with exactly one element");
    }
    return std::unique_ptr<const WindowFunction>(
        std::make_unique<LinearFillWindow>(in));
  }
  if (op == "$derivative" || op == "$integral") {
    // ExpressionWithUnit::validateSortBy, ExpressionDerivative::parse,
    // ExpressionIntegral::parse
    if (sort == nullptr) return Fail(absl::StrCat(op, " requires a sortBy"));
    if (sort->spec.fields().size() != 1) {
      return Fail(absl::StrCat(op, " requires a non-compound sortBy"));
    }
    std::optional<Bounds> bounds;
    for (const Field& f : spec.object_fields()) {
      if (f.first == "window") {
        if (bounds.has_value()) {
          return Fail(
              absl::StrCat("There can be only one 'window' field for ", op));
        }
        ASSIGN_OR_RETURN(bounds, ParseBounds(f.second, sort, ctx));
      } else if (f.first != op) {
        return Fail(absl::StrCat(op, " got unexpected argument: ", f.first));
      }
    }
    if (!arg.is_object()) {
      return Fail(absl::StrCat(op, " expects an object, but got a ",
                               TypeName(arg.type()), ": ", op.substr(1), ": ",
                               ToJson(arg)));
    }
    std::shared_ptr<const Expression> input;
    std::string unit;
    for (const Field& f : arg.object_fields()) {
      if (f.first == "input") {
        ASSIGN_OR_RETURN(input, ParseExpression(f.second, ctx));
      } else if (f.first == "unit") {
        if (!f.second.is_string()) {
          return Fail(absl::StrCat("unit' must be a string, but got ",
                                   TypeName(f.second.type())));
        }
        int64_t ms = TimeUnitMillis(f.second.string_value());
        if (ms < 0) {
          return Fail(absl::StrCat("unknown time unit value: ",
                                   f.second.string_value()));
        }
        if (ms == 0)
          return StageError(5490710, "unit must be 'week' or smaller");
        unit = f.second.string_value();
      } else {
        return Fail(absl::StrCat(op, " got unexpected argument: ", f.first));
      }
    }
    if (input == nullptr) {
      return Fail(absl::StrCat(op, " requires an 'input' expression"));
    }
    if (op == "$derivative" && !bounds.has_value()) {
      return Fail("$derivative requires explicit window bounds");
    }
    return std::unique_ptr<const WindowFunction>(
        std::make_unique<DerivativeWindow>(
            input, unit, bounds.value_or(Bounds()), op == "$integral"));
  }

  // The accumulators: ExpressionRemovable / ExpressionFirstLast /
  // ExpressionN / parseCountWindowFunction.
  bool n_like = op == "$minN" || op == "$maxN" || op == "$firstN" ||
                op == "$lastN" || op == "$top" || op == "$bottom" ||
                op == "$topN" || op == "$bottomN";
  bool first_last = op == "$first" || op == "$last";
  Bounds bounds;
  bool saw_window = false;
  for (const Field& f : spec.object_fields()) {
    if (f.first == "window") {
      if (saw_window && (n_like || first_last)) {
        return Fail(absl::StrCat("saw multiple 'window' fields in '", op,
                                 "' expression"));
      }
      saw_window = true;
      ASSIGN_OR_RETURN(bounds, ParseBounds(f.second, sort, ctx));
    } else if (f.first == op) {
      continue;
    } else if (n_like || first_last) {
      return Fail(absl::StrCat(op, " got unexpected argument: ", f.first));
    } else if (IsWindowFunctionName(f.first)) {
      return Fail(op == "$count"
                      ? "Cannot specify multiple functions in window function "
                        "spec"
                      : "Cannot specify two functions in window function "
                        "spec");
    } else {
      return Fail(
          absl::StrCat("Window function found an unknown argument: ", f.first));
    }
  }
  if (op == "$count" && (!arg.is_object() || !arg.object_fields().empty())) {
    return Fail("$count only accepts an empty object as input");
  }
  if (first_last) {
    ASSIGN_OR_RETURN(std::shared_ptr<const Expression> in,
                     ParseExpression(arg, ctx));
    return std::unique_ptr<const WindowFunction>(
        std::make_unique<EndpointWindow>(in, std::move(bounds),
                                         op == "$first"));
  }
  if (op == "$covariancePop" || op == "$covarianceSamp") {
    ASSIGN_OR_RETURN(std::shared_ptr<const Expression> in,
                     ParseExpression(arg, ctx));
    return std::unique_ptr<const WindowFunction>(
        std::make_unique<CovarianceWindow>(in, op == "$covarianceSamp",
                                           std::move(bounds)));
  }
  ASSIGN_OR_RETURN(AccumulatorSpec acc,
                   AccumulatorSpec::Parse(
                       "window", Value::MakeObject({Field(op, arg)}), ctx));
  return std::unique_ptr<const WindowFunction>(
      std::make_unique<AccumulatorWindow>(std::move(acc), std::move(bounds)));
}

}  // namespace

absl::StatusOr<std::unique_ptr<const WindowFunction>> WindowFunction::Parse(
    absl::string_view field, const Value& spec, const WindowSort* sort,
    ParseContext* ctx) {
  // WindowFunctionStatement::parse
  if (!spec.is_object()) {
    return Fail(absl::StrCat("The field '", field, "' must be an object"));
  }
  return ParseFunction(spec, sort, ctx);
}

}  // namespace agg
}  // namespace ttldb
