// Backward scans: sort({_id: -1}) reads the collection from its high end,
// and the reverse of an index's order scans the index backward (no SORT
// stage). Expected answers and plans: MongoDB's query_planner_test.cpp
// ReverseScanForSort (sort {_id: -1}: the _id index, dir -1),
// planner_analysis.cpp QueryPlannerAnalysis::analyzeSort, and
// index_bounds_builder.cpp IndexBoundsBuilder::alignBounds (bounds high to
// low); jstests/core/query/sort/sort_array.js for arrays.
db.b.insertMany([{_id: 1, x: 5}, {_id: 2, x: 1}, {_id: 3, x: 3}, {_id: 4, x: [4, 0]}, {_id: 5, x: 2}])
db.b.find().sort({_id: -1}).limit(1).toArray()
db.b.find().sort({_id: -1}).limit(1).explain("executionStats").queryPlanner.winningPlan
db.b.find().sort({_id: -1}).limit(1).explain("executionStats").executionStats
db.b.find({}, {_id: 1}).sort({_id: -1}).skip(1).limit(2).toArray()
db.b.find({}, {_id: 1}).hint({$natural: -1}).toArray()
db.b.createIndex({x: 1})
db.b.find({}, {_id: 1}).sort({x: -1}).toArray()
db.b.find().sort({x: -1}).limit(2).explain("executionStats").queryPlanner.winningPlan
db.b.find().sort({x: -1}).limit(2).explain("executionStats").executionStats
db.b.deleteOne({_id: 4})
db.b.dropIndex("x_1")
db.b.createIndex({x: 1})
db.b.find({x: {$gt: 1, $lte: 4}}, {_id: 1}).sort({x: -1}).toArray()
db.b.find({x: {$gt: 1, $lte: 4}}).sort({x: -1}).explain().queryPlanner.winningPlan
