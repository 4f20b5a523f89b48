// Dotted paths through arrays as MongoDB 8.0 answers them: the review's
// T1, T3, T6, T9 and T10 reproductions (shared/reviews/query-conformance.md).
// T1: null through arrays of scalars or empty arrays (null_query_semantics.js).
db.c.insertMany([{_id:0,a:[1,2]},{_id:1,a:[]},{_id:2,a:[{c:1}]},{_id:3,a:5},{_id:4,a:[[]]},{_id:5,a:[null]},{_id:6}])
db.c.find({"a.b":null},{_id:1}).toArray()
db.c.find({"a.b":{$ne:null}},{_id:1}).toArray()
db.c.find({"a.b":{$in:[null,75]}},{_id:1}).toArray()
db.c.find({"a.b":{$nin:[null]}},{_id:1}).toArray()
db.c.createIndex({"a.b":1})
db.c.find({"a.b":null},{_id:1}).sort({_id:1}).toArray()
db.c.find({"a.b":{$in:[null,75]}},{_id:1}).sort({_id:1}).toArray()
// T3: a compound index on two fields of one array of sub-documents.
db.t3.createIndex({"items.sku":1,"items.qty":1})
db.t3.insertOne({_id:1,items:[{sku:"x",qty:1},{sku:"y",qty:2}]})
db.t3.find({"items.sku":"x","items.qty":2}).toArray()
// T6: sort keys are index keys.
db.s.insertMany([{_id:1,a:[{b:1},5]},{_id:2,a:[{b:0}]}])
db.s.find({},{_id:1}).sort({"a.b":1}).toArray()
db.s2.insertMany([{_id:1,a:[{x:1,y:1},{x:2,y:0}]},{_id:2,a:{x:1,y:0.5}}])
db.s2.find({},{_id:1}).sort({"a.x":1,"a.y":1}).toArray()
// T9: explicit array offsets (path_test.cpp).
db.p.insertMany([{_id:0,a:[5,[2,4],3]},{_id:1,a:[5,{b:4},3]},{_id:2,a:[{b:1}]},{_id:3,a:[5]}])
db.p.find({"a.1":2},{_id:1}).toArray()
db.p.find({"a.1.b":null},{_id:1}).toArray()
db.p.find({"a.0.b":null},{_id:1}).toArray()
// T10: $elemMatch over elements that are arrays.
db.e.insertMany([{_id:0,a:[[]]},{_id:1,a:[[5]]},{_id:2,a:[{}]}])
db.e.find({a:{$elemMatch:{b:null}}},{_id:1}).toArray()
db.e.find({a:{$elemMatch:{"0":5}}},{_id:1}).toArray()
// Last, as a script stops at the first error: parallel arrays in a sort.
db.s.insertOne({_id:3,x:[1,2],y:[3,4]})
db.s.find({},{_id:1}).sort({x:1,y:1}).toArray()
