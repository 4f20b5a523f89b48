#include "tools/shell/find_mongosh.h"

#include <limits.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"

namespace ttldb {
namespace {

// The pinned mongosh, relative to a checkout's root.
constexpr char kPinnedMongosh[] = "tests/clients/node_modules/.bin/mongosh";
// Directories above the binary searched for the checkout: the deepest
// layout is <output base>/execroot/_main/bazel-out/<config>/bin/tools/ttldb.
constexpr int kMaxLevelsUp = 8;
// Bytes of a script's first line read to see its interpreter.
constexpr int kShebangBytesMax = 256;

bool IsExecutableFile(const std::string& path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) &&
         access(path.c_str(), X_OK) == 0;
}

std::optional<std::string> OnPath(absl::string_view name) {
  const char* path = std::getenv("PATH");
  if (path == nullptr) return std::nullopt;
  for (absl::string_view dir : absl::StrSplit(path, ':', absl::SkipEmpty())) {
    std::string candidate = absl::StrCat(dir, "/", name);
    if (IsExecutableFile(candidate)) return candidate;
  }
  return std::nullopt;
}

// True when `path` is a script run by node ("#!/usr/bin/env node").
bool IsNodeScript(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::string line(kShebangBytesMax, '\0');
  in.read(line.data(), line.size());
  line.resize(in.gcount());
  line = line.substr(0, line.find('\n'));
  return line.rfind("#!", 0) == 0 && line.find("node") != std::string::npos;
}

// `path` if it can run here, else the reason it cannot.
absl::StatusOr<std::string> Usable(const std::string& path) {
  if (!IsExecutableFile(path)) {
    return absl::NotFoundError(
        absl::StrCat(path, " is not an executable file"));
  }
  if (IsNodeScript(path) && !OnPath("node").has_value()) {
    return absl::NotFoundError(
        absl::StrCat(path, " is a Node.js script and node is not on PATH"));
  }
  return path;
}

std::string Parent(const std::string& dir) {
  size_t slash = dir.find_last_of('/');
  if (slash == std::string::npos || slash == 0) return "/";
  return dir.substr(0, slash);
}

// The directory of the binary as invoked (argv[0] as an absolute path,
// symlinks kept) and as it is on disk (/proc/self/exe).
std::vector<std::string> BinaryDirectories(absl::string_view argv0) {
  std::vector<std::string> dirs;
  if (argv0.find('/') != absl::string_view::npos) {
    std::string path(argv0);
    if (path[0] != '/') {
      char cwd[PATH_MAX];
      if (getcwd(cwd, sizeof cwd) != nullptr)
        path = absl::StrCat(cwd, "/", path);
    }
    dirs.push_back(Parent(path));
  }
  char exe[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (n > 0) dirs.push_back(Parent(std::string(exe, n)));
  return dirs;
}

std::optional<std::string> PinnedMongosh(absl::string_view argv0) {
  for (std::string dir : BinaryDirectories(argv0)) {
    for (int level = 0; level <= kMaxLevelsUp; ++level) {
      std::string candidate = absl::StrCat(dir, "/", kPinnedMongosh);
      if (IsExecutableFile(candidate)) return candidate;
      if (dir == "/") break;
      dir = Parent(dir);
    }
  }
  return std::nullopt;
}

}  // namespace

bool SubsetChosenByEnvironment() {
  const char* chosen = std::getenv("TTLDB_MONGOSH");
  return chosen != nullptr && std::string(chosen) == "none";
}

absl::StatusOr<std::string> FindMongosh(absl::string_view argv0) {
  const char* chosen = std::getenv("TTLDB_MONGOSH");
  if (chosen != nullptr && *chosen != '\0') {
    absl::StatusOr<std::string> usable = Usable(chosen);
    if (!usable.ok()) {
      return absl::NotFoundError(
          absl::StrCat("TTLDB_MONGOSH: ", usable.status().message()));
    }
    return usable;
  }
  std::optional<std::string> found = OnPath("mongosh");
  if (!found.has_value()) found = PinnedMongosh(argv0);
  if (!found.has_value()) {
    return absl::NotFoundError(
        "mongosh is not on PATH, TTLDB_MONGOSH is not set, and the pinned "
        "one (scripts/client_tests.sh --install) is not installed");
  }
  return Usable(*found);
}

}  // namespace ttldb
