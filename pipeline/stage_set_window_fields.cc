// $setWindowFields (document_source_set_window_fields.cpp). As MongoDB
// desugars it, a partitionBy is evaluated into a temporary field, a $sort
// on {that field: 1, ...sortBy} orders the documents (the $sort stage's
// memory bound, 292 and allowDiskUse spilling), and the window stage then
// reads one partition at a time (consecutive documents with equal keys),
// computes each output field's window function over it
// (pipeline/window_function.h) and returns its documents in order with the
// fields set as $addFields sets them.
//
// A partition is held in memory, bounded by RunContext::max_memory_bytes
// (MongoDB's internalDocumentSourceSetWindowFieldsMaxMemoryBytes, 100 MiB):
// beyond it 5414201, allowDiskUse or not (MongoDB would spill the
// partition under allowDiskUse; ttldb does not).
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "base/status.h"
#include "document/bson.h"
#include "document/compare.h"
#include "pipeline/stages.h"
#include "pipeline/window_function.h"

namespace ttldb {
namespace agg {
namespace {

// document_source_set_window_fields.cpp: "we have to choose the tmp name
// carefully to make a collision unlikely in practice".
constexpr char kPartitionField[] = "__internal_setWindowFields_partition_key";

struct OutputField {
  std::string path;
  std::unique_ptr<const WindowFunction> fn;
};

struct WindowDef {
  std::shared_ptr<const Expression> partition_by;  // nullptr: one partition
  std::unique_ptr<WindowSort> sort;                // nullptr: no sortBy
  std::vector<OutputField> outputs;
  std::shared_ptr<StageSpec> sorter;  // the $sort before the window stage
};

// Sets (v) or removes (nullopt) the dotted `parts[i..]` under object `obj`
// as $addFields does: through arrays element by element, replacing scalars
// on the way with objects.
void SetParts(Value* obj, const std::vector<std::string>& parts, size_t i,
              const std::optional<Value>& v);
void SetPartsIn(Value* x, const std::vector<std::string>& parts, size_t i,
                const std::optional<Value>& v) {
  if (x->is_array()) {
    for (Value& e : x->mutable_array_items()) SetPartsIn(&e, parts, i, v);
    return;
  }
  if (!x->is_object()) *x = Value::MakeObject();
  SetParts(x, parts, i, v);
}
void SetParts(Value* obj, const std::vector<std::string>& parts, size_t i,
              const std::optional<Value>& v) {
  if (i + 1 == parts.size()) {
    if (v.has_value()) {
      obj->Set(parts[i], *v);
    } else {
      obj->Remove(parts[i]);
    }
    return;
  }
  Value* child = obj->GetMutable(parts[i]);
  if (child == nullptr) {
    if (!v.has_value()) return;
    obj->Set(parts[i], Value::MakeObject());
    child = obj->GetMutable(parts[i]);
  }
  SetPartsIn(child, parts, i + 1, v);
}

absl::Status PartitionArrayError() {
  return StageError(kTypeMismatch,
                    "An expression used to partition cannot evaluate to value "
                    "of type array");
}

// Evaluates partitionBy into kPartitionField (missing: null, as
// partition_key_comparator.h coerces it).
class PartitionKeyStream : public MapStream {
 public:
  PartitionKeyStream(std::unique_ptr<Cursor> in,
                     std::shared_ptr<const Expression> e, RunContext* ctx)
      : MapStream(std::move(in)), expr_(std::move(e)), vars_(ctx->vars) {}

 protected:
  absl::StatusOr<std::optional<Value>> Map(Value doc) override {
    vars_.set_root(&doc);
    ASSIGN_OR_RETURN(std::optional<Value> key, expr_->Evaluate(doc, &vars_));
    if (key.has_value() && key->is_array()) return PartitionArrayError();
    doc.Set(kPartitionField, key.value_or(Value::Null()));
    return std::optional<Value>(std::move(doc));
  }

 private:
  std::shared_ptr<const Expression> expr_;
  Variables vars_;
};

class WindowStream : public Cursor {
 public:
  WindowStream(std::unique_ptr<Cursor> in, std::shared_ptr<const WindowDef> def,
               RunContext* ctx)
      : input_(std::move(in)),
        def_(std::move(def)),
        ctx_(ctx),
        vars_(ctx->vars) {
    for (const OutputField& o : def_->outputs) {
      paths_.push_back(absl::StrSplit(o.path, '.'));
    }
  }

  absl::StatusOr<std::optional<Value>> Next() override {
    if (pos_ >= docs_.size()) {
      RETURN_IF_ERROR(LoadPartition());
      if (docs_.empty()) return std::optional<Value>();
    }
    size_t i = pos_++;
    Value doc = std::move(docs_[i]);
    for (size_t f = 0; f < paths_.size(); ++f) {
      SetParts(&doc, paths_[f], 0, outs_[f][i]);
    }
    return std::optional<Value>(std::move(doc));
  }

 private:
  absl::Status MemoryError(size_t used) const {
    return StageError(5414201,
                      absl::StrCat("Exceeded memory limit in "
                                   "DocumentSourceSetWindowFields, used ",
                                   used, " bytes but max allowed is ",
                                   ctx_->max_memory_bytes));
  }

  // Reads the next partition into docs_ and computes every output field.
  absl::Status LoadPartition() {
    docs_.clear();
    keys_.clear();
    pos_ = 0;
    size_t bytes = 0;
    std::optional<Value> key;
    while (true) {
      std::optional<Value> doc;
      Value k;
      if (pending_.has_value()) {
        doc = std::move(pending_);
        pending_.reset();
        k = std::move(pending_key_);
      } else if (!done_) {
        ASSIGN_OR_RETURN(doc, input_->Next());
        if (!doc.has_value()) done_ = true;
        if (doc.has_value() && def_->partition_by != nullptr) {
          const Value* p = doc->Get(kPartitionField);
          if (p != nullptr) k = *p;
          doc->Remove(kPartitionField);
        }
      }
      if (!doc.has_value()) break;
      if (key.has_value() && CompareValues(*key, k) != 0) {
        // The first document of the next partition.
        pending_ = std::move(doc);
        pending_key_ = std::move(k);
        break;
      }
      key = std::move(k);
      bytes += BsonValueSize(*doc);
      if (bytes > ctx_->max_memory_bytes) return MemoryError(bytes);
      docs_.push_back(std::move(*doc));
    }
    if (docs_.empty()) return absl::OkStatus();
    if (def_->sort != nullptr) {
      keys_.reserve(docs_.size());
      for (const Value& d : docs_) {
        ASSIGN_OR_RETURN(SortSpec::Key k, def_->sort->spec.KeyOf(d));
        keys_.push_back(std::move(k));
      }
    }
    WindowPartition p;
    p.docs = &docs_;
    p.sort = def_->sort.get();
    p.keys = &keys_;
    p.vars = &vars_;
    p.bytes = &bytes;
    p.max_bytes = ctx_->max_memory_bytes;
    outs_.assign(def_->outputs.size(), {});
    for (size_t f = 0; f < def_->outputs.size(); ++f) {
      RETURN_IF_ERROR(def_->outputs[f].fn->Compute(p, &outs_[f]));
    }
    return absl::OkStatus();
  }

  std::unique_ptr<Cursor> input_;
  std::shared_ptr<const WindowDef> def_;
  RunContext* ctx_;
  Variables vars_;
  std::vector<std::vector<std::string>> paths_;
  std::vector<Value> docs_;
  std::vector<SortSpec::Key> keys_;
  std::vector<std::vector<std::optional<Value>>> outs_;
  size_t pos_ = 0;
  std::optional<Value> pending_;
  Value pending_key_;
  bool done_ = false;
};

class SetWindowFieldsSpec : public StageSpec {
 public:
  explicit SetWindowFieldsSpec(std::shared_ptr<const WindowDef> def)
      : def_(std::move(def)) {}
  absl::string_view name() const override { return "$setWindowFields"; }
  absl::StatusOr<std::unique_ptr<Cursor>> Open(std::unique_ptr<Cursor> input,
                                               RunContext* ctx) const override {
    if (def_->partition_by != nullptr) {
      input = std::make_unique<PartitionKeyStream>(std::move(input),
                                                   def_->partition_by, ctx);
    }
    if (def_->sorter != nullptr) {
      ASSIGN_OR_RETURN(input, def_->sorter->Open(std::move(input), ctx));
    }
    return std::unique_ptr<Cursor>(
        std::make_unique<WindowStream>(std::move(input), def_, ctx));
  }

 private:
  std::shared_ptr<const WindowDef> def_;
};

// Whether one of two dotted paths is the other or a prefix of it.
bool Conflicts(absl::string_view a, absl::string_view b) {
  if (a.size() > b.size()) std::swap(a, b);
  return b.substr(0, a.size()) == a &&
         (b.size() == a.size() || b[a.size()] == '.');
}

}  // namespace

absl::Status ParseSetWindowFields(const Value& spec, ParseContext* ctx,
                                  StageList* out) {
  if (!spec.is_object()) {
    return StageError(kFailedToParse,
                      absl::StrCat("the $setWindowFields stage specification "
                                   "must be an object, found ",
                                   TypeName(spec.type())));
  }
  // The IDL spec (document_source_set_window_fields.idl): partitionBy,
  // sortBy (object), output (object, required).
  const Value* partition_by = nullptr;
  const Value* sort_by = nullptr;
  const Value* output = nullptr;
  for (const Field& f : spec.object_fields()) {
    if (f.first == "partitionBy") {
      partition_by = &f.second;
    } else if (f.first == "sortBy" || f.first == "output") {
      if (!f.second.is_object()) {
        return IdlWrongType(absl::StrCat("$setWindowFields.", f.first),
                            f.second, "object");
      }
      (f.first == "sortBy" ? sort_by : output) = &f.second;
    } else {
      return IdlUnknownField(absl::StrCat("$setWindowFields.", f.first));
    }
  }
  if (output == nullptr) {
    return IdlMissingField("$setWindowFields.output");
  }
  auto def = std::make_shared<WindowDef>();
  if (partition_by != nullptr) {
    ASSIGN_OR_RETURN(std::shared_ptr<const Expression> e,
                     ParseExpression(*partition_by, ctx));
    if (e->IsConstant()) {
      // A constant is one partition; an array one is an error.
      Value empty = Value::MakeObject();
      Variables vars(&empty, 0);
      ASSIGN_OR_RETURN(std::optional<Value> c, e->Evaluate(empty, &vars));
      if (c.has_value() && c->is_array()) return PartitionArrayError();
    } else {
      def->partition_by = std::move(e);
    }
  }
  Value::Object sort_fields;
  if (def->partition_by != nullptr) {
    sort_fields.emplace_back(kPartitionField, Value::Int32(1));
  }
  if (sort_by != nullptr) {
    ASSIGN_OR_RETURN(SortSpec s, SortSpec::Parse(*sort_by));
    auto ws = std::make_unique<WindowSort>();
    ws->spec = std::move(s);
    if (!ws->spec.fields().empty()) {
      ws->first_path = ws->spec.fields()[0].first;
      ws->first_direction = ws->spec.fields()[0].second;
      ASSIGN_OR_RETURN(
          ws->first_value,
          ParseExpression(Value::String(absl::StrCat("$", ws->first_path)),
                          ctx));
    }
    def->sort = std::move(ws);
    for (const Field& f : sort_by->object_fields()) sort_fields.push_back(f);
  }
  std::vector<std::string> seen;
  for (const Field& f : output->object_fields()) {
    RETURN_IF_ERROR(CheckFieldPath(f.first));
    for (const std::string& s : seen) {
      if (Conflicts(s, f.first)) {
        return StageError(6307900,
                          "$setWindowFields 'output' specification contains "
                          "two conflicting paths");
      }
    }
    seen.push_back(f.first);
    OutputField o;
    o.path = f.first;
    ASSIGN_OR_RETURN(
        o.fn, WindowFunction::Parse(f.first, f.second, def->sort.get(), ctx));
    def->outputs.push_back(std::move(o));
  }
  if (!sort_fields.empty()) {
    StageList sorter;
    RETURN_IF_ERROR(
        ParseSort(Value::MakeObject(std::move(sort_fields)), ctx, &sorter));
    def->sorter = sorter[0];
  }
  out->push_back(std::make_shared<SetWindowFieldsSpec>(std::move(def)));
  return absl::OkStatus();
}

}  // namespace agg
}  // namespace ttldb
