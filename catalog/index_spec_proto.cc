#include "catalog/index_spec_proto.h"

namespace ttldb {

IndexSpec IndexSpecFromProto(const proto::IndexSpec& stored) {
  IndexSpec spec;
  spec.id = stored.id();
  spec.name = stored.name();
  spec.key.reserve(stored.key_size());
  for (const proto::KeyField& field : stored.key()) {
    spec.key.push_back({field.path(), field.direction(), field.hashed()});
  }
  spec.unique = stored.unique();
  spec.sparse = stored.sparse();
  spec.hidden = stored.hidden();
  spec.partial_filter_json = stored.partial_filter_json();
  if (stored.has_expire_after_seconds()) {
    spec.expire_after_seconds = stored.expire_after_seconds();
  }
  if (stored.has_max_lifetime_seconds()) {
    spec.max_lifetime_seconds = stored.max_lifetime_seconds();
  }
  spec.reject_expired = stored.reject_expired();
  if (stored.has_multikey()) spec.multikey = stored.multikey();
  spec.collation_json = stored.collation_json();
  return spec;
}

void IndexSpecToProto(const IndexSpec& spec, proto::IndexSpec* out) {
  out->Clear();
  out->set_id(spec.id);
  out->set_name(spec.name);
  for (const IndexKeyField& field : spec.key) {
    proto::KeyField* stored = out->add_key();
    stored->set_path(field.path);
    stored->set_direction(field.direction);
    stored->set_hashed(field.hashed);
  }
  out->set_unique(spec.unique);
  out->set_sparse(spec.sparse);
  out->set_hidden(spec.hidden);
  out->set_partial_filter_json(spec.partial_filter_json);
  if (spec.expire_after_seconds.has_value()) {
    out->set_expire_after_seconds(*spec.expire_after_seconds);
  }
  if (spec.max_lifetime_seconds.has_value()) {
    out->set_max_lifetime_seconds(*spec.max_lifetime_seconds);
  }
  out->set_reject_expired(spec.reject_expired);
  if (spec.multikey.has_value()) out->set_multikey(*spec.multikey);
  out->set_collation_json(spec.collation_json);
}

}  // namespace ttldb
