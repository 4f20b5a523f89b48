// Why a document fails a collection's validator, as MongoDB 5.0+ explains
// it in a DocumentValidationFailure's errInfo.details
// (src/mongo/db/matcher/doc_validation_error.cpp): one object per failing
// operator, nested as the validator is:
//   {a: 1} on {a: 2}: {operatorName: "$eq", specifiedAs: {a: 1},
//                      reason: "comparison failed", consideredValue: 2}
//   a field the operator needs is absent: reason: "field was missing"
//   $or: {operatorName: "$or", clausesNotSatisfied: [{index, details}]}
//   several top-level conditions: {operatorName: "$and",
//                                  clausesNotSatisfied: [...]}
//   $expr: {operatorName: "$expr", specifiedAs: {$expr: ...}, reason:
//           "expression did not match", expressionResult: <value>}
//   $jsonSchema: JsonSchema::Explain (query/json_schema.h).
// Under $not and $nor the reasons are inverted ("comparison succeeded").
#ifndef TTLDB_QUERY_DOC_VALIDATION_ERROR_H_
#define TTLDB_QUERY_DOC_VALIDATION_ERROR_H_

#include "query/filter.h"
#include "ttldb/value.h"

namespace ttldb {

// errInfo.details for `doc`, which `validator` does not match.
Value DocValidationDetails(const Filter& validator, const Value& doc);

}  // namespace ttldb

#endif  // TTLDB_QUERY_DOC_VALIDATION_ERROR_H_
