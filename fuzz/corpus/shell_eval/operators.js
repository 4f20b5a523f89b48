db.c.insertMany([{_id: 1, a: 5, s: "b"}, {_id: 2, a: 10, s: "a"}])
var x = db.c.findOne({_id: 1})
x.a < 10 && x.s >= "a" ? "yes" : "no"
1 == "1"; 1 === "1"; null == undefined; null === undefined; !0; !!""
"10" < "9"; 10 < 9; new Date(0) < new Date(1); NaN != NaN
db.c.find({a: {$gt: 1}}).toArray().length > 1 || print("few")
db.c.find().map(d => d.a > 6 ? d.s : -d.a)
