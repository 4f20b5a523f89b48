// Comparison operators: $cmp $eq $ne $gt $gte $lt $lte (MongoDB's
// ExpressionCompare): two arguments compared in MongoDB's total order
// (document/compare.h), with a missing value below null (it compares as
// undefined does). $cmp yields an int -1, 0 or 1; the others a bool.
#include "expr/ops_util.h"

namespace ttldb {
namespace agg {
namespace {

using internal::CompareResults;
using internal::Ok;
using internal::Opt;

int CmpOperands(std::vector<Opt>& a) { return CompareResults(a[0], a[1]); }

ExprResult CmpOp(std::vector<Opt>& a) {
  int c = CmpOperands(a);
  return Ok(Value::Int32(c < 0 ? -1 : c > 0 ? 1 : 0));
}
ExprResult Eq(std::vector<Opt>& a) {
  return Ok(Value::Bool(CmpOperands(a) == 0));
}
ExprResult Ne(std::vector<Opt>& a) {
  return Ok(Value::Bool(CmpOperands(a) != 0));
}
ExprResult Gt(std::vector<Opt>& a) {
  return Ok(Value::Bool(CmpOperands(a) > 0));
}
ExprResult Gte(std::vector<Opt>& a) {
  return Ok(Value::Bool(CmpOperands(a) >= 0));
}
ExprResult Lt(std::vector<Opt>& a) {
  return Ok(Value::Bool(CmpOperands(a) < 0));
}
ExprResult Lte(std::vector<Opt>& a) {
  return Ok(Value::Bool(CmpOperands(a) <= 0));
}

}  // namespace

void RegisterComparisonOperators() {
  TTLDB_REGISTER_EAGER("$cmp", 2, 2, CmpOp);
  TTLDB_REGISTER_EAGER("$eq", 2, 2, Eq);
  TTLDB_REGISTER_EAGER("$ne", 2, 2, Ne);
  TTLDB_REGISTER_EAGER("$gt", 2, 2, Gt);
  TTLDB_REGISTER_EAGER("$gte", 2, 2, Gte);
  TTLDB_REGISTER_EAGER("$lt", 2, 2, Lt);
  TTLDB_REGISTER_EAGER("$lte", 2, 2, Lte);
}

}  // namespace agg
}  // namespace ttldb
