#include "tools/shell/completion.h"

#include <algorithm>
#include <set>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"

namespace ttldb {
namespace shell {
namespace {

// The methods the evaluator knows (tools/shell/collection_methods.cc).
constexpr const char* kDbMethods[] = {
    "adminCommand",  "createCollection",
    "getCollection", "getCollectionNames",
    "getName",       "getSiblingCollection",
    "help",          "runCommand",
    "serverStatus",
};

constexpr const char* kCollectionMethods[] = {
    "count",         "countDocuments", "createIndex", "createIndexes",
    "deleteMany",    "deleteOne",      "distinct",    "drop",
    "dropIndex",     "dropIndexes",    "ensureIndex", "estimatedDocumentCount",
    "find",          "findOne",        "getFullName", "getIndexes",
    "getIndexSpecs", "getIndices",     "getName",     "insert",
    "insertMany",    "insertOne",      "remove",      "replaceOne",
    "stats",         "update",         "updateMany",  "updateOne",
    "validate",
};

constexpr const char* kGlobals[] = {
    "BinData",   "Date",          "Decimal128", "ISODate",    "MaxKey",
    "MinKey",    "NumberDecimal", "NumberInt",  "NumberLong", "ObjectId",
    "Timestamp", "UUID",          "db",         "exit",       "help",
    "print",     "printjson",     "quit",       "show",       "sleep",
    "use",
};

}  // namespace

std::vector<std::string> CompletionCandidates(
    absl::string_view word, const std::vector<std::string>& collections) {
  std::set<std::string> out;
  auto offer = [&](absl::string_view prefix, absl::string_view partial,
                   absl::string_view candidate) {
    if (absl::StartsWith(candidate, partial)) {
      out.insert(absl::StrCat(prefix, candidate));
    }
  };
  if (absl::StartsWith(word, "db.")) {
    const absl::string_view rest = word.substr(3);
    // "db.<partial>": collections and db methods. A collection name may
    // hold dots, so a known collection followed by "." means its methods.
    for (const std::string& c : collections) {
      offer("db.", rest, c);
      if (absl::StartsWith(rest, c + ".")) {
        const absl::string_view partial = rest.substr(c.size() + 1);
        for (const char* m : kCollectionMethods) {
          offer(absl::StrCat("db.", c, "."), partial, m);
        }
      }
    }
    const size_t dot = rest.rfind('.');
    if (dot == absl::string_view::npos) {
      for (const char* m : kDbMethods) offer("db.", rest, m);
    } else {
      // A collection that does not exist yet: its methods all the same.
      const std::string coll(rest.substr(0, dot));
      for (const char* m : kCollectionMethods) {
        offer(absl::StrCat("db.", coll, "."), rest.substr(dot + 1), m);
      }
    }
  } else if (word.find('.') == absl::string_view::npos) {
    for (const char* g : kGlobals) offer("", word, g);
  }
  return std::vector<std::string>(out.begin(), out.end());
}

}  // namespace shell
}  // namespace ttldb
