#include "remote/client_pool.h"

#include <mongoc/mongoc.h>

#include <utility>

#include "absl/base/call_once.h"
#include "absl/strings/str_cat.h"
#include "base/status.h"

namespace ttldb {
namespace remote {
namespace {

// mongoc_init once per process; libmongoc's mongoc_cleanup is never called
// (it must come after every other libmongoc call, which a library that
// does not own main() cannot know).
void InitMongoc() {
  static absl::once_flag once;
  absl::call_once(once, [] {
    mongoc_init();
    // libmongoc's default handler prints every level, its monitors' debug
    // lines included, on stderr; a service hears its warnings and errors.
    mongoc_log_set_handler(
        [](mongoc_log_level_t level, const char* domain, const char* message,
           void* data) {
          if (level <= MONGOC_LOG_LEVEL_WARNING) {
            mongoc_log_default_handler(level, domain, message, data);
          }
        },
        nullptr);
  });
}

}  // namespace

absl::StatusOr<std::shared_ptr<ClientPool>> ClientPool::Create(
    absl::string_view uri_text) {
  InitMongoc();
  bson_error_t error;
  const std::string text(uri_text);
  mongoc_uri_t* uri = mongoc_uri_new_with_error(text.c_str(), &error);
  if (uri == nullptr) {
    return MongoError(absl::StatusCode::kInvalidArgument, kBadValue,
                      absl::StrCat("invalid MongoDB URI: ", error.message));
  }
  std::shared_ptr<ClientPool> pool(new ClientPool());
  pool->uri_ = uri;
  if (const char* db = mongoc_uri_get_database(uri); db != nullptr) {
    pool->uri_database_ = db;
  }
  for (const mongoc_host_list_t* h = mongoc_uri_get_hosts(uri); h != nullptr;
       h = h->next) {
    if (!pool->hosts_.empty()) pool->hosts_ += ",";
    pool->hosts_ += h->host_and_port;
  }
  if (pool->hosts_.empty()) pool->hosts_ = "mongodb+srv";
  pool->pool_ = mongoc_client_pool_new(uri);
  if (pool->pool_ == nullptr) {
    return MongoError(absl::StatusCode::kInvalidArgument, kBadValue,
                      "invalid MongoDB URI: libmongoc refused its options "
                      "(TLS options without TLS support?)");
  }
  mongoc_client_pool_set_error_api(pool->pool_, MONGOC_ERROR_API_VERSION_2);
  // The URI's appname wins (libmongoc refuses a second one, logging it).
  if (mongoc_uri_get_appname(uri) == nullptr) {
    mongoc_client_pool_set_appname(pool->pool_, "ttldb");
  }
  return pool;
}

ClientPool::~ClientPool() {
  if (pool_ != nullptr) mongoc_client_pool_destroy(pool_);
  if (uri_ != nullptr) mongoc_uri_destroy(uri_);
}

absl::StatusOr<PooledClient> PooledClient::Pop(
    std::shared_ptr<ClientPool> pool) {
  if (pool->closed()) {
    return absl::FailedPreconditionError("database is closed");
  }
  // Blocks while maxPoolSize clients are out (each call holds one, and
  // each open cursor); with the URI's waitQueueTimeoutMS, returns null
  // after it: the drivers' WaitQueueTimeoutError, a client-side timeout.
  mongoc_client_t* client = mongoc_client_pool_pop(pool->pool());
  if (client == nullptr) {
    return MongoError(
        absl::StatusCode::kDeadlineExceeded, kNetworkTimeout,
        absl::StrCat("no connection to ", pool->hosts(),
                     " came free within waitQueueTimeoutMS (maxPoolSize "
                     "connections in use: calls and open cursors)"));
  }
  return PooledClient(std::move(pool), client);
}

PooledClient::PooledClient(PooledClient&& other) noexcept
    : pool_(std::move(other.pool_)), client_(other.client_) {
  other.client_ = nullptr;
}

PooledClient::~PooledClient() {
  if (client_ != nullptr) mongoc_client_pool_push(pool_->pool(), client_);
}

mongoc_client_t* PooledClient::Release() {
  mongoc_client_t* c = client_;
  client_ = nullptr;
  return c;
}

}  // namespace remote
}  // namespace ttldb
