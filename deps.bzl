"""The repositories ttldb needs, for ttldb's own WORKSPACE and its users'.

A workspace that depends on ttldb calls, after defining @ttldb:

    load("@ttldb//:deps.bzl", "ttldb_dependencies")
    ttldb_dependencies()

ttldb builds offline against Debian's system libraries (third_party/BUILD
wraps them), so the only repositories are offline stand-ins for the three
that Bazel 4's built-in WORKSPACE suffix would otherwise download: @rules_cc,
@rules_java and @remote_coverage_tools (every cc_* and *_test rule needs
them). They must be defined before that suffix, i.e. in the WORKSPACE file;
a repository already defined under the same name (the real rules_cc, say) is
kept.
"""

load("@bazel_tools//tools/build_defs/repo:utils.bzl", "maybe")

def _stand_in_impl(rctx):
    # The directory holding this file, in whichever repository it is: ttldb's
    # own workspace, a local_repository or an extracted http_archive.
    root = rctx.path(Label("//:deps.bzl")).dirname
    src = root.get_child("third_party").get_child(rctx.attr.dir)
    for child in src.readdir():
        if child.basename != "WORKSPACE":
            rctx.symlink(child, child.basename)
    rctx.file("WORKSPACE", 'workspace(name = "%s")\n' % rctx.name)

_stand_in = repository_rule(
    implementation = _stand_in_impl,
    attrs = {"dir": attr.string(mandatory = True)},
    doc = "A repository made of the files in ttldb's third_party/<dir>.",
)

def ttldb_dependencies():
    """Defines the repositories ttldb's targets need (when not defined)."""
    for name in ["rules_cc", "rules_java", "remote_coverage_tools"]:
        maybe(_stand_in, name = name, dir = name)
