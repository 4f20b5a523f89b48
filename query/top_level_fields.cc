#include "query/top_level_fields.h"

namespace ttldb {
namespace {

bool IsDollarPrefixed(absl::string_view s) { return !s.empty() && s[0] == '$'; }

// Operators of the expression language that read the document without a
// field path naming what ($getField's field is a plain string, $function's
// body is JavaScript): the analysis gives up on them.
bool ReadsUnnamedFields(absl::string_view op) {
  return op == "$getField" || op == "$setField" || op == "$unsetField" ||
         op == "$function" || op == "$accumulator" || op == "$meta" ||
         op == "$where";
}

}  // namespace

TopLevelFields TopLevelFields::All() {
  TopLevelFields f;
  f.all_ = true;
  return f;
}

void TopLevelFields::AddPath(absl::string_view path) {
  if (all_) return;
  const size_t dot = path.find('.');
  absl::string_view first = path.substr(0, dot);
  if (first.empty()) return;
  if (names_.emplace(first).second) list_.emplace_back(first);
}

void TopLevelFields::Add(const TopLevelFields& other) {
  if (other.all_) {
    AddAll();
    return;
  }
  for (const std::string& n : other.list_) AddPath(n);
}

void TopLevelFields::AddFilter(const Value& filter) {
  if (all_ || !filter.is_object()) return;
  for (const Field& f : filter.object_fields()) {
    const std::string& key = f.first;
    if (!IsDollarPrefixed(key)) {
      // Whatever the condition ({$elemMatch: ...}, {$not: ...}), it reads
      // this path only.
      AddPath(key);
    } else if (key == "$and" || key == "$or" || key == "$nor") {
      if (!f.second.is_array()) continue;
      for (const Value& clause : f.second.array_items()) AddFilter(clause);
    } else if (key == "$expr") {
      AddExpression(f.second);
    } else if (key == "$comment" || key == "$alwaysTrue" ||
               key == "$alwaysFalse") {
      // No field.
    } else {
      // $where, $jsonSchema, $text, $sampleRate, ...
      AddAll();
    }
    if (all_) return;
  }
}

void TopLevelFields::AddExpression(const Value& e) {
  if (all_) return;
  if (e.is_string()) {
    absl::string_view s = e.string_value();
    if (!IsDollarPrefixed(s)) return;  // a literal
    if (s.size() > 1 && s[1] == '$') {
      // A variable: $$ROOT / $$CURRENT are the document (a $let that
      // rebinds CURRENT binds it to an expression walked here too).
      absl::string_view var = s.substr(2);
      const size_t dot = var.find('.');
      absl::string_view name = var.substr(0, dot);
      if (name == "ROOT" || name == "CURRENT") {
        if (dot == absl::string_view::npos) {
          AddAll();
        } else {
          AddPath(var.substr(dot + 1));
        }
      }
      return;
    }
    AddPath(s.substr(1));
    return;
  }
  if (e.is_array()) {
    for (const Value& item : e.array_items()) AddExpression(item);
    return;
  }
  if (!e.is_object()) return;
  const Value::Object& fields = e.object_fields();
  if (!fields.empty() && IsDollarPrefixed(fields[0].first)) {
    const std::string& op = fields[0].first;
    if (op == "$literal") return;
    if (ReadsUnnamedFields(op)) {
      AddAll();
      return;
    }
  }
  for (const Field& f : fields) {
    AddExpression(f.second);
    if (all_) return;
  }
}

void TopLevelFields::AddAccumulator(const Value& accumulator) {
  if (all_ || !accumulator.is_object()) return;
  for (const Field& f : accumulator.object_fields()) {
    if (ReadsUnnamedFields(f.first)) {
      AddAll();
      return;
    }
    // $top / $bottom / $topN / $bottomN: sortBy names document paths.
    if (f.second.is_object()) {
      const Value* sort_by = f.second.Get("sortBy");
      if (sort_by != nullptr) AddKeyPattern(*sort_by);
    }
    AddExpression(f.second);
  }
}

void TopLevelFields::AddKeyPattern(const Value& pattern) {
  if (all_ || !pattern.is_object()) return;
  for (const Field& f : pattern.object_fields()) {
    if (f.second.is_object()) {
      AddAll();  // {$meta: ...}
      return;
    }
    if (f.first == "$natural") continue;
    AddPath(f.first);
  }
}

}  // namespace ttldb
