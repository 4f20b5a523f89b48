#include "engine/backend.h"

#include <utility>

#include "absl/base/const_init.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "base/status.h"

namespace ttldb {
namespace {

// The registered opener; set once at static initialization (before main),
// read by Database::Open.
absl::Mutex opener_mu(absl::kConstInit);
BackendOpener* registered_opener ABSL_GUARDED_BY(opener_mu) = nullptr;

}  // namespace

absl::Status BackendUnsupported(absl::string_view what,
                                absl::string_view where) {
  return MongoError(absl::StatusCode::kUnimplemented, kCommandNotSupported,
                    absl::StrCat(what, " is not supported on ", where));
}

bool RegisterMongoBackend(BackendOpener opener) {
  absl::MutexLock lock(&opener_mu);
  delete registered_opener;
  registered_opener = new BackendOpener(std::move(opener));
  return true;
}

bool IsMongoUri(absl::string_view path) {
  return absl::StartsWith(path, "mongodb://") ||
         absl::StartsWith(path, "mongodb+srv://");
}

// Database::Open's half for URIs (engine/database.cc calls it).
absl::StatusOr<std::unique_ptr<DatabaseBackend>> OpenMongoBackend(
    absl::string_view uri, const Options& options) {
  BackendOpener opener;
  {
    absl::MutexLock lock(&opener_mu);
    if (registered_opener != nullptr) opener = *registered_opener;
  }
  if (!opener) {
    return MongoError(
        absl::StatusCode::kFailedPrecondition, kCommandNotSupported,
        "Database::Open: a mongodb:// URI needs ttldb's MongoDB backend, "
        "which this program does not link: add the Bazel dependency "
        "@ttldb//remote (//remote:remote), or link the CMake target "
        "ttldb::remote (docs/migrating.md)");
  }
  return opener(uri, options);
}

// ---- Defaults: what a backend does not provide -----------------------------

absl::StatusOr<UpdateResult> CollectionBackend::Touch(const DocArg&,
                                                      absl::string_view,
                                                      const WriteOptions&) {
  return BackendUnsupported("Collection::Touch", Where());
}
absl::StatusOr<Value> CollectionBackend::Explain(const DocArg&,
                                                 const FindOptions&) {
  return BackendUnsupported("Collection::Explain", Where());
}
absl::StatusOr<Value> CollectionBackend::ExplainAggregate(
    const DocArg&, const AggregateOptions&) {
  return BackendUnsupported("Collection::ExplainAggregate", Where());
}
absl::StatusOr<std::unique_ptr<ChangeStream>> CollectionBackend::Watch(
    const ChangeStreamOptions&) {
  return BackendUnsupported("Collection::Watch", Where());
}
absl::StatusOr<std::unique_ptr<ChangeStream>> DatabaseBackend::Watch(
    const ChangeStreamOptions&) {
  return BackendUnsupported("Database::Watch", Where());
}
absl::StatusOr<Value> CollectionBackend::Validate() {
  return BackendUnsupported("Collection::Validate", Where());
}
absl::StatusOr<Value> CollectionBackend::Stats(int64_t) {
  return BackendUnsupported("Collection::Stats", Where());
}
absl::StatusOr<std::vector<Value>> CollectionBackend::IndexStats() {
  return BackendUnsupported("Collection::IndexStats", Where());
}
absl::StatusOr<int64_t> CollectionBackend::CollectionScans() {
  return BackendUnsupported("Collection::CollectionScans", Where());
}
absl::StatusOr<MemoryUsage> DatabaseBackend::Memory() {
  return BackendUnsupported("Database::Memory", Where());
}
absl::StatusOr<BackupStats> DatabaseBackend::Backup(absl::string_view) {
  return BackendUnsupported("Database::Backup", Where());
}

}  // namespace ttldb
