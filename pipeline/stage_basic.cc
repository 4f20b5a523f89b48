// $match, $limit, $skip, $count, $sample, $documents.
#include <cmath>
#include <random>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "base/status.h"
#include "document/bson.h"
#include "document/vector_cursor.h"
#include "pipeline/stages.h"
#include "query/filter.h"
#include "query/sorter.h"
#include "ttldb/json.h"

namespace ttldb {
namespace agg {
namespace {

// ---- $match ----------------------------------------------------------------

// A $match whose $expr reads variables of the pipeline ($lookup's `let`,
// the command's `let`) is bound per run: each "$$name..." inside a $expr
// is replaced by {$literal: <its value>} ("$$REMOVE" when missing), as
// MongoDB binds a $lookup sub-pipeline's variables before running it; the
// bound filter is then a plain find filter (and can be pushed down).
struct VarRef {
  std::string text;  // "$$name.a.b"
  std::shared_ptr<const Expression> expr;
};

bool IsSystemVariable(absl::string_view name) {
  return name == "ROOT" || name == "CURRENT" || name == "NOW" ||
         name == "REMOVE" || name == "CLUSTER_TIME" || name == "DESCEND" ||
         name == "PRUNE" || name == "KEEP" || name == "SEARCH_META" ||
         name == "USER_ROLES";
}

// Collects the "$$var" strings under $expr (in_expr) that name a variable
// in scope.
absl::Status CollectVarRefs(const Value& v, bool in_expr, ParseContext* ctx,
                            std::vector<VarRef>* out) {
  if (v.is_string() && in_expr) {
    const std::string& s = v.string_value();
    if (s.size() > 2 && s[0] == '$' && s[1] == '$') {
      std::string name =
          s.substr(2, s.find('.') == std::string::npos ? std::string::npos
                                                       : s.find('.') - 2);
      if (!IsSystemVariable(name) && ctx->Lookup(name) >= 0) {
        for (const VarRef& r : *out) {
          if (r.text == s) return absl::OkStatus();
        }
        ASSIGN_OR_RETURN(std::unique_ptr<Expression> e, ParseFieldPath(s, ctx));
        out->push_back({s, std::move(e)});
      }
    }
    return absl::OkStatus();
  }
  if (v.is_array()) {
    for (const Value& e : v.array_items()) {
      RETURN_IF_ERROR(CollectVarRefs(e, in_expr, ctx, out));
    }
  } else if (v.is_object()) {
    for (const Field& f : v.object_fields()) {
      RETURN_IF_ERROR(
          CollectVarRefs(f.second, in_expr || f.first == "$expr", ctx, out));
    }
  }
  return absl::OkStatus();
}

Value Substitute(const Value& v, bool in_expr,
                 const std::vector<std::pair<std::string, Value>>& values) {
  if (v.is_string() && in_expr) {
    for (const auto& [text, value] : values) {
      if (v.string_value() == text) return value;
    }
    return v;
  }
  if (v.is_array()) {
    Value::Array out;
    for (const Value& e : v.array_items()) {
      out.push_back(Substitute(e, in_expr, values));
    }
    return Value::MakeArray(std::move(out));
  }
  if (v.is_object()) {
    Value::Object out;
    for (const Field& f : v.object_fields()) {
      out.emplace_back(
          f.first, Substitute(f.second, in_expr || f.first == "$expr", values));
    }
    return Value::MakeObject(std::move(out));
  }
  return v;
}

class MatchStream : public MapStream {
 public:
  MatchStream(std::unique_ptr<Cursor> in, std::shared_ptr<const Filter> f)
      : MapStream(std::move(in)), filter_(std::move(f)) {}

 protected:
  absl::StatusOr<std::optional<Value>> Map(Value doc) override {
    // A $expr evaluation error fails the pipeline, as in MongoDB.
    ASSIGN_OR_RETURN(bool matched, filter_->MatchesOrError(doc));
    if (!matched) return std::optional<Value>();
    return std::optional<Value>(std::move(doc));
  }

 private:
  std::shared_ptr<const Filter> filter_;
};

class MatchSpec : public StageSpec {
 public:
  MatchSpec(Value filter, std::vector<VarRef> refs)
      : filter_(std::move(filter)), refs_(std::move(refs)) {}
  absl::string_view name() const override { return "$match"; }

  absl::StatusOr<Value> BoundOperand(RunContext* ctx) const override {
    if (refs_.empty()) return filter_;
    Variables vars = StageVariables(*ctx);
    Value empty = Value::MakeObject();
    vars.set_root(&empty);
    std::vector<std::pair<std::string, Value>> values;
    for (const VarRef& r : refs_) {
      ASSIGN_OR_RETURN(std::optional<Value> v, r.expr->Evaluate(empty, &vars));
      values.emplace_back(
          r.text, v.has_value()
                      ? Value::MakeObject({Field("$literal", std::move(*v))})
                      : Value::String("$$REMOVE"));
    }
    return Substitute(filter_, false, values);
  }

  absl::StatusOr<std::unique_ptr<Cursor>> Open(std::unique_ptr<Cursor> input,
                                               RunContext* ctx) const override {
    ASSIGN_OR_RETURN(Value bound, BoundOperand(ctx));
    // Parsed per run: $$NOW is the run's.
    ASSIGN_OR_RETURN(
        Filter f,
        Filter::Parse(bound, absl::FromUnixMillis(ctx->vars.now_millis()),
                      ctx->collator));
    return std::unique_ptr<Cursor>(std::make_unique<MatchStream>(
        std::move(input), std::make_shared<const Filter>(std::move(f))));
  }

 private:
  Value filter_;
  std::vector<VarRef> refs_;
};

// ---- $limit / $skip ---------------------------------------------------------

// MongoDB's BSONElement::parseIntegerElementToNonNegativeLong, with its
// reasons ("Expected an integer: $skip: 1.5").
absl::StatusOr<int64_t> NonNegativeInteger(absl::string_view stage,
                                           const Value& v, int code) {
  std::string shown = absl::StrCat(stage, ": ", ToJson(v));
  auto fail = [&](absl::string_view why) {
    return StageError(code, absl::StrCat("invalid argument to ", stage,
                                         " stage: ", why, shown));
  };
  if (!v.is_number()) return fail("Expected a number in: ");
  int64_t n = 0;
  switch (v.type()) {
    case ValueType::kInt32:
    case ValueType::kInt64:
      n = v.int64_value();
      break;
    case ValueType::kDouble: {
      double d = v.double_value();
      if (std::isnan(d) || d != std::floor(d)) {
        return fail("Expected an integer: ");
      }
      if (std::fabs(d) >= 9.2233720368547758e18) {
        return fail("Cannot represent as a 64-bit integer: ");
      }
      n = static_cast<int64_t>(d);
      break;
    }
    default:
      if (!v.decimal_value().ToInt64Exact(&n)) {
        return fail("Expected an integer: ");
      }
  }
  if (n < 0) return fail("Expected a positive number in: ");
  return n;
}

class LimitSkipStream : public Cursor {
 public:
  LimitSkipStream(std::unique_ptr<Cursor> in, int64_t skip, int64_t limit)
      : input_(std::move(in)), skip_(skip), limit_(limit) {}
  absl::StatusOr<std::optional<Value>> Next() override {
    while (skip_ > 0) {
      ASSIGN_OR_RETURN(std::optional<Value> d, input_->Next());
      if (!d.has_value()) return d;
      --skip_;
    }
    if (limit_ == 0) return std::optional<Value>();
    if (limit_ > 0) --limit_;
    return input_->Next();
  }

 private:
  std::unique_ptr<Cursor> input_;
  int64_t skip_;
  int64_t limit_;  // -1: none
};

class LimitSkipSpec : public StageSpec {
 public:
  LimitSkipSpec(bool is_limit, int64_t n) : is_limit_(is_limit), n_(n) {}
  absl::string_view name() const override {
    return is_limit_ ? "$limit" : "$skip";
  }
  absl::StatusOr<std::unique_ptr<Cursor>> Open(std::unique_ptr<Cursor> input,
                                               RunContext*) const override {
    return std::unique_ptr<Cursor>(std::make_unique<LimitSkipStream>(
        std::move(input), is_limit_ ? 0 : n_, is_limit_ ? n_ : -1));
  }

 private:
  bool is_limit_;
  int64_t n_;
};

// ---- $count -----------------------------------------------------------------

class CountStream : public Cursor {
 public:
  CountStream(std::unique_ptr<Cursor> in, std::string field)
      : input_(std::move(in)), field_(std::move(field)) {}
  absl::StatusOr<std::optional<Value>> Next() override {
    if (done_) return std::optional<Value>();
    done_ = true;
    int64_t n = 0;
    while (true) {
      ASSIGN_OR_RETURN(std::optional<Value> d, input_->Next());
      if (!d.has_value()) break;
      ++n;
    }
    // No documents, no output ($group over nothing yields nothing).
    if (n == 0) return std::optional<Value>();
    Value count = n <= INT32_MAX ? Value::Int32(static_cast<int32_t>(n))
                                 : Value::Int64(n);
    return std::optional<Value>(Value::MakeObject({Field(field_, count)}));
  }

 private:
  std::unique_ptr<Cursor> input_;
  std::string field_;
  bool done_ = false;
};

class CountSpec : public StageSpec {
 public:
  explicit CountSpec(std::string field) : field_(std::move(field)) {}
  absl::string_view name() const override { return "$count"; }
  absl::StatusOr<std::unique_ptr<Cursor>> Open(std::unique_ptr<Cursor> input,
                                               RunContext*) const override {
    return std::unique_ptr<Cursor>(
        std::make_unique<CountStream>(std::move(input), field_));
  }
  // It reads no field.
  const TopLevelFields* InputFields() const override { return &none_; }

 private:
  std::string field_;
  TopLevelFields none_;
};

// ---- $sample
// ------------------------------------------------------------------

// A uniform random sample of `size` documents (reservoir sampling), in
// random order. The documents kept are bounded by
// RunContext::max_memory_bytes as a blocking stage's are (MongoDB's $sample
// sorts by a random key with the sorter's bound: 292 beyond it).
class SampleStream : public Cursor {
 public:
  SampleStream(std::unique_ptr<Cursor> in, int64_t size, RunContext* ctx)
      : input_(std::move(in)),
        size_(size),
        ctx_(ctx),
        rng_(std::random_device{}()) {}
  absl::StatusOr<std::optional<Value>> Next() override {
    if (!filled_) {
      filled_ = true;
      int64_t seen = 0;
      while (true) {
        ASSIGN_OR_RETURN(std::optional<Value> d, input_->Next());
        if (!d.has_value()) break;
        ++seen;
        if (static_cast<int64_t>(sample_.size()) < size_) {
          bytes_.push_back(BsonValueSize(*d));
          total_ += bytes_.back();
          sample_.push_back(std::move(*d));
        } else {
          std::uniform_int_distribution<int64_t> pick(0, seen - 1);
          int64_t j = pick(rng_);
          if (j >= size_) continue;
          total_ -= bytes_[j];
          bytes_[j] = BsonValueSize(*d);
          total_ += bytes_[j];
          sample_[j] = std::move(*d);
        }
        if (total_ > ctx_->max_memory_bytes) {
          return SortMemoryLimitError(kAggregationErrorContext,
                                      ctx_->max_memory_bytes);
        }
      }
      std::shuffle(sample_.begin(), sample_.end(), rng_);
    }
    if (pos_ >= sample_.size()) return std::optional<Value>();
    return std::optional<Value>(std::move(sample_[pos_++]));
  }

 private:
  std::unique_ptr<Cursor> input_;
  int64_t size_;
  RunContext* ctx_;
  std::mt19937_64 rng_;
  bool filled_ = false;
  std::vector<Value> sample_;
  std::vector<size_t> bytes_;  // BSON size of each sample_ document
  size_t total_ = 0;
  size_t pos_ = 0;
};

class SampleSpec : public StageSpec {
 public:
  explicit SampleSpec(int64_t size) : size_(size) {}
  absl::string_view name() const override { return "$sample"; }
  absl::StatusOr<std::unique_ptr<Cursor>> Open(std::unique_ptr<Cursor> input,
                                               RunContext* ctx) const override {
    return std::unique_ptr<Cursor>(
        std::make_unique<SampleStream>(std::move(input), size_, ctx));
  }

 private:
  int64_t size_;
};

// ---- $documents
// ---------------------------------------------------------------

class DocumentsSpec : public StageSpec {
 public:
  explicit DocumentsSpec(std::shared_ptr<const Expression> e)
      : expr_(std::move(e)) {}
  absl::string_view name() const override { return "$documents"; }
  absl::StatusOr<std::unique_ptr<Cursor>> Open(std::unique_ptr<Cursor>,
                                               RunContext* ctx) const override {
    Variables vars = StageVariables(*ctx);
    Value empty = Value::MakeObject();
    vars.set_root(&empty);
    ASSIGN_OR_RETURN(std::optional<Value> v, expr_->Evaluate(empty, &vars));
    if (!v.has_value() || !v->is_array()) {
      return StageError(5858203, "an array is expected");
    }
    for (const Value& d : v->array_items()) {
      if (!d.is_object()) {
        return StageError(40228, "an array of objects is expected");
      }
    }
    return std::unique_ptr<Cursor>(
        std::make_unique<VectorCursor>(v->array_items()));
  }

 private:
  std::shared_ptr<const Expression> expr_;
};

}  // namespace

absl::Status StageError(int code, absl::string_view message) {
  return MongoError(absl::StatusCode::kInvalidArgument, code, message);
}

absl::Status CheckFieldPath(absl::string_view path) {
  if (path.empty()) {
    return StageError(40352,
                      "FieldPath cannot be constructed with empty string");
  }
  if (path[0] == '$') {
    return StageError(16410,
                      "FieldPath field names may not start with '$'. Consider "
                      "using $getField or $setField.");
  }
  for (absl::string_view part : absl::StrSplit(path, '.')) {
    if (part.empty()) {
      return StageError(15998,
                        "FieldPath field names may not be empty strings.");
    }
  }
  return absl::OkStatus();
}

absl::Status ParseMatch(const Value& spec, ParseContext* ctx, StageList* out) {
  if (!spec.is_object()) {
    return StageError(15959,
                      "the match filter must be an expression in an object");
  }
  std::vector<VarRef> refs;
  RETURN_IF_ERROR(CollectVarRefs(spec, false, ctx, &refs));
  // Checked now, with every variable reference bound to null, so that a
  // bad filter fails at parse time.
  std::vector<std::pair<std::string, Value>> nulls;
  for (const VarRef& r : refs) {
    nulls.emplace_back(r.text, Value::MakeObject({Field("$literal", Value())}));
  }
  RETURN_IF_ERROR(Filter::Parse(Substitute(spec, false, nulls)).status());
  out->push_back(std::make_shared<MatchSpec>(spec, std::move(refs)));
  return absl::OkStatus();
}

absl::Status ParseLimit(const Value& spec, ParseContext*, StageList* out) {
  ASSIGN_OR_RETURN(int64_t n, NonNegativeInteger("$limit", spec, 5107201));
  if (n == 0) return StageError(15958, "the limit must be positive");
  out->push_back(std::make_shared<LimitSkipSpec>(true, n));
  return absl::OkStatus();
}

absl::Status ParseSkip(const Value& spec, ParseContext*, StageList* out) {
  ASSIGN_OR_RETURN(int64_t n, NonNegativeInteger("$skip", spec, 5107200));
  out->push_back(std::make_shared<LimitSkipSpec>(false, n));
  return absl::OkStatus();
}

absl::Status ParseCount(const Value& spec, ParseContext*, StageList* out) {
  // document_source_count.cpp
  if (!spec.is_string()) {
    return StageError(40156, "the count field must be a non-empty string");
  }
  const std::string& f = spec.string_value();
  if (f.empty()) {
    return StageError(40157, "the count field must be a non-empty string");
  }
  if (f[0] == '$') {
    return StageError(40158, "the count field cannot be a $-prefixed path");
  }
  if (f.find('\0') != std::string::npos) {
    return StageError(40159, "the count field cannot contain a null byte");
  }
  if (f.find('.') != std::string::npos) {
    return StageError(40160, "the count field cannot contain '.'");
  }
  out->push_back(std::make_shared<CountSpec>(f));
  return absl::OkStatus();
}

absl::Status ParseSample(const Value& spec, ParseContext*, StageList* out) {
  // document_source_sample.cpp
  if (!spec.is_object()) {
    return StageError(28745,
                      "the $sample stage specification must be an object");
  }
  std::optional<int64_t> size;
  for (const Field& f : spec.object_fields()) {
    if (f.first == "size") {
      if (!f.second.is_number()) {
        return StageError(28746, "size argument to $sample must be a number");
      }
      double d = f.second.AsDouble();
      if (d < 0) {
        return StageError(28747,
                          "size argument to $sample must not be negative");
      }
      size = static_cast<int64_t>(d);
    } else {
      return StageError(
          28748, absl::StrCat("unrecognized option to $sample: ", f.first));
    }
  }
  if (!size.has_value()) {
    return StageError(28749, "$sample stage must specify a size");
  }
  out->push_back(std::make_shared<SampleSpec>(*size));
  return absl::OkStatus();
}

absl::Status ParseDocuments(const Value& spec, ParseContext* ctx,
                            StageList* out) {
  ASSIGN_OR_RETURN(std::unique_ptr<Expression> e, ParseExpression(spec, ctx));
  out->push_back(std::make_shared<DocumentsSpec>(std::move(e)));
  return absl::OkStatus();
}

}  // namespace agg
}  // namespace ttldb
