"""Compile flags for code that includes <mongoc/mongoc.h> (//remote).

`pkg-config --cflags libmongoc-1.0`: its headers include <bson/bson.h> by the
libbson-1.0 directory, which a linkopts-only wrapper cannot add for its
dependents (cc_library `includes` takes relative paths only).
"""

MONGOC_COPTS = [
    "-isystem",
    "/usr/include/libmongoc-1.0",
    "-isystem",
    "/usr/include/libbson-1.0",
]
