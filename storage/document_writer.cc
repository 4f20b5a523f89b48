#include "storage/document_writer.h"

#include <algorithm>
#include <iterator>

#include "absl/strings/str_cat.h"
#include "base/op_context.h"
#include "base/status.h"
#include "storage/leading_entries.h"

namespace ttldb {

DocumentWriter::DocumentWriter(const CollectionState& state,
                               leveldb::WriteBatch* batch)
    : state_(state), batch_(batch) {
  for (const auto& idx : state.indexes) indexes_.push_back(idx.get());
  published_ = indexes_.size();
  for (const auto& idx : state.building) indexes_.push_back(idx.get());
}

std::string DocumentWriter::DocumentKeyOf(absl::string_view encoded_id) const {
  std::string key;
  key.reserve(state_.doc_prefix.size() + encoded_id.size());
  key.append(state_.doc_prefix);
  key.append(encoded_id.data(), encoded_id.size());
  return key;
}

void DocumentWriter::NoteRemoved(const IndexState& index, absl::string_view key,
                                 Removed* removed) {
  if (LeadingEntries::Eligible(index) &&
      LeadingEntries::IsBelowDates(key, index.prefix.size())) {
    ++removed->below_dates[index.prefix];
  }
}

absl::Status DocumentWriter::Insert(const std::string& encoded_id,
                                    absl::string_view text, const DocKeys& keys,
                                    IndexCheck check) {
  return Write(encoded_id, nullptr, text, keys, check);
}

absl::Status DocumentWriter::Replace(const std::string& encoded_id,
                                     const DocKeys& old_keys,
                                     absl::string_view text,
                                     const DocKeys& new_keys,
                                     IndexCheck check) {
  return Write(encoded_id, &old_keys, text, new_keys, check);
}

absl::Status DocumentWriter::Write(const std::string& encoded_id,
                                   const DocKeys* old_keys,
                                   absl::string_view text,
                                   const DocKeys& new_keys, IndexCheck check) {
  batch_->Put(DocumentKeyOf(encoded_id),
              leveldb::Slice(text.data(), text.size()));
  // A new document's key is its _id index key (MongoDB's keysInserted).
  int64_t keys_inserted = old_keys == nullptr ? 1 : 0;
  int64_t keys_deleted = 0;
  static const std::vector<std::string> kNone;
  std::vector<std::string> removed, added;
  for (size_t i = 0; i < indexes_.size(); ++i) {
    const IndexState& idx = *indexes_[i];
    const std::vector<std::string>& before =
        old_keys != nullptr ? old_keys->keys[i] : kNone;
    const std::vector<std::string>& after = new_keys.keys[i];
    if (i >= published_) {
      // A building index: delete what the old version had and the new one
      // has not, put every key of the new version (the scan may not have
      // put the old ones: idempotent).
      removed.clear();
      std::set_difference(before.begin(), before.end(), after.begin(),
                          after.end(), std::back_inserter(removed));
      RETURN_IF_ERROR(check(IndexChange{i, idx, true, removed, after, after}));
      for (const std::string& k : removed) batch_->Delete(k);
      if (after.empty()) continue;
      const std::string value =
          idx.spec.expire_after_seconds.has_value()
              ? EntryValueFor(indexes_, new_keys, i, encoded_id)
              : encoded_id;
      for (const std::string& k : after) batch_->Put(k, value);
      continue;
    }
    // With no old keys (an insert), every new key is added: no copies.
    const std::vector<std::string>* added_keys = &after;
    removed.clear();
    if (!before.empty()) {
      added.clear();
      std::set_difference(before.begin(), before.end(), after.begin(),
                          after.end(), std::back_inserter(removed));
      std::set_difference(after.begin(), after.end(), before.begin(),
                          before.end(), std::back_inserter(added));
      added_keys = &added;
    }
    RETURN_IF_ERROR(
        check(IndexChange{i, idx, false, removed, *added_keys, after}));
    keys_inserted += static_cast<int64_t>(added_keys->size());
    keys_deleted += static_cast<int64_t>(removed.size());
    for (const std::string& k : removed) batch_->Delete(k);
    if (after.empty()) continue;
    if (!idx.spec.expire_after_seconds.has_value()) {
      for (const std::string& k : *added_keys) batch_->Put(k, encoded_id);
      continue;
    }
    // A TTL entry carries the document's keys in the other indexes: when
    // they changed, every entry is rewritten, not only the added ones.
    // During a build every TTL entry is rewritten: one the scan has not
    // reached yet may not list the building index.
    const std::string value = EntryValueFor(indexes_, new_keys, i, encoded_id);
    const bool value_changed =
        old_keys == nullptr || before.empty() || building() ||
        EntryValueFor(indexes_, *old_keys, i, encoded_id) != value;
    for (const std::string& k : value_changed ? after : *added_keys) {
      batch_->Put(k, value);
    }
  }
  CountKeysWritten(keys_inserted, keys_deleted);
  return absl::OkStatus();
}

absl::Status DocumentWriter::Remove(const std::string& encoded_id,
                                    const Value& doc, Removed* removed) {
  std::string doc_key = DocumentKeyOf(encoded_id);
  batch_->Delete(doc_key);
  int64_t keys_deleted = 1;  // the _id index key
  for (size_t i = 0; i < indexes_.size(); ++i) {
    const IndexState& idx = *indexes_[i];
    RETURN_IF_ERROR(IndexEntryKeys(idx, doc, encoded_id, &scratch_));
    for (const std::string& k : scratch_) batch_->Delete(k);
    if (i >= published_) continue;
    keys_deleted += static_cast<int64_t>(scratch_.size());
    removed->entries += scratch_.size();
    for (const std::string& k : scratch_) NoteRemoved(idx, k, removed);
  }
  removed->doc_keys.push_back(std::move(doc_key));
  CountKeysWritten(0, keys_deleted);
  return absl::OkStatus();
}

void DocumentWriter::RemoveBySiblings(absl::string_view entry_key,
                                      absl::string_view encoded_id,
                                      absl::Span<const SiblingIndex> siblings,
                                      Removed* removed) {
  std::string doc_key = DocumentKeyOf(encoded_id);
  batch_->Delete(doc_key);
  batch_->Delete(leveldb::Slice(entry_key.data(), entry_key.size()));
  ++removed->entries;
  int64_t keys_deleted = 2;  // the _id index key and the entry's
  std::string k;
  for (const SiblingIndex& sibling : siblings) {
    auto other = std::find_if(indexes_.begin(), indexes_.end(),
                              [&](const IndexState* idx) {
                                return idx->spec.id == sibling.index_id;
                              });
    if (other == indexes_.end()) continue;  // dropped since it was written
    const IndexState& idx = **other;
    for (absl::string_view key : sibling.keys) {
      k.assign(idx.prefix);
      k.append(key.data(), key.size());
      k.append(encoded_id.data(), encoded_id.size());
      NoteRemoved(idx, k, removed);
      batch_->Delete(k);
      ++removed->entries;
      ++keys_deleted;
    }
  }
  removed->doc_keys.push_back(std::move(doc_key));
  CountKeysWritten(0, keys_deleted);
}

}  // namespace ttldb
