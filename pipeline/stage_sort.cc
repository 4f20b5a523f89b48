// $sort: an in-memory sort bounded by RunContext::max_memory_bytes that,
// under allowDiskUse, spills sorted runs (pipeline/spill.h) and merges them.
// A $sort followed by $limit keeps only the best `limit` documents.
#include <algorithm>
#include <utility>

#include "absl/strings/str_cat.h"
#include "base/status.h"
#include "document/bson.h"
#include "pipeline/spill.h"
#include "pipeline/stages.h"
#include "query/blocking_sort.h"
#include "query/sort.h"

namespace ttldb {
namespace agg {
namespace {

struct Entry {
  std::unique_ptr<Value> doc;
  SortSpec::Key key;
  size_t bytes = 0;
};

class SortStream : public DocStream {
 public:
  SortStream(std::unique_ptr<DocStream> in, std::shared_ptr<const SortSpec> s,
             int64_t limit, RunContext* ctx)
      : input_(std::move(in)), sort_(std::move(s)), limit_(limit), ctx_(ctx) {}

  absl::StatusOr<std::optional<Value>> Next() override {
    if (!loaded_) {
      loaded_ = true;
      RETURN_IF_ERROR(Load());
    }
    if (runs_.empty()) {
      if (pos_ >= buffer_.size()) return std::optional<Value>();
      return std::optional<Value>(std::move(*buffer_[pos_++].doc));
    }
    return NextMerged();
  }

 private:
  absl::Status Load() {
    if (limit_ > 0) {
      // Top-k: query/blocking_sort's bounded heap, under the same bound.
      ASSIGN_OR_RETURN(std::vector<Value> docs,
                       BlockingSort(*sort_, 0, limit_, ctx_->max_memory_bytes,
                                    [this]() { return input_->Next(); }));
      for (Value& d : docs) {
        Entry e;
        e.doc = std::make_unique<Value>(std::move(d));
        buffer_.push_back(std::move(e));
      }
      return absl::OkStatus();
    }
    size_t bytes = 0;
    while (true) {
      ASSIGN_OR_RETURN(std::optional<Value> doc, input_->Next());
      if (!doc.has_value()) break;
      Entry e;
      e.doc = std::make_unique<Value>(std::move(*doc));
      ASSIGN_OR_RETURN(e.key, sort_->KeyOf(*e.doc));
      e.bytes = BsonValueSize(*e.doc) + SortKeyBytes(e.key);
      bytes += e.bytes;
      buffer_.push_back(std::move(e));
      if (bytes > ctx_->max_memory_bytes) {
        if (!ctx_->allow_disk_use) {
          return SortMemoryLimitError(ctx_->max_memory_bytes);
        }
        RETURN_IF_ERROR(Spill());
        bytes = 0;
      }
    }
    SortBuffer();
    if (!runs_.empty()) {
      // The remainder is the last run, merged from memory.
      for (Run& r : runs_) RETURN_IF_ERROR(Advance(&r));
    }
    return absl::OkStatus();
  }

  void SortBuffer() {
    std::stable_sort(buffer_.begin(), buffer_.end(),
                     [this](const Entry& a, const Entry& b) {
                       return sort_->CompareKeys(a.key, b.key) < 0;
                     });
  }

  absl::Status Spill() {
    SortBuffer();
    ASSIGN_OR_RETURN(std::unique_ptr<SpillFile> f, SpillFile::Create(ctx_));
    for (const Entry& e : buffer_) RETURN_IF_ERROR(f->Write(*e.doc));
    RETURN_IF_ERROR(f->FinishWriting());
    buffer_.clear();
    Run r;
    r.file = std::move(f);
    runs_.push_back(std::move(r));
    return absl::OkStatus();
  }

  struct Run {
    std::unique_ptr<SpillFile> file;  // nullptr: the in-memory remainder
    std::unique_ptr<Value> doc;       // the run's current document
    SortSpec::Key key;
  };

  absl::Status Advance(Run* r) {
    r->doc.reset();
    ASSIGN_OR_RETURN(std::optional<Value> d, r->file->Read());
    if (!d.has_value()) return absl::OkStatus();
    r->doc = std::make_unique<Value>(std::move(*d));
    ASSIGN_OR_RETURN(r->key, sort_->KeyOf(*r->doc));
    return absl::OkStatus();
  }

  // The smallest current document over the runs and the in-memory
  // remainder; ties go to the earlier run (the remainder last), which keeps
  // arrival order as the in-memory sort does.
  absl::StatusOr<std::optional<Value>> NextMerged() {
    Run* best = nullptr;
    for (Run& r : runs_) {
      if (r.doc == nullptr) continue;
      if (best == nullptr || sort_->CompareKeys(r.key, best->key) < 0) {
        best = &r;
      }
    }
    bool take_memory = pos_ < buffer_.size() &&
                       (best == nullptr ||
                        sort_->CompareKeys(buffer_[pos_].key, best->key) < 0);
    if (take_memory) {
      return std::optional<Value>(std::move(*buffer_[pos_++].doc));
    }
    if (best == nullptr) return std::optional<Value>();
    Value out = std::move(*best->doc);
    RETURN_IF_ERROR(Advance(best));
    return std::optional<Value>(std::move(out));
  }

  std::unique_ptr<DocStream> input_;
  std::shared_ptr<const SortSpec> sort_;
  int64_t limit_;
  RunContext* ctx_;
  bool loaded_ = false;
  std::vector<Entry> buffer_;
  size_t pos_ = 0;
  std::vector<Run> runs_;
};

class SortStageSpec : public StageSpec {
 public:
  explicit SortStageSpec(std::shared_ptr<const SortSpec> s)
      : sort_(std::move(s)) {}
  absl::string_view name() const override { return "$sort"; }
  absl::StatusOr<std::unique_ptr<DocStream>> Open(
      std::unique_ptr<DocStream> input, RunContext* ctx) const override {
    return OpenLimited(0, std::move(input), ctx);
  }
  absl::StatusOr<std::unique_ptr<DocStream>> OpenLimited(
      int64_t limit, std::unique_ptr<DocStream> input, RunContext* ctx) const {
    std::shared_ptr<const SortSpec> sort = sort_;
    if (ctx->collator != nullptr) {
      // The pipeline's collation orders the strings.
      ASSIGN_OR_RETURN(
          SortSpec collated,
          SortSpec::Parse(spec().object_fields()[0].second, ctx->collator));
      sort = std::make_shared<const SortSpec>(std::move(collated));
    }
    return std::unique_ptr<DocStream>(std::make_unique<SortStream>(
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

absl::StatusOr<std::unique_ptr<DocStream>> OpenSortWithLimit(
    const StageSpec& sort, int64_t limit, std::unique_ptr<DocStream> input,
    RunContext* ctx) {
  return static_cast<const SortStageSpec&>(sort).OpenLimited(
      limit, std::move(input), ctx);
}

}  // namespace agg
}  // namespace ttldb
