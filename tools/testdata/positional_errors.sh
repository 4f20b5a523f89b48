# Misused positional projections and updates, each run as its own --eval
# (MongoDB's codes and messages: query/projection_parser.cpp,
# update/update_object_node.cpp, update_array_node.cpp,
# jstests/core/write/update/update_arrayFilters.js, updatel.js).
run() { echo "> $1"; "$TTLDB" --db db --quiet --eval "$1"; echo "[exit $?]"; }
run 'db.c.insertOne({_id: 1, a: [{b: 1}, {b: 3}], g: [85, 92]})'
run 'db.c.find({}, {"a.$": 1})'
run 'db.c.find({}, {"a.$": 0})'
run 'db.c.find({a: [1, 2]}, {"a.$": 1, "g.$": 1})'
run 'db.c.find({}, {"a.b": {$elemMatch: {c: 1}}})'
run 'db.c.find({}, {g: {$slice: [1, 0]}})'
run 'db.c.updateOne({_id: 1}, {$set: {"g.$": 0}})'
run 'db.c.updateOne({_id: 1}, {$set: {"g.$[y]": 0}})'
run 'db.c.updateOne({_id: 1}, {$set: {"g.$[x]": 0}}, {arrayFilters: [{x: 1}, {y: 2}]})'
run 'db.c.updateOne({_id: 1}, {$set: {"g.$[x]": 0}}, {arrayFilters: {x: 1}})'
run 'db.c.updateOne({_id: 1}, {$set: {"_id.$[]": 0}})'
run 'db.c.updateOne({_id: 1}, {$rename: {"g.$[]": "h"}})'
run 'db.c.updateOne({_id: 2}, {$set: {"a.$": 1}}, {upsert: true})'
run 'db.c.find()'
run 'db.c.updateOne({_id: 1}, {$set: {"g.$[x]": 0, "g.$": 1}}, {arrayFilters: [{x: 1}]})'
