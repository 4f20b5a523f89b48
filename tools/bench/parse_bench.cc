#include "tools/bench/parse_bench.h"

#include <simdjson.h>

#include "tools/bench/store.h"
#include "ttldb/json.h"

namespace ttldb {
namespace bench {

std::vector<ParseResult> RunParseBench(const std::vector<std::string>& docs,
                                       int rounds) {
  std::vector<simdjson::padded_string> padded;
  padded.reserve(docs.size());
  for (const std::string& d : docs) padded.emplace_back(d);
  std::vector<ParseResult> out(3);
  out[0].method = "ondemand";
  out[1].method = "dom";
  out[2].method = "ttldb";
  for (ParseResult& r : out) r.latencies.Reserve(docs.size() * rounds);

  simdjson::ondemand::parser od;
  simdjson::dom::parser dom;
  int64_t checksum = 0;
  for (int round = 0; round < rounds; ++round) {
    for (size_t k = 0; k < padded.size(); ++k) {
      // On-Demand: only accessTime.$date.$numberLong, as a TTL check needs.
      int64_t t0 = NowNanos();
      simdjson::ondemand::document doc;
      if (od.iterate(padded[k]).get(doc) != simdjson::SUCCESS) {
        Die("ondemand iterate");
      }
      std::string_view millis;
      if (doc["accessTime"]["$date"]["$numberLong"].get_string().get(millis) !=
          simdjson::SUCCESS) {
        Die("ondemand accessTime");
      }
      out[0].latencies.Add(NowNanos() - t0);
      checksum += millis.size();

      t0 = NowNanos();
      simdjson::dom::element root;
      if (dom.parse(padded[k]).get(root) != simdjson::SUCCESS) Die("dom parse");
      out[1].latencies.Add(NowNanos() - t0);
      checksum += root.is_object();

      t0 = NowNanos();
      auto v = ParseDocument(docs[k]);
      out[2].latencies.Add(NowNanos() - t0);
      if (!v.ok()) Die(v.status().ToString());
      checksum += v->object_fields().size();
    }
  }
  if (checksum == 0) Die("parse checksum");
  return out;
}

}  // namespace bench
}  // namespace ttldb
