// Change streams through the Node driver against `ttldb serve` (issue 30):
// collection.watch() sees inserts, updates and deletes in MongoDB 8.0's
// event shape (src/mongo/db/pipeline/change_stream_event_transform.cpp;
// jstests/change_streams/change_stream.js), resumes with resumeAfter after
// the stream was closed (the driver sends the token, the server answers
// from its durable change log), and sees a TTL expiry by the server's own
// monitor as a delete event with ttldb's `expired: true` and, on a
// collection created with changeStreamPreAndPostImages, the expired
// document as fullDocumentBeforeChange (jstests/change_streams/
// lookup_pre_image.js). The server runs with ttlMonitorSleepSecs=1.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runMongosh, withServerAndClient } from './harness.mjs';

let client;
let server;
withServerAndClient((s, c) => { server = s; client = c; },
                    ['--setParameter', 'ttlMonitorSleepSecs=1']);

// stream.next() within `ms`, or a failure naming `what`.
function nextWithin(stream, what, ms = 15000) {
  let timer;
  return Promise.race([
    stream.next(),
    new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no ${what} event in ${ms} ms`)),
                         ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

// Opens the stream on the server (the driver sends aggregate lazily), so
// that the writes that follow come after its start.
async function opened(stream) {
  assert.equal(await stream.tryNext(), null);
  return stream;
}

test('collection.watch(): insert, update and delete events', async () => {
  const c = client.db('cs').collection('items');
  const stream = await opened(c.watch([], { maxAwaitTimeMS: 500 }));
  await c.insertOne({ _id: 1, a: 1, tags: ['x'] });
  await c.updateOne({ _id: 1 }, { $set: { a: 2 }, $unset: { tags: 1 } });
  await c.deleteOne({ _id: 1 });

  const ins = await nextWithin(stream, 'insert');
  assert.equal(ins.operationType, 'insert');
  assert.deepEqual(ins.fullDocument, { _id: 1, a: 1, tags: ['x'] });
  assert.deepEqual(ins.ns, { db: 'cs', coll: 'items' });
  assert.deepEqual(ins.documentKey, { _id: 1 });
  assert.equal(typeof ins._id._data, 'string');
  assert.equal(ins.clusterTime._bsontype, 'Timestamp');
  assert.ok(ins.wallTime instanceof Date);

  const upd = await nextWithin(stream, 'update');
  assert.equal(upd.operationType, 'update');
  assert.deepEqual(upd.updateDescription,
                   { updatedFields: { a: 2 }, removedFields: ['tags'],
                     truncatedArrays: [] });
  const del = await nextWithin(stream, 'delete');
  assert.equal(del.operationType, 'delete');
  assert.deepEqual(del.documentKey, { _id: 1 });
  assert.equal(del.expired, undefined);
  // The driver keeps the server's postBatchResumeToken.
  assert.deepEqual(stream.resumeToken, del._id);
  await stream.close();
});

test('resumeAfter a closed stream\'s token: no event lost, none twice',
     async () => {
       const c = client.db('cs').collection('resume');
       const first = await opened(c.watch());
       await c.insertMany([{ _id: 1 }, { _id: 2 }, { _id: 3 }]);
       const e1 = await nextWithin(first, 'first insert');
       assert.deepEqual(e1.documentKey, { _id: 1 });
       await first.close();
       await c.insertOne({ _id: 4 });  // while no stream is open

       const resumed = c.watch([], { resumeAfter: e1._id });
       const ids = [];
       for (let i = 0; i < 3; i++) {
         ids.push((await nextWithin(resumed, `resumed ${i}`)).documentKey._id);
       }
       assert.deepEqual(ids, [2, 3, 4]);
       assert.equal(await resumed.tryNext(), null);
       await resumed.close();
     });

test('a TTL expiry by the monitor is a delete event marked expired, with ' +
     'the expired document as its pre-image', async () => {
  const db = client.db('cs');
  await db.createCollection('files',
                            { changeStreamPreAndPostImages: { enabled: true } });
  const files = db.collection('files');
  await files.createIndex({ at: 1 }, { expireAfterSeconds: 0 });
  const stream = await opened(files.watch(
    [{ $match: { operationType: 'delete' } }],
    { fullDocumentBeforeChange: 'whenAvailable' }));
  await files.insertOne({ _id: 'f1', path: '/tmp/cache/f1.bin',
                          at: new Date(Date.now() - 1000) });
  const del = await nextWithin(stream, 'TTL delete');
  assert.equal(del.operationType, 'delete');
  assert.equal(del.expired, true);
  assert.deepEqual(del.documentKey, { _id: 'f1' });
  assert.equal(del.fullDocumentBeforeChange.path, '/tmp/cache/f1.bin');
  await stream.close();
});

test('db.watch() sees every collection of the database', async () => {
  const db = client.db('csdb');
  const stream = await opened(db.watch());
  await db.collection('a').insertOne({ _id: 1 });
  await db.collection('b').insertOne({ _id: 2 });
  const colls = [(await nextWithin(stream, 'a')).ns.coll,
                 (await nextWithin(stream, 'b')).ns.coll];
  assert.deepEqual(colls, ['a', 'b']);
  await stream.close();
});

test('mongosh: db.c.watch() sees an insert as the driver does', async () => {
  const { code, out, err } = await runMongosh([`${server.uri}msh`, '--eval', `
    const s = db.w.watch([], { maxAwaitTimeMS: 200 });
    s.tryNext();  // opens the stream before the insert
    db.w.insertOne({ _id: 1, v: 'x' });
    let e = null;
    for (let i = 0; i < 50 && e === null; i++) e = s.tryNext();
    print(EJSON.stringify({ op: e.operationType, doc: e.fullDocument,
                            ns: e.ns }));
    s.close();
  `]);
  assert.equal(code, 0, err);
  assert.match(out, /{"op":"insert","doc":{"_id":1,"v":"x"},"ns":{"db":"msh","coll":"w"}}/);
});

test('showExpandedEvents: create, createIndexes and dropIndexes events',
     async () => {
  // jstests/change_streams/show_expanded_events.js's shapes.
  const db = client.db('csddl');
  const stream = await opened(db.watch([], { showExpandedEvents: true,
                                             maxAwaitTimeMS: 500 }));
  const c = await db.createCollection('made');
  await c.createIndex({ at: 1 }, { expireAfterSeconds: 60 });
  await c.dropIndex('at_1');
  const create = await nextWithin(stream, 'create');
  assert.equal(create.operationType, 'create');
  assert.deepEqual(create.ns, { db: 'csddl', coll: 'made' });
  assert.deepEqual(create.operationDescription,
                   { idIndex: { v: 2, key: { _id: 1 }, name: '_id_' } });
  assert.equal(create.nsType, 'collection');
  const ci = await nextWithin(stream, 'createIndexes');
  assert.equal(ci.operationType, 'createIndexes');
  assert.deepEqual(ci.operationDescription.indexes,
                   [{ v: 2, key: { at: 1 }, name: 'at_1',
                      expireAfterSeconds: 60 }]);
  const di = await nextWithin(stream, 'dropIndexes');
  assert.equal(di.operationType, 'dropIndexes');
  assert.equal(di.operationDescription.indexes[0].name, 'at_1');
  await stream.close();
});
