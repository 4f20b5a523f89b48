#include "query/sorter.h"

#include <algorithm>
#include <limits>
#include <utility>

#include "absl/strings/str_cat.h"
#include "base/status.h"
#include "document/bson.h"

namespace ttldb {

size_t SortKeyBytes(const SortSpec::Key& key) {
  size_t n = 4 + 1;
  for (const KeyElement& e : key.elements) {
    n += 2;
    if (e.kind == KeyElement::Kind::kValue) n += BsonValueSize(*e.value);
  }
  return n;
}

absl::Status SortMemoryLimitError(absl::string_view context, size_t max_bytes) {
  return MongoError(
      absl::StatusCode::kResourceExhausted,
      kQueryExceededMemoryLimitNoDiskUseAllowed,
      absl::StrCat(context, " :: caused by :: Sort exceeded memory limit of ",
                   max_bytes,
                   " bytes, but did not opt in to external sorting."));
}

Sorter::Sorter(const SortSpec* sort, SorterOptions options)
    : sort_(sort),
      options_(std::move(options)),
      keep_(options_.limit > 0 ? static_cast<uint64_t>(options_.skip) +
                                     static_cast<uint64_t>(options_.limit)
                               : std::numeric_limits<uint64_t>::max()) {}

Sorter::~Sorter() = default;

// (key, seq): a strict total order that is the stable sort's.
bool Sorter::Before(const Entry& a, const Entry& b) const {
  const int c = sort_->CompareKeys(a.key, b.key);
  if (c != 0) return c < 0;
  return a.seq < b.seq;
}

absl::Status Sorter::Add(Value doc) {
  Entry e;
  e.doc = std::make_unique<Value>(std::move(doc));
  ASSIGN_OR_RETURN(e.key, sort_->KeyOf(*e.doc));
  e.seq = seq_++;
  auto before = [this](const Entry& a, const Entry& b) { return Before(a, b); };
  const bool limited = options_.limit > 0;
  if (entries_.size() >= keep_) {
    // Full: the newcomer replaces the worst only if it sorts before it (a
    // tie loses: it arrived later).
    if (!Before(e, entries_.front())) return absl::OkStatus();
    std::pop_heap(entries_.begin(), entries_.end(), before);
    bytes_ -= entries_.back().bytes;
    entries_.pop_back();
  }
  e.bytes = BsonValueSize(*e.doc) + SortKeyBytes(e.key);
  bytes_ += e.bytes;
  entries_.push_back(std::move(e));
  if (limited) std::push_heap(entries_.begin(), entries_.end(), before);
  if (bytes_ > options_.max_memory_bytes) {
    if (!options_.spill_directory) {
      return SortMemoryLimitError(options_.error_context,
                                  options_.max_memory_bytes);
    }
    RETURN_IF_ERROR(Spill());
  }
  return absl::OkStatus();
}

absl::Status Sorter::Spill() {
  auto before = [this](const Entry& a, const Entry& b) { return Before(a, b); };
  if (options_.limit > 0) {
    std::sort_heap(entries_.begin(), entries_.end(), before);
  } else {
    std::sort(entries_.begin(), entries_.end(), before);
  }
  ASSIGN_OR_RETURN(std::string dir, options_.spill_directory());
  ASSIGN_OR_RETURN(std::unique_ptr<SpillFile> file, SpillFile::Create(dir));
  for (const Entry& e : entries_) RETURN_IF_ERROR(file->Write(*e.doc));
  RETURN_IF_ERROR(file->FinishWriting());
  entries_.clear();
  bytes_ = 0;
  Run run;
  run.file = std::move(file);
  runs_.push_back(std::move(run));
  return absl::OkStatus();
}

absl::Status Sorter::Advance(Run* run) {
  run->doc.reset();
  ASSIGN_OR_RETURN(std::optional<Value> d, run->file->Read());
  if (!d.has_value()) return absl::OkStatus();
  run->doc = std::make_unique<Value>(std::move(*d));
  ASSIGN_OR_RETURN(run->key, sort_->KeyOf(*run->doc));
  return absl::OkStatus();
}

absl::Status Sorter::Finish() {
  finished_ = true;
  auto before = [this](const Entry& a, const Entry& b) { return Before(a, b); };
  if (options_.limit > 0) {
    std::sort_heap(entries_.begin(), entries_.end(), before);
  } else {
    std::sort(entries_.begin(), entries_.end(), before);
  }
  for (Run& run : runs_) RETURN_IF_ERROR(Advance(&run));
  return absl::OkStatus();
}

// The smallest current document over the runs and the in-memory remainder.
// Every document of a run arrived before every document of a later run and
// of the remainder, so a tie goes to the earliest run and the remainder
// comes last: the stable order.
absl::StatusOr<std::optional<Value>> Sorter::NextInOrder() {
  Run* best = nullptr;
  for (Run& run : runs_) {
    if (run.doc == nullptr) continue;
    if (best == nullptr || sort_->CompareKeys(run.key, best->key) < 0) {
      best = &run;
    }
  }
  if (pos_ < entries_.size() &&
      (best == nullptr ||
       sort_->CompareKeys(entries_[pos_].key, best->key) < 0)) {
    return std::optional<Value>(std::move(*entries_[pos_++].doc));
  }
  if (best == nullptr) return std::optional<Value>();
  Value out = std::move(*best->doc);
  RETURN_IF_ERROR(Advance(best));
  return std::optional<Value>(std::move(out));
}

absl::StatusOr<std::optional<Value>> Sorter::Next() {
  if (!finished_) RETURN_IF_ERROR(Finish());
  while (true) {
    if (produced_ >= keep_) return std::optional<Value>();
    ASSIGN_OR_RETURN(std::optional<Value> doc, NextInOrder());
    if (!doc.has_value()) return doc;
    if (produced_++ >= static_cast<uint64_t>(options_.skip)) return doc;
  }
}

}  // namespace ttldb
