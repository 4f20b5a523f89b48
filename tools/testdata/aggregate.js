// db.c.aggregate: a cursor printed in batches ("it"), options, explain and
// errors (MongoDB's codes).
db.sales.insertMany([{_id: 1, item: "abc", qty: 2}, {_id: 2, item: "xyz", qty: 10}, {_id: 3, item: "abc", qty: 5}])
db.sales.aggregate([{$group: {_id: "$item", total: {$sum: "$qty"}}}, {$sort: {_id: 1}}])
db.sales.aggregate({$match: {item: "abc"}}, {$project: {qty: 1}})
db.sales.aggregate([{$sort: {qty: -1}}], {allowDiskUse: true}).toArray()
db.sales.aggregate([{$count: "n"}]).itcount()
db.sales.createIndex({item: 1})
db.sales.aggregate([{$match: {item: "abc"}}, {$group: {_id: null, n: {$sum: 1}}}]).explain()
db.many.insertMany([{_id: 0}, {_id: 1}, {_id: 2}, {_id: 3}, {_id: 4}, {_id: 5}, {_id: 6}, {_id: 7}, {_id: 8}, {_id: 9}, {_id: 10}, {_id: 11}, {_id: 12}, {_id: 13}, {_id: 14}, {_id: 15}, {_id: 16}, {_id: 17}, {_id: 18}, {_id: 19}, {_id: 20}, {_id: 21}, {_id: 22}, {_id: 23}, {_id: 24}])
db.many.aggregate([{$sort: {_id: -1}}])
it
db.sales.aggregate([{$bogus: 1}])
