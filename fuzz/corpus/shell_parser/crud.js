// CRUD commands, cursor modifiers and bindings (results echoed).
db.pages.drop()
db.pages.insertOne({_id: 1, pageID: 100, title: 'Home', tags: ["a", "b"], accessTime: ISODate("2030-01-01T00:00:00Z")})
db.pages.insertMany([
  {_id: 2, pageID: 101, title: "Pricing", views: NumberLong(5)},
  {_id: 3, pageID: 102, title: "Docs", views: NumberInt(7), score: 2.5},
  {_id: 4, pageID: 103, title: "Blog", views: 12, },   // trailing commas
])
db.pages.insert({_id: 5, pageID: 104, title: "About"})
db.pages.insert([{_id: 6, pageID: 105}, {_id: 7, pageID: 106}])
var r = db.pages.insertOne({_id: 8, pageID: 107}); r.insertedId
r
db.pages.find()
db.pages.find({pageID: {$gte: 102}}, {title: 1, _id: 0}).sort({pageID: -1}).limit(2)
db.pages.find().sort({_id: 1}).skip(5).toArray()
db.pages.find({views: {$exists: true}}).count()
db.pages.find().limit(3).pretty()
db.pages.findOne({title: /^do/i})
db.pages.findOne({pageID: 999})
db["pages"].countDocuments({pageID: {$lt: 103}})
db.getCollection("pages").countDocuments({}, {skip: 2, limit: 3})
db.pages.count()
db.pages.distinct("tags")
db.pages.distinct("pageID", {_id: {$in: [1, 2, 3]}})
db.pages.updateOne({_id: 2}, {$set: {title: "Plans"}, $inc: {views: NumberLong(1)}})
db.pages.updateMany({pageID: {$gt: 104}}, {$set: {archived: true}})
db.pages.updateOne({_id: 99}, {$set: {pageID: 199}}, {upsert: true})
db.pages.update({_id: 5}, {$unset: {title: ""}})
db.pages.update({archived: true}, {$set: {flag: 1}}, {multi: true})
db.pages.replaceOne({_id: 3}, {pageID: 102, title: "Reference"})
db.pages.find({_id: {$in: [2, 3, 5, 6, 99]}})
db.pages.deleteOne({_id: 99})
db.pages.deleteMany({archived: true})
db.pages.remove({_id: 5})
db.pages.remove({}, true)
db.pages.find({}, {_id: 1})
print("print:", 1, "two", {a: 1})
printjson({_id: ObjectId("5f0c1a2b3c4d5e6f70812345"), at: ISODate("2024-02-29T12:00:00.5Z"), n: NumberLong(1)})
const big = {x: NumberLong("9223372036854775807"), t: Timestamp(1700000000, 1)}
big
big.x
db.pages.find({_id: 1}).explain()
help
