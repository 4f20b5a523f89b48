#include "storage/insert_form.h"

namespace ttldb {

absl::string_view StoredInsertJson(absl::string_view input_json,
                                   bool id_was_first, const Value* generated_id,
                                   std::string* buffer) {
  if (input_json.empty()) return {};
  if (id_was_first) return input_json;
  if (generated_id == nullptr) return {};
  // The storage form has no whitespace: the input is "{}" or "{<fields>}".
  buffer->clear();
  buffer->reserve(input_json.size() + 48);
  buffer->append("{\"_id\":");
  AppendJson(*generated_id, JsonFormat::kStorage, buffer);
  if (input_json.size() == 2) {
    buffer->push_back('}');
  } else {
    buffer->push_back(',');
    buffer->append(input_json.data() + 1, input_json.size() - 1);
  }
  return *buffer;
}

}  // namespace ttldb
