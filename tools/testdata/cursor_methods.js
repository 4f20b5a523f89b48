// Cursor iteration as in mongosh: next(), hasNext(), tryNext(), printing the
// rest of a started cursor, itcount(), toArray(), map(fn) and forEach(fn)
// with arrow functions and function expressions, and functions as values.
db.c.insertMany([{_id: 1, name: "a", n: 10}, {_id: 2, name: "b", n: 20}, {_id: 3, name: "c", n: 30}])
var c = db.c.find().sort({_id: 1})
c.hasNext()
c.next()
c.next()
c
c.hasNext()
c.next()
c.tryNext()
var d = db.c.find({n: {$gte: 20}})
d.next()
d.itcount()
d.toArray()
db.c.find().itcount()
db.c.find().toArray().length
db.c.find().map(d => d.name)
db.c.find().map(d => d.name).toArray()
db.c.find({}, {_id: 0}).map(function (d) { return {nm: d.name, twice: [d.n, d.n]} })
db.c.find().map(d => d._id).map(i => ({id: i}))
db.c.find().sort({n: -1}).map((d) => { return d.n })
db.c.find().forEach(d => print(d.name, d.n))
db.c.find({_id: 1}).forEach(function (d) { print("doc"); printjson(d) })
db.c.find({_id: 2}).forEach(printjson)
var pair = (x, y) => [y, x]
pair(1, 2)
var named = function swap(x) { return x }
named("x")
var m = db.c.find().map(d => d.n)
m.next()
m.hasNext()
m
