#include "commands/user_store.h"

#include <leveldb/db.h>
#include <leveldb/write_batch.h>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "base/status.h"
#include "commands/reply.h"
#include "document/json.h"

namespace ttldb {
namespace commands {
namespace {

constexpr char kMechanism[] = "SCRAM-SHA-256";

std::string Key(absl::string_view db, absl::string_view user) {
  return absl::StrCat(db, ".", user);
}

}  // namespace

Value RolesValue(const std::vector<RoleName>& roles) {
  Value::Array out;
  for (const RoleName& r : roles) {
    out.push_back(Value::MakeObject(
        {{"role", Value::String(r.role)}, {"db", Value::String(r.db)}}));
  }
  return Value::MakeArray(std::move(out));
}

Value UserDocument(const UserRecord& u) {
  Value::Object doc = {
      {"_id", Value::String(Key(u.db, u.user))},
      {"user", Value::String(u.user)},
      {"db", Value::String(u.db)},
  };
  if (!u.user_id.empty()) {
    Binary id;
    id.subtype = 4;  // UUID
    id.data = u.user_id;
    doc.insert(doc.begin() + 1, {"userId", Value::Bin(std::move(id))});
  }
  doc.emplace_back(
      "credentials",
      Value::MakeObject(
          {{kMechanism,
            Value::MakeObject({
                {"iterationCount", Value::Int32(u.scram.iterations)},
                {"salt", Value::String(absl::Base64Escape(u.scram.salt))},
                {"storedKey",
                 Value::String(absl::Base64Escape(u.scram.stored_key))},
                {"serverKey",
                 Value::String(absl::Base64Escape(u.scram.server_key))},
            })}}));
  // createUser's order (user_management_commands.cpp): customData, then
  // roles.
  if (u.custom_data.has_value()) doc.emplace_back("customData", *u.custom_data);
  doc.emplace_back("roles", RolesValue(u.roles));
  return Value::MakeObject(std::move(doc));
}

namespace {

// A new user's record with a fresh userId (a random UUID), as mongod's
// createUser gives it.
UserRecord WithUserId(UserRecord u) {
  if (u.user_id.empty()) u.user_id = RandomUuid().data;
  return u;
}

absl::StatusOr<UserRecord> FromDocument(const Value& doc) {
  auto damaged = [] {
    return MongoError(absl::StatusCode::kDataLoss, kDataCorruptionDetected,
                      "damaged user record in system.users");
  };
  const Value* user = doc.Get("user");
  const Value* db = doc.Get("db");
  const Value* creds = doc.Get("credentials");
  const Value* roles = doc.Get("roles");
  if (user == nullptr || !user->is_string() || db == nullptr ||
      !db->is_string() || creds == nullptr || roles == nullptr ||
      !roles->is_array()) {
    return damaged();
  }
  UserRecord u;
  u.user = user->string_value();
  u.db = db->string_value();
  const Value* scram = creds->Get(kMechanism);
  if (scram == nullptr) return damaged();
  const Value* it = scram->Get("iterationCount");
  const Value* salt = scram->Get("salt");
  const Value* stored = scram->Get("storedKey");
  const Value* server = scram->Get("serverKey");
  if (it == nullptr || !it->is_number() || salt == nullptr ||
      !salt->is_string() || stored == nullptr || !stored->is_string() ||
      server == nullptr || !server->is_string() ||
      !absl::Base64Unescape(salt->string_value(), &u.scram.salt) ||
      !absl::Base64Unescape(stored->string_value(), &u.scram.stored_key) ||
      !absl::Base64Unescape(server->string_value(), &u.scram.server_key)) {
    return damaged();
  }
  u.scram.iterations = static_cast<int>(it->AsDouble());
  for (const Value& r : roles->array_items()) {
    const Value* role = r.Get("role");
    const Value* rdb = r.Get("db");
    if (role == nullptr || !role->is_string() || rdb == nullptr ||
        !rdb->is_string()) {
      return damaged();
    }
    u.roles.push_back({role->string_value(), rdb->string_value()});
  }
  if (const Value* custom = doc.Get("customData")) u.custom_data = *custom;
  if (const Value* id = doc.Get("userId");
      id != nullptr && id->type() == ValueType::kBinary) {
    u.user_id = id->binary_value().data;
  }
  return u;
}

}  // namespace

absl::StatusOr<std::unique_ptr<UserStore>> UserStore::Open(
    const std::string& path) {
  leveldb::Options options;
  options.create_if_missing = true;
  leveldb::DB* raw = nullptr;
  leveldb::Status s = leveldb::DB::Open(options, path, &raw);
  if (!s.ok()) {
    return absl::UnavailableError(
        absl::StrCat("cannot open the user store ", path, ": ", s.ToString()));
  }
  std::unique_ptr<UserStore> store(
      new UserStore(std::unique_ptr<leveldb::DB>(raw)));
  std::unique_ptr<leveldb::Iterator> it(
      store->db_->NewIterator(leveldb::ReadOptions()));
  absl::MutexLock lock(&store->mu_);
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    absl::StatusOr<Value> doc =
        ParseDocument(absl::string_view(it->value().data(), it->value().size()),
                      StoredJsonParseOptions());
    if (!doc.ok()) return doc.status();
    ASSIGN_OR_RETURN(UserRecord u, FromDocument(*doc));
    store->users_[{u.db, u.user}] = std::move(u);
  }
  if (!it->status().ok()) {
    return absl::DataLossError(it->status().ToString());
  }
  return store;
}

UserStore::UserStore(std::unique_ptr<leveldb::DB> db) : db_(std::move(db)) {}
UserStore::~UserStore() = default;

absl::Status UserStore::Put(const UserRecord& u) {
  leveldb::WriteOptions wo;
  wo.sync = true;  // a created user survives a crash once acknowledged
  leveldb::Status s = db_->Put(wo, Key(u.db, u.user),
                               ToJson(UserDocument(u), JsonFormat::kStorage));
  if (!s.ok()) return absl::UnavailableError(s.ToString());
  users_[{u.db, u.user}] = u;
  return absl::OkStatus();
}

absl::Status UserStore::Create(const UserRecord& u) {
  absl::MutexLock lock(&mu_);
  if (users_.count({u.db, u.user}) != 0) {
    return MongoError(
        absl::StatusCode::kAlreadyExists, kUserAlreadyExists,
        absl::StrCat("User \"", u.user, "@", u.db, "\" already exists"));
  }
  return Put(WithUserId(u));
}

absl::Status UserStore::CreateFirst(const UserRecord& u) {
  absl::MutexLock lock(&mu_);
  if (!users_.empty()) {
    return MongoError(absl::StatusCode::kPermissionDenied, kUnauthorized,
                      "Command createUser requires authentication");
  }
  return Put(WithUserId(u));
}

absl::Status UserStore::Update(const UserRecord& u) {
  absl::MutexLock lock(&mu_);
  auto it = users_.find({u.db, u.user});
  if (it == users_.end()) {
    return MongoError(absl::StatusCode::kNotFound, kUserNotFound,
                      absl::StrCat("Could not find user \"", u.user,
                                   "\" for db \"", u.db, "\""));
  }
  // The user keeps its userId (MongoDB's updateUser never changes it).
  UserRecord updated = u;
  if (updated.user_id.empty()) updated.user_id = it->second.user_id;
  return Put(updated);
}

absl::StatusOr<bool> UserStore::Drop(absl::string_view db,
                                     absl::string_view user) {
  absl::MutexLock lock(&mu_);
  auto it = users_.find({std::string(db), std::string(user)});
  if (it == users_.end()) return false;
  leveldb::WriteOptions wo;
  wo.sync = true;
  leveldb::Status s = db_->Delete(wo, Key(db, user));
  if (!s.ok()) return absl::UnavailableError(s.ToString());
  users_.erase(it);
  return true;
}

std::optional<UserRecord> UserStore::Get(absl::string_view db,
                                         absl::string_view user) {
  absl::MutexLock lock(&mu_);
  auto it = users_.find({std::string(db), std::string(user)});
  if (it == users_.end()) return std::nullopt;
  return it->second;
}

std::vector<UserRecord> UserStore::List(absl::string_view db) {
  absl::MutexLock lock(&mu_);
  std::vector<UserRecord> out;
  for (const auto& [key, u] : users_) {
    if (db.empty() || u.db == db) out.push_back(u);
  }
  return out;
}

bool UserStore::empty() {
  absl::MutexLock lock(&mu_);
  return users_.empty();
}

}  // namespace commands
}  // namespace ttldb
