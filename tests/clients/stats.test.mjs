// Statistics through the real mongosh and the Node driver against
// `ttldb serve`: mongosh's db.c.stats(), dataSize(), storageSize(),
// totalSize(), totalIndexSize(), latencyStats() and db.printCollectionStats()
// (all built on {$collStats: ...}: @mongosh/shell-api collection.js),
// db.stats() and db.serverStatus(); the driver's $collStats / $indexStats
// aggregates. Expected shapes: MongoDB 8.0's src/mongo/db/stats/
// storage_stats.cpp, src/mongo/db/pipeline/document_source_coll_stats.cpp,
// document_source_index_stats.cpp, src/mongo/db/stats/
// operation_latency_histogram.cpp and the manual's $collStats / $indexStats
// / serverStatus pages.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runMongosh, withServerAndClient } from './harness.mjs';

let server;
let client;
withServerAndClient((s, c) => { server = s; client = c; });

// Runs `script` in mongosh on database `db`; resolves to its printed
// output.
async function mongosh(db, script) {
  const { code, out, err } =
    await runMongosh([`${server.uri}${db}`, '--eval', script]);
  assert.equal(code, 0, `mongosh: ${err}${out}`);
  return out;
}

// mongosh evaluates `expr` and prints it as relaxed Extended JSON.
async function shellValue(db, expr) {
  const out = await mongosh(db, `print(EJSON.stringify(${expr}, {relaxed: true}))`);
  return JSON.parse(out.trim().split('\n').pop());
}

const pad = 'x'.repeat(10000);

test('db.c.stats() and the size helpers, with real sizes', async () => {
  const c = client.db('shell').collection('c');
  await c.insertMany(Array.from({ length: 10 }, (_, i) => ({ _id: i, a: i })));
  await c.createIndex({ a: 1 });
  const s = await shellValue('shell', 'db.c.stats()');
  for (const f of ['ok', 'capped', 'size', 'count', 'storageSize',
                   'totalIndexSize', 'totalSize', 'numOrphanDocs',
                   'indexSizes', 'avgObjSize', 'ns', 'nindexes',
                   'scaleFactor']) {
    assert.ok(f in s, `${f} in ${JSON.stringify(s)}`);
  }
  assert.equal(s.ns, 'shell.c');
  assert.equal(s.count, 10);
  assert.equal(s.nindexes, 2);
  assert.equal(s.capped, false);
  assert.deepEqual(Object.keys(s.indexSizes), ['_id_', 'a_1']);
  assert.ok(s.size > 0 && s.storageSize >= s.size, JSON.stringify(s));
  assert.equal(s.totalSize, s.storageSize + s.totalIndexSize);
  const sizes = await shellValue('shell',
    '[db.c.dataSize(), db.c.storageSize(), db.c.totalSize(), db.c.totalIndexSize()]');
  assert.deepEqual(sizes, [s.size, s.storageSize, s.totalSize, s.totalIndexSize]);

  // About 1 MB more makes every size grow by about as much.
  await c.insertMany(Array.from({ length: 100 }, (_, i) => ({ a: 100 + i, pad })));
  const t = await shellValue('shell', 'db.c.stats()');
  assert.equal(t.count, 110);
  assert.ok(t.size > s.size + 1000000, `${t.size} after ${s.size}`);
  assert.ok(t.storageSize > s.storageSize + 1000000);
  assert.ok(t.totalIndexSize > s.totalIndexSize);
  const k = await shellValue('shell', 'db.c.stats(1024)');
  assert.equal(k.scaleFactor, 1024);
  assert.ok(Math.abs(k.size - t.size / 1024) < 1, `${k.size} ${t.size}`);
});

test('db.c.latencyStats() counts the operations on the collection', async () => {
  const c = client.db('lat').collection('c');
  await c.insertOne({ a: 1 });
  await c.insertOne({ a: 2 });
  await c.find({}).toArray();
  await c.createIndex({ a: 1 });
  const [l] = await shellValue('lat', 'db.c.latencyStats({histograms: true})');
  assert.deepEqual(Object.keys(l), ['ns', 'host', 'localTime', 'latencyStats']);
  assert.equal(l.ns, 'lat.c');
  assert.equal(l.host, `127.0.0.1:${server.port}`);
  assert.deepEqual(Object.keys(l.latencyStats),
                   ['reads', 'writes', 'commands', 'transactions']);
  assert.equal(l.latencyStats.writes.ops, 2);
  assert.equal(l.latencyStats.reads.ops, 1);
  assert.equal(l.latencyStats.commands.ops, 1);
  assert.ok(l.latencyStats.writes.latency > 0);
  const counted = l.latencyStats.writes.histogram
    .reduce((n, b) => n + b.count, 0);
  assert.equal(counted, 2);
});

test('db.printCollectionStats() and db.stats()', async () => {
  const db = client.db('print');
  await db.collection('a').insertMany([{ x: 1 }, { x: 2 }]);
  await db.collection('b').insertOne({ y: 'z'.repeat(1000) });
  const out = await mongosh('print', 'db.printCollectionStats()');
  assert.doesNotMatch(out, /errmsg|Error/);
  assert.match(out, /^a\n[\s\S]*ns: 'print\.a'[\s\S]*---\nb\n[\s\S]*ns: 'print\.b'/m);
  const s = await shellValue('print', 'db.stats()');
  assert.deepEqual(Object.keys(s), ['db', 'collections', 'views', 'objects',
    'avgObjSize', 'dataSize', 'storageSize', 'indexes', 'indexSize',
    'totalSize', 'scaleFactor', 'fsUsedSize', 'fsTotalSize', 'ok']);
  assert.equal(s.objects, 3);
  assert.equal(s.collections, 2);
  assert.ok(s.dataSize > 1000 && s.storageSize >= s.dataSize, JSON.stringify(s));
  assert.ok(s.indexSize > 0);
  assert.equal(s.totalSize, s.storageSize + s.indexSize);
});

test('db.serverStatus(): opcounters, globalLock, host', async () => {
  const before = await shellValue('admin', 'db.serverStatus()');
  const c = client.db('ops').collection('c');
  await c.insertMany([{ a: 1 }, { a: 2 }, { a: 3 }]);
  await c.find({}).toArray();
  await c.updateMany({}, { $set: { b: 1 } });
  await c.deleteOne({ a: 1 });
  const s = await shellValue('admin', 'db.serverStatus()');
  assert.deepEqual(Object.keys(s.opcounters),
                   ['insert', 'query', 'update', 'delete', 'getmore', 'command']);
  assert.equal(s.opcounters.insert - before.opcounters.insert, 3);
  assert.equal(s.opcounters.query - before.opcounters.query, 1);
  assert.equal(s.opcounters.update - before.opcounters.update, 1);
  assert.equal(s.opcounters.delete - before.opcounters.delete, 1);
  assert.ok(s.opcounters.command > before.opcounters.command);
  assert.deepEqual(Object.keys(s.globalLock),
                   ['totalTime', 'currentQueue', 'activeClients']);
  assert.ok(s.globalLock.totalTime > 0);
  assert.ok(s.globalLock.activeClients.total >= 1);  // serverStatus itself
  assert.equal(s.host, `127.0.0.1:${server.port}`);
  assert.ok(s.connections.current >= 1);
  assert.ok(s.opLatencies.writes.ops >= 3);
});

test('$collStats and $indexStats through the driver', async () => {
  const c = client.db('drv').collection('c');
  await c.insertMany(Array.from({ length: 5 }, (_, i) => ({ _id: i, a: i })));
  await c.createIndex({ a: 1 });
  const [d] = await c.aggregate([{ $collStats: {
    latencyStats: { histograms: true }, storageStats: {}, count: {},
    queryExecStats: {} } }]).toArray();
  assert.deepEqual(Object.keys(d), ['ns', 'host', 'localTime', 'latencyStats',
    'storageStats', 'count', 'queryExecStats']);
  assert.equal(d.count, 5);
  assert.ok(d.localTime instanceof Date);
  assert.deepEqual(Object.keys(d.storageStats), ['size', 'count', 'avgObjSize',
    'numOrphanDocs', 'storageSize', 'freeStorageSize', 'capped', 'nindexes',
    'indexDetails', 'indexBuilds', 'totalIndexSize', 'indexSizes', 'totalSize',
    'scaleFactor']);
  assert.equal(d.storageStats.count, 5);
  assert.deepEqual(Object.keys(d.queryExecStats.collectionScans),
                   ['total', 'nonTailable']);

  const accesses = async () => Object.fromEntries(
    (await c.aggregate([{ $indexStats: {} }]).toArray())
      .map((s) => [s.name, s]));
  const first = await accesses();
  assert.deepEqual(Object.keys(first.a_1),
                   ['name', 'key', 'host', 'accesses', 'spec']);
  assert.deepEqual(first.a_1.key, { a: 1 });
  assert.ok(first.a_1.accesses.since instanceof Date);
  assert.equal(Number(first.a_1.accesses.ops), 0);
  await c.find({ a: 3 }).toArray();
  await c.find({ a: { $gte: 1 } }).toArray();
  await c.findOne({ _id: 2 });
  const then = await accesses();
  assert.equal(Number(then.a_1.accesses.ops), 2);
  assert.equal(Number(then._id_.accesses.ops) - Number(first._id_.accesses.ops), 1);

  await assert.rejects(c.aggregate([{ $match: {} }, { $collStats: {} }]).toArray(),
                       { code: 40602 });
});
