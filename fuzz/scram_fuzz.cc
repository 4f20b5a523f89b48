// The SCRAM-SHA-256 server conversation (commands/scram.h) on arbitrary
// client messages, as a network peer sends them in saslStart/saslContinue
// payloads (and hello's speculativeAuthenticate): the input is split at
// NUL bytes into the client's successive messages. Never crashes; a
// conversation authenticates only when the peer sent RFC 7677's exact
// messages for the user whose password it knows (forging a proof would
// mean breaking HMAC-SHA-256).
#include <string>
#include <vector>

#include "absl/strings/escaping.h"
#include "absl/strings/str_split.h"
#include "commands/scram.h"
#include "fuzz/fuzz_util.h"

namespace {

constexpr char kClientFirst[] = "n,,n=user,r=rOprNGfwEbeRWgbNEkqO";
constexpr char kClientFinal[] =
    "c=biws,r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,"
    "p=dHzbZapWIk4jUhN+Ute9ytag9zjfMHgsqmmiz7AndVQ=";

const ttldb::commands::ScramCredentials& Credentials() {
  static const auto* c = [] {
    std::string salt;
    absl::Base64Unescape("W22ZaJ0SNY7soEsUEjb6gQ==", &salt);
    return new ttldb::commands::ScramCredentials(
        ttldb::commands::MakeScramSha256Credentials("pencil", salt, 4096));
  }();
  return *c;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace ttldb::commands;
  std::string in(reinterpret_cast<const char*>(data), size);
  std::vector<std::string> messages = absl::StrSplit(in, '\0');
  ScramSha256Server server(
      [](const std::string& user) -> absl::StatusOr<ScramCredentials> {
        if (user != "user") return absl::NotFoundError("no such user");
        return Credentials();
      },
      "%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0");
  bool failed = false;
  for (size_t i = 0; i < messages.size() && i < 4; ++i) {
    absl::StatusOr<std::string> reply = server.Step(messages[i]);
    if (failed) FUZZ_CHECK(!reply.ok(), "a failed conversation went on");
    if (!reply.ok()) failed = true;
    if (server.authenticated()) {
      FUZZ_CHECK(messages.size() >= 2 && messages[0] == kClientFirst &&
                     messages[1] == kClientFinal,
                 "authenticated without the proof");
    }
  }
  return 0;
}
