// An authentication list: every request refreshes the user's accessTime
// with Touch; users idle for 15 minutes must log in again. Touch with
// touch_min_interval would skip rewrites for users seen in the last minute.
#include "examples/example_util.h"

using ttldb::ExampleDb;

int main() {
  ExampleDb w("auth_sessions");
  ttldb::Collection& sessions = w.db->collection("authenticated");
  EXAMPLE_OK(
      sessions
          .CreateIndex(R"({"accessTime": 1})", R"({"expireAfterSeconds": 900})")
          .status());
  for (const char* user : {"ada", "bob", "cy"}) {
    EXAMPLE_OK(
        sessions
            .InsertOne(absl::StrCat(R"({"_id": ")", user,
                                    R"(", "accessTime": )", w.Now(), "}"))
            .status());
  }
  // ada makes a request every 5 minutes; the others go idle.
  for (int i = 0; i < 4; ++i) {
    w.Pass(absl::Minutes(5));
    EXAMPLE_OK(sessions.Touch(R"({"_id": "ada"})", "accessTime").status());
  }
  // Expired users are gone at once for reads (hide_expired), even before
  // the monitor's pass deletes them.
  EXAMPLE_CHECK(!sessions.FindById(ttldb::Value::String("bob")).ok());
  w.Pass(absl::Seconds(1));
  auto count = sessions.CountDocuments();
  EXAMPLE_OK(count.status());
  printf("logged in: %lld\n", static_cast<long long>(*count));
  EXAMPLE_CHECK(*count == 1);
  EXAMPLE_CHECK(sessions.FindById(ttldb::Value::String("ada")).ok());
  return 0;
}
