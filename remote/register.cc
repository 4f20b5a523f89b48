// Linking //remote:remote (alwayslink) or ttldb::remote makes
// Database::Open accept mongodb:// and mongodb+srv:// URIs.
#include "engine/backend.h"
#include "remote/mongo_database.h"

namespace ttldb {
namespace remote {
namespace {

const bool kRegistered = RegisterMongoBackend(&MongoDatabase::Open);

}  // namespace
}  // namespace remote
}  // namespace ttldb

// CMake's ttldb::remote asks the linker for this symbol
// (INTERFACE_LINK_OPTIONS --undefined), so that a static link keeps this
// object and its registration, as Bazel's alwayslink does.
extern "C" int ttldb_remote_backend_linked() {
  return ttldb::remote::kRegistered ? 1 : 0;
}
