#include "storage/change_log.h"

#include "absl/strings/str_cat.h"
#include "storage/keys.h"

namespace ttldb {
namespace {

constexpr uint8_t kRecordVersion = 1;
constexpr uint8_t kFlagExpired = 1;

void AppendU64(uint64_t v, std::string* out) {
  for (int shift = 56; shift >= 0; shift -= 8) {
    out->push_back(static_cast<char>(v >> shift));
  }
}

uint64_t ReadU64(absl::string_view b) {
  uint64_t v = 0;
  for (int k = 0; k < 8; ++k) v = (v << 8) | static_cast<uint8_t>(b[k]);
  return v;
}

uint32_t ReadU32(absl::string_view b) {
  uint32_t v = 0;
  for (int k = 0; k < 4; ++k) v = (v << 8) | static_cast<uint8_t>(b[k]);
  return v;
}

void AppendSection(char tag, absl::string_view bytes, std::string* out) {
  if (bytes.empty()) return;
  out->push_back(tag);
  AppendU32(static_cast<uint32_t>(bytes.size()), out);
  out->append(bytes.data(), bytes.size());
}

absl::Status BadLogRecord(absl::string_view why) {
  return absl::DataLossError(absl::StrCat("change log record: ", why));
}

}  // namespace

std::string ChangeLogKey(uint64_t seq) {
  std::string key(1, kChangeLogTag);
  AppendU64(seq, &key);
  return key;
}

void DeleteChangeRecord(absl::string_view key, leveldb::WriteBatch* batch) {
  batch->Delete(leveldb::Slice(key.data(), key.size()));
}

std::string ChangeLogPrefix() { return std::string(1, kChangeLogTag); }

bool ParseChangeLogKey(absl::string_view key, uint64_t* seq) {
  if (key.size() != 9 || key[0] != kChangeLogTag) return false;
  *seq = ReadU64(key.substr(1));
  return true;
}

std::string ChangeLogTrimmedKey() {
  return std::string(1, kMetaTag) + "clogtrim";
}

std::string EncodeSeq(uint64_t seq) {
  std::string out;
  AppendU64(seq, &out);
  return out;
}

bool DecodeSeq(absl::string_view bytes, uint64_t* seq) {
  if (bytes.size() != 8) return false;
  *seq = ReadU64(bytes);
  return true;
}

uint64_t NextChangeSeq(uint64_t last, absl::Time now) {
  const int64_t secs = absl::ToUnixSeconds(now);
  const uint64_t now_secs =
      secs <= 0 ? 0 : static_cast<uint64_t>(secs) & 0xffffffffu;
  const uint64_t last_secs = last >> 32;
  if (now_secs > last_secs) return (now_secs << 32) | 1;
  return last + 1;
}

std::string EncodeChangeRecord(const ChangeRecord& r) {
  std::string out;
  out.reserve(32 + r.coll.size() + r.key_json.size() + r.doc_json.size() +
              r.update_json.size() + r.pre_json.size() + r.op_json.size());
  out.push_back(static_cast<char>(kRecordVersion));
  out.push_back(static_cast<char>(r.op));
  out.push_back(static_cast<char>(r.expired ? kFlagExpired : 0));
  AppendU64(static_cast<uint64_t>(r.wall_millis), &out);
  AppendSection('n', r.coll, &out);
  AppendSection('t', r.to_coll, &out);
  AppendSection('k', r.key_json, &out);
  AppendSection('f', r.doc_json, &out);
  AppendSection('u', r.update_json, &out);
  AppendSection('p', r.pre_json, &out);
  AppendSection('o', r.op_json, &out);
  return out;
}

absl::Status DecodeChangeRecord(absl::string_view b, ChangeRecord* r) {
  *r = ChangeRecord();
  if (b.size() < 11) return BadLogRecord("too short");
  if (static_cast<uint8_t>(b[0]) != kRecordVersion)
    return BadLogRecord("version");
  r->op = static_cast<ChangeOp>(b[1]);
  r->expired = (static_cast<uint8_t>(b[2]) & kFlagExpired) != 0;
  r->wall_millis = static_cast<int64_t>(ReadU64(b.substr(3)));
  b.remove_prefix(11);
  while (!b.empty()) {
    if (b.size() < 5) return BadLogRecord("truncated section");
    const char tag = b[0];
    const uint32_t n = ReadU32(b.substr(1));
    b.remove_prefix(5);
    if (b.size() < n) return BadLogRecord("truncated section");
    const absl::string_view bytes = b.substr(0, n);
    b.remove_prefix(n);
    switch (tag) {
      case 'n':
        r->coll = std::string(bytes);
        break;
      case 't':
        r->to_coll = std::string(bytes);
        break;
      case 'k':
        r->key_json = std::string(bytes);
        break;
      case 'f':
        r->doc_json = std::string(bytes);
        break;
      case 'u':
        r->update_json = std::string(bytes);
        break;
      case 'p':
        r->pre_json = std::string(bytes);
        break;
      case 'o':
        r->op_json = std::string(bytes);
        break;
      default:
        break;  // a later version's section: skipped
    }
  }
  return absl::OkStatus();
}

}  // namespace ttldb
