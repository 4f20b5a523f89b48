// Decimal128 (NumberDecimal): construction, printing, comparisons across
// numeric types, index equality and ranges, $inc/$mul and sort.
// Expected answers: jstests/decimal/decimal_find_basic.js,
// decimal_find_query.js, decimal_update.js, decimal128_test.cpp.
db.d.drop()
NumberDecimal("1.50")
Decimal128("-0")
NumberDecimal("1E+6144")
NumberDecimal("0.000001")
NumberDecimal("0.0000001")
NumberDecimal("nan")
NumberDecimal("-Infinity")
NumberDecimal()
NumberDecimal("1.5").toString()
db.d.insertMany([
  {_id: 1, a: NumberDecimal("1.00")},
  {_id: 2, a: 1},
  {_id: 3, a: NumberLong(1)},
  {_id: 4, a: NumberDecimal("0.1")},
  {_id: 5, a: 0.1},
  {_id: 6, a: NumberDecimal("1E+400")},
  {_id: 7, a: NumberDecimal("NaN")},
  {_id: 8, a: NumberDecimal("-0")},
  {_id: 9, a: NumberDecimal("0.1000000000000000055511151231257828")}
])
db.d.find({a: 1}).sort({_id: 1})
db.d.find({a: NumberDecimal("1")}).count()
db.d.find({a: {$lt: 0.1, $gte: 0}})
db.d.find({a: {$gt: 1e308}})
db.d.find({a: NaN})
db.d.find({a: {$type: "decimal"}}, {_id: 1}).sort({_id: 1})
db.d.find({}, {_id: 1}).sort({a: 1, _id: 1}).toArray()
db.d.distinct("a")
db.d.createIndex({a: 1})
db.d.find({a: 1}).sort({_id: 1})
db.d.find({a: {$gt: 0.1, $lt: 2}}, {_id: 1}).sort({_id: 1})
db.d.find({a: {$gte: NumberDecimal("0.1"), $lte: 0.1}}, {_id: 1}).sort({_id: 1})
db.d.find({}, {_id: 1}).sort({a: -1}).toArray()
db.d.updateOne({_id: 2}, {$inc: {a: NumberDecimal("10")}})
db.d.updateOne({_id: 3}, {$mul: {a: NumberDecimal("2.5")}})
db.d.updateOne({_id: 5}, {$inc: {a: NumberDecimal("1")}})
db.d.updateOne({_id: 1}, {$mul: {b: NumberDecimal("1.25")}})
db.d.find({_id: {$in: [1, 2, 3, 5]}})
db.u.drop()
db.u.createIndex({u: 1}, {unique: true})
db.u.insertOne({_id: 10, u: NumberDecimal("2.0")})
db.u.insertOne({_id: 11, u: NumberDecimal("2.00000000000000000000000000001")})
db.u.insertOne({_id: 12, u: 2})
NumberDecimal("12345678901234567890123456789012345")
