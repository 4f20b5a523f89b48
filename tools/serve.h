// `ttldb serve`: MongoDB's wire protocol over the databases in one
// directory, until SIGTERM or SIGINT (docs/server.md).
#ifndef TTLDB_TOOLS_SERVE_H_
#define TTLDB_TOOLS_SERVE_H_

namespace ttldb {

// argv[0..argc) are the arguments after "serve". Returns the exit status:
// 0 after a clean shutdown, 1 on a startup or shutdown error, 2 on a usage
// error.
int RunServe(int argc, char** argv);

}  // namespace ttldb

#endif  // TTLDB_TOOLS_SERVE_H_
