#include "tools/shell/completion.h"

#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace ttldb {
namespace shell {
namespace {

using V = std::vector<std::string>;
const V kColls = {"eventlog", "events", "log.archive", "users"};

TEST(CompletionTest, CollectionNamesAfterDb) {
  EXPECT_EQ(CompletionCandidates("db.ev", kColls),
            (V{"db.eventlog", "db.events"}));
  EXPECT_EQ(CompletionCandidates("db.u", kColls), (V{"db.users"}));
  // Collections and db methods together, as mongosh offers them.
  EXPECT_EQ(CompletionCandidates("db.getC", kColls),
            (V{"db.getCollection", "db.getCollectionNames"}));
  EXPECT_EQ(CompletionCandidates("db.", kColls).size(), kColls.size() + 9);
}

TEST(CompletionTest, MethodNamesAfterACollection) {
  EXPECT_EQ(CompletionCandidates("db.events.fi", kColls),
            (V{"db.events.find", "db.events.findOne"}));
  EXPECT_EQ(CompletionCandidates("db.events.insertO", kColls),
            (V{"db.events.insertOne"}));
  // A dotted collection name, and a collection that does not exist yet.
  EXPECT_EQ(CompletionCandidates("db.log.archive.dr", kColls),
            (V{"db.log.archive.drop", "db.log.archive.dropIndex",
               "db.log.archive.dropIndexes"}));
  EXPECT_EQ(CompletionCandidates("db.newcoll.countD", kColls),
            (V{"db.newcoll.countDocuments"}));
}

TEST(CompletionTest, Globals) {
  EXPECT_EQ(CompletionCandidates("Obj", kColls), (V{"ObjectId"}));
  EXPECT_EQ(CompletionCandidates("print", kColls), (V{"print", "printjson"}));
  EXPECT_EQ(CompletionCandidates("zzz", kColls), V{});
  EXPECT_EQ(CompletionCandidates("x.y", kColls), V{});
}

}  // namespace
}  // namespace shell
}  // namespace ttldb
