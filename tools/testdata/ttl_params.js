// MongoDB's run-time TTL parameters (src/mongo/db/ttl/ttl.idl): int
// parameters with validator gte 0 (0: unlimited) and a bool.
db.adminCommand({getParameter: "*"})
db.adminCommand({setParameter: 1, ttlIndexDeleteTargetDocs: 0})
db.adminCommand({setParameter: 1, ttlIndexDeleteTargetDocs: 1000})
db.adminCommand({setParameter: 1, ttlIndexDeleteTargetTimeMS: 0})
db.adminCommand({setParameter: 1, ttlMonitorBatchDeletes: false})
db.adminCommand({setParameter: 1, ttlMonitorSubPassTargetSecs: 0})
db.adminCommand({getParameter: 1, ttlIndexDeleteTargetDocs: 1, ttlIndexDeleteTargetTimeMS: 1, ttlMonitorBatchDeletes: 1, ttlMonitorSubPassTargetSecs: 1})
db.serverStatus().metrics.ttl
db.adminCommand({setParameter: 1, ttlIndexDeleteTargetDocs: -1})
