// The `parse` workload: simdjson On-Demand pulling the one field a TTL
// check needs, against a full simdjson DOM parse and ttldb's
// ParseDocument (DOM, then the Value tree), over the same documents.
#ifndef TTLDB_TOOLS_BENCH_PARSE_BENCH_H_
#define TTLDB_TOOLS_BENCH_PARSE_BENCH_H_

#include <string>
#include <vector>

#include "tools/bench/bench_util.h"

namespace ttldb {
namespace bench {

struct ParseResult {
  std::string method;  // "ondemand", "dom", "ttldb"
  Latencies latencies;
};

// Parses each document of `docs` `rounds` times with each method.
std::vector<ParseResult> RunParseBench(const std::vector<std::string>& docs,
                                       int rounds);

}  // namespace bench
}  // namespace ttldb

#endif  // TTLDB_TOOLS_BENCH_PARSE_BENCH_H_
