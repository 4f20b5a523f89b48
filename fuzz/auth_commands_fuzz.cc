// The user-management and authentication commands (createUser, updateUser,
// grantRolesToUser, usersInfo, rolesInfo, saslStart, saslContinue) on
// arbitrary arguments, through the CommandRunner as a client sends them.
// Input: one selector byte (which command, which database), then an
// Extended JSON object whose fields follow the command's name; its first
// value is the command's argument. Two servers over temporary directories:
//   - without --auth, where every argument reaches the command's parser:
//     never crashes, every refusal carries a MongoDB code and a message;
//   - with --auth and a user "root" whose password is secret, on a fresh
//     unauthenticated connection: nothing but saslStart/saslContinue
//     succeeds, and no input logs the connection in (connectionStatus
//     names no user afterwards).
#include <stdlib.h>

#include <memory>
#include <string>

#include "absl/strings/str_cat.h"
#include "commands/command_runner.h"
#include "fuzz/fuzz_util.h"
#include "ttldb/json.h"

namespace {

using ttldb::Value;
using ttldb::commands::CommandRunner;

constexpr const char* kCommands[] = {
    "createUser", "updateUser", "grantRolesToUser", "usersInfo",
    "rolesInfo",  "saslStart",  "saslContinue",
};
constexpr int kNumCommands = sizeof(kCommands) / sizeof(kCommands[0]);

std::unique_ptr<CommandRunner> OpenRunner(bool auth) {
  char tmpl[] = "/tmp/ttldb-auth-fuzz-XXXXXX";
  const char* dir = mkdtemp(tmpl);
  FUZZ_CHECK(dir != nullptr, "mkdtemp");
  ttldb::commands::RunnerOptions options;
  options.auth = auth;
  options.database_options.ttl_monitor_enabled = false;
  auto runner = CommandRunner::Open(dir, options);
  FUZZ_CHECK(runner.ok(), runner.status().ToString());
  return *std::move(runner);
}

bool IsOk(const Value& reply) {
  const Value* ok = reply.Get("ok");
  FUZZ_CHECK(ok != nullptr && ok->is_number(), ttldb::ToJson(reply));
  return ok->AsDouble() == 1;
}

// A refusal names its code and says why.
void CheckRefusal(const Value& reply) {
  const Value* code = reply.Get("code");
  const Value* msg = reply.Get("errmsg");
  FUZZ_CHECK(code != nullptr && code->is_number() && code->AsDouble() != 0 &&
                 msg != nullptr && msg->is_string() &&
                 !msg->string_value().empty(),
             ttldb::ToJson(reply));
}

CommandRunner& Open() {
  static CommandRunner* r = OpenRunner(false).release();
  return *r;
}

CommandRunner& Secured() {
  static CommandRunner* r = [] {
    CommandRunner* runner = OpenRunner(true).release();
    auto c = runner->NewConnection();
    // The localhost exception's first user; its password is never sent.
    auto cmd = ttldb::ParseDocument(
        R"({"createUser": "root", "pwd": "s3cret-unsent", "roles": ["root"]})");
    FUZZ_CHECK(IsOk(runner->Run(c.get(), "admin", *cmd)), "first user");
    return runner;
  }();
  return *r;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1) return 0;
  const char* name = kCommands[data[0] % kNumCommands];
  const std::string db = (data[0] / kNumCommands) % 2 == 0 ? "admin" : "test";
  auto args = ttldb::ParseDocument(
      absl::string_view(reinterpret_cast<const char*>(data) + 1, size - 1));
  if (!args.ok()) return 0;
  Value::Object fields;
  const Value::Object& in = args->object_fields();
  fields.emplace_back(name, in.empty() ? Value::Int32(1) : in[0].second);
  for (size_t i = 1; i < in.size(); ++i) fields.push_back(in[i]);
  const Value command = Value::MakeObject(std::move(fields));

  CommandRunner& open = Open();
  auto c = open.NewConnection();
  Value reply = open.Run(c.get(), db, command);
  if (!IsOk(reply)) CheckRefusal(reply);

  CommandRunner& secured = Secured();
  auto anon = secured.NewConnection();
  reply = secured.Run(anon.get(), db, command);
  const bool sasl =
      std::string(name) == "saslStart" || std::string(name) == "saslContinue";
  if (IsOk(reply)) {
    FUZZ_CHECK(sasl, absl::StrCat("unauthenticated ", name,
                                  " succeeded: ", ttldb::ToJson(reply)));
  } else {
    CheckRefusal(reply);
  }
  Value status =
      secured.Run(anon.get(), "admin",
                  Value::MakeObject({{"connectionStatus", Value::Int32(1)}}));
  const Value* info = status.Get("authInfo");
  const Value* users =
      info != nullptr ? info->Get("authenticatedUsers") : nullptr;
  FUZZ_CHECK(
      users != nullptr && users->is_array() && users->array_items().empty(),
      absl::StrCat("logged in by ", ttldb::ToJson(command)));
  return 0;
}
