#include "tools/import_export.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <optional>
#include <sstream>
#include <utility>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "base/status.h"
#include "ttldb/json.h"

namespace ttldb {
namespace {

// The TTL index under which `doc` is expired by more than the tolerance
// (the collection's own rules: Collection::TtlRules), or nullptr.
const IndexExpiry* ExpiredBeyondTolerance(
    const std::vector<IndexExpiry>& expiries, const ImportOptions& options) {
  for (const IndexExpiry& e : expiries) {
    // Expired by more than the tolerance: expired at now - tolerance - 1 ms
    // (dates have millisecond precision), so exactly at the tolerance is
    // still imported. A rejectExpired index has no tolerance.
    const absl::Time at =
        e.reject_expired
            ? options.now
            : options.now - options.skew_tolerance - absl::Milliseconds(1);
    if (e.expires_at <= at) return &e;
  }
  return nullptr;
}

// Accumulates documents and inserts them in ordered batches, remembering
// where each came from for error messages.
class BatchInserter {
 public:
  BatchInserter(Collection* c, const ImportOptions& options,
                ImportResult* result)
      : c_(c), options_(options), result_(result) {}

  // A full batch is written (unsynced) when the next document arrives, so
  // the final Flush always has a document to write synced.
  absl::Status Add(Value doc, std::string where) {
    if (docs_.size() >= options_.batch_size) RETURN_IF_ERROR(Flush());
    docs_.push_back(std::move(doc));
    where_.push_back(std::move(where));
    return absl::OkStatus();
  }

  // Inserts the pending documents. With `sync`, the last one is written
  // with WriteOptions::sync, which also syncs every earlier write of the
  // import (LevelDB syncs its whole log): what was imported survives a
  // power loss once this returns OK.
  absl::Status Flush(bool sync = false) {
    if (docs_.empty()) return absl::OkStatus();
    std::vector<DocArg> args(docs_.begin(), docs_.end());
    std::vector<Value> ids;
    absl::Span<const DocArg> all(args);
    absl::Status s =
        c_->InsertMany(sync ? all.first(all.size() - 1) : all, &ids);
    if (s.ok() && sync) {
      WriteOptions synced;
      synced.sync = true;
      s = c_->InsertMany(all.last(1), &ids, synced);
    }
    result_->imported += ids.size();
    if (!s.ok()) {
      const std::string& where =
          where_[std::min(ids.size(), where_.size() - 1)];
      // The engine's "(document i; n inserted before it)" counts within the
      // batch; the line number replaces it.
      absl::string_view message = s.message();
      const size_t note = message.rfind(" (document ");
      if (note != absl::string_view::npos &&
          absl::EndsWith(message, " inserted before it)")) {
        message = message.substr(0, note);
      }
      return absl::Status(s.code(), absl::StrCat(where, ": ", message));
    }
    docs_.clear();
    where_.clear();
    if (options_.progress) {
      options_.progress(result_->imported, result_->skipped);
    }
    return absl::OkStatus();
  }

 private:
  Collection* const c_;
  const ImportOptions& options_;
  ImportResult* const result_;
  std::vector<Value> docs_;
  std::vector<std::string> where_;
};

}  // namespace

std::string ToExportJson(const Value& doc) {
  std::string out;
  AppendJson(doc, JsonFormat::kExport, &out);
  return out;
}

absl::StatusOr<int64_t> ExportDocuments(Database* db, absl::string_view coll,
                                        const ExportOptions& options,
                                        std::ostream* out) {
  ASSIGN_OR_RETURN(std::unique_ptr<Cursor> cursor,
                   db->collection(coll).Find("{}"));
  int64_t n = 0;
  std::string line;
  while (true) {
    ASSIGN_OR_RETURN(std::optional<Value> doc, cursor->Next());
    if (!doc.has_value()) break;
    line.clear();
    if (options.canonical) {
      AppendJson(*doc, JsonFormat::kCanonical, &line);
    } else {
      AppendJson(*doc, JsonFormat::kExport, &line);
    }
    line.push_back('\n');
    out->write(line.data(), line.size());
    ++n;
  }
  out->flush();
  if (!*out) return absl::InternalError("export: write failed");
  return n;
}

absl::Status ExportIndexes(Database* db, absl::string_view coll,
                           std::ostream* out) {
  ASSIGN_OR_RETURN(std::vector<Value> specs,
                   db->collection(coll).ListIndexes());
  *out << "[";
  for (size_t i = 0; i < specs.size(); ++i) {
    *out << (i == 0 ? "\n  " : ",\n  ") << ToExportJson(specs[i]);
  }
  *out << "\n]\n";
  out->flush();
  if (!*out) return absl::InternalError("export: write failed");
  return absl::OkStatus();
}

absl::StatusOr<int> ImportIndexes(Database* db, absl::string_view coll,
                                  absl::string_view json) {
  ParseOptions po;
  po.max_bytes = std::max(po.max_bytes, json.size());
  absl::StatusOr<Value> parsed = ParseValue(json, po);
  if (!parsed.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("index file: ", parsed.status().message()));
  }
  if (!parsed->is_array()) {
    return absl::InvalidArgumentError(
        "index file: expected a JSON array of index specs (ttldb export "
        "--indexes)");
  }
  Collection& c = db->collection(coll);
  int n = 0;
  for (const Value& spec : parsed->array_items()) {
    const Value* key = spec.is_object() ? spec.Get("key") : nullptr;
    if (key == nullptr || !key->is_object()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "index file: spec ", n + 1, " has no key pattern: ", ToJson(spec)));
    }
    const Value* name = spec.Get("name");
    if (name != nullptr && name->is_string() &&
        name->string_value() == "_id_") {
      continue;
    }
    Value options = spec;
    options.Remove("key");
    options.Remove("ns");  // MongoDB 4.2's listIndexes added it
    absl::StatusOr<std::string> created = c.CreateIndex(*key, options);
    if (!created.ok()) {
      return absl::Status(created.status().code(),
                          absl::StrCat("index file: ", ToJson(spec), ": ",
                                       created.status().message()));
    }
    ++n;
  }
  return n;
}

std::string ImportResult::Summary() const {
  std::string s = absl::StrCat("imported ", imported,
                               imported == 1 ? " document" : " documents");
  if (skipped > 0) {
    absl::StrAppend(&s, ", skipped ", skipped, " already expired by more than ",
                    absl::ToInt64Seconds(skew_tolerance), " s (TTL index");
    if (skipped_by_index.size() == 1) {
      absl::StrAppend(&s, " ", skipped_by_index.begin()->first, ")");
    } else {
      std::vector<std::string> parts;
      for (const auto& [name, n] : skipped_by_index) {
        parts.push_back(absl::StrCat(name, ": ", n));
      }
      absl::StrAppend(&s, "es ", absl::StrJoin(parts, ", "), ")");
    }
  }
  return s;
}

absl::Status ImportDocuments(Database* db, absl::string_view coll,
                             std::istream* in, const ImportOptions& options,
                             ImportResult* result) {
  *result = ImportResult();
  result->skew_tolerance = options.skew_tolerance;
  if (options.drop) RETURN_IF_ERROR(db->DropCollection(coll).status());
  Collection& c = db->collection(coll);
  ASSIGN_OR_RETURN(ExpiryRules rules, c.TtlRules());
  BatchInserter inserter(&c, options, result);

  auto take = [&](Value doc, std::string where) -> absl::Status {
    if (!doc.is_object()) {
      RETURN_IF_ERROR(inserter.Flush(/*sync=*/true));
      return absl::InvalidArgumentError(
          absl::StrCat(where, ": expected a document, got ", ToJson(doc)));
    }
    const std::vector<IndexExpiry> expiries = rules.Expiries(doc);
    if (const IndexExpiry* e = ExpiredBeyondTolerance(expiries, options)) {
      ++result->skipped;
      ++result->skipped_by_index[e->index];
      return absl::OkStatus();
    }
    return inserter.Add(std::move(doc), std::move(where));
  };

  // A JSON array file (mongoexport --jsonArray) starts with '['.
  char first = 0;
  while (in->get(first) &&
         absl::ascii_isspace(static_cast<unsigned char>(first))) {
  }
  if (!*in) return absl::OkStatus();  // empty input
  in->unget();
  if (first == '[') {
    std::stringstream buffer;
    buffer << in->rdbuf();
    const std::string text = buffer.str();
    ParseOptions po;
    po.max_bytes = std::max(po.max_bytes, text.size());
    po.max_depth = kMaxNestingDepth + 1;
    absl::StatusOr<Value> all = ParseValue(text, po);
    if (!all.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("JSON array: ", all.status().message()));
    }
    size_t i = 0;
    for (Value& doc : all->mutable_array_items()) {
      RETURN_IF_ERROR(take(std::move(doc), absl::StrCat("document ", ++i)));
    }
    return inserter.Flush(/*sync=*/true);
  }

  std::string line;
  int64_t line_number = 0;
  while (std::getline(*in, line)) {
    ++line_number;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (absl::StripAsciiWhitespace(line).empty()) continue;
    absl::StatusOr<Value> doc = ParseDocument(line, StoredJsonParseOptions());
    if (!doc.ok()) {
      absl::Status flushed = inserter.Flush(/*sync=*/true);
      if (!flushed.ok()) return flushed;
      return absl::Status(
          doc.status().code(),
          absl::StrCat("line ", line_number, ": ", doc.status().message()));
    }
    RETURN_IF_ERROR(take(*std::move(doc), absl::StrCat("line ", line_number)));
  }
  if (in->bad()) return absl::DataLossError("import: read failed");
  return inserter.Flush(/*sync=*/true);
}

}  // namespace ttldb
