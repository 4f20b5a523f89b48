// The connection pool of a MongoDB deployment (mongoc_client_pool_t) and
// the client a call borrows from it. Internal to //remote.
#ifndef TTLDB_REMOTE_CLIENT_POOL_H_
#define TTLDB_REMOTE_CLIENT_POOL_H_

#include <atomic>
#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

typedef struct _mongoc_client_pool_t mongoc_client_pool_t;
typedef struct _mongoc_client_t mongoc_client_t;
typedef struct _mongoc_uri_t mongoc_uri_t;

namespace ttldb {
namespace remote {

// One pool per Database. Shared (std::shared_ptr) by the database and its
// live cursors, which keep a client out of the pool until they end, so the
// pool is destroyed after the last of them. Thread-safe: the pool itself
// is (libmongoc's mongoc_client_pool_t); each client is used by one thread
// at a time, the one that popped it.
class ClientPool {
 public:
  // Parses `uri` (InvalidArgument, 2 BadValue, with libmongoc's reason)
  // and makes the pool with MongoDB's error API version 2 (server errors
  // carry the server's codes). Connects lazily: Open pings.
  static absl::StatusOr<std::shared_ptr<ClientPool>> Create(
      absl::string_view uri);
  ~ClientPool();
  ClientPool(const ClientPool&) = delete;
  ClientPool& operator=(const ClientPool&) = delete;

  // The URI's database ("" when it names none).
  const std::string& uri_database() const { return uri_database_; }
  const mongoc_uri_t* uri() const { return uri_; }
  // "host:port,..." for messages (no credentials).
  const std::string& hosts() const { return hosts_; }

  // Database::Close: from now on Pop fails (FailedPrecondition "database is
  // closed"), as the embedded engine's calls do after Close.
  void Close() { closed_.store(true); }
  bool closed() const { return closed_.load(); }

  mongoc_client_pool_t* pool() { return pool_; }

 private:
  ClientPool() = default;
  mongoc_uri_t* uri_ = nullptr;
  mongoc_client_pool_t* pool_ = nullptr;
  std::string uri_database_;
  std::string hosts_;
  std::atomic<bool> closed_{false};
};

// A client popped from the pool for one call, pushed back at scope exit.
class PooledClient {
 public:
  // FailedPrecondition "database is closed" once the pool is closed.
  static absl::StatusOr<PooledClient> Pop(std::shared_ptr<ClientPool> pool);
  PooledClient(PooledClient&& other) noexcept;
  PooledClient& operator=(PooledClient&&) = delete;
  ~PooledClient();
  mongoc_client_t* get() const { return client_; }
  // Gives the client up (a cursor keeps it); the caller pushes it back
  // with ClientPool's pool.
  mongoc_client_t* Release();

 private:
  PooledClient(std::shared_ptr<ClientPool> pool, mongoc_client_t* client)
      : pool_(std::move(pool)), client_(client) {}
  std::shared_ptr<ClientPool> pool_;
  mongoc_client_t* client_;
};

}  // namespace remote
}  // namespace ttldb

#endif  // TTLDB_REMOTE_CLIENT_POOL_H_
