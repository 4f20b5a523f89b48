// MongoDB's $jsonSchema: the draft-4 subset MongoDB supports
// (src/mongo/db/matcher/schema/json_schema_parser.cpp), as a query
// operator ({$jsonSchema: {...}} in find, $match and a collection's
// validator).
//
//   ASSIGN_OR_RETURN(auto schema, JsonSchema::Parse(spec));
//   if (!schema->Matches(doc)) Value why = schema->Explain(doc);
//
// Keywords: bsonType, type ("object", "array", "string", "number",
// "boolean", "null"; not "integer"), required, properties,
// patternProperties, additionalProperties, minProperties, maxProperties,
// dependencies, minimum, maximum, exclusiveMinimum, exclusiveMaximum,
// multipleOf, minLength, maxLength, pattern, items, additionalItems,
// minItems, maxItems, uniqueItems, enum, allOf, anyOf, oneOf, not, title,
// description. As in MongoDB, a keyword that is about one kind of value
// (minimum about numbers, pattern about strings, items about arrays,
// required about objects) holds for a value of any other type, and a
// property that is absent satisfies its subschema; arrays are never
// traversed implicitly. $ref, $schema, default, definitions, format and id
// are refused as MongoDB refuses them (9 FailedToParse "... is not
// currently supported").
//
// Parse errors (nothing is built): an unknown keyword, 9 FailedToParse
// "Unknown $jsonSchema keyword: <k>"; a keyword of the wrong type, 14
// TypeMismatch "$jsonSchema keyword '<k>' must be a <type>"; a bad value
// (an empty or duplicated required/enum, a negative length, a
// non-positive multipleOf, exclusiveMinimum without minimum, both type and
// bsonType), 9 FailedToParse; an unknown type name, 2 BadValue.
//
// A JsonSchema is immutable after Parse and may be used from many threads.
#ifndef TTLDB_QUERY_JSON_SCHEMA_H_
#define TTLDB_QUERY_JSON_SCHEMA_H_

#include <memory>

#include "absl/status/statusor.h"
#include "ttldb/value.h"

namespace ttldb {

class JsonSchema {
 public:
  // Parses the argument of $jsonSchema (an object; 14 TypeMismatch
  // "$jsonSchema must be an object" otherwise).
  static absl::StatusOr<std::shared_ptr<const JsonSchema>> Parse(
      const Value& spec);

  // Whether `doc` (the top-level document) satisfies the schema.
  bool Matches(const Value& doc) const;

  // Why `doc` fails the schema, as MongoDB 5.0+ reports it in a
  // DocumentValidationFailure's errInfo.details
  // (src/mongo/db/matcher/doc_validation_error.cpp): {operatorName:
  // "$jsonSchema", [title], [description], schemaRulesNotSatisfied: [...]}
  // with one entry per failing keyword ({operatorName: "required",
  // specifiedAs: {required: [...]}, missingProperties: [...]},
  // {operatorName: "properties", propertiesNotSatisfied: [{propertyName,
  // [description], details: [...]}]}, {operatorName: "bsonType",
  // specifiedAs, reason: "type did not match", consideredValue,
  // consideredType}, ...). Meaningful only when Matches(doc) is false.
  Value Explain(const Value& doc) const;

  // The schema as given.
  const Value& spec() const { return spec_; }

  struct Node;  // one (sub)schema; json_schema.cc
  ~JsonSchema();

 private:
  JsonSchema(Value spec, std::unique_ptr<Node> root);
  Value spec_;
  std::unique_ptr<Node> root_;
};

}  // namespace ttldb

#endif  // TTLDB_QUERY_JSON_SCHEMA_H_
