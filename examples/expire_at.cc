// Documents that carry their own expiry time: expireAfterSeconds 0 on an
// expireAt field (MongoDB's "expire documents at a specific clock time").
// Each document goes at its own time; with the real monitor the exact
// wake-up makes it go within a second of that time.
#include "examples/example_util.h"

using ttldb::ExampleDb;

int main() {
  ExampleDb w("expire_at");
  ttldb::Collection& events = w.db->collection("log_events");
  EXAMPLE_OK(
      events.CreateIndex(R"({"expireAt": 1})", R"({"expireAfterSeconds": 0})")
          .status());
  const absl::Time now = w.clock.WallNow();
  for (int minutes : {5, 10, 60}) {
    EXAMPLE_OK(
        events
            .InsertOne(absl::StrCat(
                R"({"logEvent": )", minutes,
                R"(, "expireAt": {"$date": {"$numberLong": ")",
                absl::ToUnixMillis(now + absl::Minutes(minutes)), R"("}}})"))
            .status());
  }
  EXAMPLE_CHECK(w.Pass(absl::Minutes(4)) == 0);
  EXAMPLE_CHECK(w.Pass(absl::Minutes(2)) == 1);  // the 5-minute one
  EXAMPLE_CHECK(w.Pass(absl::Minutes(5)) == 1);  // the 10-minute one
  auto left = events.CountDocuments();
  EXAMPLE_OK(left.status());
  printf("events left after 11 minutes: %lld\n", static_cast<long long>(*left));
  EXAMPLE_CHECK(*left == 1);
  return 0;
}
