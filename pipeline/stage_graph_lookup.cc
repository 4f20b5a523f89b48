// $graphLookup (src/mongo/db/pipeline/document_source_graph_lookup.cpp): a
// breadth-first search over a collection of the same database. From the
// values of `startWith`, each round finds the documents whose
// `connectToField` equals one of the frontier's values (with
// `restrictSearchWithMatch`, through DatabaseAccess::Scan: the foreign
// collection's indexes, no expired documents); their `connectFromField`
// values make the next frontier, until no new document is found or
// `maxDepth` rounds have run. Each document is visited once (by _id), and
// `depthField` records the round that found it. The documents visited are
// bounded by the stage's memory bound (40099, as MongoDB's
// internalDocumentSourceGraphLookupMaxMemoryBytes, 100 MiB).
#include <cmath>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "base/op_deadline.h"
#include "base/status.h"
#include "document/bson.h"
#include "document/compare.h"
#include "document/path.h"
#include "document/safe_number.h"
#include "pipeline/pipeline.h"
#include "pipeline/stages.h"
#include "ttldb/json.h"

namespace ttldb {
namespace agg {
namespace {

struct GraphDef {
  std::string from, as, connect_from, connect_to;
  std::optional<std::string> depth_field;
  std::optional<int64_t> max_depth;
  std::shared_ptr<const Expression> start_with;
  // restrictSearchWithMatch as a $match stage, whose BoundOperand binds the
  // run's variables (a $lookup's `let`) into it; null: none.
  std::shared_ptr<const StageSpec> restrict;
};

// Every value `path` reaches in `doc`, arrays at its end expanded (MongoDB's
// document_path_support::visitAllValuesAtPath).
void VisitValuesAtPath(const Value& doc, const std::string& path,
                       std::vector<Value>* out) {
  std::vector<const Value*> found;
  CollectPathValues(doc, path, &found);
  for (const Value* v : found) {
    if (v->is_array()) {
      for (const Value& e : v->array_items()) out->push_back(e);
    } else {
      out->push_back(*v);
    }
  }
}

class GraphStream : public MapStream {
 public:
  GraphStream(std::unique_ptr<Cursor> in, std::shared_ptr<const GraphDef> d,
              RunContext* ctx)
      : MapStream(std::move(in)), def_(std::move(d)), ctx_(ctx) {}

 protected:
  absl::StatusOr<std::optional<Value>> Map(Value doc) override {
    Variables vars = StageVariables(*ctx_);
    vars.set_root(&doc);
    ASSIGN_OR_RETURN(std::optional<Value> start,
                     def_->start_with->Evaluate(doc, &vars));
    std::vector<Value> frontier;
    if (start.has_value()) {
      if (start->is_array()) {
        frontier = start->array_items();
      } else {
        frontier.push_back(std::move(*start));
      }
    }
    // Visited documents by _id, in the order found; the values queried so
    // far (a value asked again finds only visited documents).
    std::set<Value, ValueLess> visited_ids;
    std::set<Value, ValueLess> queried;
    Value::Array results;
    size_t bytes = 0;
    for (int64_t depth = 0;; ++depth) {
      Value::Array in;
      bool has_null = false;
      for (Value& v : frontier) {
        if (!queried.insert(v).second) continue;
        if (v.is_null()) has_null = true;
        in.push_back(std::move(v));
      }
      frontier.clear();
      if (in.empty()) break;
      // {$and: [restrictSearchWithMatch, {connectTo: {$in: [...]}}]}; with
      // null among the values, documents without the field are left out
      // (makeMatchStageFromFrontier).
      Value::Array conjuncts;
      if (def_->restrict != nullptr) {
        ASSIGN_OR_RETURN(Value restrict, def_->restrict->BoundOperand(ctx_));
        conjuncts.push_back(std::move(restrict));
      }
      conjuncts.push_back(Value::MakeObject({Field(
          def_->connect_to, Value::MakeObject({Field(
                                "$in", Value::MakeArray(std::move(in)))}))}));
      if (has_null) {
        conjuncts.push_back(Value::MakeObject(
            {Field(def_->connect_to,
                   Value::MakeObject({Field("$exists", Value::Bool(true))}))}));
      }
      ScanRequest req;
      req.filter = Value::MakeObject(
          {Field("$and", Value::MakeArray(std::move(conjuncts)))});
      ASSIGN_OR_RETURN(std::unique_ptr<Cursor> s,
                       ctx_->db->Scan(def_->from, req));
      bool found_new = false;
      while (true) {
        RETURN_IF_ERROR(CheckOpDeadline());
        ASSIGN_OR_RETURN(std::optional<Value> d, s->Next());
        if (!d.has_value()) break;
        const Value* id = d->Get("_id");
        if (id == nullptr) {
          return StageError(40271,
                            absl::StrCat("Documents in the '", def_->from,
                                         "' namespace must contain an "
                                         "_id for de-duplication in "
                                         "$graphLookup"));
        }
        if (!visited_ids.insert(*id).second) continue;
        found_new = true;
        // Before depthField changes the document (and moves what `id`
        // points into).
        bytes += BsonValueSize(*id);
        id = nullptr;
        if (def_->depth_field.has_value()) {
          SetDottedField(&*d, *def_->depth_field, Value::Int64(depth));
        }
        VisitValuesAtPath(*d, def_->connect_from, &frontier);
        bytes += BsonValueSize(*d);
        for (const Value& v : frontier) bytes += BsonValueSize(v);
        if (bytes >= ctx_->max_memory_bytes) {
          return StageError(40099,
                            "$graphLookup reached maximum memory consumption");
        }
        results.push_back(std::move(*d));
      }
      if (!found_new) break;
      if (def_->max_depth.has_value() && depth >= *def_->max_depth) break;
    }
    SetDottedField(&doc, def_->as, Value::MakeArray(std::move(results)));
    return std::optional<Value>(std::move(doc));
  }

 private:
  std::shared_ptr<const GraphDef> def_;
  RunContext* ctx_;
};

class GraphSpec : public StageSpec {
 public:
  explicit GraphSpec(std::shared_ptr<const GraphDef> d) : def_(std::move(d)) {}
  absl::string_view name() const override { return "$graphLookup"; }
  absl::StatusOr<std::unique_ptr<Cursor>> Open(std::unique_ptr<Cursor> input,
                                               RunContext* ctx) const override {
    return std::unique_ptr<Cursor>(
        std::make_unique<GraphStream>(std::move(input), def_, ctx));
  }

 private:
  std::shared_ptr<const GraphDef> def_;
};

}  // namespace

absl::Status ParseGraphLookup(const Value& spec, ParseContext* ctx,
                              StageList* out) {
  // LiteParsed::parse first.
  if (!spec.is_object()) {
    return StageError(kFailedToParse,
                      absl::StrCat("the $graphLookup stage specification must "
                                   "be an object, but found ",
                                   TypeName(spec.type())));
  }
  const Value* from = spec.Get("from");
  if (from == nullptr) {
    return StageError(kFailedToParse,
                      absl::StrCat("missing 'from' option to $graphLookup "
                                   "stage specification: ",
                                   ToJson(spec)));
  }
  if (!from->is_string() && !from->is_object()) {
    return StageError(kFailedToParse,
                      absl::StrCat("$graphLookup 'from' field must be a "
                                   "string, but found ",
                                   TypeName(from->type())));
  }
  if (from->is_object()) {
    // Only local.system.tenantMigration.oplogView, which ttldb has not.
    const Value* db = from->Get("db");
    const Value* coll = from->Get("coll");
    return StageError(
        kFailedToParse,
        absl::StrCat(
            "$graphLookup with syntax {from: {db:<>, coll:<>},..} is "
            "not supported for db: ",
            db != nullptr && db->is_string() ? db->string_value() : "",
            " and coll: ",
            coll != nullptr && coll->is_string() ? coll->string_value() : ""));
  }
  if (from->string_value().empty()) {
    // parseGraphLookupFromAndResolveNamespace: NamespaceString::isValid.
    return StageError(kInvalidNamespace,
                      "invalid $graphLookup namespace: the collection name "
                      "is empty");
  }
  auto def = std::make_shared<GraphDef>();
  for (const Field& f : spec.object_fields()) {
    const std::string& name = f.first;
    const Value& v = f.second;
    if (name == "startWith") {
      ASSIGN_OR_RETURN(def->start_with, ParseExpression(v, ctx));
      continue;
    }
    if (name == "maxDepth") {
      if (!v.is_number()) {
        return StageError(40100, absl::StrCat("maxDepth must be numeric, "
                                              "found type: ",
                                              TypeName(v.type())));
      }
      const int64_t n = SafeNumberLong(v);
      if (n < 0) {
        return StageError(40101, absl::StrCat("maxDepth requires a "
                                              "nonnegative argument, found: ",
                                              n));
      }
      if (v.type() != ValueType::kInt64 && v.type() != ValueType::kInt32 &&
          static_cast<double>(n) != v.AsDouble()) {
        return StageError(40102, absl::StrCat("maxDepth could not be "
                                              "represented as a long long: ",
                                              n));
      }
      def->max_depth = n;
      continue;
    }
    if (name == "restrictSearchWithMatch") {
      if (!v.is_object()) {
        return StageError(40185, absl::StrCat("restrictSearchWithMatch must be "
                                              "an object, found ",
                                              TypeName(v.type())));
      }
      StageList match;
      absl::Status parsed = ParseMatch(v, ctx, &match);
      if (!parsed.ok()) {
        // uassertStatusOKWithContext: the parser's code, the context first.
        return StageError(ErrorCode(parsed),
                          absl::StrCat("Failed to parse "
                                       "'restrictSearchWithMatch' option to "
                                       "$graphLookup :: caused by :: ",
                                       parsed.message()));
      }
      def->restrict = std::move(match[0]);
      continue;
    }
    if (name == "from" || name == "as" || name == "connectFromField" ||
        name == "depthField" || name == "connectToField") {
      if (!v.is_string()) {
        return StageError(40103,
                          absl::StrCat("expected string as argument "
                                       "for ",
                                       name, ", found: ", TypeName(v.type())));
      }
    }
    if (name == "from") {
      def->from = v.string_value();
    } else if (name == "as") {
      def->as = v.string_value();
    } else if (name == "connectFromField") {
      def->connect_from = v.string_value();
    } else if (name == "connectToField") {
      def->connect_to = v.string_value();
    } else if (name == "depthField") {
      RETURN_IF_ERROR(CheckFieldPath(v.string_value()));
      def->depth_field = v.string_value();
    } else {
      return StageError(
          40104, absl::StrCat("Unknown argument to $graphLookup: ", name));
    }
  }
  if (def->from.empty() || def->as.empty() || def->start_with == nullptr ||
      def->connect_from.empty() || def->connect_to.empty()) {
    return StageError(40105,
                      "$graphLookup requires 'from', 'as', 'startWith', "
                      "'connectFromField', and 'connectToField' to be "
                      "specified.");
  }
  RETURN_IF_ERROR(CheckFieldPath(def->as));
  RETURN_IF_ERROR(CheckFieldPath(def->connect_from));
  RETURN_IF_ERROR(CheckFieldPath(def->connect_to));
  out->push_back(std::make_shared<GraphSpec>(std::move(def)));
  return absl::OkStatus();
}

}  // namespace agg
}  // namespace ttldb
