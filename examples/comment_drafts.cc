// Comment drafts that expire after a day unless submitted. Submitting
// removes draftTime, so the partial TTL index no longer covers the comment
// and it is kept forever.
#include "examples/example_util.h"

using ttldb::ExampleDb;

int main() {
  ExampleDb w("comment_drafts");
  ttldb::Collection& comments = w.db->collection("comments");
  EXAMPLE_OK(comments
                 .CreateIndex(R"({"draftTime": 1})",
                              R"({"expireAfterSeconds": 86400,
                                  "partialFilterExpression":
                                      {"draftTime": {"$exists": true}}})")
                 .status());
  for (int id = 1; id <= 3; ++id) {
    EXAMPLE_OK(comments
                   .InsertOne(absl::StrCat(
                       R"({"_id": )", id, R"(, "text": "draft", "draftTime": )",
                       w.Now(), "}"))
                   .status());
  }
  // Comment 2 is submitted an hour later.
  w.Pass(absl::Hours(1));
  EXAMPLE_OK(
      comments
          .UpdateOne(
              R"({"_id": 2})",
              R"({"$set": {"text": "final"}, "$unset": {"draftTime": ""}})")
          .status());
  int64_t dropped = w.Pass(absl::Hours(24));
  printf("abandoned drafts removed: %lld\n", static_cast<long long>(dropped));
  EXAMPLE_CHECK(dropped == 2);
  auto kept = comments.FindById(ttldb::Value::Int32(2));
  EXAMPLE_OK(kept.status());
  printf("kept: %s\n", ttldb::ToJson(*kept).c_str());
  // A year later it is still there.
  EXAMPLE_CHECK(w.Pass(absl::Hours(24 * 365)) == 0);
  return 0;
}
