#include "catalog/catalog_repair.h"

#include <algorithm>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "catalog/compile.h"
#include "catalog/entry_edits.h"

namespace ttldb {
namespace {

// Keeps the indexes of `info` that compile; the others' names go to
// *dropped.
void KeepCompilingIndexes(proto::CollectionInfo* info,
                          std::vector<std::string>* dropped) {
  proto::CollectionInfo kept = *info;
  kept.clear_indexes();
  uint32_t max_index_id = 0;
  for (const proto::IndexSpec& spec : info->indexes()) {
    proto::CollectionInfo one = kept;
    *one.add_indexes() = spec;
    if (CompileCollection(one).ok()) {
      *kept.add_indexes() = spec;
      max_index_id = std::max(max_index_id, spec.id());
    } else {
      dropped->push_back(spec.name());
    }
  }
  kept.set_next_index_id(std::max(kept.next_index_id(), max_index_id + 1));
  *info = std::move(kept);
}

}  // namespace

CatalogRepairPlan PlanCatalogRepair(
    const CatalogRepairInput& input,
    const std::function<bool(const std::string&)>& name_taken) {
  CatalogRepairPlan plan;
  plan.next_collection_id = input.next_collection_id;
  auto new_id = [&plan] { return plan.next_collection_id++; };
  std::set<uint32_t> known = input.known_ids;
  std::set<uint32_t> orphans;  // ids holding documents no entry names
  for (const auto& [id, n] : input.document_ids) {
    if (known.count(id) == 0) orphans.insert(id);
  }
  auto put = [&](proto::CollectionInfo info, std::string line) {
    known.insert(info.id());
    orphans.erase(info.id());
    plan.entries.push_back(std::move(info));
    plan.report.push_back(std::move(line));
  };
  // Every name below is a key of input.damage.
  auto what = [&](const std::string& name) -> const std::string& {
    return input.damage.at(name);
  };
  auto count = [](const std::map<uint32_t, int64_t>& ids, uint32_t id) {
    auto it = ids.find(id);
    return it == ids.end() ? int64_t{0} : it->second;
  };

  // Entries that parse: grouped by id (a group of several shares storage).
  std::map<uint32_t, std::vector<proto::CollectionInfo>> parsed;
  std::vector<std::string> unknown;  // entries whose id cannot be known
  for (const auto& [name, damage] : input.damage) {
    proto::CollectionInfo info;
    auto bytes = input.damaged_entries.find(name);
    if (bytes != input.damaged_entries.end() && bytes->second.has_value() &&
        info.ParseFromString(*bytes->second) && info.name() == name &&
        info.id() != 0) {
      parsed[info.id()].push_back(std::move(info));
    } else {
      unknown.push_back(name);
    }
  }
  for (auto& [id, infos] : parsed) {
    std::sort(infos.begin(), infos.end(),
              [](const auto& a, const auto& b) { return a.name() < b.name(); });
    for (size_t i = 0; i < infos.size(); ++i) {
      proto::CollectionInfo info = infos[i];
      std::vector<std::string> dropped;
      KeepCompilingIndexes(&info, &dropped);
      std::string line = absl::StrCat("collection '", info.name(),
                                      "': ", what(info.name()), "; ");
      if (i == 0) {
        absl::StrAppend(&line, "kept its documents (id ", id, ")");
      } else {
        info.set_id(new_id());
        absl::StrAppend(&line, "the documents under id ", id, " stay in '",
                        infos[0].name(), "'; it is now empty (id ", info.id(),
                        ")");
      }
      if (!dropped.empty()) {
        absl::StrAppend(&line,
                        "; indexes dropped: ", absl::StrJoin(dropped, ", "));
      }
      put(std::move(info), std::move(line));
    }
  }
  // Entries that do not parse: their documents can be found only when a
  // single damaged entry meets a single id nobody names.
  const bool pair = unknown.size() == 1 && orphans.size() == 1;
  for (const std::string& name : unknown) {
    proto::CollectionInfo info = NewCollectionEntry(name);
    std::string line =
        absl::StrCat("collection '", name, "': ", what(name), "; ");
    if (pair) {
      info.set_id(*orphans.begin());
      absl::StrAppend(&line, "given back the ",
                      count(input.document_ids, info.id()),
                      " documents stored under id ", info.id(),
                      ", the only id no catalog entry names; its indexes "
                      "(other than _id) are lost: create them again");
    } else {
      info.set_id(new_id());
      absl::StrAppend(&line,
                      "its documents cannot be told apart from others "
                      "nobody names; it is now empty (any documents are in "
                      "lost_and_found collections)");
    }
    put(std::move(info), std::move(line));
  }
  // Documents under ids no entry names: a lost_and_found collection each.
  for (uint32_t id : std::set<uint32_t>(orphans)) {
    std::string name = absl::StrCat("lost_and_found.", id);
    for (int n = 2; name_taken(name) || input.damage.count(name) > 0; ++n) {
      name = absl::StrCat("lost_and_found.", id, "_", n);
    }
    proto::CollectionInfo info = NewCollectionEntry(name);
    info.set_id(id);
    std::string line = absl::StrCat(
        "documents under id ", id,
        ", which no catalog entry names: ", count(input.document_ids, id),
        " kept in new collection '", name, "'");
    put(std::move(info), std::move(line));
  }
  // Index entries under ids no entry names: garbage.
  for (const auto& [id, n] : input.index_ids) {
    if (known.count(id) == 0) plan.garbage_index_ids.emplace_back(id, n);
  }
  return plan;
}

std::string GarbageIndexLine(uint32_t id, int64_t n) {
  return absl::StrCat(n, " index entries under id ", id,
                      ", which no catalog entry names: deleted");
}

}  // namespace ttldb
