// Positional projection and update operators (review T4, U1, U2), as in
// MongoDB's manual pages "$ (projection)", "$slice (projection)",
// "$elemMatch (projection)", "$ (update)", "$[]" and "$[<identifier>]"
// (jstests/core/write/update/update_arrayFilters.js). The errors are in
// positional_errors.sh.
db.c.insertOne({_id: 1, a: [{b: 1, c: 2}, {b: 3, c: 4}], g: [85, 92, 100]})
db.c.find({a: {$elemMatch: {b: 3}}}, {"a.$": 1}).toArray()
db.c.find({"a.b": 1}, {"a.$": 1, _id: 0})
db.c.find({}, {g: {$slice: -2}, a: 0})
db.c.find({}, {g: {$slice: [1, 1]}, _id: 0, x: 1})
db.c.find({}, {a: {$elemMatch: {c: {$gt: 2}}}})
db.c.updateOne({_id: 1, g: 92}, {$set: {"g.$": 93}})
db.c.updateOne({_id: 1}, {$inc: {"a.$[].c": 10}})
db.c.updateOne({_id: 1}, {$set: {"g.$[x]": 0}}, {arrayFilters: [{x: {$gte: 100}}]})
db.c.updateMany({}, {$set: {"a.$[e].d": true}}, {arrayFilters: [{"e.b": {$gt: 1}}]})
db.c.findOne()
