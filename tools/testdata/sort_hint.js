// Sorts through a multikey index, cursor.hint() and explain's SORT reason.
// Expected answers: jstests/core/query/sort/sort_array.js (review T2).
db.c.insertMany([{_id: 0, a: [3, 0, 1]}, {_id: 1, a: [8, 4, -1]}])
db.c.find({a: {$gte: 2}}, {_id: 1}).sort({a: 1}).toArray()
db.c.createIndex({a: 1})
db.c.find({a: {$gte: 2}}, {_id: 1}).sort({a: 1}).toArray()
db.c.find({a: {$gte: 2}}, {_id: 1}).sort({a: 1}).limit(1).toArray()
db.c.find({a: {$gte: 2}}, {_id: 1}).sort({a: 1}).hint({a: 1}).toArray()
db.c.find({a: {$gte: 2}}, {_id: 1}).sort({a: 1}).hint("a_1").limit(1).toArray()
db.c.find({a: {$gte: 2}}, {_id: 1}).sort({a: 1}).hint({$natural: 1}).toArray()
db.c.find({a: {$gte: 2}}).sort({a: 1}).explain().queryPlanner.winningPlan
db.c.find().sort({a: -1}).hint({a: 1}).explain().queryPlanner.winningPlan
db.c.find().sort({a: 1}).hint({a: 1}).explain().queryPlanner.winningPlan
db.c.find({}, {_id: 1}).sort({a: 1}).toArray()
db.c.find({}, {_id: 1}).sort({a: -1}).toArray()
db.c.find().sort({a: 1}).explain().queryPlanner.winningPlan.stage
// The _id index is hinted by name or key pattern (documents in _id order).
db.c.find({}, {_id: 1}).hint("_id_").toArray()
db.c.find({_id: {$in: [1, 0]}}, {_id: 1}).hint({_id: 1}).toArray()
db.c.find().hint({b: 1}).toArray()
