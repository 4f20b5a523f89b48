// findOneAndUpdate / findOneAndReplace / findOneAndDelete / findAndModify,
// with the examples of MongoDB's manual pages (db.collection.findOneAndUpdate,
// findOneAndReplace, findOneAndDelete, findAndModify).
db.grades.insertMany([
  {_id: 6305, name: "A. MacDyver", assignment: 5, points: 24},
  {_id: 6308, name: "B. Batlock", assignment: 3, points: 22},
  {_id: 6312, name: "M. Tagnum", assignment: 5, points: 30},
  {_id: 6319, name: "R. Stiles", assignment: 2, points: 12},
  {_id: 6322, name: "A. MacDyver", assignment: 2, points: 14},
  {_id: 6234, name: "R. Stiles", assignment: 1, points: 10}
])
db.grades.findOneAndUpdate({name: "A. MacDyver"}, {$inc: {points: 5}}, {sort: {points: 1}})
db.grades.findOneAndUpdate({name: "A. MacDyver"}, {$inc: {points: 5}}, {sort: {points: 1}, projection: {assignment: 1, points: 1}})
db.grades.findOneAndUpdate({name: "R. Stiles"}, {$inc: {points: 5}}, {sort: {points: -1}, returnDocument: "after"})
db.grades.findOneAndUpdate({name: "R. Stiles"}, {$inc: {points: 1}}, {sort: {points: -1}, returnNewDocument: true, projection: {_id: 0, points: 1}})
db.grades.findOneAndUpdate({_id: 7000}, {$set: {name: "A.B. Abracadabra", assignment: 5}, $inc: {points: 5}}, {upsert: true, returnDocument: "after"})
db.grades.findOneAndUpdate({_id: 7001}, {$set: {name: "nobody"}}, {upsert: true})
db.grades.findOneAndUpdate({name: "no such"}, {$set: {x: 1}})
db.grades.findOneAndReplace({name: "M. Tagnum"}, {name: "M. Tagnum", points: 31}, {returnDocument: "after"})
db.grades.findOneAndDelete({name: "A. MacDyver"}, {sort: {points: 1}, projection: {assignment: 1}})
db.grades.findOneAndDelete({name: "no such"})
db.grades.findAndModify({query: {name: "B. Batlock"}, update: {$inc: {points: 1}}, new: true})
db.grades.findAndModify({query: {name: "B. Batlock"}, remove: true, fields: {name: 1}})
db.grades.find().sort({_id: 1})
