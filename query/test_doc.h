// Test helper for query/ tests: a document from JSON text.
#ifndef TTLDB_QUERY_TEST_DOC_H_
#define TTLDB_QUERY_TEST_DOC_H_

#include <string>

#include "gtest/gtest.h"
#include "ttldb/json.h"
#include "ttldb/value.h"

namespace ttldb {

// The parsed document; on a parse error, fails the test and returns {}.
inline Value Doc(const std::string& json) {
  auto v = ParseDocument(json);
  EXPECT_TRUE(v.ok()) << v.status() << " in " << json;
  return v.ok() ? *v : Value::MakeObject();
}

}  // namespace ttldb

#endif  // TTLDB_QUERY_TEST_DOC_H_
