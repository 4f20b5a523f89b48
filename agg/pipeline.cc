#include "agg/pipeline.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "agg/stages.h"
#include "base/status.h"

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
    {"$facet", ParseFacet},
    {"$bucket", ParseBucket},
    {"$sample", ParseSample},
    {"$out", ParseOut},
    {"$merge", ParseMerge},
    {"$documents", ParseDocuments},
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
    if (name == "$documents" && i != 0) {
      return StageError(40602,
                        "$documents is only valid as the first stage in a "
                        "pipeline");
    }
  }
  return p;
}

bool Pipeline::starts_with_documents() const {
  return !stages_.empty() && stages_.front()->name() == "$documents";
}

bool Pipeline::writes() const {
  return !stages_.empty() && (stages_.back()->name() == "$out" ||
                              stages_.back()->name() == "$merge");
}

size_t Pipeline::PushDown(ScanRequest* request) const {
  size_t i = 0;
  Value::Array matches;
  bool have_sort = false;
  // A run of $match stages and at most one $sort ($match commutes with
  // $sort, as MongoDB's optimizer swaps them).
  for (; i < stages_.size(); ++i) {
    absl::string_view name = stages_[i]->name();
    if (name == "$match") {
      matches.push_back(Operand(*stages_[i]));
    } else if (name == "$sort" && !have_sort) {
      request->sort = Operand(*stages_[i]);
      have_sort = true;
    } else {
      break;
    }
  }
  if (matches.size() == 1) {
    request->filter = matches[0];
  } else if (matches.size() > 1) {
    request->filter = Value::MakeObject(
        {Field("$and", Value::MakeArray(std::move(matches)))});
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
  return i;
}

absl::StatusOr<std::unique_ptr<DocStream>> Pipeline::Open(
    absl::string_view collection, RunContext* ctx) const {
  if (starts_with_documents()) return OpenOver(nullptr, ctx);
  ScanRequest request;
  size_t pushed = PushDown(&request);
  ASSIGN_OR_RETURN(std::unique_ptr<DocStream> input,
                   ctx->db->Scan(collection, request));
  Pipeline rest;
  rest.stages_.assign(stages_.begin() + pushed, stages_.end());
  return rest.OpenOver(std::move(input), ctx);
}

absl::StatusOr<std::unique_ptr<DocStream>> Pipeline::OpenOver(
    std::unique_ptr<DocStream> input, RunContext* ctx) const {
  for (size_t i = 0; i < stages_.size(); ++i) {
    const StageSpec& s = *stages_[i];
    if (s.name() == "$sort" && i + 1 < stages_.size() &&
        stages_[i + 1]->name() == "$limit") {
      // $sort + $limit: a top-k sort (MongoDB coalesces them); the $limit
      // stage still runs after it.
      int64_t limit = static_cast<int64_t>(Operand(*stages_[i + 1]).AsDouble());
      ASSIGN_OR_RETURN(input,
                       OpenSortWithLimit(s, limit, std::move(input), ctx));
      continue;
    }
    ASSIGN_OR_RETURN(input, s.Open(std::move(input), ctx));
  }
  if (input == nullptr) {
    input = std::make_unique<VectorStream>(std::vector<Value>());
  }
  return input;
}

absl::StatusOr<Value> Pipeline::Explain(absl::string_view collection,
                                        RunContext* ctx) const {
  Value::Array stages;
  size_t pushed = 0;
  if (!starts_with_documents()) {
    ScanRequest request;
    pushed = PushDown(&request);
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
