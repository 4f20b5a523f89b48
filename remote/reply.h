// A reply document for libmongoc's out-parameters ("reply: an uninitialized
// bson_t"): on the stack, destroyed at scope exit. Internal to //remote.
#ifndef TTLDB_REMOTE_REPLY_H_
#define TTLDB_REMOTE_REPLY_H_

#include <bson/bson.h>

namespace ttldb {
namespace remote {

class Reply {
 public:
  Reply() { bson_init(&doc_); }
  ~Reply() { bson_destroy(&doc_); }
  Reply(const Reply&) = delete;
  Reply& operator=(const Reply&) = delete;
  // libmongoc re-initializes it (an empty inline document owns no heap).
  bson_t* out() { return &doc_; }
  const bson_t* get() const { return &doc_; }

 private:
  bson_t doc_;
};

}  // namespace remote
}  // namespace ttldb

#endif  // TTLDB_REMOTE_REPLY_H_
