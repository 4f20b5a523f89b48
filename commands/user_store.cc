#include "commands/user_store.h"

#include <leveldb/db.h>

#include <filesystem>
#include <system_error>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "base/status.h"
#include "commands/reply.h"
#include "ttldb/json.h"

namespace ttldb {
namespace commands {
namespace {

constexpr char kMechanism[] = "SCRAM-SHA-256";
// mongod's index on system.users (system_index.cpp v2SystemUsersKeyPattern
// and v2SystemUsersIndexName).
constexpr char kUserDbIndexKeys[] = R"({"user": 1, "db": 1})";
constexpr char kUserDbIndexOptions[] =
    R"({"name": "user_1_db_1", "unique": true})";

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

Value IdFilter(absl::string_view db, absl::string_view user) {
  return Value::MakeObject({{"_id", Value::String(Key(db, user))}});
}

WriteOptions Synced() {
  WriteOptions wo;
  wo.sync = true;  // a created user survives a crash once acknowledged
  return wo;
}

}  // namespace

absl::StatusOr<std::unique_ptr<UserStore>> UserStore::Open(
    DatabaseSet* databases, const std::string& legacy_path,
    const std::function<void(absl::string_view)>& log) {
  std::unique_ptr<UserStore> store(new UserStore(databases));
  RETURN_IF_ERROR(store->Reload());
  RETURN_IF_ERROR(store->Import(legacy_path, log));
  return store;
}

UserStore::UserStore(DatabaseSet* databases) : databases_(databases) {}
UserStore::~UserStore() = default;

absl::StatusOr<std::shared_ptr<Database>> UserStore::Admin(bool create) {
  ASSIGN_OR_RETURN(std::shared_ptr<Database> db,
                   databases_->Get(kDatabase, create));
  if (db != nullptr && create) {
    // A no-op once the index exists.
    RETURN_IF_ERROR(db->collection(kCollection)
                        .CreateIndex(kUserDbIndexKeys, kUserDbIndexOptions)
                        .status());
  }
  return db;
}

absl::Status UserStore::Reload() {
  absl::MutexLock lock(&mu_);
  return LoadLocked();
}

absl::Status UserStore::LoadLocked() {
  ASSIGN_OR_RETURN(std::shared_ptr<Database> db, Admin(/*create=*/false));
  std::map<std::pair<std::string, std::string>, UserRecord> users;
  if (db != nullptr) {
    ASSIGN_OR_RETURN(std::unique_ptr<Cursor> cursor,
                     db->collection(kCollection).Find("{}"));
    while (true) {
      ASSIGN_OR_RETURN(std::optional<Value> doc, cursor->Next());
      if (!doc.has_value()) break;
      ASSIGN_OR_RETURN(UserRecord u, FromDocument(*doc));
      users[{u.db, u.user}] = std::move(u);
    }
  }
  users_ = std::move(users);
  return absl::OkStatus();
}

// The old store: one LevelDB whose values are the user documents as
// storage JSON. Read-only here; renamed aside once every user is in
// admin.system.users, so that a crash before the rename imports again
// (skipping the users already there).
absl::Status UserStore::Import(
    const std::string& legacy_path,
    const std::function<void(absl::string_view)>& log) {
  std::error_code ec;
  if (legacy_path.empty() ||
      !std::filesystem::exists(std::filesystem::path(legacy_path) / "CURRENT",
                               ec)) {
    return absl::OkStatus();
  }
  leveldb::Options options;
  options.create_if_missing = false;
  leveldb::DB* raw = nullptr;
  leveldb::Status s = leveldb::DB::Open(options, legacy_path, &raw);
  if (!s.ok()) {
    return absl::UnavailableError(absl::StrCat(
        "cannot open the old user store ", legacy_path, ": ", s.ToString()));
  }
  std::unique_ptr<leveldb::DB> old(raw);
  std::unique_ptr<leveldb::Iterator> it(
      old->NewIterator(leveldb::ReadOptions()));
  int imported = 0, kept = 0;
  absl::MutexLock lock(&mu_);
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    ASSIGN_OR_RETURN(
        Value doc,
        ParseDocument(absl::string_view(it->value().data(), it->value().size()),
                      StoredJsonParseOptions()));
    ASSIGN_OR_RETURN(UserRecord u, FromDocument(doc));
    if (users_.count({u.db, u.user}) != 0) {
      ++kept;
      continue;
    }
    RETURN_IF_ERROR(Put(u, /*insert=*/true));
    ++imported;
  }
  if (!it->status().ok()) return absl::DataLossError(it->status().ToString());
  it.reset();
  old.reset();
  const std::string aside = legacy_path + kImportedSuffix;
  std::filesystem::rename(legacy_path, aside, ec);
  if (ec) {
    return absl::UnavailableError(
        absl::StrCat("cannot rename the imported user store ", legacy_path,
                     " to ", aside, ": ", ec.message()));
  }
  if (log) {
    log(absl::StrCat("imported ", imported, " users from the old user store ",
                     legacy_path, " into admin.system.users (", kept,
                     " already there); renamed it to ", aside));
  }
  return absl::OkStatus();
}

absl::Status UserStore::Put(const UserRecord& u, bool insert) {
  ASSIGN_OR_RETURN(std::shared_ptr<Database> db, Admin(/*create=*/true));
  Collection& users = db->collection(kCollection);
  Value doc = UserDocument(u);
  if (insert) {
    absl::Status s = users.InsertOne(doc, Synced()).status();
    if (ErrorCode(s) == kDuplicateKey) {
      return MongoError(
          absl::StatusCode::kAlreadyExists, kUserAlreadyExists,
          absl::StrCat("User \"", u.user, "@", u.db, "\" already exists"));
    }
    RETURN_IF_ERROR(s);
  } else {
    RETURN_IF_ERROR(
        users.ReplaceOne(IdFilter(u.db, u.user), doc, {}, Synced()).status());
  }
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
  return Put(WithUserId(u), /*insert=*/true);
}

absl::Status UserStore::CreateFirst(const UserRecord& u) {
  absl::MutexLock lock(&mu_);
  if (!users_.empty()) {
    return MongoError(absl::StatusCode::kPermissionDenied, kUnauthorized,
                      "Command createUser requires authentication");
  }
  return Put(WithUserId(u), /*insert=*/true);
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
  return Put(updated, /*insert=*/false);
}

absl::StatusOr<bool> UserStore::Drop(absl::string_view db,
                                     absl::string_view user) {
  absl::MutexLock lock(&mu_);
  auto it = users_.find({std::string(db), std::string(user)});
  if (it == users_.end()) return false;
  ASSIGN_OR_RETURN(std::shared_ptr<Database> admin, Admin(/*create=*/true));
  RETURN_IF_ERROR(admin->collection(kCollection)
                      .DeleteOne(IdFilter(db, user), Synced())
                      .status());
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
