// Stored index-entry values (storage/entry_value.h). The first input byte
// picks the direction:
//  - even: the rest is a stored value read back from disk (possibly
//    corrupt). EntryValueId and ParseSiblings never read outside it; a
//    parsed id and keys lie inside the value; writing the parsed siblings
//    again and parsing that gives the same id and siblings.
//  - odd: the rest describes an id and sibling keys, which SiblingsWriter
//    writes; ParseSiblings gives them back exactly (or the value is the
//    plain id when the siblings are over kMaxSiblingBytes), and EntryValueId
//    always gives the id.
#include <string>
#include <vector>

#include "fuzz/fuzz_util.h"
#include "storage/entry_value.h"

namespace {
using namespace ttldb;

bool Inside(absl::string_view part, absl::string_view whole) {
  return part.empty() ||
         (part.data() >= whole.data() &&
          part.data() + part.size() <= whole.data() + whole.size());
}

constexpr size_t kPrefix = 3, kIdLen = 2;  // as the engine's entry keys
std::string Entry(absl::string_view key) {
  return "PFX" + std::string(key) + "ID";
}

void CheckSame(const std::vector<SiblingIndex>& a,
               const std::vector<SiblingIndex>& b) {
  FUZZ_CHECK(a.size() == b.size(), "sibling count");
  for (size_t i = 0; i < a.size(); ++i) {
    FUZZ_CHECK(a[i].index_id == b[i].index_id, "index id");
    FUZZ_CHECK(a[i].keys.size() == b[i].keys.size(), "key count");
    for (size_t j = 0; j < a[i].keys.size(); ++j) {
      FUZZ_CHECK(a[i].keys[j] == b[i].keys[j], "key bytes");
    }
  }
}

std::string Write(absl::string_view id, const std::vector<SiblingIndex>& s) {
  SiblingsWriter w;
  for (const SiblingIndex& index : s) {
    std::vector<std::string> keys;
    for (absl::string_view k : index.keys) keys.push_back(Entry(k));
    w.Add(index.index_id, keys, kPrefix, kIdLen);
  }
  return w.Finish(id);
}

void Decode(absl::string_view value) {
  absl::string_view id = EntryValueId(value);
  FUZZ_CHECK(Inside(id, value), "EntryValueId outside the value");
  absl::string_view parsed_id;
  std::vector<SiblingIndex> siblings;
  if (!ParseSiblings(value, &parsed_id, &siblings)) return;
  FUZZ_CHECK(parsed_id == id, "ParseSiblings and EntryValueId disagree");
  FUZZ_CHECK(Inside(parsed_id, value), "id outside the value");
  size_t body = 0;
  for (const SiblingIndex& index : siblings) {
    for (absl::string_view k : index.keys) {
      FUZZ_CHECK(Inside(k, value), "key outside the value");
      body += k.size();
    }
  }
  const std::string again = Write(parsed_id, siblings);
  if (again[0] != kSiblingsTag) return;  // over kMaxSiblingBytes
  absl::string_view id2;
  std::vector<SiblingIndex> siblings2;
  FUZZ_CHECK(ParseSiblings(again, &id2, &siblings2), "rewritten value");
  FUZZ_CHECK(id2 == parsed_id, "rewritten id");
  CheckSame(siblings, siblings2);
}

void Encode(absl::string_view in) {
  // id: up to 200 bytes, its first byte a bracket (<= 0xF0) as the key
  // codec writes it; then groups of (index id byte, key count byte, keys of
  // length byte + bytes).
  if (in.empty()) return;
  size_t id_len = static_cast<uint8_t>(in[0]) % 201;
  in.remove_prefix(1);
  if (id_len == 0 || in.size() < id_len) return;
  std::string id(in.substr(0, id_len));
  in.remove_prefix(id_len);
  id[0] = static_cast<char>(static_cast<uint8_t>(id[0]) % 0xF1);
  std::vector<SiblingIndex> siblings;
  std::vector<std::string> storage;
  storage.reserve(in.size());
  size_t body = 0;
  while (in.size() >= 2) {
    SiblingIndex index;
    index.index_id = static_cast<uint8_t>(in[0]) * 4099u;
    size_t n = static_cast<uint8_t>(in[1]) % 8;
    in.remove_prefix(2);
    for (size_t j = 0; j < n && !in.empty(); ++j) {
      size_t len = std::min<size_t>(static_cast<uint8_t>(in[0]), in.size() - 1);
      storage.emplace_back(in.substr(1, len));
      index.keys.push_back(storage.back());
      body += len;
      in.remove_prefix(1 + len);
    }
    siblings.push_back(std::move(index));
  }
  const std::string value = Write(id, siblings);
  FUZZ_CHECK(EntryValueId(value) == id, "EntryValueId of a written value");
  absl::string_view parsed_id;
  std::vector<SiblingIndex> parsed;
  if (value[0] != kSiblingsTag) {
    FUZZ_CHECK(value == id, "the plain form is the id");
    FUZZ_CHECK(!ParseSiblings(value, &parsed_id, &parsed), "plain parsed");
    return;
  }
  FUZZ_CHECK(ParseSiblings(value, &parsed_id, &parsed), "written value");
  FUZZ_CHECK(parsed_id == id, "parsed id");
  CheckSame(siblings, parsed);
  (void)body;
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  absl::string_view in(reinterpret_cast<const char*>(data) + 1, size - 1);
  if (data[0] % 2 == 0) {
    Decode(in);
  } else {
    Encode(in);
  }
  return 0;
}
