// Operations an operator types, through the real mongosh and the Node
// driver: db.currentOp() / db.killOp(), the profiler
// (db.setProfilingLevel, db.getProfilingStatus, db.system.profile), the
// "Slow query" log line and getLog, rs.status(), fsync, and change
// streams (served from ttldb's change log, unlike a standalone). Expected answers are a standalone mongod 8.0's:
// src/mongo/db/commands/current_op_common.cpp, killop_cmd.cpp,
// pipeline/document_source_current_op.cpp, commands/profile_common.cpp,
// introspect.cpp, curop.cpp (Slow query, id 51803), commands/fsync.cpp,
// repl/repl_set_commands.cpp (76 "not running with --replSet") and
// pipeline/document_source_change_stream.cpp (40573).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runMongosh, withServerAndClient } from './harness.mjs';

let server;
let client;
withServerAndClient((s, c) => { server = s; client = c; });

// mongosh on `db` with `input` typed on its standard input.
function mongosh(db, input) {
  return runMongosh([`${server.uri}${db}`], input);
}

test('db.currentOp() shows a running aggregate; db.killOp() ends it', async () => {
  const c = client.db('test').collection('ops');
  await c.insertOne({ _id: 1 });
  // 10,000 x 100,000 $filter steps: far longer than the test, and
  // interruptible at each step (the iterating operators' interrupt point).
  const long = c.aggregate([
    { $project: { n: { $map: { input: { $range: [0, 10000] },
      in: { $size: { $filter: { input: { $range: [0, 100000] },
                                cond: false } } } } } } },
  ], { comment: 'long-running' }).toArray();
  const outcome = long.then(() => null, (e) => e);
  const { code, out, err } = await mongosh('test', [
    'let op = null;',
    'for (let i = 0; i < 2000 && !op; i++) { op = db.currentOp({"command.comment": "long-running"}).inprog[0]; }',
    'print("FOUND", op.op, op.ns, op.active, typeof op.opid, op.command.aggregate, op.type, op.desc.startsWith("conn"), typeof op.client)',
    'print("KILL", JSON.stringify(db.killOp(op.opid)))',
    '',
  ].join('\n'));
  assert.equal(code, 0, err + out);
  assert.match(out, /FOUND command test\.ops true number ops op true string/);
  assert.match(out, /KILL \{"info":"attempting to kill op","ok":1\}/);
  const e = await outcome;
  assert.ok(e, 'the aggregate was interrupted');
  assert.equal(e.code, 11601);
  assert.equal(e.codeName, 'Interrupted');
  assert.equal(e.message, 'operation was interrupted');
});

// db.currentOp(true) ($currentOp with idleConnections: true) also lists
// the connections that run nothing, active: false
// (CurOp::reportCurrentOpForClient): here the test's own driver
// connection, named by its appName; db.currentOp() does not.
test('db.currentOp(true) lists idle connections', async () => {
  await client.db('admin').command({ ping: 1 });
  const { code, out, err } = await mongosh('test', [
    'const all = db.currentOp(true).inprog;',
    'const idle = all.filter((o) => o.active === false);',
    'print("IDLE", idle.length >= 1, idle.every((o) => o.type === "op" && o.desc.startsWith("conn") && typeof o.connectionId === "number" && !("opid" in o)))',
    'print("ACTIVE", db.currentOp().inprog.every((o) => o.active === true))',
    '',
  ].join('\n'));
  assert.equal(code, 0, err + out);
  assert.match(out, /IDLE true true/);
  assert.match(out, /ACTIVE true/);
});

test('the profiler: setProfilingLevel, system.profile, getProfilingStatus', async () => {
  const { code, out, err } = await mongosh('prof', [
    'db.c.insertMany([{x: 1}, {x: 2}, {x: 3}])',
    'print("SET", JSON.stringify(db.setProfilingLevel(2)))',
    'db.c.find({x: {$gte: 2}}).toArray().length',
    'print("STATUS", JSON.stringify(db.getProfilingStatus()))',
    'const p = db.system.profile.find({op: "query", ns: "prof.c"}).toArray()',
    'print("PROFILED", p.length, JSON.stringify(p[0].command.filter), p[0].nreturned, p[0].docsExamined, p[0].ts instanceof Date, typeof p[0].millis)',
    'print("OFF", JSON.stringify(db.setProfilingLevel(0)))',
    'print("COLL", db.getCollectionNames().includes("system.profile"))',
    '',
  ].join('\n'));
  assert.equal(code, 0, err + out);
  assert.match(out, /SET \{"was":0,"slowms":100,"sampleRate":1,"ok":1\}/);
  assert.match(out, /STATUS \{"was":2,"slowms":100,"sampleRate":1[,}]/);
  assert.match(out, /PROFILED 1 \{"x":\{"\$gte":2\}\} 2 3 true number/);
  assert.match(out, /OFF \{"was":2,"slowms":100,"sampleRate":1,"ok":1\}/);
  assert.match(out, /COLL true/);
});

test('slow operations are logged as mongod logs them; getLog returns them', async () => {
  const admin = client.db('admin');
  const db = client.db('slow');
  await db.command({ profile: 0, slowms: 0 });
  try {
    await db.collection('c').insertOne({ a: 1 });
    await db.collection('c').find({ a: 1 }).toArray();
  } finally {
    await db.command({ profile: 0, slowms: 100 });
  }
  const log = await admin.command({ getLog: 'global' });
  const lines = log.log.map((l) => JSON.parse(l));
  const find = lines.find((l) => l.attr?.command?.find === 'c' &&
                                 l.attr.ns === 'slow.c');
  assert.ok(find, JSON.stringify(log.log.slice(-5)));
  assert.equal(find.msg, 'Slow query');
  assert.equal(find.id, 51803);
  assert.equal(find.c, 'COMMAND');
  assert.equal(find.s, 'I');
  assert.match(find.ctx, /^conn\d+$/);
  assert.match(find.t.$date, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00$/);
  assert.equal(find.attr.docsExamined, 1);
  assert.equal(find.attr.nreturned, 1);
  assert.equal(typeof find.attr.durationMillis, 'number');
  assert.ok(log.totalLinesWritten >= lines.length);
  // The same line on the server's stderr.
  assert.match(server.stderr(), /"msg":"Slow query".*"ns":"slow\.c"/);
  const names = await admin.command({ getLog: '*' });
  assert.deepEqual(names.names, ['global', 'startupWarnings']);
});

test('rs.status(), fsync and fsyncLock in mongosh', async () => {
  const { code, out, err } = await mongosh('test', [
    'try { rs.status() } catch (e) { print("RS", e.code, e.codeName, e.message) }',
    'print("FSYNC", JSON.stringify(db.adminCommand({fsync: 1})))',
    'try { db.fsyncLock() } catch (e) { print("LOCK", e.code, e.codeName) }',
    '',
  ].join('\n'));
  assert.equal(code, 0, err + out);
  assert.match(out, /RS 76 NoReplicationEnabled not running with --replSet/);
  assert.match(out, /FSYNC \{"numFiles":1,"ok":1\}/);
  assert.match(out, /LOCK 115 CommandNotSupported/);
});

test('collection.watch() works on one node (ttldb keeps a change log)',
     async () => {
       // A standalone mongod answers 40573; ttldb serves change streams
       // from its change log (tests/clients/change_streams.test.mjs).
       const c = client.db('test').collection('watched');
       const stream = c.watch();
       assert.equal(await stream.tryNext(), null);
       await c.insertOne({ a: 1 });
       let e = null;
       for (let i = 0; i < 20 && !e; i++) e = await stream.tryNext();
       await stream.close();
       assert.equal(e?.operationType, 'insert');
       assert.equal(e.fullDocument.a, 1);
     });
