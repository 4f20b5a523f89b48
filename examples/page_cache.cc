// A page cache keyed by pageID (MongoDB's eventLog tutorial): each hit
// refreshes accessTime, and pages not hit for an hour are evicted - an LRU
// store with no sweeper code in the application.
#include "examples/example_util.h"

using ttldb::ExampleDb;

int main() {
  ExampleDb w("page_cache");
  ttldb::Collection& log = w.db->collection("eventLog");
  EXAMPLE_OK(
      log.CreateIndex(R"({"accessTime": 1})", R"({"expireAfterSeconds": 3600})")
          .status());
  for (int page = 100; page < 105; ++page) {
    EXAMPLE_OK(log.InsertOne(absl::StrCat(R"({"pageID": )", page,
                                          R"(, "accessTime": )", w.Now(), "}"))
                   .status());
  }
  // 40 minutes later page 101 is read again: refresh it.
  w.Pass(absl::Minutes(40));
  auto hit = log.UpdateOne(R"({"pageID": 101})",
                           R"({"$currentDate": {"accessTime": true}})");
  EXAMPLE_OK(hit.status());
  EXAMPLE_CHECK(hit->modified_count == 1);
  // 30 more minutes: the others are 70 minutes old and are evicted.
  int64_t evicted = w.Pass(absl::Minutes(30));
  printf("evicted %lld pages\n", static_cast<long long>(evicted));
  EXAMPLE_CHECK(evicted == 4);
  auto left = log.FindOne("{}");
  EXAMPLE_OK(left.status());
  EXAMPLE_CHECK(left->has_value());
  printf("still cached: %s\n", ttldb::ToJson(**left).c_str());
  EXAMPLE_CHECK((**left).Get("pageID")->int32_value() == 101);
  return 0;
}
