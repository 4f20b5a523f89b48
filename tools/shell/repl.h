// The interactive shell: libedit line editing and history, Ctrl-C, tab
// completion.
//
// Lines are read through libedit's callback interface while the REPL waits
// in poll() on standard input and a self-pipe its SIGINT handler writes, so
// Ctrl-C is seen at once:
//   - at the prompt it discards the line (and a multi-line statement being
//     typed) and shows a new prompt;
//   - while a statement runs it sets the interrupt flag
//     (tools/shell/interrupt.h): the statement stops at its next check (a
//     multi-document write between two documents, reporting how many were
//     written), its error is printed and the prompt comes back.
// It never ends the shell (Ctrl-D, exit or quit do). Each entry is added to
// the history file at once, so a killed shell loses none.
// Tab completes collection names after "db." and method names after
// "db.<collection>." (tools/shell/completion.h).
#ifndef TTLDB_TOOLS_SHELL_REPL_H_
#define TTLDB_TOOLS_SHELL_REPL_H_

#include <string>

#include "tools/shell/evaluator.h"
#include "tools/shell/shell_backend.h"

namespace ttldb {

// Runs the REPL until Ctrl-D, exit or quit; returns the exit status.
// `history_path` is the history file.
int RunRepl(shell::Evaluator* ev, shell::ShellBackend* backend, bool quiet,
            const std::string& history_path);

}  // namespace ttldb

#endif  // TTLDB_TOOLS_SHELL_REPL_H_
