#include "tools/shell/repl.h"

// clang-format off
#include <stdio.h>  // before readline.h, which needs FILE
#include <editline/readline.h>
// clang-format on
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <iostream>
#include <vector>

#include "tools/shell/completion.h"
#include "tools/shell/interrupt.h"
#include "tools/shell/parser.h"

namespace ttldb {
namespace {

int g_wake[2] = {-1, -1};  // SIGINT -> a byte on g_wake[1]

void OnSigint(int) {
  shell::InterruptFlag().store(true);
  const char byte = 1;
  if (g_wake[1] >= 0) (void)!write(g_wake[1], &byte, 1);
}

void DrainWake() {
  char buf[64];
  while (read(g_wake[0], buf, sizeof(buf)) > 0) {
  }
}

// The line the callback interface delivered.
bool g_have_line = false;
bool g_eof = false;
std::string g_line;

void OnLine(char* line) {
  if (line == nullptr) {
    g_eof = true;
  } else {
    g_line = line;
    g_have_line = true;
    std::free(line);
  }
  rl_callback_handler_remove();
}

shell::ShellBackend* g_backend = nullptr;

char* NextCompletion(const char* text, int state) {
  static std::vector<std::string> matches;
  static size_t next = 0;
  if (state == 0) {
    std::vector<std::string> collections;
    absl::StatusOr<Value> names = g_backend->ListCollections();
    if (names.ok() && names->is_array()) {
      for (const Value& n : names->array_items()) {
        if (n.is_string()) collections.push_back(n.string_value());
      }
    }
    matches = shell::CompletionCandidates(text, collections);
    next = 0;
  }
  if (next >= matches.size()) return nullptr;
  return strdup(matches[next++].c_str());
}

char** Complete(const char* text, int, int) {
  rl_attempted_completion_over = 1;  // never file names
  return rl_completion_matches(text, NextCompletion);
}

enum class Read { kLine, kEof, kInterrupted };

Read ReadLine(const std::string& prompt, std::string* line) {
  shell::InterruptFlag().store(false);
  DrainWake();
  g_have_line = g_eof = false;
  rl_callback_handler_install(prompt.c_str(), OnLine);
  while (true) {
    struct pollfd fds[2] = {{STDIN_FILENO, POLLIN, 0}, {g_wake[0], POLLIN, 0}};
    const int n = poll(fds, 2, -1);
    if (shell::InterruptRequested()) {
      DrainWake();
      rl_replace_line("", 0);
      rl_callback_handler_remove();
      std::cout << "\n" << std::flush;
      return Read::kInterrupted;
    }
    if (n < 0) continue;  // EINTR
    if (fds[0].revents & POLLIN) {
      rl_callback_read_char();
      if (g_have_line) {
        *line = g_line;
        return Read::kLine;
      }
      if (g_eof) return Read::kEof;
    } else if (fds[0].revents & (POLLHUP | POLLERR | POLLNVAL)) {
      rl_callback_handler_remove();
      return Read::kEof;
    }
  }
}

}  // namespace

int RunRepl(shell::Evaluator* ev, shell::ShellBackend* backend, bool quiet,
            const std::string& history_path) {
  if (!quiet) {
    std::cout << "ttldb shell: the mongo shell's syntax over ttldb. Type "
                 "\"help\" for help, \"exit\" or Ctrl-D to leave.\n";
  }
  g_backend = backend;
  if (g_wake[0] < 0 && pipe(g_wake) == 0) {
    for (int fd : g_wake) {
      fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
      fcntl(fd, F_SETFD, FD_CLOEXEC);
    }
  }
  struct sigaction sa = {};
  sa.sa_handler = OnSigint;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESTART;  // LevelDB's reads and writes go on
  struct sigaction old_sa = {};
  sigaction(SIGINT, &sa, &old_sa);

  rl_catch_signals = 0;  // ours, not libedit's
  using_history();
  read_history(history_path.c_str());
  rl_attempted_completion_function = Complete;
  rl_completion_append_character = '\0';  // "db.events" then "." or "("
  rl_basic_word_break_characters = " \t\n\"'`<>=;|&{([,:+-*/%!";

  std::string buffer;
  while (!ev->exit_requested()) {
    const std::string prompt = buffer.empty() ? ev->database() + "> " : "... ";
    std::string line;
    const Read r = ReadLine(prompt, &line);
    if (r == Read::kEof) {
      std::cout << "\n";
      break;
    }
    if (r == Read::kInterrupted) {
      buffer.clear();  // Ctrl-C drops what was being typed
      continue;
    }
    if (buffer.empty() && line.find_first_not_of(" \t") == std::string::npos) {
      continue;
    }
    buffer += line + "\n";
    if (!shell::StatementIsComplete(buffer)) continue;
    std::string entry = buffer;
    if (!entry.empty() && entry.back() == '\n') entry.pop_back();
    add_history(entry.c_str());
    write_history(history_path.c_str());  // nothing lost if killed
    shell::InterruptFlag().store(false);
    absl::Status s = ev->Run(buffer);
    std::cout.flush();
    if (!s.ok()) std::cerr << shell::FormatError(s) << "\n";
    buffer.clear();
  }
  write_history(history_path.c_str());
  sigaction(SIGINT, &old_sa, nullptr);
  return ev->exit_code();
}

}  // namespace ttldb
