// The README demo: an event log whose pages expire 5 s after their last
// access, one page kept alive by touching it, the TTL monitor sweeping the
// rest. Run by scripts/demo.sh (ttldb --ttl-monitor-sleep-secs 1 tools/demo.js).
// Script files do not echo results (as in mongosh), so it prints them.

print("1. A fresh eventLog collection with a TTL index: pages expire 5 s after accessTime.")
db.eventLog.drop()
print(db.eventLog.createIndex({accessTime: 1}, {expireAfterSeconds: 5}))
printjson(db.eventLog.getIndexes())

print("")
print("2. The TTL monitor runs every ttlMonitorSleepSecs (MongoDB's default is 60 s); lower it to 1 s:")
printjson(db.adminCommand({setParameter: 1, ttlMonitorSleepSecs: 1}))

print("")
print("3. Four pages accessed now:")
db.eventLog.insertMany([
  {pageID: 100, title: "Home", accessTime: new Date()},
  {pageID: 101, title: "Pricing", accessTime: new Date()},
  {pageID: 102, title: "Docs", accessTime: new Date()},
  {pageID: 103, title: "Blog", accessTime: new Date()},
])
db.eventLog.find({}, {_id: 0}).forEach(printjson)

print("")
print("4. Page 101 keeps being read: each read updates its accessTime (every 1.5 s, four times)...")
sleep(1500)
db.eventLog.updateOne({pageID: 101}, {$set: {accessTime: new Date()}})
sleep(1500)
db.eventLog.updateOne({pageID: 101}, {$set: {accessTime: new Date()}})
sleep(1500)
db.eventLog.updateOne({pageID: 101}, {$set: {accessTime: new Date()}})
sleep(1500)
printjson(db.eventLog.updateOne({pageID: 101}, {$currentDate: {accessTime: true}}))

print("")
print("5. Six seconds have passed; wait two more for the monitor's sweep...")
sleep(2000)
print("Pages left (the untouched ones expired and were deleted):")
db.eventLog.find({}, {_id: 0}).forEach(printjson)
print("countDocuments:", db.eventLog.countDocuments({}))

print("")
print("6. What the TTL monitor did (db.serverStatus().metrics.ttl):")
printjson(db.serverStatus().metrics.ttl)
