#include "storage/entry_value.h"

namespace ttldb {
namespace {

void PutVarint(uint64_t v, std::string* out) {
  while (v >= 0x80) {
    out->push_back(static_cast<char>(v | 0x80));
    v >>= 7;
  }
  out->push_back(static_cast<char>(v));
}

// Reads a varint of at most 5 bytes (values < 2^32) from the front of *in.
bool GetVarint32(absl::string_view* in, uint32_t* v) {
  uint32_t result = 0;
  for (int shift = 0; shift <= 28 && !in->empty(); shift += 7) {
    const uint8_t byte = static_cast<uint8_t>(in->front());
    in->remove_prefix(1);
    if (shift == 28 && byte > 0x0F) return false;  // over 32 bits
    result |= static_cast<uint32_t>(byte & 0x7F) << shift;
    if ((byte & 0x80) == 0) {
      *v = result;
      return true;
    }
  }
  return false;
}

// A length-prefixed byte string from the front of *in.
bool GetLengthPrefixed(absl::string_view* in, absl::string_view* out) {
  uint32_t len = 0;
  if (!GetVarint32(in, &len) || len > in->size()) return false;
  *out = in->substr(0, len);
  in->remove_prefix(len);
  return true;
}

}  // namespace

absl::string_view EntryValueId(absl::string_view value) {
  if (value.empty() || value[0] != kSiblingsTag) return value;
  absl::string_view rest = value.substr(1);
  absl::string_view id;
  if (!GetLengthPrefixed(&rest, &id)) return value;
  return id;
}

void SiblingsWriter::Add(uint32_t index_id,
                         const std::vector<std::string>& keys,
                         size_t prefix_len, size_t id_len) {
  PutVarint(index_id, &body_);
  PutVarint(keys.size(), &body_);
  for (const std::string& k : keys) {
    const size_t len = k.size() - prefix_len - id_len;
    PutVarint(len, &body_);
    body_.append(k, prefix_len, len);
  }
}

std::string SiblingsWriter::Finish(absl::string_view encoded_id) const {
  if (body_.size() > kMaxSiblingBytes) {
    return std::string(encoded_id.data(), encoded_id.size());
  }
  std::string out;
  out.reserve(1 + 5 + encoded_id.size() + body_.size());
  out.push_back(kSiblingsTag);
  PutVarint(encoded_id.size(), &out);
  out.append(encoded_id.data(), encoded_id.size());
  out.append(body_);
  return out;
}

bool ParseSiblings(absl::string_view value, absl::string_view* id,
                   std::vector<SiblingIndex>* siblings) {
  siblings->clear();
  if (value.empty() || value[0] != kSiblingsTag) return false;
  absl::string_view rest = value.substr(1);
  if (!GetLengthPrefixed(&rest, id)) return false;
  while (!rest.empty()) {
    SiblingIndex index;
    uint32_t n = 0;
    if (!GetVarint32(&rest, &index.index_id) || !GetVarint32(&rest, &n) ||
        n > rest.size()) {  // every key takes at least its length byte
      return false;
    }
    index.keys.resize(n);
    for (absl::string_view& key : index.keys) {
      if (!GetLengthPrefixed(&rest, &key)) return false;
    }
    siblings->push_back(std::move(index));
  }
  return true;
}

}  // namespace ttldb
