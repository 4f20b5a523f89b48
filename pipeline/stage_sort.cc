// $sort over query/sorter.h (the sort a find runs too), bounded by
// RunContext::max_memory_bytes, spilling sorted runs under allowDiskUse.
// A $sort followed by $limit keeps only the best `limit` documents.
#include <utility>

#include "pipeline/stages.h"
#include "query/sort.h"
#include "query/sorter.h"

namespace ttldb {
namespace agg {

std::function<absl::StatusOr<std::string>()> SpillDirectory(RunContext* ctx) {
  if (!ctx->allow_disk_use) return nullptr;
  return [ctx]() -> absl::StatusOr<std::string> {
    ASSIGN_OR_RETURN(std::string dir, ctx->db->TempDir());
    ++ctx->spill_files;
    return dir;
  };
}

namespace {

class SortStream : public Cursor {
 public:
  SortStream(std::unique_ptr<Cursor> in, std::shared_ptr<const SortSpec> s,
             int64_t limit, RunContext* ctx)
      : input_(std::move(in)),
        sort_(std::move(s)),
        sorter_(sort_.get(), Options(limit, ctx)) {}

  absl::StatusOr<std::optional<Value>> Next() override {
    if (!loaded_) {
      loaded_ = true;
      while (true) {
        ASSIGN_OR_RETURN(std::optional<Value> doc, input_->Next());
        if (!doc.has_value()) break;
        RETURN_IF_ERROR(sorter_.Add(std::move(*doc)));
      }
    }
    return sorter_.Next();
  }

 private:
  static SorterOptions Options(int64_t limit, RunContext* ctx) {
    SorterOptions o;
    o.limit = limit;
    o.max_memory_bytes = ctx->max_memory_bytes;
    o.spill_directory = SpillDirectory(ctx);
    o.error_context = std::string(kAggregationErrorContext);
    return o;
  }

  std::unique_ptr<Cursor> input_;
  std::shared_ptr<const SortSpec> sort_;
  Sorter sorter_;
  bool loaded_ = false;
};

class SortStageSpec : public StageSpec {
 public:
  explicit SortStageSpec(std::shared_ptr<const SortSpec> s)
      : sort_(std::move(s)) {}
  absl::string_view name() const override { return "$sort"; }
  absl::StatusOr<std::unique_ptr<Cursor>> Open(std::unique_ptr<Cursor> input,
                                               RunContext* ctx) const override {
    return OpenLimited(0, std::move(input), ctx);
  }
  absl::StatusOr<std::unique_ptr<Cursor>> OpenLimited(
      int64_t limit, std::unique_ptr<Cursor> input, RunContext* ctx) const {
    std::shared_ptr<const SortSpec> sort = sort_;
    if (ctx->collator != nullptr) {
      // The pipeline's collation orders the strings.
      ASSIGN_OR_RETURN(
          SortSpec collated,
          SortSpec::Parse(spec().object_fields()[0].second, ctx->collator));
      sort = std::make_shared<const SortSpec>(std::move(collated));
    }
    return std::unique_ptr<Cursor>(std::make_unique<SortStream>(
        std::move(input), std::move(sort), limit, ctx));
  }

 private:
  std::shared_ptr<const SortSpec> sort_;
};

}  // namespace

absl::Status ParseSort(const Value& spec, ParseContext*, StageList* out) {
  // document_source_sort.cpp
  if (!spec.is_object()) {
    return StageError(15973, "the $sort key specification must be an object");
  }
  if (spec.object_fields().empty()) {
    return StageError(15976, "$sort stage must have at least one sort key");
  }
  ASSIGN_OR_RETURN(SortSpec s, SortSpec::Parse(spec));
  out->push_back(std::make_shared<SortStageSpec>(
      std::make_shared<const SortSpec>(std::move(s))));
  return absl::OkStatus();
}

absl::StatusOr<std::unique_ptr<Cursor>> OpenSortWithLimit(
    const StageSpec& sort, int64_t limit, std::unique_ptr<Cursor> input,
    RunContext* ctx) {
  return static_cast<const SortStageSpec&>(sort).OpenLimited(
      limit, std::move(input), ctx);
}

}  // namespace agg
}  // namespace ttldb
