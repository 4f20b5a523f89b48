#include "catalog/index_spec_proto.h"

#include <string>

#include "gtest/gtest.h"

namespace ttldb {
namespace {

// A spec with every field set to a value other than its default.
IndexSpec FullSpec() {
  IndexSpec spec;
  spec.id = 7;
  spec.name = "a_1_b_hashed";
  spec.key = {{"a", -1, false}, {"b", 1, true}};
  spec.unique = true;
  spec.sparse = true;
  spec.hidden = true;
  spec.partial_filter_json = R"({"a":{"$gt":5}})";
  spec.expire_after_seconds = 3600.5;
  spec.max_lifetime_seconds = 86400;
  spec.reject_expired = true;
  spec.multikey = false;
  spec.collation_json = R"({"locale":"fr","strength":2})";
  return spec;
}

TEST(IndexSpecProtoTest, EveryFieldRoundTrips) {
  const IndexSpec spec = FullSpec();
  proto::IndexSpec stored;
  IndexSpecToProto(spec, &stored);
  EXPECT_EQ(stored.id(), 7u);
  EXPECT_EQ(stored.name(), "a_1_b_hashed");
  ASSERT_EQ(stored.key_size(), 2);
  EXPECT_EQ(stored.key(0).path(), "a");
  EXPECT_EQ(stored.key(0).direction(), -1);
  EXPECT_FALSE(stored.key(0).hashed());
  EXPECT_EQ(stored.key(1).path(), "b");
  EXPECT_EQ(stored.key(1).direction(), 1);
  EXPECT_TRUE(stored.key(1).hashed());
  EXPECT_TRUE(stored.unique());
  EXPECT_TRUE(stored.sparse());
  EXPECT_TRUE(stored.hidden());
  EXPECT_EQ(stored.partial_filter_json(), spec.partial_filter_json);
  ASSERT_TRUE(stored.has_expire_after_seconds());
  EXPECT_EQ(stored.expire_after_seconds(), 3600.5);
  ASSERT_TRUE(stored.has_max_lifetime_seconds());
  EXPECT_EQ(stored.max_lifetime_seconds(), 86400);
  EXPECT_TRUE(stored.reject_expired());
  ASSERT_TRUE(stored.has_multikey());
  EXPECT_FALSE(stored.multikey());
  EXPECT_EQ(stored.collation_json(), spec.collation_json);

  EXPECT_EQ(IndexSpecFromProto(stored), spec);
}

TEST(IndexSpecProtoTest, AbsentOptionalsStayAbsent) {
  IndexSpec spec;
  spec.id = 1;
  spec.name = "a_1";
  spec.key = {{"a", 1, false}};
  proto::IndexSpec stored;
  IndexSpecToProto(spec, &stored);
  EXPECT_FALSE(stored.has_expire_after_seconds());
  EXPECT_FALSE(stored.has_max_lifetime_seconds());
  EXPECT_FALSE(stored.has_multikey());

  const IndexSpec back = IndexSpecFromProto(stored);
  EXPECT_FALSE(back.expire_after_seconds.has_value());
  EXPECT_FALSE(back.max_lifetime_seconds.has_value());
  EXPECT_FALSE(back.multikey.has_value());
  EXPECT_EQ(back, spec);
}

TEST(IndexSpecProtoTest, PresentZeroValuesStayPresent) {
  // 0 and false are values, not absence: an expireAfterSeconds of 0 expires
  // at once, and a present multikey: false enables the fast paths.
  proto::IndexSpec stored;
  stored.set_expire_after_seconds(0);
  stored.set_max_lifetime_seconds(0);
  stored.set_multikey(false);
  const IndexSpec spec = IndexSpecFromProto(stored);
  EXPECT_EQ(spec.expire_after_seconds, 0.0);
  EXPECT_EQ(spec.max_lifetime_seconds, 0);
  EXPECT_EQ(spec.multikey, false);

  proto::IndexSpec back;
  IndexSpecToProto(spec, &back);
  EXPECT_TRUE(back.has_expire_after_seconds());
  EXPECT_TRUE(back.has_max_lifetime_seconds());
  EXPECT_TRUE(back.has_multikey());
}

TEST(IndexSpecProtoTest, StoredBytesRoundTrip) {
  // A catalog entry read and written back is the same bytes on disk.
  IndexSpec with_options = FullSpec();
  IndexSpec plain;
  plain.id = 2;
  plain.name = "b_1";
  plain.key = {{"b", 1, false}};
  for (const IndexSpec& spec : {with_options, plain}) {
    proto::IndexSpec stored;
    IndexSpecToProto(spec, &stored);
    const std::string bytes = stored.SerializeAsString();
    proto::IndexSpec parsed;
    ASSERT_TRUE(parsed.ParseFromString(bytes));
    proto::IndexSpec rewritten;
    IndexSpecToProto(IndexSpecFromProto(parsed), &rewritten);
    EXPECT_EQ(rewritten.SerializeAsString(), bytes) << spec.name;
  }
}

TEST(IndexSpecProtoTest, ToProtoReplacesWhatWasThere) {
  proto::IndexSpec stored;
  stored.set_multikey(true);
  stored.add_key()->set_path("old");
  IndexSpec spec;
  spec.name = "a_1";
  spec.key = {{"a", 1, false}};
  IndexSpecToProto(spec, &stored);
  EXPECT_FALSE(stored.has_multikey());
  ASSERT_EQ(stored.key_size(), 1);
  EXPECT_EQ(stored.key(0).path(), "a");
}

}  // namespace
}  // namespace ttldb
