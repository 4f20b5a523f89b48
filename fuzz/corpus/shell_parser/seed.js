db.c.find({a: {$gt: 1}}).sort({a: -1}).limit(2)
