// Piped standard input goes on after a failing statement, as
// `mongosh < script` does (a ReferenceError, a server error, then
// statements that still run); the exit status is 1 because one failed.
notDefined()
db.c.insertOne({_id: 1, a: 1})
db.c.insertOne({_id: 1, a: 2})
db.c.find({$bad: 1}).toArray()
db.c.countDocuments()
print("still running")
