// $lookup (document_source_lookup.cpp): the equality form (localField /
// foreignField), the pipeline form (let / pipeline) and both together, over
// a collection of the same database. The foreign side is read through
// DatabaseAccess::Scan, so it uses the foreign collection's indexes and
// never sees expired documents.
#include <utility>

#include "absl/strings/str_cat.h"
#include "base/status.h"
#include "document/bson.h"
#include "document/path.h"
#include "pipeline/pipeline.h"
#include "pipeline/stages.h"

namespace ttldb {
namespace agg {
namespace {

struct LookupDef {
  std::string from;
  std::string local_field, foreign_field;  // "" in the pipeline-only form
  std::string as;
  std::vector<std::pair<int, std::shared_ptr<const Expression>>> let;
  std::optional<Pipeline> pipeline;
};

// The values the local path reaches (arrays expanded), or [null].
Value LocalValues(const Value& doc, const std::string& path) {
  std::vector<const Value*> found;
  CollectPathValues(doc, path, &found);
  Value::Array values;
  for (const Value* v : found) {
    if (v->is_array()) {
      for (const Value& e : v->array_items()) values.push_back(e);
    } else {
      values.push_back(*v);
    }
  }
  if (values.empty()) values.push_back(Value::Null());
  return Value::MakeArray(std::move(values));
}

class LookupStream : public MapStream {
 public:
  LookupStream(std::unique_ptr<Cursor> in, std::shared_ptr<const LookupDef> def,
               RunContext* ctx)
      : MapStream(std::move(in)), def_(std::move(def)), ctx_(ctx) {}

 protected:
  absl::StatusOr<std::optional<Value>> Map(Value doc) override {
    Value filter = Value::MakeObject();
    if (!def_->local_field.empty()) {
      filter = Value::MakeObject(
          {Field(def_->foreign_field,
                 Value::MakeObject(
                     {Field("$in", LocalValues(doc, def_->local_field))}))});
    }
    Value::Array matches;
    if (!def_->pipeline.has_value()) {
      ScanRequest req;
      req.filter = std::move(filter);
      ASSIGN_OR_RETURN(std::unique_ptr<Cursor> s,
                       ctx_->db->Scan(def_->from, req));
      RETURN_IF_ERROR(Drain(s.get(), &matches, def_->from));
    } else {
      RunContext sub = *ctx_;
      Variables vars = StageVariables(*ctx_);
      vars.set_root(&doc);
      for (const auto& [id, expr] : def_->let) {
        ASSIGN_OR_RETURN(std::optional<Value> v, expr->Evaluate(doc, &vars));
        sub.vars.Set(id, v.value_or(Value::Null()));
      }
      std::unique_ptr<Cursor> s;
      if (def_->local_field.empty()) {
        ASSIGN_OR_RETURN(s, def_->pipeline->Open(def_->from, &sub));
      } else {
        ScanRequest req;
        req.filter = std::move(filter);
        ASSIGN_OR_RETURN(std::unique_ptr<Cursor> scan,
                         ctx_->db->Scan(def_->from, req));
        ASSIGN_OR_RETURN(s, def_->pipeline->OpenOver(std::move(scan), &sub));
      }
      RETURN_IF_ERROR(Drain(s.get(), &matches, def_->from));
      ctx_->spill_files = sub.spill_files;
    }
    SetDottedField(&doc, def_->as, Value::MakeArray(std::move(matches)));
    return std::optional<Value>(std::move(doc));
  }

 private:
  // The joined array is bounded as MongoDB bounds it
  // (document_source_lookup.cpp: 4568), counted as the matches arrive.
  static absl::Status Drain(Cursor* s, Value::Array* out,
                            const std::string& from) {
    size_t bytes = 0;
    while (true) {
      ASSIGN_OR_RETURN(std::optional<Value> d, s->Next());
      if (!d.has_value()) return absl::OkStatus();
      bytes += BsonValueSize(*d);
      if (bytes > kMaxLookupResultBytes) {
        return StageError(4568,
                          absl::StrCat("Total size of documents in ", from,
                                       " matching pipeline's $lookup "
                                       "stage exceeds ",
                                       kMaxLookupResultBytes, " bytes"));
      }
      out->push_back(std::move(*d));
    }
  }

  std::shared_ptr<const LookupDef> def_;
  RunContext* ctx_;
};

class LookupSpec : public StageSpec {
 public:
  explicit LookupSpec(std::shared_ptr<const LookupDef> d)
      : def_(std::move(d)) {}
  absl::string_view name() const override { return "$lookup"; }
  absl::StatusOr<std::unique_ptr<Cursor>> Open(std::unique_ptr<Cursor> input,
                                               RunContext* ctx) const override {
    return std::unique_ptr<Cursor>(
        std::make_unique<LookupStream>(std::move(input), def_, ctx));
  }

 private:
  std::shared_ptr<const LookupDef> def_;
};

absl::Status LookupError(absl::string_view why) {
  return StageError(kFailedToParse, why);
}

}  // namespace

void SetDottedField(Value* doc, absl::string_view field, Value v) {
  size_t dot = field.find('.');
  if (dot == absl::string_view::npos) {
    doc->Set(field, std::move(v));
    return;
  }
  std::string head(field.substr(0, dot));
  Value* next = doc->GetMutable(head);
  if (next == nullptr || !next->is_object()) {
    doc->Set(head, Value::MakeObject());
    next = doc->GetMutable(head);
  }
  SetDottedField(next, field.substr(dot + 1), std::move(v));
}

absl::Status ParseLookup(const Value& spec, ParseContext* ctx, StageList* out) {
  if (!spec.is_object()) {
    return StageError(kFailedToParse,
                      "the $lookup specification must be an Object");
  }
  auto def = std::make_shared<LookupDef>();
  const Value* pipeline = nullptr;
  const Value* let = nullptr;
  bool have_from = false, have_as = false;
  for (const Field& f : spec.object_fields()) {
    const std::string& k = f.first;
    if (k == "pipeline") {
      if (!f.second.is_array()) {
        return LookupError(
            absl::StrCat("$lookup argument 'pipeline' must be "
                         "an array, is type ",
                         TypeName(f.second.type())));
      }
      pipeline = &f.second;
      continue;
    }
    if (k == "let") {
      if (!f.second.is_object()) {
        return LookupError(
            absl::StrCat("$lookup argument 'let' must be an "
                         "object, is type ",
                         TypeName(f.second.type())));
      }
      let = &f.second;
      continue;
    }
    if (k != "from" && k != "as" && k != "localField" && k != "foreignField") {
      return LookupError(absl::StrCat("unknown argument to $lookup: ", k));
    }
    if (!f.second.is_string()) {
      return LookupError(absl::StrCat("$lookup argument '", k,
                                      "' must be a string, is type ",
                                      TypeName(f.second.type())));
    }
    const std::string& s = f.second.string_value();
    if (k == "from") {
      def->from = s;
      have_from = true;
    } else if (k == "as") {
      def->as = s;
      have_as = true;
    } else if (k == "localField") {
      def->local_field = s;
    } else {
      def->foreign_field = s;
    }
  }
  if (!have_as) return LookupError("must specify 'as' field for a $lookup");
  if (!have_from) {
    return LookupError("must specify 'from' field for a $lookup");
  }
  if (def->local_field.empty() != def->foreign_field.empty()) {
    return LookupError(
        "$lookup requires both or neither of 'localField' and "
        "'foreignField' to be specified");
  }
  if (pipeline == nullptr && def->local_field.empty()) {
    return LookupError(
        "$lookup requires either 'pipeline' or both 'localField' and "
        "'foreignField' to be specified");
  }
  if (pipeline == nullptr && let != nullptr) {
    return LookupError("$lookup with 'let' must also specify 'pipeline'");
  }
  if (pipeline != nullptr) {
    std::vector<std::string> names;
    if (let != nullptr) {
      for (const Field& f : let->object_fields()) {
        RETURN_IF_ERROR(ValidateVariableName(f.first));
        ASSIGN_OR_RETURN(std::shared_ptr<const Expression> e,
                         ParseExpression(f.second, ctx));
        int id = ctx->Push(f.first);
        names.push_back(f.first);
        def->let.emplace_back(id, std::move(e));
      }
    }
    absl::StatusOr<Pipeline> p = Pipeline::Parse(*pipeline, ctx);
    for (auto it = names.rbegin(); it != names.rend(); ++it) ctx->Pop(*it);
    if (!p.ok()) return p.status();
    for (const auto& s : p->stages()) {
      if (s->name() == "$out" || s->name() == "$merge" ||
          s->name() == "$collStats" || s->name() == "$indexStats") {
        return StageError(51047, absl::StrCat(s->name(),
                                              " is not allowed within a "
                                              "$lookup's sub-pipeline"));
      }
    }
    def->pipeline = std::move(*p);
  }
  out->push_back(std::make_shared<LookupSpec>(std::move(def)));
  return absl::OkStatus();
}

}  // namespace agg
}  // namespace ttldb
