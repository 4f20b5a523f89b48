// $out and $merge into a collection of this database or, with
// {db, coll}, of another (document_source_out.cpp,
// document_source_merge.cpp; DatabaseAccess::DatabaseNamed reaches it).
//
// $out writes the results into a new temporary collection carrying the
// target's indexes, then drops the target and renames the temporary
// collection over it: a failure while writing (a duplicate key) leaves the
// target as it was. $merge writes document by document.
#include <atomic>
#include <utility>

#include "absl/strings/str_cat.h"
#include "base/status.h"
#include "document/path.h"
#include "pipeline/stages.h"
#include "ttldb/json.h"

namespace ttldb {
namespace agg {
namespace {

// Where $out / $merge write: `coll` of database `db` ("": the pipeline's).
struct Target {
  std::string db;
  std::string coll;
};

absl::StatusOr<Target> TargetName(absl::string_view stage, const Value& v,
                                  absl::string_view key) {
  if (v.is_string()) return Target{"", v.string_value()};
  if (v.is_object()) {
    const Value* coll = v.Get("coll");
    const Value* db = v.Get("db");
    if (coll != nullptr && coll->is_string() &&
        (db == nullptr || db->is_string())) {
      return Target{db == nullptr ? "" : db->string_value(),
                    coll->string_value()};
    }
  }
  return StageError(13111,
                    absl::StrCat(stage, " '", key,
                                 "' must be a string or an object {db, coll}"));
}

// The database a target names.
absl::StatusOr<DatabaseAccess*> TargetDatabase(const Target& t,
                                               RunContext* ctx) {
  if (t.db.empty()) return ctx->db;
  return ctx->db->DatabaseNamed(t.db);
}

class OutStream : public Cursor {
 public:
  OutStream(std::unique_ptr<Cursor> in, Target target, RunContext* c)
      : input_(std::move(in)), target_(std::move(target)), ctx_(c) {}
  absl::StatusOr<std::optional<Value>> Next() override {
    if (done_) return std::optional<Value>();
    done_ = true;
    // The temporary collection lives in the target's database, so that
    // the final rename stays within it (document_source_out.cpp).
    ASSIGN_OR_RETURN(db_, TargetDatabase(target_, ctx_));
    static std::atomic<uint64_t> counter{0};
    std::string tmp = absl::StrCat("tmp.agg_out.", counter.fetch_add(1));
    absl::Status s = Write(tmp);
    if (!s.ok()) {
      db_->Drop(tmp).IgnoreError();
      return s;
    }
    return std::optional<Value>();
  }

 private:
  absl::Status Write(const std::string& tmp) {
    RETURN_IF_ERROR(db_->Create(tmp));
    ASSIGN_OR_RETURN(std::vector<Value> indexes,
                     db_->ListIndexes(target_.coll));
    bool any = false;
    for (const Value& spec : indexes) {
      const Value* name = spec.Get("name");
      if (name != nullptr && name->is_string() &&
          name->string_value() == "_id_") {
        continue;
      }
      Value options = Value::MakeObject();
      for (const Field& f : spec.object_fields()) {
        if (f.first == "key" || f.first == "v" || f.first == "ns") continue;
        options.Set(f.first, f.second);
      }
      RETURN_IF_ERROR(db_->CreateIndex(tmp, *spec.Get("key"), options));
      any = true;
    }
    (void)any;
    while (true) {
      ASSIGN_OR_RETURN(std::optional<Value> d, input_->Next());
      if (!d.has_value()) break;
      RETURN_IF_ERROR(db_->Insert(tmp, *d));
    }
    ASSIGN_OR_RETURN(bool existed_tmp, db_->Drop(target_.coll));
    (void)existed_tmp;
    // An empty result leaves an empty target, as MongoDB's.
    return db_->Rename(tmp, target_.coll);
  }

  std::unique_ptr<Cursor> input_;
  Target target_;
  RunContext* ctx_;
  DatabaseAccess* db_ = nullptr;  // the target's database
  bool done_ = false;
};

class OutSpec : public StageSpec {
 public:
  explicit OutSpec(Target target) : target_(std::move(target)) {}
  absl::string_view name() const override { return "$out"; }
  absl::StatusOr<std::unique_ptr<Cursor>> Open(std::unique_ptr<Cursor> input,
                                               RunContext* ctx) const override {
    return std::unique_ptr<Cursor>(
        std::make_unique<OutStream>(std::move(input), target_, ctx));
  }

 private:
  Target target_;
};

// ---- $merge
// ---------------------------------------------------------------------

struct MergeDef {
  Target into;
  std::vector<std::string> on = {"_id"};
  std::string when_matched = "merge";
  std::string when_not_matched = "insert";
};

class MergeStream : public Cursor {
 public:
  MergeStream(std::unique_ptr<Cursor> in, std::shared_ptr<const MergeDef> def,
              RunContext* c)
      : input_(std::move(in)), def_(std::move(def)), ctx_(c) {}
  absl::StatusOr<std::optional<Value>> Next() override {
    if (db_ == nullptr) {
      ASSIGN_OR_RETURN(db_, TargetDatabase(def_->into, ctx_));
    }
    while (true) {
      ASSIGN_OR_RETURN(std::optional<Value> d, input_->Next());
      if (!d.has_value()) return d;
      RETURN_IF_ERROR(MergeOne(std::move(*d)));
    }
  }

 private:
  absl::Status MergeOne(Value doc) {
    if (doc.Get("_id") == nullptr) {
      Value::Object fields = {Field("_id", Value::Oid(ObjectId::Generate()))};
      for (Field& f : doc.mutable_object_fields()) fields.push_back(f);
      doc = Value::MakeObject(std::move(fields));
    }
    Value::Object filter;
    for (const std::string& f : def_->on) {
      const Value* v = GetPath(doc, f);
      if (v == nullptr || v->is_null() || v->is_array()) {
        return StageError(51132,
                          absl::StrCat("$merge write error: 'on' field '", f,
                                       "' cannot be missing, null, undefined "
                                       "or an array"));
      }
      filter.emplace_back(f, Value::MakeObject({Field("$eq", *v)}));
    }
    ScanRequest req;
    req.filter = Value::MakeObject(std::move(filter));
    req.limit = 2;
    ASSIGN_OR_RETURN(std::unique_ptr<Cursor> s,
                     db_->Scan(def_->into.coll, req));
    ASSIGN_OR_RETURN(std::optional<Value> target, s->Next());
    if (!target.has_value()) {
      if (def_->when_not_matched == "insert") {
        return db_->Insert(def_->into.coll, doc);
      }
      if (def_->when_not_matched == "discard") return absl::OkStatus();
      return StageError(13113,
                        "$merge could not find a matching document in the "
                        "target collection for at least one document in the "
                        "source collection");
    }
    ASSIGN_OR_RETURN(std::optional<Value> second, s->Next());
    if (second.has_value()) {
      return StageError(51124,
                        "$merge: 'on' field matched more than one document");
    }
    const std::string& m = def_->when_matched;
    if (m == "keepExisting") return absl::OkStatus();
    if (m == "fail") {
      return MongoError(absl::StatusCode::kAlreadyExists, kDuplicateKey,
                        absl::StrCat("$merge failed due to a DuplicateKey "
                                     "error :: caused by :: E11000 duplicate "
                                     "key error collection: ",
                                     def_->into.coll, " dup key: ",
                                     ToJson(*target->Get("_id"))));
    }
    Value replacement;
    if (m == "replace") {
      replacement = doc;
    } else {  // merge
      replacement = *target;
      for (const Field& f : doc.object_fields()) {
        replacement.Set(f.first, f.second);
      }
    }
    replacement.Set("_id", *target->Get("_id"));
    return db_->ReplaceById(def_->into.coll, replacement);
  }

  std::unique_ptr<Cursor> input_;
  std::shared_ptr<const MergeDef> def_;
  RunContext* ctx_;
  DatabaseAccess* db_ = nullptr;  // the target's database
};

class MergeSpec : public StageSpec {
 public:
  explicit MergeSpec(std::shared_ptr<const MergeDef> d) : def_(std::move(d)) {}
  absl::string_view name() const override { return "$merge"; }
  absl::StatusOr<std::unique_ptr<Cursor>> Open(std::unique_ptr<Cursor> input,
                                               RunContext* ctx) const override {
    return std::unique_ptr<Cursor>(
        std::make_unique<MergeStream>(std::move(input), def_, ctx));
  }

 private:
  std::shared_ptr<const MergeDef> def_;
};

}  // namespace

absl::Status ParseOut(const Value& spec, ParseContext*, StageList* out) {
  if (!spec.is_string() && !spec.is_object()) {
    return StageError(16990,
                      absl::StrCat("$out only supports a string or object "
                                   "argument, but found ",
                                   TypeName(spec.type())));
  }
  ASSIGN_OR_RETURN(Target target, TargetName("$out", spec, "coll"));
  out->push_back(std::make_shared<OutSpec>(std::move(target)));
  return absl::OkStatus();
}

absl::Status ParseMerge(const Value& spec, ParseContext*, StageList* out) {
  auto def = std::make_shared<MergeDef>();
  if (spec.is_string()) {
    def->into = Target{"", spec.string_value()};
  } else if (spec.is_object()) {
    bool have_into = false;
    for (const Field& f : spec.object_fields()) {
      if (f.first == "into") {
        ASSIGN_OR_RETURN(def->into, TargetName("$merge", f.second, "into"));
        have_into = true;
      } else if (f.first == "on") {
        def->on.clear();
        if (f.second.is_string()) {
          def->on.push_back(f.second.string_value());
        } else if (f.second.is_array() && !f.second.array_items().empty()) {
          for (const Value& v : f.second.array_items()) {
            if (!v.is_string()) {
              return StageError(51134,
                                "$merge 'on' array elements must be strings");
            }
            def->on.push_back(v.string_value());
          }
        } else {
          return StageError(51186,
                            "$merge 'on' field must be either a string or an "
                            "array of strings");
        }
      } else if (f.first == "whenMatched") {
        if (!f.second.is_string()) {
          return StageError(51191,
                            "$merge 'whenMatched' pipelines are not "
                            "supported by ttldb");
        }
        const std::string& m = f.second.string_value();
        if (m != "replace" && m != "keepExisting" && m != "merge" &&
            m != "fail") {
          return StageError(kBadValue,
                            absl::StrCat("Enumeration value '", m,
                                         "' for field "
                                         "'$merge.whenMatched' is not a "
                                         "valid value."));
        }
        def->when_matched = m;
      } else if (f.first == "whenNotMatched") {
        const std::string m =
            f.second.is_string() ? f.second.string_value() : "";
        if (m != "insert" && m != "discard" && m != "fail") {
          return StageError(kBadValue,
                            absl::StrCat("Enumeration value '", m,
                                         "' for field "
                                         "'$merge.whenNotMatched' is not a "
                                         "valid value."));
        }
        def->when_not_matched = m;
      } else if (f.first == "let") {
        return StageError(kBadValue, "$merge 'let' is not supported by ttldb");
      } else {
        return IdlUnknownField(absl::StrCat("$merge.", f.first));
      }
    }
    if (!have_into) {
      return IdlMissingField("$merge.into");
    }
  } else {
    return StageError(51182,
                      absl::StrCat("$merge only supports a string or object "
                                   "argument, not ",
                                   TypeName(spec.type())));
  }
  out->push_back(std::make_shared<MergeSpec>(std::move(def)));
  return absl::OkStatus();
}

}  // namespace agg
}  // namespace ttldb
