// golden: file
// In a script FILE (`ttldb FILE`, as `mongosh FILE`), a database error stops
// the script with exit code 1; statements before it ran, statements after
// it do not. (Piped standard input goes on: piped_errors.js.)
printjson(db.c.insertOne({_id: 1, a: 1}))
db.c.insertOne({_id: 1, a: 2})
print("not reached")
