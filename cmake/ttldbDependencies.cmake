# Finds the Debian packages ttldb links, the way Debian ships them, and makes
# the imported targets its library links. Included by CMakeLists.txt and, once
# installed, by ttldbConfig.cmake, so a find_package(ttldb) consumer gets the
# same targets. Each has a Bazel wrapper in third_party/BUILD.
#
# From ttldbConfig.cmake (TTLDB_FROM_CONFIG) a missing package makes
# find_package(ttldb) fail with a message; from CMakeLists.txt it is an error.
if(TTLDB_FROM_CONFIG)
  include(CMakeFindDependencyMacro)
  macro(_ttldb_find)
    find_dependency(${ARGN})
  endmacro()
else()
  macro(_ttldb_find)
    find_package(${ARGN} REQUIRED)
  endmacro()
endif()

_ttldb_find(Threads)

# Debian's leveldb CMake config (libleveldb-dev) links its imported target to
# `snappy` and `Threads::Threads` without finding either. Debian does not
# install libsnappy.so (only libsnappy-dev does), so a plain -lsnappy fails:
# give `snappy` a target. Snappy's own CMake config if installed, else the
# library if found, else nothing: libleveldb.so records its own dependency on
# libsnappy.so.1, so linking the shared leveldb needs no -lsnappy.
if(NOT TARGET snappy)
  find_package(Snappy CONFIG QUIET)
  add_library(snappy INTERFACE IMPORTED)
  if(TARGET Snappy::snappy)
    set_target_properties(snappy PROPERTIES INTERFACE_LINK_LIBRARIES Snappy::snappy)
  else()
    find_library(TTLDB_SNAPPY_LIBRARY NAMES snappy)
    if(TTLDB_SNAPPY_LIBRARY)
      set_target_properties(snappy PROPERTIES INTERFACE_LINK_LIBRARIES "${TTLDB_SNAPPY_LIBRARY}")
    endif()
  endif()
endif()
_ttldb_find(leveldb CONFIG)

_ttldb_find(simdjson CONFIG)  # simdjson::simdjson (SIMDJSON_THREADS_ENABLED=1)
_ttldb_find(absl CONFIG)      # absl::status, absl::strings, ...
# Debian's protobuf 3.21 ships no CMake config: CMake's FindProtobuf module
# (protobuf::libprotobuf, protobuf::protoc).
_ttldb_find(Protobuf)

# PCRE2 (8-bit): pkg-config only.
find_package(PkgConfig REQUIRED)
pkg_check_modules(TTLDB_PCRE2 REQUIRED IMPORTED_TARGET libpcre2-8)
# ICU (libicu-dev) for collations (document/collator.h): pkg-config, as Debian
# ships it.
pkg_check_modules(TTLDB_ICU REQUIRED IMPORTED_TARGET icu-i18n icu-uc)

# Intel's decimal library (libintelrdfpmath-dev): a static libbidgcc000.a,
# no CMake config or .pc (see third_party/BUILD for the variant's choice).
if(NOT TARGET ttldb_deps::intelrdfpmath)
  find_library(TTLDB_BID_LIBRARY NAMES bidgcc000)
  if(NOT TTLDB_BID_LIBRARY)
    message(FATAL_ERROR "ttldb: libbidgcc000.a not found (apt-get install libintelrdfpmath-dev)")
  endif()
  add_library(ttldb_deps::intelrdfpmath STATIC IMPORTED)
  set_target_properties(ttldb_deps::intelrdfpmath PROPERTIES
                        IMPORTED_LOCATION "${TTLDB_BID_LIBRARY}")
endif()

# What the library links, in the order third_party/BUILD lists them.
set(TTLDB_DEPENDENCIES
  leveldb::leveldb
  simdjson::simdjson
  protobuf::libprotobuf
  PkgConfig::TTLDB_PCRE2
  PkgConfig::TTLDB_ICU
  absl::status absl::statusor absl::strings absl::str_format absl::cord
  absl::time absl::synchronization absl::flat_hash_map absl::flat_hash_set
  absl::inlined_vector absl::hash absl::span absl::cleanup absl::function_ref
  absl::core_headers absl::random_random
  Threads::Threads
)
