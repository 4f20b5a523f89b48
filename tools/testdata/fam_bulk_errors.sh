# Refused and failing findOneAndX / findAndModify / bulkWrite /
# renameCollection / db.stats / cursor calls, each its own --eval on one
# database.
# Messages: the Node driver (operations/find_and_modify.ts, bulk/common.ts),
# mongosh (shell-api helpers.ts processFindAndModifyOptions), the server
# (find_and_modify.cpp, rename_collection.cpp, dbstats), as the C++ tests
# tests/find_and_modify_test.cc, tests/backends/bulk_write_test.cc and
# find_and_modify_test.cc, rename_stats_test.cc cite.
run() { echo "> $1"; "$TTLDB" --db db --quiet --eval "$1"; echo "[exit $?]"; }
run 'db.grades.insertMany([{_id: 6312, name: "M. Tagnum", points: 30}, {_id: 6308, name: "B. Batlock", points: 22}])'
run 'db.grades.findOneAndUpdate({name: "M. Tagnum"}, {x: 1})'
run 'db.grades.findOneAndUpdate({name: "M. Tagnum"}, {$set: {x: 1}}, {returnDocument: "later"})'
run 'db.grades.findOneAndUpdate({_id: 6312}, {$set: {_id: 1}})'
run 'db.grades.findOneAndReplace({name: "M. Tagnum"}, {$set: {points: 1}})'
run 'db.grades.findAndModify({query: {name: "B. Batlock"}, update: {$inc: {points: 1}}, remove: true})'
run 'db.grades.findAndModify({query: {name: "B. Batlock"}})'
run 'db.grades.findAndModify({update: {$inc: {points: 1}}})'
run 'db.grades.findAndModify({query: {}, remove: true, new: true})'
run 'db.grades.findOneAndDelete({}, {sort: {points: 2}})'
run 'db.grades.find()'
run 'db.pizzas.insertMany([{_id: 0, type: "pepperoni"}, {_id: 1, type: "cheese"}])'
run 'db.pizzas.bulkWrite([{insertOne: {document: {_id: 5, type: "sausage"}}}, {insertOne: {document: {_id: 0, type: "sausage"}}}, {updateOne: {filter: {type: "cheese"}, update: {$set: {price: 8}}}}])'
run 'db.pizzas.bulkWrite([{insertOne: {document: {_id: 7}}}, {insertOne: {document: {_id: 0}}}, {insertOne: {document: {_id: 8}}}])'
run 'db.pizzas.bulkWrite([{insertOne: {document: {_id: 0}}}, {updateOne: {filter: {_id: 0}, update: {$set: {_id: 5}}}}, {deleteOne: {filter: {_id: 0}}}], {ordered: false})'
run 'db.pizzas.bulkWrite([{updateOne: {filter: {}, update: {price: 1}}}])'
run 'db.pizzas.bulkWrite([{replaceOne: {filter: {}, replacement: {$set: {price: 1}}}}])'
run 'db.pizzas.bulkWrite([{upsertOne: {}}])'
run 'db.pizzas.bulkWrite([])'
run 'db.pizzas.bulkWrite({insertOne: {document: {}}})'
run 'db.pizzas.bulkWrite([{deleteOne: {}}])'
run 'db.pizzas.find()'
run 'db.other.insertOne({_id: 1})'
run 'db.pizzas.renameCollection("other")'
run 'db.nosuch.renameCollection("x")'
run 'db.other.renameCollection("other")'
run 'db.other.renameCollection(5)'
run 'db.stats({scale: 0})'
run 'var k = db.grades.find(); k.next(); k.limit(1)'
run 'var k = db.grades.find(); k.hasNext(); k.map(d => d)'
run 'db.grades.find().map(1)'
run 'db.grades.find().forEach(5)'
run 'var f = x => f(x); f(1)'
