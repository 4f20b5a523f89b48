// A syntax error runs nothing: the insert below is not executed.
db.c.insertOne({_id: 1})
db.c.find({a: 1,
  b: })
