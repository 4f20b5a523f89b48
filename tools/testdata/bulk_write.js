// bulkWrite with the example of MongoDB's manual page
// (db.collection.bulkWrite), upserts and an unordered bulk, then
// renameCollection (indexes kept, dropTarget) and db.stats() fields.
// Failing calls: fam_bulk_errors.sh.
db.pizzas.insertMany([
  {_id: 0, type: "pepperoni", size: "small", price: 4},
  {_id: 1, type: "cheese", size: "medium", price: 7},
  {_id: 2, type: "vegan", size: "large", price: 8}
])
db.pizzas.bulkWrite([
  {insertOne: {document: {_id: 3, type: "beef", size: "medium", price: 6}}},
  {insertOne: {document: {_id: 4, type: "sausage", size: "large", price: 10}}},
  {updateOne: {filter: {type: "cheese"}, update: {$set: {price: 8}}}},
  {deleteOne: {filter: {type: "pepperoni"}}},
  {replaceOne: {filter: {type: "vegan"}, replacement: {type: "tofu", size: "small", price: 4}}}
])
db.pizzas.bulkWrite([
  {insertOne: {document: {_id: 6, type: "ham"}}},
  {updateMany: {filter: {price: {$gte: 8}}, update: {$inc: {price: 1}}}},
  {updateOne: {filter: {_id: 9}, update: {$set: {type: "new"}}, upsert: true}},
  {replaceOne: {filter: {_id: 10}, replacement: {type: "r"}, upsert: true}},
  {deleteMany: {filter: {type: "sausage"}}}
], {ordered: false})
db.pizzas.find().sort({_id: 1})
db.pizzas.createIndex({type: 1})
db.pizzas.renameCollection("pies")
db.getCollectionNames()
db.pies.getIndexes()
db.other.insertOne({_id: 1})
db.pies.renameCollection("other", true)
db.getCollectionNames()
db.other.find({type: "tofu"})
var s = db.stats()
s.db
s.collections
s.views
s.objects
s.indexes
s.scaleFactor
s.ok
db.stats(1024).scaleFactor
