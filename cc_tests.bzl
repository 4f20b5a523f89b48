"""cc_tests: one cc_test per entry of a {name: deps} list.

Each test is <name>.cc in the calling package, with `common_deps` plus the
entry's own deps; the other attributes (size, tags, data, env) are shared.
tests/BUILD.bazel and engine/BUILD.bazel list their suites this way.
"""

def cc_tests(tests, common_deps, size = "small", **kwargs):
    for name, deps in tests.items():
        native.cc_test(
            name = name,
            size = size,
            srcs = [name + ".cc"],
            deps = common_deps + deps,
            **kwargs
        )
