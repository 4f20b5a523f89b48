#include "storage/entry_value.h"

#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace ttldb {
namespace {

// Full entry keys: 3 bytes of prefix, the key, then the 2-byte id "ID".
std::vector<std::string> Entries(const std::vector<std::string>& keys) {
  std::vector<std::string> out;
  for (const std::string& k : keys) out.push_back("PFX" + k + "ID");
  return out;
}

TEST(EntryValueTest, PlainValueIsTheId) {
  EXPECT_EQ(EntryValueId("\x3c"
                         "abc"),
            "\x3c"
            "abc");
  std::string id(
      "\x3c"
      "abc\x00\x01",
      6);
  EXPECT_EQ(EntryValueId(id), id);
  absl::string_view parsed_id;
  std::vector<SiblingIndex> siblings;
  EXPECT_FALSE(ParseSiblings(id, &parsed_id, &siblings));
  EXPECT_FALSE(ParseSiblings("", &parsed_id, &siblings));
}

TEST(EntryValueTest, RoundTripsSiblings) {
  SiblingsWriter w;
  w.Add(7, Entries({"a", "bcd"}), 3, 2);
  w.Add(9, {}, 3, 2);  // a sparse index without a key
  w.Add(300, Entries({std::string(200, 'x')}), 3, 2);
  const std::string value = w.Finish("ID");
  EXPECT_EQ(value[0], kSiblingsTag);
  EXPECT_EQ(EntryValueId(value), "ID");
  absl::string_view id;
  std::vector<SiblingIndex> siblings;
  ASSERT_TRUE(ParseSiblings(value, &id, &siblings));
  EXPECT_EQ(id, "ID");
  ASSERT_EQ(siblings.size(), 3u);
  EXPECT_EQ(siblings[0].index_id, 7u);
  EXPECT_EQ(siblings[0].keys, (std::vector<absl::string_view>{"a", "bcd"}));
  EXPECT_EQ(siblings[1].index_id, 9u);
  EXPECT_TRUE(siblings[1].keys.empty());
  EXPECT_EQ(siblings[2].index_id, 300u);
  EXPECT_EQ(siblings[2].keys,
            (std::vector<absl::string_view>{std::string(200, 'x')}));
}

TEST(EntryValueTest, NoOtherIndexesStillMarksTheEntry) {
  // A lone TTL index: the tagged form with an empty list says "this
  // document has exactly this entry".
  SiblingsWriter w;
  const std::string value = w.Finish("ID");
  absl::string_view id;
  std::vector<SiblingIndex> siblings;
  ASSERT_TRUE(ParseSiblings(value, &id, &siblings));
  EXPECT_EQ(id, "ID");
  EXPECT_TRUE(siblings.empty());
}

TEST(EntryValueTest, TooManySiblingsGiveThePlainForm) {
  SiblingsWriter w;
  std::vector<std::string> many;
  for (int i = 0; i < 500; ++i)
    many.push_back("PFXkey" + std::to_string(i) + "ID");
  w.Add(1, many, 3, 2);
  EXPECT_EQ(w.Finish("ID"), "ID");
  w.Reset();
  w.Add(1, Entries({"k"}), 3, 2);
  EXPECT_NE(w.Finish("ID"), "ID");
}

TEST(EntryValueTest, MalformedValuesAreRefusedNotMisread) {
  SiblingsWriter w;
  w.Add(7, Entries({"abc"}), 3, 2);
  const std::string value = w.Finish("ID");
  absl::string_view id;
  std::vector<SiblingIndex> siblings;
  // Every truncation is either still a valid shorter list or refused; never
  // a read past the end (ASan checks).
  for (size_t n = 1; n < value.size(); ++n) {
    ParseSiblings(absl::string_view(value.data(), n), &id, &siblings);
  }
  EXPECT_FALSE(ParseSiblings(std::string("\xF8\x05"
                                         "ab",
                                         4),
                             &id, &siblings));
  EXPECT_EQ(EntryValueId(std::string("\xF8\x05"
                                     "ab",
                                     4)),
            std::string("\xF8\x05"
                        "ab",
                        4));
  // A count larger than the bytes left.
  EXPECT_FALSE(ParseSiblings(std::string("\xF8\x02"
                                         "ID\x07\x7F",
                                         6),
                             &id, &siblings));
  // A varint over 32 bits.
  EXPECT_FALSE(ParseSiblings(std::string("\xF8\x02"
                                         "ID\xFF\xFF\xFF\xFF\x7F\x00",
                                         10),
                             &id, &siblings));
}

}  // namespace
}  // namespace ttldb
