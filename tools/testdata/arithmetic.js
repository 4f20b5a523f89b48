// Arithmetic, Date.now() and regex-vs-division, as in the TTL tutorials:
// new Date(Date.now() - 3600 * 1000). Expected values: ECMA-262 number
// semantics (what mongosh, a JavaScript REPL, prints).
10 / 4;
7 % 3;
1 + 2 * 3 - (4 - 1) / 3;
-2 * -3;
'id-' + 7;
var hour = 3600 * 1000;
hour;
db.events.insertOne({_id: 1, at: ISODate('2026-11-21T10:00:00Z'), n: 10 / 4, s: 'a' + 'b'});
db.events.find({at: {$lt: new Date(Date.now() + 365 * 24 * hour)}}, {_id: 1, n: 1, s: 1});
db.events.find({s: /^a/}).count();
new Date(ISODate('2026-11-21T10:00:00Z') - hour);
db.events.insertOne();
