// Collection's operations on a MongoDB deployment, through libmongoc: each
// call borrows a client from the pool, runs MongoDB's command of the same
// name (libmongoc's helpers: retryable writes, the URI's read and write
// concerns), and maps the reply and its errors to what the embedded engine
// returns. Internal to //remote.
#ifndef TTLDB_REMOTE_MONGO_COLLECTION_H_
#define TTLDB_REMOTE_MONGO_COLLECTION_H_

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/time/time.h"
#include "base/mutex.h"
#include "engine/backend.h"
#include "remote/hidden_filter.h"
#include "remote/remote_context.h"

namespace ttldb {
namespace remote {

class MongoCollection : public CollectionBackend {
 public:
  MongoCollection(std::shared_ptr<const RemoteContext> context,
                  std::string name);

  std::string Where() const override { return context_->Where(); }

  absl::StatusOr<Value> InsertOne(const DocArg& doc,
                                  const WriteOptions& options) override;
  absl::Status InsertMany(absl::Span<const DocArg> docs,
                          std::vector<Value>* inserted_ids,
                          const WriteOptions& options) override;
  absl::StatusOr<UpdateResult> Update(const DocArg& filter,
                                      const DocArg& update, bool multi,
                                      bool replacement_only,
                                      const UpdateOptions& update_options,
                                      const WriteOptions& options) override;
  absl::StatusOr<int64_t> Delete(const DocArg& filter, bool multi,
                                 const WriteOptions& options) override;
  absl::StatusOr<std::optional<Value>> FindOneAndModify(
      absl::string_view kind, const DocArg& filter, const DocArg* update,
      const FindOneAndModifyOptions& fam_options,
      const WriteOptions& options) override;
  absl::StatusOr<BulkWriteResult> BulkWrite(
      absl::Span<const WriteModel> ops, bool ordered,
      const WriteOptions& options) override;
  absl::StatusOr<UpdateResult> Touch(const DocArg& filter,
                                     absl::string_view field,
                                     const WriteOptions& options) override;

  absl::StatusOr<Value> FindById(const Value& id) override;
  absl::StatusOr<std::unique_ptr<Cursor>> Find(
      const DocArg& filter, const FindOptions& options) override;
  absl::StatusOr<int64_t> CountDocuments(const DocArg& filter) override;
  absl::StatusOr<int64_t> EstimatedDocumentCount() override;
  absl::StatusOr<std::vector<Value>> Distinct(absl::string_view field,
                                              const DocArg& filter) override;
  absl::StatusOr<Value> Explain(const DocArg& filter,
                                const FindOptions& options) override;
  absl::StatusOr<std::unique_ptr<Cursor>> Aggregate(
      const DocArg& pipeline, const AggregateOptions& options) override;
  absl::StatusOr<Value> ExplainAggregate(
      const DocArg& pipeline, const AggregateOptions& options) override;

  absl::StatusOr<std::string> CreateIndex(
      const DocArg& keys, const DocArg& index_options,
      const IndexBuildProgress& progress) override;
  absl::Status DropIndex(absl::string_view name) override;
  absl::Status DropIndexByKey(const DocArg& keys) override;
  absl::StatusOr<std::vector<Value>> ListIndexes() override;
  absl::StatusOr<Value> Options() override;
  absl::StatusOr<Value> CollMod(const DocArg& command) override;
  // MongoDB's collection.watch() (remote/mongo_change_stream.h).
  absl::StatusOr<std::unique_ptr<ChangeStream>> Watch(
      const ChangeStreamOptions& options) override;

  absl::StatusOr<Value> Validate() override;
  absl::StatusOr<Value> Stats(int64_t scale) override;
  absl::StatusOr<std::vector<Value>> IndexStats() override;

  // Forgets the cached TTL rules (an index or the collection changed).
  void InvalidateTtlRules();

 private:
  std::string ns() const { return absl::StrCat(context_->db_name, ".", name_); }
  // `filter` as the embedded engine sees it: with hide_expired, restricted
  // to the documents no TTL index has expired (remote/hidden_filter.h).
  absl::StatusOr<Value> VisibleFilter(const Value& filter);
  // `pipeline` (an array, else 14) as the embedded engine runs it: with
  // hide_expired, after a leading $match of the visible condition (unless
  // its first stage must stay first).
  absl::StatusOr<Value> VisiblePipeline(const DocArg& pipeline);
  // With hide_expired, when `status` is a duplicate key error whose key is
  // held by a document a TTL index has expired (hidden, not yet deleted by
  // the deployment's monitor): deletes that document, with a filter that
  // also requires it to be expired at the cutoff, so that a live holder is
  // never deleted, and returns true: the write runs again, as the embedded
  // engine's removes the hidden holder instead of failing with 11000.
  // False for any other status, or when no expired document held the key.
  absl::StatusOr<bool> RemoveExpiredHolder(const absl::Status& status,
                                           const WriteOptions& options);
  // The collection's TTL rules, from listIndexes, cached for
  // kTtlRulesRefresh.
  absl::StatusOr<std::vector<TtlRule>> TtlRules();
  // One bulk write of ops[which[0]], ops[which[1]], ... (insert_docs[i]:
  // op i's document with its _id); the result's indexes are those of
  // `ops`, and `statuses` gets each failed operation's status (its
  // duplicate key payloads), by that index.
  absl::StatusOr<BulkWriteResult> RunBulk(
      absl::Span<const WriteModel> ops, const std::vector<Value>& insert_docs,
      const std::vector<size_t>& which, bool ordered,
      const WriteOptions& options, std::map<int64_t, absl::Status>* statuses);
  // A command on this database; the reply without ok/$clusterTime/
  // operationTime unless `keep_ok`.
  absl::StatusOr<Value> RunCommand(const Value& command, bool keep_ok);
  absl::StatusOr<std::unique_ptr<Cursor>> OpenCursor(bool aggregate,
                                                     const Value& what,
                                                     const Value& opts);

  const std::shared_ptr<const RemoteContext> context_;
  const std::string name_;
  // ValidateCollectionName(name_): every call fails with it first, as the
  // embedded engine's do.
  const absl::Status name_status_;

  Mutex ttl_mu_;
  std::optional<std::vector<TtlRule>> ttl_rules_ ABSL_GUARDED_BY(ttl_mu_);
  absl::Time ttl_rules_time_ ABSL_GUARDED_BY(ttl_mu_);
};

}  // namespace remote
}  // namespace ttldb

#endif  // TTLDB_REMOTE_MONGO_COLLECTION_H_
