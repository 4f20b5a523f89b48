// Issue 13: with hide_expired (the default), an expired document the
// monitor has not deleted yet is absent for writes too, the counts say what
// they count, and createIndex({_id: -1}) is the _id index. Dates are fixed
// far in the past or the future, so the test does not depend on the clock.
db.adminCommand({setParameter: 1, ttlMonitorEnabled: false})
db.sessions.createIndex({lastSeen: 1}, {expireAfterSeconds: 1})
db.sessions.createIndex({user: 1}, {unique: true})
db.sessions.insertOne({_id: 1, user: 'ada', lastSeen: ISODate("2020-01-01T00:00:00Z")})
db.sessions.insertOne({_id: 2, user: 'bob', lastSeen: ISODate("2099-01-01T00:00:00Z")})
db.sessions.findOne({user: 'ada'})
// stats().count and estimatedDocumentCount() count what is stored;
// countDocuments() what reads return.
db.sessions.stats().count
db.sessions.estimatedDocumentCount()
db.sessions.countDocuments({})
// The upsert: no E11000, the expired session is replaced.
db.sessions.updateOne({user: 'ada'}, {$set: {lastSeen: ISODate("2099-01-01T00:00:00Z")}}, {upsert: true})
db.sessions.find({}, {_id: 0})
db.sessions.stats().count
db.sessions.estimatedDocumentCount()
db.serverStatus().metrics.ttl.deletedDocuments
db.serverStatus().metrics.ttl.deletedByWrites
db.sessions.validate().valid
// {_id: -1} is the _id index: a missing collection is created with it.
db.fresh.createIndex({_id: -1})
db.getCollectionNames()
db.fresh.getIndexes()
// A visible document is still a duplicate (the script stops here).
db.sessions.insertOne({user: 'bob', lastSeen: ISODate("2099-01-01T00:00:00Z")})
