// Tab completion for the shell: what the REPL offers for the word before
// the cursor, as mongosh completes it.
//
//   "db.ev"        -> "db.events", "db.eventlog" (collections), db methods
//   "db.events.fi" -> "db.events.find", "db.events.findOne"
//   "Obj"          -> "ObjectId"   (globals, constructors, shell commands)
//
// A word is the text back to the last space or bracket, dots included.
#ifndef TTLDB_TOOLS_SHELL_COMPLETION_H_
#define TTLDB_TOOLS_SHELL_COMPLETION_H_

#include <string>
#include <vector>

#include "absl/strings/string_view.h"

namespace ttldb {
namespace shell {

// The completions of `word`, sorted, each a whole word that starts with
// it. `collections` are the current database's collection names.
std::vector<std::string> CompletionCandidates(
    absl::string_view word, const std::vector<std::string>& collections);

}  // namespace shell
}  // namespace ttldb

#endif  // TTLDB_TOOLS_SHELL_COMPLETION_H_
