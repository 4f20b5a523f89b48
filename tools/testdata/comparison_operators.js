// Comparison, equality, logical and conditional operators with JavaScript's
// semantics (ECMA-262 13.10-13.14; what mongosh, a JavaScript REPL,
// prints), and the regex-vs-division rule next to them.
db.scores.insertMany([
  {_id: 1, name: 'ann', score: 90, at: ISODate('2026-11-21T10:00:00Z')},
  {_id: 2, name: 'bob', score: 55, at: ISODate('2026-11-21T11:00:00Z')},
  {_id: 3, name: 'cy', score: 72}
]);
var best = db.scores.findOne({_id: 1});
best.score >= 90 ? 'top' : 'other';
best.score > 50 && best.name === 'ann';
best.missing == null;
best.missing === null;
'10' < '9';
10 < 9;
1 == '1';
1 === '1';
NaN == NaN;
!0;
!!'';
best.at < ISODate('2026-11-21T10:30:00Z');
db.scores.find({}, {_id: 0, name: 1, score: 1}).map(d => d.name + (d.score >= 60 ? ' passes' : ' fails'));
db.scores.find().toArray().length > 2 || print('few');
var grade = s => s >= 80 ? 'A' : s >= 60 ? 'B' : 'C';
grade(90) + grade(72) + grade(55);
db.scores.find({name: /^a/}).count() == 1;
best.score / 3 > 29 && /ann/ != null;
var fib = n => n < 2 ? n : fib(n - 1) + fib(n - 2);
fib(15);
best.name !== 'ann' && db.scores.insertOne({_id: 4});
db.scores.countDocuments();
