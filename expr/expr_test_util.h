// Test helpers for the expression operators: evaluate an expression given
// as Extended JSON against a document, and show the outcome in a form that
// keeps result types apart: the storage JSON (int32 3, int64
// {"$numberLong":"3"}, double 3.0, decimal {"$numberDecimal":"3"}),
// "MISSING", or "error <code>: <message>".
#ifndef TTLDB_EXPR_EXPR_TEST_UTIL_H_
#define TTLDB_EXPR_EXPR_TEST_UTIL_H_

#include <string>

#include "absl/strings/str_cat.h"
#include "base/status.h"
#include "expr/expression.h"
#include "gtest/gtest.h"
#include "ttldb/json.h"

namespace ttldb {
namespace agg {

// 2021-01-01T00:00:00Z, the $$NOW of these tests.
inline constexpr int64_t kTestNowMillis = 1609459200000;

inline std::string ShowResult(const ExprResult& r) {
  if (!r.ok()) {
    return absl::StrCat("error ", ErrorCode(r.status()), ": ",
                        r.status().message());
  }
  if (!r->has_value()) return "MISSING";
  return ToJson(**r, JsonFormat::kStorage);
}

// Parses `expr_json` (any JSON value) and evaluates it against `doc_json`.
inline std::string Eval(const std::string& expr_json,
                        const std::string& doc_json = "{}") {
  auto spec = ParseValue(expr_json);
  if (!spec.ok()) return "bad test JSON: " + spec.status().ToString();
  auto doc = ParseDocument(doc_json);
  if (!doc.ok()) return "bad test doc: " + doc.status().ToString();
  ParseContext ctx;
  auto expr = ParseExpression(*spec, &ctx);
  if (!expr.ok()) return ShowResult(expr.status());
  Variables vars(&*doc, kTestNowMillis);
  return ShowResult((*expr)->Evaluate(*doc, &vars));
}

}  // namespace agg
}  // namespace ttldb

#endif  // TTLDB_EXPR_EXPR_TEST_UTIL_H_
