#!/usr/bin/env bash
# Installs what ttldb needs from Debian 12's packages, only if missing.
# Idempotent and quiet when everything is already installed.
set -euo pipefail

# The aggregation differential test's pinned mingo (tests/differential,
# package-lock.json), when npm is there (otherwise its test installs it).
if command -v npm >/dev/null 2>&1 &&
  [ ! -d "$(dirname "$0")/../tests/differential/node_modules/mingo" ]; then
  (cd "$(dirname "$0")/../tests/differential" &&
    npm ci --no-audit --no-fund --loglevel=error >/dev/null) ||
    echo "ttldb: npm ci in tests/differential failed" >&2
fi

PACKAGES=(
  bazel-bootstrap          # Bazel 4.2.3 (pulls in OpenJDK 17 headless)
  g++
  libleveldb-dev
  libsimdjson-dev
  libabsl-dev
  libprotobuf-dev
  protobuf-compiler
  libgtest-dev
  libgmock-dev
  libbenchmark-dev
  libsqlite3-dev           # the benchmark's SQLite peer
  libedit-dev              # line editing in the interactive shell
  libpcre2-dev             # PCRE2 (UTF mode) for $regex, as MongoDB uses
  libicu-dev               # ICU for collations (document/collator.h), as MongoDB uses
  libbson-dev              # BSON for the wire protocol (server/), MongoDB's libbson
  libmongoc-dev            # MongoDB's C driver 1.23: the MongoDB backend (//remote, ttldb::remote) and the wire benchmark's client (tools/bench/wire_bench.cc)
  libssl-dev               # OpenSSL: SCRAM-SHA-256 and TLS for `ttldb serve`
  openssl                  # the client tests generate their TLS certificates with it
  libintelrdfpmath-dev     # Decimal128: Intel's BID library, as MongoDB links it
  pkg-config
  cmake                    # the CMake build (CMakeLists.txt) and its consumer check
  clang                    # libFuzzer targets (scripts/fuzz.sh)
  libclang-rt-14-dev       # libFuzzer, ASan and UBSan runtimes for clang
  lld                      # the linker of the clang sanitizer build (.bazelrc, --config=asan)
  python3
  python3-pymongo          # the pymongo client test (tests/clients/pymongo_test.py)
  tzdata                   # Olson time zones for the date operators (absl::LoadTimeZone)
  nodejs                   # the real-client tests (scripts/client_tests.sh)
)

missing=()
for p in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
# Debian packages npm apart from nodejs; NodeSource's nodejs bundles it (and
# conflicts with Debian's npm), so ask for it only when there is none.
if ! command -v npm >/dev/null 2>&1; then missing+=(npm); fi
[ ${#missing[@]} -eq 0 ] && exit 0

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else
    echo "ttldb: missing packages (${missing[*]}) and not root; install them with apt-get." >&2
    exit 1
  fi
fi
echo "ttldb: installing ${missing[*]}" >&2
$SUDO apt-get update -qq >/dev/null
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends \
  "${missing[@]}" >/dev/null
