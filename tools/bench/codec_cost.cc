// What each conversion on the wire path costs per document, and what storing
// BSON instead of JSON text would change (issue 32, "the wire path"). The
// server decodes a request's BSON into a Value (server/message.cc
// BsonToValue), the engine stores the Value as JSON text (AppendJson,
// JsonFormat::kStorage); a read parses the stored text back into a Value
// (ParseDocumentInto, unless the document cache holds it) and the reply
// encodes it as BSON (ValueToBson). Stored BSON would replace the text
// steps by a BSON encode on the way in and a BSON decode on the way out, or
// by a plain copy of the bytes where no Value is needed (an insert whose
// document needs no _id, a find without projection). This program times
// each step on the benchmark documents (tools/bench/bench_util.cc MakeDoc)
// and prints their sizes in both forms. Not a test; a measuring aid.
//   codec_cost [--ops=200000] [--bytes=256]
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "document/bson.h"
#include "tools/bench/bench_util.h"
#include "ttldb/json.h"
#include "ttldb/value.h"

namespace ttldb {
namespace bench {
namespace {

// The best of 7 trials of `ops` calls of step(i), i cycling over the
// documents, in CPU ns per call.
double BestNanos(int64_t ops, int docs, const std::function<void(int)>& step) {
  double best = 1e18;
  for (int trial = 0; trial < 7; ++trial) {
    const int64_t t0 = ThreadCpuNanos();
    for (int64_t k = 0; k < ops; ++k) step(static_cast<int>(k % docs));
    best = std::min(best, double(ThreadCpuNanos() - t0) / double(ops));
  }
  return best;
}

const uint8_t* Bytes(const std::string& s) {
  return reinterpret_cast<const uint8_t*>(s.data());
}

int Main(int argc, char** argv) {
  int64_t ops = 200000, bytes = 256;
  for (int i = 1; i < argc; ++i) {
    if (ParsePositiveFlag(argv[i], "ops", &ops) ||
        ParsePositiveFlag(argv[i], "bytes", &bytes)) {
      continue;
    }
    Die(std::string("unknown flag ") + argv[i]);
  }
  constexpr int kDocs = 1024;  // more than L1 holds, as cold reads are
  std::vector<std::string> json(kDocs), bson(kDocs);
  std::vector<Value> values(kDocs);
  size_t json_bytes = 0, bson_bytes = 0;
  for (int i = 0; i < kDocs; ++i) {
    MakeDoc(i * 7919, kNowMillis, static_cast<int>(bytes), &json[i]);
    values[i] = Check(ParseDocument(json[i], StoredJsonParseOptions()),
                      "parse stored JSON");
    bson[i] = Check(ValueToBson(values[i]), "encode BSON");
    // The forms must hold the same document, or the comparison is moot.
    Value back =
        Check(BsonToValue(Bytes(bson[i]), bson[i].size()), "decode BSON");
    std::string again;
    AppendJson(back, JsonFormat::kStorage, &again);
    if (again != json[i]) Die("BSON round trip changed the document");
    json_bytes += json[i].size();
    bson_bytes += bson[i].size();
  }

  std::string out;
  Value v;
  const double wire_in = BestNanos(ops, kDocs, [&](int i) {
    v = Check(BsonToValue(Bytes(bson[i]), bson[i].size()), "decode");
  });
  const double store_json = BestNanos(ops, kDocs, [&](int i) {
    out.clear();
    AppendJson(values[i], JsonFormat::kStorage, &out);
  });
  const double read_json = BestNanos(ops, kDocs, [&](int i) {
    if (!ParseDocumentInto(json[i], StoredJsonParseOptions(), &v).ok()) {
      Die("parse");
    }
  });
  const double wire_out = BestNanos(ops, kDocs, [&](int i) {
    out = Check(ValueToBson(values[i]), "encode");
  });
  const double copy = BestNanos(ops, kDocs, [&](int i) { out = bson[i]; });

  printf("documents: %d distinct, about %lld B of stored JSON each\n", kDocs,
         static_cast<long long>(bytes));
  printf("| form | mean bytes |\n|---|---|\n");
  printf("| stored JSON text (today) | %.1f |\n", double(json_bytes) / kDocs);
  printf("| BSON | %.1f (%.3fx) |\n\n", double(bson_bytes) / kDocs,
         double(bson_bytes) / double(json_bytes));
  printf(
      "| step, CPU ns/doc (best of 7 x %lld) | today (JSON text) | "
      "stored BSON |\n|---|---|---|\n",
      static_cast<long long>(ops));
  printf("| in: request BSON -> Value | %.0f | %.0f |\n", wire_in, wire_in);
  printf(
      "| in: Value -> stored form | %.0f | %.0f (encode) or %.0f (copy) "
      "|\n",
      store_json, wire_out, copy);
  printf("| out: stored form -> Value | %.0f | %.0f |\n", read_json, wire_in);
  printf("| out: Value -> reply BSON | %.0f | %.0f |\n", wire_out, wire_out);
  printf("| out: stored form -> reply, no Value | - | %.0f (copy) |\n", copy);
  printf("| in total (decode + store) | %.0f | %.0f to %.0f |\n",
         wire_in + store_json, wire_in + copy, wire_in + wire_out);
  printf("| out total (read + encode) | %.0f | %.0f to %.0f |\n",
         read_json + wire_out, copy, wire_in + wire_out);
  return 0;
}

}  // namespace
}  // namespace bench
}  // namespace ttldb

int main(int argc, char** argv) { return ttldb::bench::Main(argc, argv); }
