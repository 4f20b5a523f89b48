// $collStats and $indexStats: source stages that report on the collection
// the pipeline runs on (src/mongo/db/pipeline/document_source_coll_stats.cpp,
// document_source_coll_stats.idl, storage_stats_spec.idl,
// document_source_index_stats.cpp). Parsing checks the spec as MongoDB's
// IDL does; the documents come from DatabaseAccess::CollStats /
// IndexStats when the pipeline runs.
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "base/status.h"
#include "document/vector_cursor.h"
#include "pipeline/stages.h"
#include "ttldb/json.h"

namespace ttldb {
namespace agg {
namespace {

// storageStats: {scale: number >= 1, verbose, waitForLock, numericOnly:
// bool}. Returns it with scale as an int.
absl::StatusOr<Value> ParseStorageStats(const Value& spec) {
  Value::Object out;
  for (const Field& f : spec.object_fields()) {
    const std::string path = absl::StrCat("$collStats.storageStats.", f.first);
    if (f.first == "scale") {
      if (!f.second.is_number()) {
        return IdlWrongTypes(path, f.second, "[long, int, decimal, double]");
      }
      const double d = f.second.AsDouble();
      // safeInt: a value that does not fit an int fails as out of range.
      if (!(d > -2147483649.0 && d < 2147483648.0)) {
        return StageError(kBadValue,
                          absl::StrCat("BSON field '", path,
                                       "' value cannot be represented as a "
                                       "32-bit integer"));
      }
      const int64_t scale = static_cast<int64_t>(d);
      if (scale < 1) {
        return StageError(51024,
                          absl::StrCat("BSON field 'scale' value must be >= "
                                       "1, actual value '",
                                       scale, "'"));
      }
      out.emplace_back("scale", Value::Int32(static_cast<int32_t>(scale)));
    } else if (f.first == "verbose" || f.first == "waitForLock" ||
               f.first == "numericOnly") {
      if (f.second.type() != ValueType::kBool) {
        return IdlWrongType(path, f.second, "bool");
      }
      out.push_back(f);
    } else {
      return IdlUnknownField(path);
    }
  }
  return Value::MakeObject(std::move(out));
}

class CollStatsSpec : public StageSpec {
 public:
  explicit CollStatsSpec(Value request) : request_(std::move(request)) {}
  absl::string_view name() const override { return "$collStats"; }
  absl::StatusOr<std::unique_ptr<Cursor>> Open(std::unique_ptr<Cursor>,
                                               RunContext* ctx) const override {
    ASSIGN_OR_RETURN(Value doc, ctx->db->CollStats(ctx->collection, request_));
    std::vector<Value> docs;
    docs.push_back(std::move(doc));
    return std::unique_ptr<Cursor>(
        std::make_unique<VectorCursor>(std::move(docs)));
  }

 private:
  const Value request_;
};

class IndexStatsSpec : public StageSpec {
 public:
  absl::string_view name() const override { return "$indexStats"; }
  absl::StatusOr<std::unique_ptr<Cursor>> Open(std::unique_ptr<Cursor>,
                                               RunContext* ctx) const override {
    ASSIGN_OR_RETURN(std::vector<Value> docs,
                     ctx->db->IndexStats(ctx->collection));
    return std::unique_ptr<Cursor>(
        std::make_unique<VectorCursor>(std::move(docs)));
  }
};

}  // namespace

absl::Status ParseCollStats(const Value& spec, ParseContext*, StageList* out) {
  if (!spec.is_object()) {
    return StageError(40166,
                      absl::StrCat("$collStats must take a nested object but "
                                   "found: $collStats: ",
                                   ToJson(spec)));
  }
  Value::Object request;
  for (const Field& f : spec.object_fields()) {
    const std::string path = absl::StrCat("$collStats.", f.first);
    if (f.first != "latencyStats" && f.first != "storageStats" &&
        f.first != "count" && f.first != "queryExecStats") {
      return IdlUnknownField(path);
    }
    if (!f.second.is_object()) {
      return IdlWrongType(path, f.second, "object");
    }
    if (f.first == "latencyStats") {
      for (const Field& g : f.second.object_fields()) {
        if (g.first != "histograms") {
          return IdlUnknownField(absl::StrCat(path, ".", g.first));
        }
        if (g.second.type() != ValueType::kBool) {
          return IdlWrongType(absl::StrCat(path, ".", g.first), g.second,
                              "bool");
        }
      }
      request.push_back(f);
    } else if (f.first == "storageStats") {
      ASSIGN_OR_RETURN(Value storage, ParseStorageStats(f.second));
      request.emplace_back(f.first, std::move(storage));
    } else {
      request.push_back(f);
    }
  }
  out->push_back(
      std::make_shared<CollStatsSpec>(Value::MakeObject(std::move(request))));
  return absl::OkStatus();
}

absl::Status ParseIndexStats(const Value& spec, ParseContext*, StageList* out) {
  if (!spec.is_object() || !spec.object_fields().empty()) {
    return StageError(28803,
                      "The $indexStats stage specification must be an empty "
                      "object");
  }
  out->push_back(std::make_shared<IndexStatsSpec>());
  return absl::OkStatus();
}

}  // namespace agg
}  // namespace ttldb
