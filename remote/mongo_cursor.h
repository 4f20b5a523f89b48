// A Cursor over a libmongoc cursor (find, aggregate, listIndexes): batches
// of FindOptions::batch_size documents per round trip, each document
// decoded by the project's BSON codec. Internal to //remote.
#ifndef TTLDB_REMOTE_MONGO_CURSOR_H_
#define TTLDB_REMOTE_MONGO_CURSOR_H_

#include <memory>
#include <optional>
#include <string>

#include "absl/status/statusor.h"
#include "remote/client_pool.h"
#include "ttldb/cursor.h"

typedef struct _mongoc_cursor_t mongoc_cursor_t;

namespace ttldb {
namespace remote {

class MongoCursor : public Cursor {
 public:
  // Takes `cursor` and the client it runs on (pushed back to `pool` when
  // the cursor ends or is destroyed). `ns` names the collection in errors.
  MongoCursor(std::shared_ptr<ClientPool> pool, mongoc_client_t* client,
              mongoc_cursor_t* cursor, std::string ns);
  ~MongoCursor() override;

  // As the embedded cursor: documents until nullopt; an error (the
  // server's, mapped as every other call's) is returned again by every
  // later Next; FailedPrecondition "database is closed" once the Database
  // was closed.
  absl::StatusOr<std::optional<Value>> Next() override;

  // Reads the first document now (the first round trip), so that the
  // server's errors for the command itself come back from Find/Aggregate.
  absl::Status Prime();

 private:
  void Release();

  std::shared_ptr<ClientPool> pool_;
  mongoc_client_t* client_;
  mongoc_cursor_t* cursor_;
  const std::string ns_;
  std::optional<Value> primed_;
  absl::Status final_status_;
  bool done_ = false;
};

}  // namespace remote
}  // namespace ttldb

#endif  // TTLDB_REMOTE_MONGO_CURSOR_H_
