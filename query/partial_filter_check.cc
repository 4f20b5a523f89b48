#include "query/partial_filter_check.h"

#include <string>

#include "absl/strings/str_cat.h"
#include "base/status.h"
#include "document/shell_format.h"
#include "ttldb/json.h"

namespace ttldb {
namespace {

using Kind = MatchExpr::Kind;

// BSONElement::toString(false) (bson/bsonelement.cpp): like the shell's,
// but objects and arrays are "{ a: 1 }" and "[ 1, 2 ]".
std::string ElementString(const Value& v) {
  if (v.is_object()) {
    if (v.object_fields().empty()) return "{}";
    std::string out = "{ ";
    bool first = true;
    for (const auto& [name, item] : v.object_fields()) {
      absl::StrAppend(&out, first ? "" : ", ", name, ": ", ElementString(item));
      first = false;
    }
    return out + " }";
  }
  if (v.is_array()) {
    if (v.array_items().empty()) return "[]";
    std::string out = "[ ";
    bool first = true;
    for (const Value& item : v.array_items()) {
      absl::StrAppend(&out, first ? "" : ", ", ElementString(item));
      first = false;
    }
    return out + " ]";
  }
  return ShellString(v);
}

// A document-level $and (the root, each entry of $and/$or/$nor) with one
// condition is that condition, as MongoDB's parser returns it.
const MatchExpr& Unwrap(const MatchExpr& e, bool document) {
  if (document && e.kind == Kind::kAnd && e.children.size() == 1) {
    return Unwrap(e.children[0], false);
  }
  return e;
}

void Debug(const MatchExpr& node, int indent, bool document, std::string* out);

void DebugChildren(const MatchExpr& e, int indent, bool documents,
                   std::string* out) {
  for (const MatchExpr& c : e.children) Debug(c, indent, documents, out);
}

// MatchExpression::debugString (matcher/expression_*.cpp): four spaces per
// level, one line per node.
void Debug(const MatchExpr& node, int indent, bool document, std::string* out) {
  const MatchExpr& e = Unwrap(node, document);
  const bool unwrapped = &e != &node;
  const std::string pad(4 * indent, ' ');
  const std::string& path = e.path;
  switch (e.kind) {
    case Kind::kAnd:
      absl::StrAppend(out, pad, "$and\n");
      DebugChildren(e, indent + 1, !document || unwrapped ? true : false, out);
      return;
    case Kind::kOr:
    case Kind::kNor:
      absl::StrAppend(out, pad, e.kind == Kind::kOr ? "$or\n" : "$nor\n");
      DebugChildren(e, indent + 1, true, out);
      return;
    case Kind::kNot:
      absl::StrAppend(out, pad, "$not\n");
      DebugChildren(e, indent + 1, false, out);
      return;
    case Kind::kEq:
    case Kind::kNe:
      if (e.kind == Kind::kNe) {
        absl::StrAppend(out, pad, "$not\n    ", pad);
      } else {
        *out += pad;
      }
      absl::StrAppend(out, path, " $eq ", ElementString(e.operand), "\n");
      return;
    case Kind::kGt:
    case Kind::kGte:
    case Kind::kLt:
    case Kind::kLte: {
      const char* name = e.kind == Kind::kGt    ? "$gt"
                         : e.kind == Kind::kGte ? "$gte"
                         : e.kind == Kind::kLt  ? "$lt"
                                                : "$lte";
      absl::StrAppend(out, pad, path, " ", name, " ", ElementString(e.operand),
                      "\n");
      return;
    }
    case Kind::kIn:
    case Kind::kNin: {
      if (e.kind == Kind::kNin) {
        absl::StrAppend(out, pad, "$not\n    ", pad);
      } else {
        *out += pad;
      }
      absl::StrAppend(out, path, " $in [ ");
      for (const Value& v : e.operands) {
        if (v.type() != ValueType::kRegex) {
          absl::StrAppend(out, ElementString(v), " ");
        }
      }
      for (const Value& v : e.operands) {
        if (v.type() == ValueType::kRegex) {
          absl::StrAppend(out, "/", v.regex_value().pattern, "/",
                          v.regex_value().options, " ");
        }
      }
      *out += "]\n";
      return;
    }
    case Kind::kExists:
      if (!e.operand.bool_value()) absl::StrAppend(out, pad, "$not\n    ");
      absl::StrAppend(out, pad, path, " exists\n");
      return;
    case Kind::kType:
      absl::StrAppend(out, pad, path, " type: ", ElementString(e.operand),
                      "\n");
      return;
    case Kind::kAll:
      if (e.children.empty()) {
        absl::StrAppend(out, pad, "$alwaysFalse\n");
        return;
      }
      absl::StrAppend(out, pad, "$and\n");
      DebugChildren(e, indent + 1, false, out);
      return;
    case Kind::kSize:
      absl::StrAppend(out, pad, path, " $size : ", e.operand.int64_value(),
                      "\n");
      return;
    case Kind::kElemMatch:
      absl::StrAppend(out, pad, path, " $elemMatch ",
                      e.elem_match_object ? "(obj)" : "(value)", "\n");
      DebugChildren(e, indent + 1, false, out);
      return;
    case Kind::kRegex:
      absl::StrAppend(out, pad, path, " regex /",
                      e.operand.regex_value().pattern, "/",
                      e.operand.regex_value().options, "\n");
      return;
    case Kind::kMod:
      absl::StrAppend(
          out, pad, path, " mod ", e.operand.array_items()[0].int64_value(),
          " % x == ", e.operand.array_items()[1].int64_value(), "\n");
      return;
    case Kind::kAlwaysTrue:
      absl::StrAppend(out, pad, "$alwaysTrue\n");
      return;
    case Kind::kAlwaysFalse:
      absl::StrAppend(out, pad, "$alwaysFalse\n");
      return;
    case Kind::kExpr:
      absl::StrAppend(out, pad, "$expr ", ToJson(e.operand), "\n");
      return;
    case Kind::kJsonSchema:
      absl::StrAppend(out, pad, "$jsonSchema ", ToJson(e.operand), "\n");
      return;
  }
}

absl::Status NotSupported(const MatchExpr& e, bool document) {
  std::string debug;
  Debug(e, 0, document, &debug);
  return MongoError(
      absl::StatusCode::kInvalidArgument, kCannotCreateIndex,
      absl::StrCat("Expression not supported in partial index: ", debug));
}

// `document`: `node` is a document-level $and (see Unwrap).
absl::Status CheckFilterNode(const MatchExpr& node, int level, bool document) {
  const MatchExpr& e = Unwrap(node, document);
  if (level + 1 > kPartialFilterMaxDepth) {
    return MongoError(absl::StatusCode::kInvalidArgument, kCannotCreateIndex,
                      absl::StrCat("partialFilterExpression depth may not "
                                   "exceed ",
                                   kPartialFilterMaxDepth));
  }
  switch (e.kind) {
    case Kind::kAnd: {
      // A document's $and holds its conditions; an explicit $and (one of
      // its conditions) holds documents.
      const bool children_are_documents = !(document && &e == &node);
      for (const MatchExpr& c : e.children) {
        RETURN_IF_ERROR(CheckFilterNode(c, level + 1, children_are_documents));
      }
      return absl::OkStatus();
    }
    case Kind::kOr:
      for (const MatchExpr& c : e.children) {
        RETURN_IF_ERROR(CheckFilterNode(c, level + 1, true));
      }
      return absl::OkStatus();
    case Kind::kAll:
      if (e.children.empty()) return NotSupported(e, false);
      for (const MatchExpr& c : e.children) {
        RETURN_IF_ERROR(CheckFilterNode(c, level + 1, false));
      }
      return absl::OkStatus();
    case Kind::kEq:
    case Kind::kGt:
    case Kind::kGte:
    case Kind::kLt:
    case Kind::kLte:
    case Kind::kIn:
    case Kind::kType:
      return absl::OkStatus();
    case Kind::kExists:
      if (e.operand.bool_value()) return absl::OkStatus();
      return NotSupported(e, false);
    default:
      return NotSupported(e, false);
  }
}

}  // namespace

absl::Status CheckPartialFilter(const Filter& filter) {
  return CheckFilterNode(filter.root(), 0, true);
}

}  // namespace ttldb
