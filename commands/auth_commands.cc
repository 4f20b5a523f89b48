// Authentication and user management: saslStart/saslContinue
// (SCRAM-SHA-256), logout, createUser, updateUser, dropUser, and
// hello's speculativeAuthenticate/saslSupportedMechs. The shapes and
// errors are mongod 8.0's: src/mongo/db/auth/sasl_commands.cpp,
// sasl_scram_server_conversation.cpp, and
// src/mongo/db/commands/user_management_commands.cpp.
#include <algorithm>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "base/status.h"
#include "commands/authorization.h"
#include "commands/command_args.h"
#include "commands/command_context.h"
#include "commands/reply.h"
#include "commands/scram.h"
#include "commands/user_store.h"

namespace ttldb {
namespace commands {
namespace {

constexpr char kScramSha256[] = "SCRAM-SHA-256";
// One conversation per connection at a time: its id is always 1, as
// mongod's (sasl_commands.cpp: "conversationId", 1).
constexpr int32_t kConversationId = 1;

absl::Status AuthenticationFailed() {
  // mongod tells the client nothing more (AuthorizationManager::
  // authenticationFailedStatus); the reason stays on the server.
  return MongoError(absl::StatusCode::kUnauthenticated, kAuthenticationFailed,
                    "Authentication failed.");
}

UserStore* Users(CommandContext& ctx) { return ctx.server->users.get(); }

absl::Status NoUserStore() {
  return MongoError(absl::StatusCode::kFailedPrecondition, kIllegalOperation,
                    "users exist only on a server (ttldb serve); this "
                    "database has none");
}

// A SASL payload: BinData (the drivers) or a string (old shells).
absl::StatusOr<std::string> Payload(const Value* v, absl::string_view cmd) {
  if (v == nullptr) return IdlMissingField(absl::StrCat(cmd, ".payload"));
  if (v->type() == ValueType::kBinary) return v->binary_value().data;
  if (v->is_string()) return v->string_value();
  return IdlWrongTypes(absl::StrCat(cmd, ".payload"), *v, "[string, binData]");
}

Value BinPayload(std::string bytes) {
  return Value::Bin(Binary{0, std::move(bytes)});
}

// Runs one step of the connection's conversation; on success returns
// {conversationId, done, payload} (without ok). Failures end it.
absl::StatusOr<Value::Object> Step(CommandContext& ctx,
                                   absl::string_view message) {
  ScramSha256Server* conv = ctx.connection->conversation();
  absl::StatusOr<std::string> reply = conv->Step(message);
  if (!reply.ok()) {
    ctx.connection->set_conversation(nullptr, "");
    return AuthenticationFailed();
  }
  const bool done = conv->done();
  if (conv->authenticated()) {
    ctx.connection->set_user(
        UserName{conv->user(), ctx.connection->conversation_db()});
  }
  Value::Object out = {{"conversationId", Value::Int32(kConversationId)},
                       {"done", Value::Bool(done)},
                       {"payload", BinPayload(*std::move(reply))}};
  if (done) ctx.connection->set_conversation(nullptr, "");
  return out;
}

// saslStart's work, shared with hello's speculativeAuthenticate.
absl::StatusOr<Value::Object> Start(CommandContext& ctx, const Value& cmd,
                                    const std::string& db) {
  UserStore* users = Users(ctx);
  if (users == nullptr) return NoUserStore();
  const Value* mech = cmd.Get("mechanism");
  if (mech == nullptr) return IdlMissingField("saslStart.mechanism");
  if (!mech->is_string()) {
    return IdlWrongType("saslStart.mechanism", *mech, "string");
  }
  if (mech->string_value() != kScramSha256) {
    return MongoError(
        absl::StatusCode::kInvalidArgument, kMechanismUnavailable,
        absl::StrCat("Received authentication for mechanism ",
                     mech->string_value(), " which is unknown or not enabled"));
  }
  ASSIGN_OR_RETURN(std::string payload,
                   Payload(cmd.Get("payload"), "saslStart"));
  bool skip = false;
  if (const Value* options = cmd.Get("options");
      options != nullptr && options->is_object()) {
    const Value* s = options->Get("skipEmptyExchange");
    skip = s != nullptr && TrueValue(*s);
  }
  auto lookup =
      [users, db](const std::string& name) -> absl::StatusOr<ScramCredentials> {
    std::optional<UserRecord> u = users->Get(db, name);
    if (!u.has_value()) {
      return MongoError(absl::StatusCode::kNotFound, kUserNotFound,
                        absl::StrCat("Could not find user \"", name,
                                     "\" for db \"", db, "\""));
    }
    return u->scram;
  };
  auto conv = std::make_unique<ScramSha256Server>(lookup);
  conv->set_skip_empty_exchange(skip);
  ctx.connection->set_conversation(std::move(conv), db);
  return Step(ctx, payload);
}

absl::StatusOr<Value> SaslStart(CommandContext& ctx) {
  ASSIGN_OR_RETURN(Value::Object out, Start(ctx, ctx.cmd, ctx.db));
  return OkReply(std::move(out));
}

absl::StatusOr<Value> SaslContinue(CommandContext& ctx) {
  ScramSha256Server* conv = ctx.connection->conversation();
  const Value* id = Arg(ctx, "conversationId");
  if (conv == nullptr) {
    return MongoError(absl::StatusCode::kFailedPrecondition, kProtocolError,
                      "No SASL session state found");
  }
  if (id == nullptr || !id->is_number() || id->AsDouble() != kConversationId) {
    ctx.connection->set_conversation(nullptr, "");
    return MongoError(absl::StatusCode::kInvalidArgument, kProtocolError,
                      "sasl: Mismatched conversation id");
  }
  if (ctx.db != ctx.connection->conversation_db()) {
    ctx.connection->set_conversation(nullptr, "");
    return MongoError(absl::StatusCode::kInvalidArgument, kProtocolError,
                      "Attempt to switch database target during SASL "
                      "authentication.");
  }
  ASSIGN_OR_RETURN(std::string payload,
                   Payload(Arg(ctx, "payload"), "saslContinue"));
  ASSIGN_OR_RETURN(Value::Object out, Step(ctx, payload));
  return OkReply(std::move(out));
}

absl::StatusOr<Value> Logout(CommandContext& ctx) {
  ctx.connection->set_user(std::nullopt);
  ctx.connection->set_conversation(nullptr, "");
  return OkReply();
}

absl::StatusOr<std::string> UserNameArg(CommandContext& ctx) {
  const Value& v = ctx.first();
  if (!v.is_string()) {
    return IdlWrongType(absl::StrCat(ctx.name, ".", ctx.name), v, "string");
  }
  if (v.string_value().empty()) {
    return MongoError(absl::StatusCode::kInvalidArgument, kBadValue,
                      "User document needs 'user' field to be non-empty");
  }
  return v.string_value();
}

// The password of createUser/updateUser, SASLprep'ed and hashed.
absl::StatusOr<ScramCredentials> PasswordCredentials(CommandContext& ctx,
                                                     const Value& pwd) {
  if (!pwd.is_string()) {
    return IdlWrongType(absl::StrCat(ctx.name, ".pwd"), pwd, "string");
  }
  if (pwd.string_value().empty()) {
    return MongoError(absl::StatusCode::kInvalidArgument, kBadValue,
                      "Password cannot be empty");
  }
  ASSIGN_OR_RETURN(bool digest, BoolArg(ctx, "digestPassword", true));
  if (!digest) {
    return MongoError(absl::StatusCode::kInvalidArgument, kBadValue,
                      "Use of SCRAM-SHA-256 requires undigested passwords");
  }
  if (const Value* mechs = Arg(ctx, "mechanisms")) {
    if (!mechs->is_array() || mechs->array_items().empty()) {
      return MongoError(absl::StatusCode::kInvalidArgument, kBadValue,
                        "mechanisms field must not be empty");
    }
    for (const Value& m : mechs->array_items()) {
      if (!m.is_string() || m.string_value() != kScramSha256) {
        return MongoError(
            absl::StatusCode::kInvalidArgument, kBadValue,
            absl::StrCat("Unknown auth mechanism '",
                         m.is_string() ? m.string_value() : "?",
                         "' (ttldb supports SCRAM-SHA-256 only)"));
      }
    }
  }
  ASSIGN_OR_RETURN(std::string prepped, SaslPrep(pwd.string_value()));
  return NewScramSha256Credentials(prepped);
}

// The arguments createUser and updateUser share, checked before anything
// is looked up or hashed. An absent field is nullptr (roles: nullopt).
struct UserArgs {
  std::string name;
  const Value* pwd = nullptr;
  std::optional<std::vector<RoleName>> roles;
  const Value* custom_data = nullptr;
};

absl::StatusOr<UserArgs> ParseUserArgs(CommandContext& ctx) {
  RETURN_IF_ERROR(
      CheckFields(ctx, {"pwd", "roles", "customData", "digestPassword",
                        "mechanisms", "authenticationRestrictions"}));
  UserArgs args;
  ASSIGN_OR_RETURN(args.name, UserNameArg(ctx));
  args.pwd = Arg(ctx, "pwd");
  if (const Value* roles = Arg(ctx, "roles")) {
    ASSIGN_OR_RETURN(args.roles, ParseRoles(*roles, ctx.db));
  }
  args.custom_data = Arg(ctx, "customData");
  if (args.custom_data != nullptr && !args.custom_data->is_object()) {
    return IdlWrongType(absl::StrCat(ctx.name, ".customData"),
                        *args.custom_data, "object");
  }
  return args;
}

absl::StatusOr<Value> CreateUser(CommandContext& ctx) {
  UserStore* users = Users(ctx);
  if (users == nullptr) return NoUserStore();
  ASSIGN_OR_RETURN(UserArgs args, ParseUserArgs(ctx));
  if (args.pwd == nullptr) {
    return MongoError(absl::StatusCode::kInvalidArgument, kBadValue,
                      "Must provide a 'pwd' field for all user documents, "
                      "except those with '$external' as the user's source "
                      "db");
  }
  if (!args.roles.has_value()) return IdlMissingField("createUser.roles");
  // createUser on the database and grantRole on each role's were checked
  // before the command ran (authorization.h RequiredPrivileges).
  UserRecord u;
  u.user = args.name;
  u.db = ctx.db;
  u.roles = *std::move(args.roles);
  if (args.custom_data != nullptr) u.custom_data = *args.custom_data;
  ASSIGN_OR_RETURN(u.scram, PasswordCredentials(ctx, *args.pwd));
  if (ctx.server->options.auth && ctx.connection->user() == nullptr) {
    // Admitted by the localhost exception (command_runner.cc): only while
    // no user exists, checked again atomically with the write.
    RETURN_IF_ERROR(users->CreateFirst(u));
  } else {
    RETURN_IF_ERROR(users->Create(u));
  }
  return OkReply();
}

absl::StatusOr<Value> UpdateUser(CommandContext& ctx) {
  UserStore* users = Users(ctx);
  if (users == nullptr) return NoUserStore();
  ASSIGN_OR_RETURN(UserArgs args, ParseUserArgs(ctx));
  if (args.pwd == nullptr && !args.roles.has_value() &&
      args.custom_data == nullptr) {
    return MongoError(absl::StatusCode::kInvalidArgument, kBadValue,
                      "Must specify at least one field to update in "
                      "updateUser");
  }
  // Setting the roles may revoke any role: revokeRole on every normal
  // resource, then grantRole on each one's database
  // (user_management_commands_common.cpp), checked before the command ran
  // with changePassword / changeCustomData (authorization.h).
  std::optional<UserRecord> u = users->Get(ctx.db, args.name);
  if (!u.has_value()) {
    return MongoError(
        absl::StatusCode::kNotFound, kUserNotFound,
        absl::StrCat("User '", args.name, "@", ctx.db, "' not found"));
  }
  if (args.roles.has_value()) u->roles = *std::move(args.roles);
  if (args.custom_data != nullptr) u->custom_data = *args.custom_data;
  if (args.pwd != nullptr) {
    ASSIGN_OR_RETURN(u->scram, PasswordCredentials(ctx, *args.pwd));
  }
  RETURN_IF_ERROR(users->Update(*u));
  return OkReply();
}

// grantRolesToUser / revokeRolesFromUser (src/mongo/db/commands/
// user_management_commands.cpp): add roles to, or remove them from, a user
// of this database. Each role needs user administration on its database
// (user_management_commands_common.cpp checkAuthorizedToGrantRoles /
// checkAuthorizedToRevokeRoles: the grantRole / revokeRole actions).
absl::StatusOr<Value> ChangeUserRoles(CommandContext& ctx, bool grant) {
  UserStore* users = Users(ctx);
  if (users == nullptr) return NoUserStore();
  RETURN_IF_ERROR(CheckFields(ctx, {"roles"}));
  ASSIGN_OR_RETURN(std::string name, UserNameArg(ctx));
  const Value* roles_arg = Arg(ctx, "roles");
  if (roles_arg == nullptr) {
    return IdlMissingField(absl::StrCat(ctx.name, ".roles"));
  }
  ASSIGN_OR_RETURN(std::vector<RoleName> roles, ParseRoles(*roles_arg, ctx.db));
  // grantRole / revokeRole on each role's database: checked before the
  // command ran (authorization.h RequiredPrivileges).
  if (roles.empty()) {
    return MongoError(absl::StatusCode::kInvalidArgument, kBadValue,
                      absl::StrCat(ctx.name,
                                   " command requires a non-empty \"roles\" "
                                   "array"));
  }
  std::optional<UserRecord> u = users->Get(ctx.db, name);
  if (!u.has_value()) {
    return MongoError(absl::StatusCode::kNotFound, kUserNotFound,
                      absl::StrCat("Could not find user \"", name,
                                   "\" for db \"", ctx.db, "\""));
  }
  for (const RoleName& r : roles) {
    auto it = std::find(u->roles.begin(), u->roles.end(), r);
    if (grant && it == u->roles.end()) u->roles.push_back(r);
    if (!grant && it != u->roles.end()) u->roles.erase(it);
  }
  RETURN_IF_ERROR(users->Update(*u));
  return OkReply();
}

absl::StatusOr<Value> GrantRolesToUser(CommandContext& ctx) {
  return ChangeUserRoles(ctx, /*grant=*/true);
}

absl::StatusOr<Value> RevokeRolesFromUser(CommandContext& ctx) {
  return ChangeUserRoles(ctx, /*grant=*/false);
}

absl::StatusOr<Value> DropUser(CommandContext& ctx) {
  UserStore* users = Users(ctx);
  if (users == nullptr) return NoUserStore();
  RETURN_IF_ERROR(CheckFields(ctx, {}));
  ASSIGN_OR_RETURN(std::string name, UserNameArg(ctx));
  ASSIGN_OR_RETURN(bool dropped, users->Drop(ctx.db, name));
  if (!dropped) {
    return MongoError(absl::StatusCode::kNotFound, kUserNotFound,
                      absl::StrCat("User '", name, "@", ctx.db, "' not found"));
  }
  return OkReply();
}

// dropAllUsersFromDatabase (user_management_commands.cpp): removes every
// user defined on the command's database; replies {n: <how many>}.
absl::StatusOr<Value> DropAllUsersFromDatabase(CommandContext& ctx) {
  UserStore* users = Users(ctx);
  if (users == nullptr) return NoUserStore();
  RETURN_IF_ERROR(CheckFields(ctx, {}));
  int64_t n = 0;
  for (const UserRecord& u : users->List(ctx.db)) {
    ASSIGN_OR_RETURN(bool dropped, users->Drop(ctx.db, u.user));
    if (dropped) ++n;
  }
  return OkReply({{"n", Value::Int32(static_cast<int32_t>(n))}});
}

// connectionStatus (src/mongo/db/commands/connection_status.cpp).
absl::StatusOr<Value> ConnectionStatus(CommandContext& ctx) {
  Value::Array users, roles;
  if (const UserName* me = ctx.connection->user()) {
    users.push_back(Value::MakeObject(
        {{"user", Value::String(me->user)}, {"db", Value::String(me->db)}}));
    if (ctx.server->users != nullptr) {
      if (std::optional<UserRecord> rec =
              ctx.server->users->Get(me->db, me->user)) {
        for (const RoleName& r : rec->roles) {
          roles.push_back(Value::MakeObject(
              {{"role", Value::String(r.role)}, {"db", Value::String(r.db)}}));
        }
      }
    }
  }
  Value::Object auth = {
      {"authenticatedUsers", Value::MakeArray(std::move(users))},
      {"authenticatedUserRoles", Value::MakeArray(std::move(roles))}};
  const Value* show = Arg(ctx, "showPrivileges");
  if (show != nullptr && TrueValue(*show)) {
    auth.emplace_back("authenticatedUserPrivileges", Value::MakeArray());
  }
  return OkReply({{"authInfo", Value::MakeObject(std::move(auth))}});
}

}  // namespace

void AddHelloAuthFields(CommandContext& ctx, Value::Object* out) {
  if (ctx.server->users == nullptr) return;
  // saslSupportedMechs: "db.user" -> the user's mechanisms, omitted when
  // there is no such user (repl/hello.cpp, handleSaslSupportedMechs).
  const Value* mechs = Arg(ctx, "saslSupportedMechs");
  if (mechs != nullptr && mechs->is_string()) {
    const std::string& s = mechs->string_value();
    size_t dot = s.find('.');
    if (dot != std::string::npos &&
        ctx.server->users->Get(s.substr(0, dot), s.substr(dot + 1))
            .has_value()) {
      out->emplace_back("saslSupportedMechs",
                        Value::MakeArray({Value::String(kScramSha256)}));
    }
  }
  // speculativeAuthenticate: a saslStart inside hello
  // (auth/sasl_commands.cpp doSpeculativeSaslStart); a failure only
  // leaves the field out, and the client authenticates the usual way.
  const Value* spec = Arg(ctx, "speculativeAuthenticate");
  if (spec != nullptr && spec->is_object() &&
      spec->Get("saslStart") != nullptr) {
    const Value* db = spec->Get("db");
    std::string auth_db =
        db != nullptr && db->is_string() ? db->string_value() : ctx.db;
    absl::StatusOr<Value::Object> r = Start(ctx, *spec, auth_db);
    if (r.ok()) {
      out->emplace_back("speculativeAuthenticate",
                        Value::MakeObject(*std::move(r)));
    }
  }
}

void AddAuthCommands(std::vector<CommandSpec>* specs) {
  specs->push_back({"saslStart", SaslStart});
  specs->push_back({"saslContinue", SaslContinue});
  specs->push_back({"logout", Logout});
  specs->push_back({"connectionStatus", ConnectionStatus});
  specs->push_back({"createUser", CreateUser, false, true});
  specs->push_back({"updateUser", UpdateUser, false, true});
  specs->push_back({"dropUser", DropUser, false, true});
  specs->push_back(
      {"dropAllUsersFromDatabase", DropAllUsersFromDatabase, false, true});
  specs->push_back({"grantRolesToUser", GrantRolesToUser, false, true});
  specs->push_back({"revokeRolesFromUser", RevokeRolesFromUser, false, true});
}

}  // namespace commands
}  // namespace ttldb
