// The shell evaluator (tools/shell): a script run against a real in-memory
// database through the engine backend (the command layer), as `ttldb`
// runs it. Time is injected and sleep() does not sleep; a watchdog stops a
// script after 2 s through the Ctrl-C flag (tools/shell/interrupt.h), so
// exponential recursion ends. Checks:
//  - a script the parser refuses fails with that SyntaxError and runs
//    nothing; any failure has a message;
//  - running the same script on two fresh databases prints the same output
//    and ends with the same status (ObjectIds masked; not for a script
//    that runs setParameter, which may start the TTL monitor's thread);
//  - Validate is clean on every collection afterwards.
#include <atomic>
#include <chrono>
#include <regex>
#include <sstream>
#include <string>
#include <thread>

#include "absl/strings/match.h"
#include "fuzz/fuzz_db.h"
#include "tools/shell/engine_backend.h"
#include "tools/shell/evaluator.h"
#include "tools/shell/interrupt.h"
#include "tools/shell/parser.h"

namespace {
using namespace ttldb;

// Sets the interrupt flag once the deadline (steady ms; 0: none) passes.
std::atomic<int64_t> deadline_ms{0};
int64_t SteadyMs() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}
void StartWatchdog() {
  static std::thread* watchdog = new std::thread([] {
    while (true) {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
      const int64_t d = deadline_ms.load();
      if (d != 0 && SteadyMs() > d) shell::InterruptFlag().store(true);
    }
  });
  (void)watchdog;
}

struct Outcome {
  std::string output;
  std::string status;
  bool interrupted = false;
};

std::string MaskIds(const std::string& s) {
  static const std::regex hex("[0-9a-f]{24}");
  return std::regex_replace(s, hex, "<oid>");
}

Outcome RunOnce(absl::string_view script) {
  FakeClock clock(FuzzNow());
  auto db = OpenFuzzDb(&clock);
  Outcome out;
  {
    EngineBackend backend(db.get());
    std::ostringstream printed;
    shell::EvaluatorOptions options;
    options.mode = shell::OutputMode::kShell;
    options.now_millis = [] { return absl::ToUnixMillis(FuzzNow()); };
    options.time_zone = absl::UTCTimeZone();
    options.sleep = [&clock](int64_t ms) {
      clock.Advance(absl::Milliseconds(std::min<int64_t>(ms, 1'000'000'000)));
    };
    int n = 0;
    options.new_object_id = [&n] { return ObjectId::GenerateAt(++n); };
    options.random_bytes = [](size_t k) { return std::string(k, 'r'); };
    shell::Evaluator ev(&backend, &printed, options);
    shell::InterruptFlag().store(false);
    deadline_ms.store(SteadyMs() + 2000);
    absl::Status s = ev.Run(script);
    deadline_ms.store(0);
    out.interrupted = shell::InterruptFlag().exchange(false);
    if (!s.ok()) {
      FUZZ_CHECK(!shell::FormatError(s).empty(), s.ToString());
      FUZZ_CHECK(!s.message().empty(), "an error without a message");
    }
    out.output = MaskIds(printed.str());
    out.status = MaskIds(s.ToString());
  }
  auto names = db->ListCollectionNames();
  FUZZ_CHECK(names.ok(), names.status().ToString());
  for (const std::string& name : *names) {
    CheckValid(db->collection(name), absl::StrCat("collection ", name));
  }
  return out;
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  StartWatchdog();
  absl::string_view script(reinterpret_cast<const char*>(data), size);
  auto program = shell::ParseProgram(script);
  Outcome a = RunOnce(script);
  if (!program.ok()) {
    // The run's status is masked (MaskIds): so is the parser's, else a
    // 24-character hex run inside an identifier differs.
    const std::string parsed = MaskIds(program.status().ToString());
    FUZZ_CHECK(a.status == parsed && a.output.empty(),
               absl::StrCat(a.status, " vs ", parsed));
    return 0;
  }
  // A script that turns the TTL monitor on races its thread (real time):
  // only the first run's checks apply.
  if (a.interrupted || absl::StrContains(script, "setParameter")) return 0;
  Outcome b = RunOnce(script);
  if (b.interrupted) return 0;
  FUZZ_CHECK(a.status == b.status,
             absl::StrCat("status differs: ", a.status, " / ", b.status));
  FUZZ_CHECK(a.output == b.output,
             absl::StrCat("output differs:\n", a.output, "\n---\n", b.output));
  return 0;
}
