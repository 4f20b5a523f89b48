#include "pipeline/accumulator.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "base/status.h"
#include "document/bson.h"
#include "document/compare.h"
#include "pipeline/stage.h"
#include "ttldb/json.h"

namespace ttldb {
namespace agg {
namespace {

// ---- $sum / $avg: MongoDB's widening sum (accumulator_sum.cpp) ----------

// A numeric total that widens int -> long -> double -> decimal as MongoDB's
// AccumulatorSum does: ints stay an int while the sum fits, overflow to
// long, long overflow to double; any double makes the total a double, any
// decimal a decimal. Doubles use compensated (Kahan) summation.
class NumericSum {
 public:
  void Add(const Value& v) {
    switch (v.type()) {
      case ValueType::kInt32:
      case ValueType::kInt64: {
        if (v.type() == ValueType::kInt64 && type_ == ValueType::kInt32) {
          type_ = ValueType::kInt64;
        }
        int64_t x = v.int64_value();
        if (!long_overflow_) {
          int64_t r;
          if (__builtin_add_overflow(long_total_, x, &r)) {
            long_overflow_ = true;
          } else {
            long_total_ = r;
          }
        }
        AddDouble(static_cast<double>(x));
        decimal_ = decimal_.Add(Decimal128::FromInt64(x));
        break;
      }
      case ValueType::kDouble:
        if (type_ != ValueType::kDecimal) type_ = ValueType::kDouble;
        AddDouble(v.double_value());
        decimal_ = decimal_.Add(Decimal128::FromDouble(v.double_value()));
        break;
      case ValueType::kDecimal:
        type_ = ValueType::kDecimal;
        decimal_ = decimal_.Add(v.decimal_value());
        AddDouble(v.decimal_value().ToDouble());
        break;
      default:
        return;
    }
    ++count_;
  }
  int64_t count() const { return count_; }
  Value Total() const {
    switch (type_) {
      case ValueType::kInt32:
        if (!long_overflow_ &&
            long_total_ >= std::numeric_limits<int32_t>::min() &&
            long_total_ <= std::numeric_limits<int32_t>::max()) {
          return Value::Int32(static_cast<int32_t>(long_total_));
        }
        [[fallthrough]];
      case ValueType::kInt64:
        if (!long_overflow_) return Value::Int64(long_total_);
        return Value::Double(DoubleTotal());
      case ValueType::kDouble:
        return Value::Double(DoubleTotal());
      default:
        return Value::Decimal(decimal_);
    }
  }
  double DoubleTotal() const { return sum_ + comp_; }
  const Decimal128& decimal() const { return decimal_; }
  bool is_decimal() const { return type_ == ValueType::kDecimal; }

 private:
  void AddDouble(double x) {
    if (std::isnan(x) || std::isinf(x) || std::isinf(sum_)) {
      sum_ += x;
      return;
    }
    // Neumaier's variant of Kahan summation.
    double t = sum_ + x;
    if (std::fabs(sum_) >= std::fabs(x)) {
      comp_ += (sum_ - t) + x;
    } else {
      comp_ += (x - t) + sum_;
    }
    sum_ = t;
  }

  ValueType type_ = ValueType::kInt32;
  int64_t long_total_ = 0;
  bool long_overflow_ = false;
  double sum_ = 0, comp_ = 0;
  Decimal128 decimal_ = Decimal128::FromInt64(0);
  int64_t count_ = 0;
};

class SumAcc : public Accumulator {
 public:
  absl::Status Process(const std::optional<Value>& v, const Value&) override {
    if (v.has_value() && v->is_number()) sum_.Add(*v);
    return absl::OkStatus();
  }
  absl::Status Merge(const Value& p) override { return Process(p, p); }
  Value Partial() const override { return sum_.Total(); }
  Value Final() const override { return sum_.Total(); }
  size_t MemoryBytes() const override { return sizeof(*this); }

 private:
  NumericSum sum_;
};

class AvgAcc : public Accumulator {
 public:
  absl::Status Process(const std::optional<Value>& v, const Value&) override {
    if (v.has_value() && v->is_number()) sum_.Add(*v);
    return absl::OkStatus();
  }
  absl::Status Merge(const Value& p) override {
    const Value* s = p.Get("sum");
    const Value* n = p.Get("count");
    if (s != nullptr && s->is_number()) sum_.Add(*s);
    if (n != nullptr) extra_count_ += n->int64_value() - 1;
    return absl::OkStatus();
  }
  Value Partial() const override {
    return Value::MakeObject(
        {Field("sum", sum_.Total()), Field("count", Value::Int64(count()))});
  }
  Value Final() const override {
    int64_t n = count();
    if (n == 0) return Value::Null();
    if (sum_.is_decimal()) {
      // decimal / n: computed through double when the division is not
      // exact; ttldb's Decimal128 has no division.
      return Value::Decimal(
          Decimal128::FromDouble(sum_.decimal().ToDouble() / n));
    }
    return Value::Double(sum_.DoubleTotal() / static_cast<double>(n));
  }
  size_t MemoryBytes() const override { return sizeof(*this); }

 private:
  int64_t count() const { return sum_.count() + extra_count_; }
  NumericSum sum_;
  int64_t extra_count_ = 0;
};

// $stdDevPop / $stdDevSamp: Welford's online variance over the numbers.
class StdDevAcc : public Accumulator {
 public:
  explicit StdDevAcc(bool sample) : sample_(sample) {}
  absl::Status Process(const std::optional<Value>& v, const Value&) override {
    if (!v.has_value() || !v->is_number()) return absl::OkStatus();
    double x = v->AsDouble();
    ++n_;
    double delta = x - mean_;
    mean_ += delta / n_;
    m2_ += delta * (x - mean_);
    return absl::OkStatus();
  }
  absl::Status Merge(const Value& p) override {
    int64_t n = p.Get("n")->int64_value();
    if (n == 0) return absl::OkStatus();
    double mean = p.Get("mean")->double_value();
    double m2 = p.Get("m2")->double_value();
    int64_t total = n_ + n;
    double delta = mean - mean_;
    mean_ += delta * n / total;
    m2_ += m2 + delta * delta * static_cast<double>(n_) * n / total;
    n_ = total;
    return absl::OkStatus();
  }
  Value Partial() const override {
    return Value::MakeObject({Field("n", Value::Int64(n_)),
                              Field("mean", Value::Double(mean_)),
                              Field("m2", Value::Double(m2_))});
  }
  Value Final() const override {
    int64_t d = sample_ ? n_ - 1 : n_;
    if (d <= 0) return Value::Null();
    return Value::Double(std::sqrt(m2_ / d));
  }
  size_t MemoryBytes() const override { return sizeof(*this); }

 private:
  bool sample_;
  int64_t n_ = 0;
  double mean_ = 0, m2_ = 0;
};

// $min / $max: null and missing are ignored (accumulator_min_max.cpp).
class MinMaxAcc : public Accumulator {
 public:
  explicit MinMaxAcc(int sign) : sign_(sign) {}
  absl::Status Process(const std::optional<Value>& v, const Value&) override {
    if (!v.has_value() || v->is_null()) return absl::OkStatus();
    if (!best_.has_value() || CompareValues(*v, *best_) * sign_ > 0) {
      best_ = *v;
    }
    return absl::OkStatus();
  }
  absl::Status Merge(const Value& p) override { return Process(p, p); }
  Value Partial() const override { return Final(); }
  Value Final() const override { return best_.value_or(Value::Null()); }
  size_t MemoryBytes() const override {
    return sizeof(*this) + (best_ ? BsonValueSize(*best_) : 0);
  }

 private:
  int sign_;
  std::optional<Value> best_;
};

// $first / $last: missing counts as null.
class FirstLastAcc : public Accumulator {
 public:
  explicit FirstLastAcc(bool first) : first_(first) {}
  absl::Status Process(const std::optional<Value>& v, const Value&) override {
    if (first_ && seen_) return absl::OkStatus();
    seen_ = true;
    value_ = v.value_or(Value::Null());
    return absl::OkStatus();
  }
  absl::Status Merge(const Value& p) override { return Process(p, p); }
  Value Partial() const override { return value_; }
  Value Final() const override { return value_; }
  size_t MemoryBytes() const override {
    return sizeof(*this) + BsonValueSize(value_);
  }

 private:
  bool first_;
  bool seen_ = false;
  Value value_;
};

// $push / $addToSet: missing values are skipped.
class PushAcc : public Accumulator {
 public:
  explicit PushAcc(bool set) : set_(set) {}
  absl::Status Process(const std::optional<Value>& v, const Value&) override {
    if (!v.has_value()) return absl::OkStatus();
    if (set_) {
      if (!seen_.insert(*v).second) return absl::OkStatus();
    }
    bytes_ += BsonValueSize(*v);
    items_.push_back(*v);
    return absl::OkStatus();
  }
  absl::Status Merge(const Value& p) override {
    for (const Value& v : p.array_items()) RETURN_IF_ERROR(Process(v, v));
    return absl::OkStatus();
  }
  Value Partial() const override { return Value::MakeArray(items_); }
  Value Final() const override { return Value::MakeArray(items_); }
  size_t MemoryBytes() const override { return sizeof(*this) + bytes_ * 2; }

 private:
  bool set_;
  Value::Array items_;
  std::set<Value, ValueLess> seen_;
  size_t bytes_ = 0;
};

// $mergeObjects: later fields win; null and missing are ignored. Fields are
// found by name through an index and the size is kept as fields change, so
// a group merging many distinct fields costs linear time (a linear search
// and a re-measure of the whole result per document made it quadratic).
class MergeObjectsAcc : public Accumulator {
 public:
  absl::Status Process(const std::optional<Value>& v, const Value&) override {
    if (!v.has_value() || v->is_null()) return absl::OkStatus();
    if (!v->is_object()) {
      return StageError(
          40400, absl::StrCat("$mergeObjects requires object inputs, "
                              "but input ",
                              ToJson(*v), " is of type ", TypeName(v->type())));
    }
    Value::Object& fields = result_.mutable_object_fields();
    for (const Field& f : v->object_fields()) {
      size_t size = BsonValueSize(f.second);
      auto [it, added] = index_.emplace(f.first, fields.size());
      if (added) {
        fields.emplace_back(f.first, f.second);
        bytes_ += 2 + f.first.size() + size;
      } else {
        Value& old = fields[it->second].second;
        bytes_ = bytes_ - BsonValueSize(old) + size;
        old = f.second;
      }
    }
    return absl::OkStatus();
  }
  absl::Status Merge(const Value& p) override { return Process(p, p); }
  Value Partial() const override { return result_; }
  Value Final() const override { return result_; }
  size_t MemoryBytes() const override { return sizeof(*this) + bytes_; }

 private:
  Value result_ = Value::MakeObject();
  absl::flat_hash_map<std::string, size_t> index_;  // name -> position
  size_t bytes_ = 5;                                // BSON size of result_
};

// $top/$bottom/$topN/$bottomN (sortBy), $firstN/$lastN (arrival order),
// $minN/$maxN (value order, nulls skipped): keep the best n, in an ordered
// set (O(log n) per document; a sorted vector with linear insertion made
// $lastN and descending $minN quadratic in n). Sort keys are computed once
// per kept document, from its own copy (a key points into its document).
class TopNAcc : public Accumulator {
 public:
  enum class Kind { kTop, kBottom, kFirst, kLast, kMin, kMax };
  TopNAcc(Kind kind, int64_t n, bool single,
          std::shared_ptr<const SortSpec> sort_by)
      : kind_(kind),
        n_(n),
        single_(single),
        sort_by_(std::move(sort_by)),
        items_(ItemLess{this}) {}

  absl::Status Process(const std::optional<Value>& v,
                       const Value& root) override {
    if ((kind_ == Kind::kMin || kind_ == Kind::kMax) &&
        (!v.has_value() || v->is_null())) {
      return absl::OkStatus();
    }
    return Offer(v.value_or(Value::Null()),
                 sort_by_ != nullptr ? &root : nullptr);
  }
  absl::Status Merge(const Value& p) override {
    for (const Value& e : p.array_items()) {
      RETURN_IF_ERROR(Offer(*e.Get("o"), e.Get("r")));
    }
    return absl::OkStatus();
  }
  Value Partial() const override {
    // In arrival order, so that Merge re-inserts them with their relative
    // order (the tie-breaker, and $lastN's order) intact.
    std::vector<const Item*> by_seq;
    for (const Item& i : items_) by_seq.push_back(&i);
    std::sort(by_seq.begin(), by_seq.end(),
              [](const Item* a, const Item* b) { return a->seq < b->seq; });
    Value::Array out;
    for (const Item* ip : by_seq) {
      const Item& i = *ip;
      Value::Object o = {Field("o", i.output)};
      if (i.root) o.emplace_back("r", *i.root);
      out.push_back(Value::MakeObject(std::move(o)));
    }
    return Value::MakeArray(std::move(out));
  }
  Value Final() const override {
    if (single_) {
      return items_.empty() ? Value::Null() : items_.begin()->output;
    }
    // items_ is best-first; $bottomN and $lastN list their n in sort /
    // arrival order, which is the reverse.
    Value::Array out;
    for (const Item& i : items_) out.push_back(i.output);
    if (kind_ == Kind::kBottom || kind_ == Kind::kLast) {
      std::reverse(out.begin(), out.end());
    }
    return Value::MakeArray(std::move(out));
  }
  size_t MemoryBytes() const override { return sizeof(*this) + bytes_; }

 private:
  struct Item {
    Value output;
    std::shared_ptr<Value> root;  // $top & co: the document, for the key
    SortSpec::Key key;            // points into *root
    uint64_t seq = 0;
    size_t bytes = 0;
  };
  // <0 when (output a, key a, seq a) ranks before b; never 0 (seq breaks
  // ties).
  int Rank(const Value& a_out, const SortSpec::Key* a_key, uint64_t a_seq,
           const Item& b) const {
    int c = 0;
    switch (kind_) {
      case Kind::kTop:
      case Kind::kBottom:
        c = sort_by_->CompareKeys(*a_key, b.key);
        if (kind_ == Kind::kBottom) c = -c;
        break;
      case Kind::kMin:
        c = CompareValues(a_out, b.output);
        break;
      case Kind::kMax:
        c = -CompareValues(a_out, b.output);
        break;
      case Kind::kFirst:
        break;
      case Kind::kLast:
        return a_seq < b.seq ? 1 : -1;
    }
    if (c != 0) return c;
    return a_seq < b.seq ? -1 : 1;
  }
  struct ItemLess {
    const TopNAcc* acc;
    bool operator()(const Item& a, const Item& b) const {
      return acc->Rank(a.output, &a.key, a.seq, b) < 0;
    }
  };

  // Keeps `output` (of document `root`, for a sortBy) if it is among the
  // best n so far.
  absl::Status Offer(Value output, const Value* root) {
    uint64_t seq = seq_++;
    const bool full = static_cast<int64_t>(items_.size()) >= n_;
    if (full) {
      if (kind_ == Kind::kFirst || items_.empty()) return absl::OkStatus();
      const Item& worst = *items_.rbegin();
      SortSpec::Key probe;
      if (sort_by_ != nullptr) {
        ASSIGN_OR_RETURN(probe, sort_by_->KeyOf(*root));
      }
      if (Rank(output, &probe, seq, worst) > 0) return absl::OkStatus();
    }
    Item item;
    item.output = std::move(output);
    item.seq = seq;
    item.bytes = BsonValueSize(item.output);
    if (sort_by_ != nullptr) {
      item.root = std::make_shared<Value>(*root);
      ASSIGN_OR_RETURN(item.key, sort_by_->KeyOf(*item.root));
      item.bytes += BsonValueSize(*item.root);
    }
    bytes_ += item.bytes;
    items_.insert(std::move(item));
    while (static_cast<int64_t>(items_.size()) > n_) {
      auto last = std::prev(items_.end());
      bytes_ -= last->bytes;
      items_.erase(last);
    }
    return absl::OkStatus();
  }

  Kind kind_;
  int64_t n_;
  bool single_;
  std::shared_ptr<const SortSpec> sort_by_;
  std::set<Item, ItemLess> items_;
  uint64_t seq_ = 0;
  size_t bytes_ = 0;
};

bool IsTopLike(absl::string_view op) {
  return op == "$top" || op == "$bottom" || op == "$topN" || op == "$bottomN";
}
bool IsNLike(absl::string_view op) {
  return op == "$topN" || op == "$bottomN" || op == "$firstN" ||
         op == "$lastN" || op == "$minN" || op == "$maxN";
}

}  // namespace

absl::StatusOr<AccumulatorSpec> AccumulatorSpec::Parse(absl::string_view field,
                                                       const Value& spec,
                                                       ParseContext* ctx) {
  if (!spec.is_object()) {
    return StageError(40234, absl::StrCat("The field '", field,
                                          "' must be an accumulator object"));
  }
  if (spec.object_fields().size() != 1) {
    return StageError(40238, absl::StrCat("The field '", field,
                                          "' must specify one accumulator"));
  }
  AccumulatorSpec a;
  a.field_ = std::string(field);
  a.op_ = spec.object_fields()[0].first;
  const Value& arg = spec.object_fields()[0].second;
  static const char* const kSimple[] = {
      "$sum",       "$avg",        "$min",         "$max",
      "$first",     "$last",       "$push",        "$addToSet",
      "$stdDevPop", "$stdDevSamp", "$mergeObjects"};
  for (const char* s : kSimple) {
    if (a.op_ == s) {
      if (arg.is_array()) {
        return StageError(
            40237,
            absl::StrCat("The ", a.op_, " accumulator is a unary operator"));
      }
      ASSIGN_OR_RETURN(a.argument_, ParseExpression(arg, ctx));
      return a;
    }
  }
  if (a.op_ == "$count") {
    if (!arg.is_object() || !arg.object_fields().empty()) {
      return StageError(kTypeMismatch,
                        "$count takes no arguments, i.e. $count:{}");
    }
    return a;
  }
  if (IsTopLike(a.op_) || IsNLike(a.op_)) {
    if (!arg.is_object()) {
      return StageError(5787801, absl::StrCat("specification must be an "
                                              "object; found ",
                                              TypeName(arg.type())));
    }
    const Value* output = nullptr;
    const Value* n = nullptr;
    const Value* sort_by = nullptr;
    bool wants_sort = IsTopLike(a.op_);
    bool wants_n = IsNLike(a.op_);
    for (const Field& f : arg.object_fields()) {
      if (f.first == "n" && wants_n) {
        n = &f.second;
      } else if (f.first == "sortBy" && wants_sort) {
        sort_by = &f.second;
      } else if ((f.first == "output" && wants_sort) ||
                 (f.first == "input" && !wants_sort)) {
        output = &f.second;
      } else {
        return StageError(
            5787901,
            absl::StrCat("Unknown argument for 'n' operator: ", f.first));
      }
    }
    if (wants_n && n == nullptr) {
      return StageError(5787906, "Missing value for 'n'");
    }
    if (output == nullptr) {
      return StageError(5787907,
                        absl::StrCat("Missing value for '",
                                     wants_sort ? "output" : "input", "'"));
    }
    if (wants_sort) {
      if (sort_by == nullptr || !sort_by->is_object()) {
        return StageError(5788004,
                          "No sortBy specification provided for top/bottom");
      }
      ASSIGN_OR_RETURN(SortSpec s, SortSpec::Parse(*sort_by));
      a.sort_by_ = std::make_shared<const SortSpec>(std::move(s));
    }
    ASSIGN_OR_RETURN(a.argument_, ParseExpression(*output, ctx));
    if (n != nullptr) {
      ASSIGN_OR_RETURN(a.n_, ParseExpression(*n, ctx));
    }
    return a;
  }
  return StageError(15952,
                    absl::StrCat("unknown group operator '", a.op_, "'"));
}

absl::StatusOr<std::unique_ptr<Accumulator>> AccumulatorSpec::Make(
    const Value& first_doc, Variables* vars) const {
  const std::string& op = op_;
  if (op == "$sum" || op == "$count") return std::make_unique<SumAcc>();
  if (op == "$avg") return std::make_unique<AvgAcc>();
  if (op == "$min") return std::make_unique<MinMaxAcc>(-1);
  if (op == "$max") return std::make_unique<MinMaxAcc>(1);
  if (op == "$first") return std::make_unique<FirstLastAcc>(true);
  if (op == "$last") return std::make_unique<FirstLastAcc>(false);
  if (op == "$push") return std::make_unique<PushAcc>(false);
  if (op == "$addToSet") return std::make_unique<PushAcc>(true);
  if (op == "$mergeObjects") return std::make_unique<MergeObjectsAcc>();
  if (op == "$stdDevPop") return std::make_unique<StdDevAcc>(false);
  if (op == "$stdDevSamp") return std::make_unique<StdDevAcc>(true);
  int64_t n = 1;
  if (n_ != nullptr) {
    ASSIGN_OR_RETURN(std::optional<Value> nv, n_->Evaluate(first_doc, vars));
    int64_t parsed = 0;
    bool integral = false;
    if (nv.has_value() && nv->is_number()) {
      double d = nv->AsDouble();
      integral = d == std::floor(d) && std::fabs(d) < 9.2e18;
      parsed = static_cast<int64_t>(d);
    }
    if (!integral) {
      return StageError(
          5787902,
          absl::StrCat("Value for 'n' must be of integral type, "
                       "but found ",
                       nv.has_value() ? TypeName(nv->type()) : "missing"));
    }
    if (parsed <= 0) {
      return StageError(5787908, absl::StrCat("'n' must be greater than 0, "
                                              "found ",
                                              parsed));
    }
    n = parsed;
  }
  using K = TopNAcc::Kind;
  K kind = K::kTop;
  if (op == "$top" || op == "$topN") kind = K::kTop;
  if (op == "$bottom" || op == "$bottomN") kind = K::kBottom;
  if (op == "$firstN") kind = K::kFirst;
  if (op == "$lastN") kind = K::kLast;
  if (op == "$minN") kind = K::kMin;
  if (op == "$maxN") kind = K::kMax;
  bool single = op == "$top" || op == "$bottom";
  return std::make_unique<TopNAcc>(kind, n, single, sort_by_);
}

}  // namespace agg
}  // namespace ttldb
