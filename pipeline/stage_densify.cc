// $densify (document_source_densify.{h,cpp}): a $sort on {partitionByFields
// ..., field} ({field} alone for bounds "full"), then a stage that emits the
// documents in order and, per partition, generates the missing values of
// `field` on the step grid: anchored at the lower bound ([lo, hi), upper
// exclusive), at the smallest value of all documents ("full": up to the
// largest, included when on the grid), or at the partition's first value
// ("partition": up to its last). A generated document holds only the
// partition fields and `field`. Documents whose field is null or missing
// pass through. Generation is bounded by MongoDB's
// internalQueryMaxAllowedDensifyDocs (500,000 generated documents, 5897900
// past it) and is lazy: one document at a time.
#include <cmath>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "base/status.h"
#include "document/compare.h"
#include "document/path.h"
#include "pipeline/stages.h"
#include "pipeline/window_function.h"

namespace ttldb {
namespace agg {
namespace {

// 500,000: MongoDB's internalQueryMaxAllowedDensifyDocs default.
constexpr int64_t kMaxDensifyDocs = 500000;

struct DensifyDef {
  std::string field;
  std::vector<std::string> partition_fields;
  enum class Bounds { kFull, kPartition, kExplicit } bounds = Bounds::kFull;
  Value lo, hi;      // kExplicit
  Value step;        // > 0
  std::string unit;  // dates
  std::shared_ptr<StageSpec> sorter;
};

struct ValueLess {
  bool operator()(const Value& a, const Value& b) const {
    return CompareValues(a, b) < 0;
  }
};

bool IsInt(const Value& v) {
  return v.type() == ValueType::kInt32 || v.type() == ValueType::kInt64;
}

class DensifyStream : public Cursor {
 public:
  DensifyStream(std::unique_ptr<Cursor> in,
                std::shared_ptr<const DensifyDef> def)
      : input_(std::move(in)), def_(std::move(def)) {}

  absl::StatusOr<std::optional<Value>> Next() override {
    while (true) {
      if (gen_.active) {
        // The next generated value, unless it reached the limit.
        bool below = gen_.inclusive ? CompareValues(gen_.next, gen_.limit) <= 0
                                    : CompareValues(gen_.next, gen_.limit) < 0;
        if (below) {
          if (++generated_ > kMaxDensifyDocs) {
            return StageError(
                5897900,
                absl::StrCat("Generated ", generated_,
                             " documents in $densify, which is over the limit "
                             "of ",
                             kMaxDensifyDocs,
                             ". Increase the "
                             "'internalQueryMaxAllowedDensifyDocs' parameter "
                             "to allow more generated documents"));
          }
          Value doc = Value::MakeObject();
          for (const Field& f : gen_.key.object_fields()) {
            SetDottedField(&doc, f.first, f.second);
          }
          SetDottedField(&doc, def_->field, gen_.next);
          ASSIGN_OR_RETURN(Value after, Increment(gen_.next));
          gen_.next = after;
          *gen_.partition_next = gen_.next;
          return std::optional<Value>(std::move(doc));
        }
        gen_.active = false;
        if (gen_.final_doc.has_value()) {
          // The document's own value, when on the grid, is not generated
          // later.
          if (CompareValues(gen_.next, gen_.doc_value) == 0) {
            ASSIGN_OR_RETURN(*gen_.partition_next, Increment(gen_.next));
          }
          std::optional<Value> d = std::move(gen_.final_doc);
          gen_.final_doc.reset();
          return d;
        }
      }
      if (eof_) {
        if (!FinishNextPartition()) return std::optional<Value>();
        continue;
      }
      ASSIGN_OR_RETURN(std::optional<Value> doc, input_->Next());
      if (!doc.has_value()) {
        eof_ = true;
        StartFinishing();
        continue;
      }
      const Value* found = GetPath(*doc, def_->field);
      if (found == nullptr || found->is_null()) return doc;
      std::optional<Value> fv = *found;
      RETURN_IF_ERROR(CheckType(*fv));
      Value key = Value::MakeObject();
      for (const std::string& p : def_->partition_fields) {
        const Value* v = GetPath(*doc, p);
        if (v != nullptr) key.mutable_object_fields().emplace_back(p, *v);
      }
      if (!saw_value_) {
        saw_value_ = true;
        global_min_ = *fv;
      }
      if (def_->bounds == DensifyDef::Bounds::kFull &&
          (!global_max_.has_value() || CompareValues(*fv, *global_max_) > 0)) {
        global_max_ = *fv;
      }
      auto it = next_.find(key);
      if (it == next_.end()) {
        Value start = def_->bounds == DensifyDef::Bounds::kExplicit ? def_->lo
                      : def_->bounds == DensifyDef::Bounds::kFull ? global_min_
                                                                  : *fv;
        it = next_.emplace(key, start).first;
      }
      Value& next = it->second;
      if (def_->bounds == DensifyDef::Bounds::kExplicit &&
          CompareValues(*fv, def_->lo) < 0) {
        return doc;  // below the range
      }
      // Generate up to the value (and the range's end), then the document.
      gen_ = Generator();
      gen_.active = true;
      gen_.key = key;
      gen_.next = next;
      gen_.partition_next = &next;
      gen_.limit = *fv;
      if (def_->bounds == DensifyDef::Bounds::kExplicit &&
          CompareValues(def_->hi, *fv) < 0) {
        gen_.limit = def_->hi;
      }
      gen_.inclusive = false;
      gen_.doc_value = *fv;
      gen_.final_doc = std::move(doc);
    }
  }

 private:
  struct Generator {
    bool active = false;
    Value key;
    Value next;
    Value* partition_next = nullptr;
    Value limit;
    bool inclusive = false;
    Value doc_value;  // the final document's value
    std::optional<Value> final_doc;
  };

  absl::Status CheckType(const Value& v) const {
    if (!v.is_number() && !v.is_date()) {
      return StageError(5733201,
                        "Densify field type must be numeric or a date");
    }
    if (v.is_number() && !def_->unit.empty()) {
      return StageError(6053600,
                        "Encountered numeric densify value in collection when "
                        "step has a date unit.");
    }
    if (v.is_date() && def_->unit.empty()) {
      return StageError(6053600,
                        "Encountered date densify value in collection when "
                        "step does not have a date unit.");
    }
    return absl::OkStatus();
  }

  absl::StatusOr<Value> Increment(const Value& v) const {
    if (v.is_date()) {
      int64_t out = 0;
      if (!AddTimeUnits(v.date_millis(), def_->unit,
                        static_cast<int64_t>(def_->step.AsDouble()), &out)) {
        return StageError(5897900, "$densify's date range overflows");
      }
      return Value::Date(out);
    }
    const Value& s = def_->step;
    if (IsInt(v) && IsInt(s)) {
      int64_t r = 0;
      if (!__builtin_add_overflow(v.int64_value(), s.int64_value(), &r)) {
        if (v.type() == ValueType::kInt32 && s.type() == ValueType::kInt32 &&
            r >= INT32_MIN && r <= INT32_MAX) {
          return Value::Int32(static_cast<int32_t>(r));
        }
        return Value::Int64(r);
      }
    }
    return Value::Double(v.AsDouble() + s.AsDouble());
  }

  // At the end of the input: each partition's rest ("full": up to the
  // largest value; explicit: up to the upper bound).
  void StartFinishing() {
    if (def_->bounds == DensifyDef::Bounds::kPartition) return;
    if (def_->bounds == DensifyDef::Bounds::kFull &&
        def_->partition_fields.empty()) {
      return;
    }
    if (def_->bounds == DensifyDef::Bounds::kExplicit &&
        def_->partition_fields.empty() && next_.empty()) {
      next_.emplace(Value::MakeObject(), def_->lo);
    }
    finish_ = next_.begin();
  }

  bool FinishNextPartition() {
    if (def_->bounds == DensifyDef::Bounds::kPartition) return false;
    if (def_->bounds == DensifyDef::Bounds::kFull &&
        def_->partition_fields.empty()) {
      return false;
    }
    if (finish_ == next_.end()) return false;
    gen_ = Generator();
    gen_.active = true;
    gen_.key = finish_->first;
    gen_.next = finish_->second;
    gen_.partition_next = &finish_->second;
    if (def_->bounds == DensifyDef::Bounds::kFull) {
      gen_.limit = *global_max_;
      gen_.inclusive = true;
    } else {
      gen_.limit = def_->hi;
      gen_.inclusive = false;
    }
    ++finish_;
    return true;
  }

  std::unique_ptr<Cursor> input_;
  std::shared_ptr<const DensifyDef> def_;
  std::map<Value, Value, ValueLess> next_;  // partition -> next grid value
  std::map<Value, Value, ValueLess>::iterator finish_;
  Generator gen_;
  bool saw_value_ = false;
  Value global_min_;
  std::optional<Value> global_max_;
  bool eof_ = false;
  int64_t generated_ = 0;
};

class DensifySpec : public StageSpec {
 public:
  explicit DensifySpec(std::shared_ptr<const DensifyDef> def)
      : def_(std::move(def)) {}
  absl::string_view name() const override { return "$densify"; }
  absl::StatusOr<std::unique_ptr<Cursor>> Open(std::unique_ptr<Cursor> input,
                                               RunContext* ctx) const override {
    ASSIGN_OR_RETURN(input, def_->sorter->Open(std::move(input), ctx));
    return std::unique_ptr<Cursor>(
        std::make_unique<DensifyStream>(std::move(input), def_));
  }

 private:
  std::shared_ptr<const DensifyDef> def_;
};

// RangeStatement::parse (document_source_densify.cpp).
absl::Status ParseRange(const Value& range, DensifyDef* def) {
  const Value* step = nullptr;
  const Value* unit = nullptr;
  const Value* bounds = nullptr;
  for (const Field& f : range.object_fields()) {
    if (f.first == "step") {
      step = &f.second;
    } else if (f.first == "unit") {
      if (!f.second.is_string()) {
        return IdlWrongType("$densify.range.unit", f.second, "string");
      }
      unit = &f.second;
    } else if (f.first == "bounds") {
      bounds = &f.second;
    } else {
      return IdlUnknownField(absl::StrCat("$densify.range.", f.first));
    }
  }
  if (step == nullptr) return IdlMissingField("$densify.range.step");
  if (bounds == nullptr) return IdlMissingField("$densify.range.bounds");
  if (!step->is_number() || !(step->AsDouble() > 0)) {
    return StageError(5733401,
                      "The step parameter in a range statement must be a "
                      "strictly positive numeric value");
  }
  def->step = *step;
  if (unit != nullptr) {
    double d = step->AsDouble();
    if (d != std::floor(d) || d >= 9.2e18) {
      return StageError(6586400,
                        "The step parameter in a range statement must be a "
                        "whole number when densifying a date range");
    }
    if (!IsTimeUnit(unit->string_value())) {
      return StageError(
          kFailedToParse,
          absl::StrCat("unknown time unit value: ", unit->string_value()));
    }
    def->unit = unit->string_value();
    def->step = Value::Int64(static_cast<int64_t>(d));
  }
  if (bounds->is_array()) {
    const Value::Array& a = bounds->array_items();
    if (a.size() != 2) {
      return StageError(5733403,
                        "A bounding array in a range statement must have "
                        "exactly two elements");
    }
    if (CompareValues(a[0], a[1]) > 0) {
      return StageError(5733402,
                        "A bounding array must be an ascending array of "
                        "either two dates or two numbers");
    }
    if (a[0].is_number()) {
      if (unit != nullptr) {
        return StageError(5733409,
                          "Numeric bounds may not have unit parameter");
      }
      if (!a[1].is_number()) {
        return StageError(5733406,
                          "A bounding array must contain either both dates or "
                          "both numeric types");
      }
      if (a[0].type() != a[1].type() || a[0].type() != step->type()) {
        return StageError(5876900,
                          "Upper bound, lower bound, and step must all have "
                          "the same type");
      }
    } else if (a[0].is_date()) {
      if (!a[1].is_date()) {
        return StageError(5733405,
                          "A bounding array must contain either both dates or "
                          "both numeric types");
      }
      if (unit == nullptr) {
        return StageError(5733410,
                          "A bounding array of dates must specify a unit");
      }
    } else {
      return StageError(5946800, "Explicit bounds must be numeric or dates");
    }
    def->bounds = DensifyDef::Bounds::kExplicit;
    def->lo = a[0];
    def->hi = a[1];
    return absl::OkStatus();
  }
  if (bounds->is_string()) {
    if (bounds->string_value() == "full") {
      def->bounds = DensifyDef::Bounds::kFull;
    } else if (bounds->string_value() == "partition") {
      def->bounds = DensifyDef::Bounds::kPartition;
    } else {
      return StageError(5946802,
                        "Bounds string must either be 'full' or 'partition'");
    }
    return absl::OkStatus();
  }
  return StageError(5733404,
                    "The bounds in a range statement must be the string "
                    "'full', 'partition', or an ascending array of two "
                    "numbers or two dates");
}

}  // namespace

absl::Status ParseDensify(const Value& spec, ParseContext* ctx,
                          StageList* out) {
  if (!spec.is_object()) {
    return StageError(kFailedToParse,
                      absl::StrCat("The $densify stage specification must be "
                                   "an object, found ",
                                   TypeName(spec.type())));
  }
  auto def = std::make_shared<DensifyDef>();
  const Value* field = nullptr;
  const Value* range = nullptr;
  for (const Field& f : spec.object_fields()) {
    if (f.first == "field") {
      if (!f.second.is_string()) {
        return IdlWrongType("$densify.field", f.second, "string");
      }
      field = &f.second;
    } else if (f.first == "partitionByFields") {
      if (!f.second.is_array()) {
        return IdlWrongType("$densify.partitionByFields", f.second, "array");
      }
      for (size_t i = 0; i < f.second.array_items().size(); ++i) {
        const Value& p = f.second.array_items()[i];
        if (!p.is_string()) {
          return IdlWrongType(absl::StrCat("$densify.partitionByFields.", i), p,
                              "string");
        }
        RETURN_IF_ERROR(CheckFieldPath(p.string_value()));
        def->partition_fields.push_back(p.string_value());
      }
    } else if (f.first == "range") {
      if (!f.second.is_object()) {
        return IdlWrongType("$densify.range", f.second, "object");
      }
      range = &f.second;
    } else {
      return IdlUnknownField(absl::StrCat("$densify.", f.first));
    }
  }
  if (field == nullptr) return IdlMissingField("$densify.field");
  if (range == nullptr) return IdlMissingField("$densify.range");
  RETURN_IF_ERROR(ParseRange(*range, def.get()));
  RETURN_IF_ERROR(CheckFieldPath(field->string_value()));
  def->field = field->string_value();
  if (def->bounds == DensifyDef::Bounds::kPartition &&
      def->partition_fields.empty()) {
    return StageError(5733408,
                      "One cannot specify the bounds as 'partition' without "
                      "specifying a non-empty array of partitionByFields. You "
                      "may have meant to specify 'full' bounds.");
  }
  // getSortPatternForDensify: the partition fields (not for "full"), then
  // the field.
  Value::Object sort;
  if (def->bounds != DensifyDef::Bounds::kFull) {
    for (const std::string& p : def->partition_fields) {
      sort.emplace_back(p, Value::Int32(1));
    }
  }
  sort.emplace_back(def->field, Value::Int32(1));
  StageList sorter;
  RETURN_IF_ERROR(ParseSort(Value::MakeObject(std::move(sort)), ctx, &sorter));
  def->sorter = sorter[0];
  out->push_back(std::make_shared<DensifySpec>(std::move(def)));
  return absl::OkStatus();
}

}  // namespace agg
}  // namespace ttldb
