// MongoDB's TTL tutorials ("Expire Data from Collections by Setting TTL"),
// verbatim, then watching the monitor expire documents with a short interval.
db.eventlog.createIndex( { "lastModifiedDate": 1 }, { expireAfterSeconds: 3600 } )
db.eventlog.insertOne( {
   "lastModifiedDate": new Date(),
   "logEvent": 2,
   "logMessage": "Success!"
} )
db.eventlog.find({}, {_id: 0, lastModifiedDate: 0})
db.runCommand({
  collMod: "eventlog",
  index: {
    keyPattern: { lastModifiedDate: 1 },
    expireAfterSeconds: 7200
  }
})
db.eventlog.getIndexes()

// Partial TTL index
db.partial.createIndex(
   { "lastModifiedDate": 1 },
   {
      name: "Partial-TTL-Index",
      partialFilterExpression: { canDelete : true },
      expireAfterSeconds: 10
   }
)
db.partial.insertMany([
  {_id: 1, lastModifiedDate: ISODate("2020-01-01T00:00:00Z"), canDelete: true},
  {_id: 2, lastModifiedDate: ISODate("2020-01-01T00:00:00Z"), canDelete: false},
])
db.partial.find()

// Expire documents at a specific clock time
db.log_events.createIndex( { "expireAt": 1 }, { expireAfterSeconds: 0 } )
db.log_events.insertOne( {
   "_id": 1,
   "expireAt": new Date('July 22, 2013 14:00:00'),
   "logEvent": 2,
   "logMessage": "Success!"
} )
db.log_events.insertOne( {
   "_id": 2,
   "expireAt": ISODate("2099-07-22T14:00:00Z"),
   "logEvent": 2,
   "logMessage": "Success!"
} )
db.log_events.find()

// Convert a non-TTL single-field index into a TTL index
db.restaurants.createIndex( { name: 1 } )
db.runCommand( {
   collMod: "restaurants",
   index: {
      keyPattern: { name: 1 },
      expireAfterSeconds: 3600
   }
} )
db.restaurants.getIndexes()

// The TTL monitor's parameters
db.adminCommand({getParameter: 1, ttlMonitorSleepSecs: 1})
db.adminCommand({setParameter: 1, ttlMonitorSleepSecs: 1})
db.adminCommand({getParameter: 1, ttlMonitorSleepSecs: 1, ttlMonitorEnabled: 1})
db.adminCommand({setParameter: 1, ttlMonitorEnabled: false})
db.adminCommand({setParameter: 1, ttlMonitorEnabled: true})
db.serverStatus().ttlMonitorSleepSecs

// Keep a page alive by updating accessTime; the others expire (E = 4 s).
// Timeline: page 100 expires at 4 s, page 101 (touched at 3 s) at 7 s; the
// check at 5.5 s leaves 1.5 s of margin each way for a loaded machine.
db.eventLog.createIndex({accessTime: 1}, {expireAfterSeconds: 4})
db.eventLog.insert({pageID: 100, accessTime: new Date()})
db.eventLog.insert({pageID: 101, accessTime: new Date()})
db.eventLog.insert({pageID: 102, accessTime: "not a date: never expires"})
sleep(1500)
db.eventLog.update({pageID: 101}, {$set: {accessTime: new Date()}})
sleep(1500)
db.eventLog.updateOne({pageID: 101}, {$currentDate: {accessTime: true}})
sleep(2500)
db.eventLog.find({}, {_id: 0, pageID: 1})
// The monitor deleted partial's _id 1, log_events' _id 1 and page 100.
db.serverStatus().metrics.ttl.deletedDocuments
db.partial.validate().nrecords
