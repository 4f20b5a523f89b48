// $unwind (document_source_unwind.cpp): one output document per element
// of the array at a path.
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "base/op_deadline.h"
#include "base/status.h"
#include "pipeline/stages.h"

namespace ttldb {
namespace agg {
namespace {

struct UnwindDef {
  std::vector<std::string> path;  // without the '$'
  std::string index_field;        // "" for none
  bool preserve = false;
};

// The value at `path` without traversing arrays (MongoDB's
// Document::getNestedField), or nullptr.
const Value* Nested(const Value& doc, const std::vector<std::string>& path) {
  const Value* v = &doc;
  for (const std::string& p : path) {
    if (!v->is_object()) return nullptr;
    v = v->Get(p);
    if (v == nullptr) return nullptr;
  }
  return v;
}

// The value at `path`, mutable (the path was found by Nested).
Value* NestedMutable(Value* doc, const std::vector<std::string>& path) {
  Value* v = doc;
  for (const std::string& p : path) v = v->GetMutable(p);
  return v;
}

// Sets `path` in `doc` to `v` (the objects on the way exist: the path was
// found).
void SetNested(Value* doc, const std::vector<std::string>& path, size_t i,
               Value v) {
  if (i + 1 == path.size()) {
    doc->Set(path[i], std::move(v));
    return;
  }
  SetNested(doc->GetMutable(path[i]), path, i + 1, std::move(v));
}

// Sets a possibly dotted field name, creating objects as needed.
void SetDotted(Value* doc, absl::string_view field, Value v) {
  std::vector<std::string> parts = absl::StrSplit(field, '.');
  Value* cur = doc;
  for (size_t i = 0; i + 1 < parts.size(); ++i) {
    Value* next = cur->GetMutable(parts[i]);
    if (next == nullptr || !next->is_object()) {
      cur->Set(parts[i], Value::MakeObject());
      next = cur->GetMutable(parts[i]);
    }
    cur = next;
  }
  cur->Set(parts.back(), std::move(v));
}

// Linear in its output: the array being unwound is moved out of its
// document once (leaving null in its place), so each output copies the rest
// of the document and takes its element by move; copying the whole input
// per element made n outputs cost n copies of an n-element array.
class UnwindStream : public Cursor {
 public:
  UnwindStream(std::unique_ptr<Cursor> in, std::shared_ptr<const UnwindDef> def)
      : input_(std::move(in)), def_(std::move(def)) {}

  absl::StatusOr<std::optional<Value>> Next() override {
    while (true) {
      if (current_.has_value()) {
        if (index_ < items_.size()) {
          // An array of millions of elements is one input document: the
          // interrupt point (maxTimeMS, shutdown) is per output.
          RETURN_IF_ERROR(CheckOpDeadline());
          Value out =
              index_ + 1 == items_.size() ? std::move(*current_) : *current_;
          SetNested(&out, def_->path, 0, std::move(items_[index_]));
          if (!def_->index_field.empty()) {
            SetDotted(&out, def_->index_field,
                      Value::Int64(static_cast<int64_t>(index_)));
          }
          ++index_;
          return std::optional<Value>(std::move(out));
        }
        current_.reset();
        items_.clear();
      }
      ASSIGN_OR_RETURN(std::optional<Value> doc, input_->Next());
      if (!doc.has_value()) return doc;
      const Value* v = Nested(*doc, def_->path);
      if (v != nullptr && v->is_array() && !v->array_items().empty()) {
        // Take the array out; null holds its place (and field order).
        Value* slot = NestedMutable(&*doc, def_->path);
        items_ = std::move(slot->mutable_array_items());
        *slot = Value::Null();
        current_ = std::move(doc);
        index_ = 0;
        continue;
      }
      bool empty_or_null =
          v == nullptr || v->is_null() || (v->is_array());  // [] here
      if (empty_or_null && !def_->preserve) continue;
      // A non-array value passes through as its own element; missing, null
      // and [] pass only under preserveNullAndEmptyArrays (an empty array
      // leaves the field out).
      Value out = std::move(*doc);
      if (v != nullptr && v->is_array()) {
        // preserve with []: MongoDB removes the field.
        Value* parent = &out;
        for (size_t i = 0; i + 1 < def_->path.size(); ++i) {
          parent = parent->GetMutable(def_->path[i]);
        }
        parent->Remove(def_->path.back());
      }
      if (!def_->index_field.empty()) {
        SetDotted(&out, def_->index_field,
                  empty_or_null ? Value::Null() : Value::Int64(0));
        if (!empty_or_null) {
          // A non-array value: includeArrayIndex is null (MongoDB).
          SetDotted(&out, def_->index_field, Value::Null());
        }
      }
      return std::optional<Value>(std::move(out));
    }
  }

 private:
  std::unique_ptr<Cursor> input_;
  std::shared_ptr<const UnwindDef> def_;
  // The document being unwound, its array taken out into items_.
  std::optional<Value> current_;
  Value::Array items_;
  size_t index_ = 0;
};

class UnwindSpec : public StageSpec {
 public:
  explicit UnwindSpec(std::shared_ptr<const UnwindDef> d)
      : def_(std::move(d)) {}
  absl::string_view name() const override { return "$unwind"; }
  absl::StatusOr<std::unique_ptr<Cursor>> Open(std::unique_ptr<Cursor> input,
                                               RunContext*) const override {
    return std::unique_ptr<Cursor>(
        std::make_unique<UnwindStream>(std::move(input), def_));
  }

 private:
  std::shared_ptr<const UnwindDef> def_;
};

}  // namespace

absl::Status ParseUnwind(const Value& spec, ParseContext*, StageList* out) {
  auto def = std::make_shared<UnwindDef>();
  std::string path;
  if (spec.is_string()) {
    path = spec.string_value();
  } else if (spec.is_object()) {
    bool have_path = false;
    for (const Field& f : spec.object_fields()) {
      if (f.first == "path") {
        if (!f.second.is_string()) {
          return StageError(28808,
                            absl::StrCat("expected a string as the path for "
                                         "$unwind stage, got ",
                                         TypeName(f.second.type())));
        }
        path = f.second.string_value();
        have_path = true;
      } else if (f.first == "preserveNullAndEmptyArrays") {
        if (f.second.type() != ValueType::kBool) {
          return StageError(28809,
                            absl::StrCat("expected a boolean for the "
                                         "preserveNullAndEmptyArrays option "
                                         "to $unwind stage, got ",
                                         TypeName(f.second.type())));
        }
        def->preserve = f.second.bool_value();
      } else if (f.first == "includeArrayIndex") {
        if (!f.second.is_string()) {
          return StageError(28810,
                            absl::StrCat("expected a non-empty string for the "
                                         "includeArrayIndex option to $unwind "
                                         "stage, got ",
                                         TypeName(f.second.type())));
        }
        const std::string& s = f.second.string_value();
        if (s.empty()) {
          return StageError(28810,
                            "expected a non-empty string for the "
                            "includeArrayIndex option to $unwind stage, got "
                            "string");
        }
        if (s[0] == '$') {
          return StageError(28822,
                            absl::StrCat("includeArrayIndex option to $unwind "
                                         "stage should not be prefixed with a "
                                         "'$': ",
                                         s));
        }
        def->index_field = s;
      } else {
        return StageError(
            28811,
            absl::StrCat("unrecognized option to $unwind stage: ", f.first));
      }
    }
    if (!have_path) {
      return StageError(28812, "No path specified to $unwind stage");
    }
  } else {
    return StageError(15981,
                      absl::StrCat("expected either a string or an object as "
                                   "specification for $unwind stage, got ",
                                   TypeName(spec.type())));
  }
  if (path.empty()) {
    return StageError(40719, "No path specified to $unwind stage");
  }
  if (path[0] != '$') {
    return StageError(28818,
                      absl::StrCat("path option to $unwind stage should be "
                                   "prefixed with a '$': ",
                                   path));
  }
  def->path = absl::StrSplit(path.substr(1), '.');
  for (const std::string& p : def->path) {
    if (p.empty() || p[0] == '$') {
      return StageError(p.empty() ? 15998 : 16410,
                        p.empty() ? "FieldPath field names may not be empty "
                                    "strings."
                                  : "FieldPath field names may not start "
                                    "with '$'. Consider using $getField or "
                                    "$setField.");
    }
  }
  out->push_back(std::make_shared<UnwindSpec>(std::move(def)));
  return absl::OkStatus();
}

}  // namespace agg
}  // namespace ttldb
