#include "query/projection.h"

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "base/status.h"
#include "query/path_values.h"

namespace ttldb {

// A trie of projected paths; a leaf is a projected field.
struct Projection::Node {
  bool leaf = false;
  std::map<std::string, std::unique_ptr<Node>> children;
};

namespace {

using Node = Projection::Node;

absl::Status Err(int code, absl::string_view msg) {
  return MongoError(absl::StatusCode::kInvalidArgument, code, msg);
}

// Adds `parts` to the trie, rejecting a path on the branch of another.
absl::Status AddPath(Node* root, const std::vector<std::string>& parts,
                     const std::string& path) {
  Node* cur = root;
  for (size_t k = 0; k < parts.size(); ++k) {
    if (cur->leaf) {
      return Err(
          31250,
          absl::StrCat("Path collision at ", path, " remaining portion ",
                       absl::StrJoin(parts.begin() + k, parts.end(), ".")));
    }
    auto& child = cur->children[parts[k]];
    if (child == nullptr) child = std::make_unique<Node>();
    cur = child.get();
  }
  if (cur->leaf || !cur->children.empty()) {
    return Err(31250, absl::StrCat("Path collision at ", path));
  }
  cur->leaf = true;
  return absl::OkStatus();
}

Value Include(const Node& node, const Value& obj);

Value IncludeArray(const Node& node, const Value& arr) {
  Value out = Value::MakeArray();
  for (const Value& item : arr.array_items()) {
    if (item.is_object()) {
      out.mutable_array_items().push_back(Include(node, item));
    } else if (item.is_array()) {
      out.mutable_array_items().push_back(IncludeArray(node, item));
    }
  }
  return out;
}

Value Include(const Node& node, const Value& obj) {
  Value out = Value::MakeObject();
  for (const auto& [name, v] : obj.object_fields()) {
    auto it = node.children.find(name);
    if (it == node.children.end()) continue;
    const Node& child = *it->second;
    if (child.leaf) {
      out.mutable_object_fields().emplace_back(name, v);
    } else if (v.is_object()) {
      out.mutable_object_fields().emplace_back(name, Include(child, v));
    } else if (v.is_array()) {
      out.mutable_object_fields().emplace_back(name, IncludeArray(child, v));
    }
  }
  return out;
}

Value Exclude(const Node& node, const Value& obj);

Value ExcludeArray(const Node& node, const Value& arr) {
  Value out = Value::MakeArray();
  for (const Value& item : arr.array_items()) {
    if (item.is_object()) {
      out.mutable_array_items().push_back(Exclude(node, item));
    } else if (item.is_array()) {
      out.mutable_array_items().push_back(ExcludeArray(node, item));
    } else {
      out.mutable_array_items().push_back(item);
    }
  }
  return out;
}

Value Exclude(const Node& node, const Value& obj) {
  Value out = Value::MakeObject();
  for (const auto& [name, v] : obj.object_fields()) {
    auto it = node.children.find(name);
    if (it == node.children.end()) {
      out.mutable_object_fields().emplace_back(name, v);
      continue;
    }
    const Node& child = *it->second;
    if (child.leaf) continue;
    if (v.is_object()) {
      out.mutable_object_fields().emplace_back(name, Exclude(child, v));
    } else if (v.is_array()) {
      out.mutable_object_fields().emplace_back(name, ExcludeArray(child, v));
    } else {
      out.mutable_object_fields().emplace_back(name, v);
    }
  }
  return out;
}

}  // namespace

absl::StatusOr<Projection> Projection::Parse(const Value& spec) {
  if (!spec.is_object()) {
    return Err(kBadValue, "projection must be an object");
  }
  // Pass 1: each field's polarity; the mode comes from the non-_id fields.
  std::optional<bool> mode;
  std::optional<bool> id_include;
  std::vector<std::pair<std::string, bool>> fields;
  for (const auto& [name, v] : spec.object_fields()) {
    bool include;
    if (v.type() == ValueType::kBool) {
      include = v.bool_value();
    } else if (v.is_number()) {
      include = v.AsDouble() != 0;
    } else {
      return Err(kBadValue,
                 absl::StrCat("ttldb does not support projection operators "
                              "or expressions: field '",
                              name, "'"));
    }
    if (name.empty() || name[0] == '$' ||
        name.find("..") != std::string::npos || name.back() == '.' ||
        name[0] == '.') {
      return Err(kBadValue,
                 absl::StrCat("invalid projection field name: '", name, "'"));
    }
    if (name == "_id") {
      id_include = include;
      continue;
    }
    if (mode.has_value() && *mode != include) {
      return Err(
          include ? 31253 : 31254,
          absl::StrCat("Cannot do ", include ? "inclusion" : "exclusion",
                       " on field ", name, " in ",
                       include ? "exclusion" : "inclusion", " projection"));
    }
    mode = include;
    fields.emplace_back(name, include);
  }
  Projection p;
  p.empty_ = spec.object_fields().empty();
  // {_id: 1} alone is an inclusion projection; {_id: 0} alone an exclusion.
  p.inclusion_ = mode.has_value() ? *mode : id_include.value_or(false);
  auto root = std::make_shared<Node>();
  for (const auto& [name, include] : fields) {
    RETURN_IF_ERROR(
        AddPath(root.get(), query_internal::SplitDotted(name), name));
  }
  const bool id_projected = root->children.count("_id") > 0;
  if (!id_projected) {
    const bool want_id = id_include.value_or(true);
    if (p.inclusion_ == want_id) {
      RETURN_IF_ERROR(AddPath(root.get(), {"_id"}, "_id"));
    }
  }
  p.root_ = std::move(root);
  return p;
}

Value Projection::Apply(const Value& doc) const {
  if (empty_ || !doc.is_object()) return doc;
  return inclusion_ ? Include(*root_, doc) : Exclude(*root_, doc);
}

}  // namespace ttldb
