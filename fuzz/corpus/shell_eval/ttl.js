db.t.createIndex({at: 1}, {expireAfterSeconds: 60})
db.t.insertOne({_id: 1, at: new Date()})
db.t.updateOne({_id: 1}, {$currentDate: {at: true}})
db.t.find().sort({at: -1}).limit(1)
db.runCommand({collMod: "t", index: {name: "at_1", expireAfterSeconds: 5}})
db.t.getIndexes(); db.t.validate(); db.t.stats().count
var f = n => n < 1 ? 0 : f(n - 1) + 1; f(50)
