// The review's shell reproductions for T5, T7, T8, T11, T12 and T13
// (shared/reviews/query-conformance.md), answered as MongoDB 8.0 does.
// The errors (T5 bad patterns and flags, T11) are in
// matcher_conformance_errors.sh, since an error ends a script.
// T5: regex literals are PCRE2 in UTF mode (src/mongo/util/pcre_util.cpp).
db.r.insertMany([{_id:0,a:"é"},{_id:1,a:"É"},{_id:2,a:"a\n"},{_id:3,a:"xb"}])
db.r.find({a:/^.$/},{_id:1}).toArray()
db.r.find({a:/é/i},{_id:1}).toArray()
db.r.find({a:/a$/},{_id:1}).toArray()
db.r.find({a:/(?i)É/},{_id:1}).toArray()
db.r.find({a:/(?<=x)b/},{_id:1}).toArray()
db.r.find({a:{$in:[/^É$/i]}},{_id:1}).toArray()
db.r.find({a:{$not:/^.$/}},{_id:1}).toArray()
// T7: NaN (src/mongo/db/matcher/expression_leaf.cpp).
db.n.insertMany([{_id:0,a:NaN},{_id:1,a:-1},{_id:2,a:1}])
db.n.find({a:{$lt:0}},{_id:1}).toArray()
db.n.find({a:{$gt:NaN}},{_id:1}).toArray()
db.n.find({a:{$gte:NaN}},{_id:1}).toArray()
// T8: MinKey/MaxKey (jstests/core/query/min_max_key.js).
db.m.insertMany([{_id:0,a:MaxKey()},{_id:1,a:MinKey()},{_id:2,a:null},{_id:3,a:4},{_id:4,a:"hello"},{_id:5}])
db.m.find({a:{$gt:MinKey()}},{_id:1}).toArray()
db.m.find({a:{$gte:MinKey()}},{_id:1}).toArray()
db.m.find({a:{$lt:MaxKey()}},{_id:1}).toArray()
db.m.createIndex({a:1})
db.m.find({a:{$gt:MinKey()}},{_id:1}).toArray()
db.m.find({a:{$lt:MaxKey()}},{_id:1}).toArray()
// T12: numbers typed as mongosh sends them (js-bson serializeNumber).
db.t.insertMany([{_id:0,a:5.0},{_id:1,a:3000000000},{_id:2,a:NumberLong(5)},{_id:3,a:NumberInt(7)},{_id:4,a:-0.0}])
db.t.find({a:{$type:"int"}},{_id:1}).toArray()
db.t.find({a:{$type:"double"}},{_id:1}).toArray()
db.t.find({a:{$type:"long"}},{_id:1}).toArray()
db.t.updateOne({_id:0},{$inc:{a:1.0}})
db.t.updateOne({_id:1},{$inc:{a:1}})
db.t.updateOne({_id:3},{$mul:{a:2.0}})
db.t.find({},{_id:1,a:1}).toArray()
db.t.find({a:{$type:"int"}},{_id:1}).toArray()
// T13: upsert seed (jstests/core/upsert_and.js).
db.u.updateOne({$and:[{c:1},{d:1},{$or:[{x:1}]}]},{$setOnInsert:{_id:1}},{upsert:true})
db.u.find().toArray()
