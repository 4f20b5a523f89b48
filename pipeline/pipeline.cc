#include "pipeline/pipeline.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "base/op_deadline.h"
#include "base/status.h"
#include "document/bson.h"
#include "document/vector_cursor.h"
#include "pipeline/stages.h"
#include "ttldb/json.h"

namespace ttldb {
namespace agg {
namespace {

using Parser = absl::Status (*)(const Value&, ParseContext*, StageList*);

struct Registered {
  const char* name;
  Parser parser;
};

// Every stage ttldb knows (MongoDB's REGISTER_DOCUMENT_SOURCE names).
constexpr Registered kStages[] = {
    {"$match", ParseMatch},
    {"$project", ParseProject},
    {"$addFields", ParseAddFields},
    {"$set", ParseAddFields},
    {"$unset", ParseUnset},
    {"$group", ParseGroup},
    {"$sort", ParseSort},
    {"$limit", ParseLimit},
    {"$skip", ParseSkip},
    {"$unwind", ParseUnwind},
    {"$count", ParseCount},
    {"$sortByCount", ParseSortByCount},
    {"$replaceRoot", ParseReplaceRoot},
    {"$replaceWith", ParseReplaceWith},
    {"$lookup", ParseLookup},
    {"$graphLookup", ParseGraphLookup},
    {"$unionWith", ParseUnionWith},
    {"$facet", ParseFacet},
    {"$bucket", ParseBucket},
    {"$sample", ParseSample},
    {"$out", ParseOut},
    {"$merge", ParseMerge},
    {"$documents", ParseDocuments},
    {"$collStats", ParseCollStats},
    {"$indexStats", ParseIndexStats},
    {"$setWindowFields", ParseSetWindowFields},
    {"$densify", ParseDensify},
    {"$fill", ParseFill},
};

// The stages that make the pipeline's first documents themselves, and so
// must come first (MongoDB's PositionRequirement::kFirst).
bool IsSourceStage(absl::string_view name) {
  return name == "$documents" || name == "$collStats" || name == "$indexStats";
}

// The interrupt point between two stages (MongoDB's checkForInterrupt as a
// pipeline pulls each document): maxTimeMS (50) and shutdown (11600) stop
// the run there. Every stage's output passes one, so a stage that loops
// over its input ($group, $sort, $facet, $count...) is checked once per
// input document, and one that emits many documents per input ($unwind,
// $lookup's sub-pipeline) once per output.
class InterruptPoint : public Cursor {
 public:
  explicit InterruptPoint(std::unique_ptr<Cursor> input)
      : input_(std::move(input)) {}
  absl::StatusOr<std::optional<Value>> Next() override {
    RETURN_IF_ERROR(CheckOpDeadline());
    return input_->Next();
  }

 private:
  std::unique_ptr<Cursor> input_;
};

// What a pipeline returns: each document within kMaxOutputDocumentBytes,
// else 10334 worded as BSONObj::_assertInvalid (src/mongo/bson/bsonobj.cpp)
// words it when mongod serializes the reply.
class OutputSizeCheck : public Cursor {
 public:
  explicit OutputSizeCheck(std::unique_ptr<Cursor> input)
      : input_(std::move(input)) {}
  absl::StatusOr<std::optional<Value>> Next() override {
    ASSIGN_OR_RETURN(std::optional<Value> doc, input_->Next());
    if (doc.has_value() && doc->is_object()) {
      size_t bytes = BsonDocumentSize(*doc);
      if (bytes > kMaxOutputDocumentBytes) return TooLarge(*doc, bytes);
    }
    return doc;
  }

 private:
  static absl::Status TooLarge(const Value& doc, size_t bytes) {
    std::string first = "EOO";
    if (!doc.object_fields().empty()) {
      const Field& f = doc.object_fields()[0];
      std::string value = ToJson(f.second);
      if (value.size() > 80) value = absl::StrCat(value.substr(0, 80), "...");
      first = absl::StrCat(f.first, ": ", value);
    }
    return StageError(
        kBSONObjectTooLarge,
        absl::StrFormat("BSONObj size: %d (0x%X) is invalid. Size must be "
                        "between 0 and %d(16MB) First element: %s",
                        bytes, bytes, kMaxOutputDocumentBytes, first));
  }

  std::unique_ptr<Cursor> input_;
};

// The operand of a stage ({$match: X} -> X).
const Value& Operand(const StageSpec& s) {
  return s.spec().object_fields()[0].second;
}

}  // namespace

absl::Status ParseStage(const Value& stage, ParseContext* ctx,
                        std::vector<std::shared_ptr<const StageSpec>>* out) {
  if (!stage.is_object()) {
    return StageError(kTypeMismatch,
                      "Each element of the 'pipeline' array must be an object");
  }
  if (stage.object_fields().size() != 1) {
    return StageError(40323,
                      "A pipeline stage specification object must contain "
                      "exactly one field.");
  }
  const std::string& name = stage.object_fields()[0].first;
  const Value& spec = stage.object_fields()[0].second;
  if (name == "$changeStream") {
    // A leading $changeStream never reaches here: the aggregate command
    // opens a change stream (commands/change_stream_cursor.h), the C++ API
    // has Collection::Watch. Anywhere else: document_source_change_stream.cpp
    // (40602).
    return StageError(kStageNotFirst,
                      "$changeStream is only valid as the first stage in a "
                      "pipeline");
  }
  for (const Registered& r : kStages) {
    if (name != r.name) continue;
    StageList parsed;
    RETURN_IF_ERROR(r.parser(spec, ctx, &parsed));
    for (size_t i = 0; i < parsed.size(); ++i) {
      // Expansions ($sortByCount) set their own specs.
      if (parsed[i]->spec().is_null()) {
        parsed[i]->set_spec(
            i == 0 ? stage
                   : Value::MakeObject({Field(std::string(parsed[i]->name()),
                                              Value::MakeObject())}));
      }
      out->push_back(std::move(parsed[i]));
    }
    return absl::OkStatus();
  }
  return StageError(
      40324, absl::StrCat("Unrecognized pipeline stage name: '", name, "'"));
}

std::vector<std::string> StageNames() {
  std::vector<std::string> names;
  for (const Registered& r : kStages) names.push_back(r.name);
  return names;
}

absl::StatusOr<Pipeline> Pipeline::Parse(const Value& stages,
                                         ParseContext* ctx) {
  if (!stages.is_array()) {
    return StageError(kTypeMismatch,
                      "'pipeline' option must be specified as an array");
  }
  Pipeline p;
  const auto& items = stages.array_items();
  for (size_t i = 0; i < items.size(); ++i) {
    RETURN_IF_ERROR(ParseStage(items[i], ctx, &p.stages_));
    absl::string_view name = p.stages_.back()->name();
    if ((name == "$out" || name == "$merge") && i + 1 != items.size()) {
      return StageError(40601, absl::StrCat(name,
                                            " can only be the final stage in "
                                            "the pipeline"));
    }
    if (IsSourceStage(name) && i != 0) {
      return StageError(40602, absl::StrCat(name,
                                            " is only valid as the first "
                                            "stage in a pipeline"));
    }
  }
  return p;
}

bool Pipeline::starts_with_source() const {
  return !stages_.empty() && IsSourceStage(stages_.front()->name());
}

bool Pipeline::writes() const {
  return !stages_.empty() && (stages_.back()->name() == "$out" ||
                              stages_.back()->name() == "$merge");
}

// {$and: filters}, the one filter, or {}.
static Value AndOf(Value::Array filters) {
  if (filters.empty()) return Value::MakeObject();
  if (filters.size() == 1) return std::move(filters[0]);
  return Value::MakeObject(
      {Field("$and", Value::MakeArray(std::move(filters)))});
}

absl::StatusOr<size_t> Pipeline::PushDown(absl::string_view collection,
                                          ScanRequest* request,
                                          RunContext* ctx) const {
  size_t i = 0;
  Value::Array matches;
  bool have_sort = false;
  size_t sort_at = 0;
  // A run of $match stages and at most one $sort ($match commutes with
  // $sort, as MongoDB's optimizer swaps them).
  for (; i < stages_.size(); ++i) {
    absl::string_view name = stages_[i]->name();
    if (name == "$match") {
      ASSIGN_OR_RETURN(Value filter, stages_[i]->BoundOperand(ctx));
      matches.push_back(std::move(filter));
    } else if (name == "$sort" && !have_sort) {
      request->sort = Operand(*stages_[i]);
      have_sort = true;
      sort_at = i;
    } else {
      break;
    }
  }
  request->filter = AndOf(matches);
  if (have_sort) {
    // A sort the find would do in memory stays a pipeline stage, where the
    // stage's bound and allowDiskUse apply; the find then takes only the
    // $match stages before it.
    ASSIGN_OR_RETURN(
        bool by_index,
        ctx->db->ProvidesSort(collection, request->filter, request->sort));
    if (!by_index) {
      request->sort = Value();
      matches.clear();
      for (size_t j = 0; j < sort_at; ++j) {
        ASSIGN_OR_RETURN(Value filter, stages_[j]->BoundOperand(ctx));
        matches.push_back(std::move(filter));
      }
      request->filter = AndOf(std::move(matches));
      return sort_at;
    }
  }
  // Then $skip / $limit, composed.
  int64_t skip = 0, limit = 0;  // limit 0: none
  for (; i < stages_.size(); ++i) {
    absl::string_view name = stages_[i]->name();
    const Value& n = Operand(*stages_[i]);
    int64_t k = n.is_number() ? static_cast<int64_t>(n.AsDouble()) : 0;
    if (name == "$skip") {
      if (limit > 0) {
        if (limit <= k) break;  // empty: leave it to the stage
        limit -= k;
      }
      skip += k;
    } else if (name == "$limit") {
      limit = limit > 0 ? std::min(limit, k) : k;
    } else {
      break;
    }
  }
  request->skip = skip;
  request->limit = limit;
  // The stage after the scan may read only some fields of its input, and
  // hide them from the rest ($group).
  if (i < stages_.size() && stages_[i]->InputFields() != nullptr) {
    request->fields = *stages_[i]->InputFields();
  }
  return i;
}

absl::StatusOr<std::unique_ptr<Cursor>> Pipeline::Open(
    absl::string_view collection, RunContext* ctx) const {
  if (starts_with_source()) {
    ASSIGN_OR_RETURN(std::unique_ptr<Cursor> out, OpenOver(nullptr, ctx));
    return std::unique_ptr<Cursor>(
        std::make_unique<OutputSizeCheck>(std::move(out)));
  }
  ScanRequest request;
  ASSIGN_OR_RETURN(size_t pushed, PushDown(collection, &request, ctx));
  ASSIGN_OR_RETURN(std::unique_ptr<Cursor> input,
                   ctx->db->Scan(collection, request));
  Pipeline rest;
  rest.stages_.assign(stages_.begin() + pushed, stages_.end());
  ASSIGN_OR_RETURN(std::unique_ptr<Cursor> out,
                   rest.OpenOver(std::move(input), ctx));
  return std::unique_ptr<Cursor>(
      std::make_unique<OutputSizeCheck>(std::move(out)));
}

absl::StatusOr<std::unique_ptr<Cursor>> Pipeline::OpenOver(
    std::unique_ptr<Cursor> input, RunContext* ctx) const {
  for (size_t i = 0; i < stages_.size(); ++i) {
    const StageSpec& s = *stages_[i];
    if (s.name() == "$sort" && i + 1 < stages_.size() &&
        stages_[i + 1]->name() == "$limit") {
      // $sort + $limit: a top-k sort (MongoDB coalesces them); the $limit
      // stage still runs after it.
      int64_t limit = static_cast<int64_t>(Operand(*stages_[i + 1]).AsDouble());
      ASSIGN_OR_RETURN(input,
                       OpenSortWithLimit(s, limit, std::move(input), ctx));
    } else {
      ASSIGN_OR_RETURN(input, s.Open(std::move(input), ctx));
    }
    input = std::make_unique<InterruptPoint>(std::move(input));
  }
  if (input == nullptr) {
    input = std::make_unique<VectorCursor>(std::vector<Value>());
  }
  return input;
}

absl::StatusOr<Value> Pipeline::Explain(absl::string_view collection,
                                        RunContext* ctx) const {
  Value::Array stages;
  size_t pushed = 0;
  if (!starts_with_source()) {
    ScanRequest request;
    ASSIGN_OR_RETURN(pushed, PushDown(collection, &request, ctx));
    ASSIGN_OR_RETURN(Value plan, ctx->db->ExplainScan(collection, request));
    Value::Array pushed_stages;
    for (size_t i = 0; i < pushed; ++i) {
      pushed_stages.push_back(stages_[i]->Explain());
    }
    // The find's explain (queryPlanner, executionStats), then which stages
    // it answers.
    Value::Object cursor =
        plan.is_object() ? plan.object_fields() : Value::Object{};
    cursor.emplace_back("pushedDown",
                        Value::MakeArray(std::move(pushed_stages)));
    stages.push_back(Value::MakeObject(
        {Field("$cursor", Value::MakeObject(std::move(cursor)))}));
  }
  for (size_t i = pushed; i < stages_.size(); ++i) {
    stages.push_back(stages_[i]->Explain());
  }
  return Value::MakeObject(
      {Field("stages", Value::MakeArray(std::move(stages)))});
}

}  // namespace agg
}  // namespace ttldb
