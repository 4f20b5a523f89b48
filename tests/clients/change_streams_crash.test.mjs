// Change streams across a kill -9 and the file-cache scenario, through the
// Node driver against `ttldb serve` (issue 30's tests):
//  - a watcher that saves the token of each event it has handled resumes,
//    after the server is killed with SIGKILL mid-load and restarted on the
//    same directory, with no acknowledged insert missing and no event twice
//    (the event is in its write's own batch: docs/change_streams.md);
//  - records with a TTL index point at files; a watcher deletes a record's
//    file when the server's monitor expires the record (a delete event with
//    `expired: true` and the document as its pre-image); afterwards no file
//    is left without a record and no record without a file.
// The servers run with ttlMonitorSleepSecs=1; nothing sleeps for an expiry:
// the tests wait for the events.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, rmSync, unlinkSync,
         writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MongoClient } from 'mongodb';
import { startServer } from './harness.mjs';

const MONITOR = ['--setParameter', 'ttlMonitorSleepSecs=1'];

async function connect(server) {
  const client = new MongoClient(server.uri, {
    serverSelectionTimeoutMS: 10000, retryWrites: false, retryReads: false,
  });
  await client.connect();
  return client;
}

// The next event within `ms`, or null.
async function nextOrNull(stream, ms) {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    const e = await stream.tryNext();
    if (e !== null) return e;
  }
  return null;
}

test('a watcher resumes after kill -9: every acknowledged insert once',
     async () => {
  const server = await startServer(MONITOR);
  const dir = server.dir;
  let client = await connect(server);
  let c = client.db('crash').collection('events');
  await c.insertOne({ _id: 'start' });
  let stream = c.watch([{ $match: { operationType: 'insert' } }],
                       { maxAwaitTimeMS: 200 });
  assert.equal(await stream.tryNext(), null);  // opened before the load

  const handled = [];  // _ids in the order the watcher handled them
  let token = null;    // the token of the last handled event
  const acknowledged = new Set();
  let writerDone;
  const writer = (async () => {
    for (let i = 0; i < 100000; i++) {
      try {
        await c.insertOne({ _id: i, at: new Date() },
                          { writeConcern: { w: 1, j: true } });
      } catch {
        return;  // the server is gone
      }
      acknowledged.add(i);
    }
  })().finally(() => { writerDone = true; });
  // Handle events while the writer runs; kill the server once some are in.
  while (handled.length < 150) {
    const e = await nextOrNull(stream, 10000);
    assert.ok(e, 'events arrive while the writer runs');
    handled.push(e.documentKey._id);
    token = e._id;
  }
  await server.kill();
  await writer;
  assert.ok(writerDone);
  await client.close().catch(() => {});

  const again = await startServer(MONITOR, dir);
  client = await connect(again);
  c = client.db('crash').collection('events');
  stream = c.watch([{ $match: { operationType: 'insert' } }],
                   { resumeAfter: token, maxAwaitTimeMS: 200 });
  for (;;) {
    const e = await nextOrNull(stream, 2000);
    if (e === null) break;
    handled.push(e.documentKey._id);
  }
  await stream.close();
  // Every acknowledged insert exactly once, in commit order; at most the
  // one unacknowledged insert in flight may have committed too.
  assert.equal(new Set(handled).size, handled.length, 'no event twice');
  for (const id of acknowledged) {
    assert.ok(handled.includes(id), `acknowledged insert ${id} has its event`);
  }
  const extra = handled.filter((id) => !acknowledged.has(id));
  assert.ok(extra.length <= 1, `unacknowledged events: ${extra}`);
  assert.deepEqual(handled, [...handled].sort((a, b) => a - b));
  // And the stored documents are exactly the events' (none lost either).
  const stored = (await c.find({ _id: { $type: 'number' } }).toArray())
    .map((d) => d._id).sort((a, b) => a - b);
  assert.deepEqual(stored, handled);
  assert.ok(acknowledged.size >= 150);
  await client.close();
  assert.equal(await again.stop(), 0);
});

test('file cache: each expired record\'s file is deleted by a watcher, ' +
     'and files and records match afterwards', async () => {
  const server = await startServer(MONITOR);
  const client = await connect(server);
  const cacheDir = mkdtempSync(join(tmpdir(), 'ttldb-file-cache-'));
  try {
    const db = client.db('cache');
    await db.createCollection('files',
                              { changeStreamPreAndPostImages: { enabled: true } });
    const files = db.collection('files');
    await files.createIndex({ expireAt: 1 }, { expireAfterSeconds: 0 });
    const stream = files.watch([{ $match: { operationType: 'delete' } }],
                               { fullDocumentBeforeChange: 'whenAvailable',
                                 maxAwaitTimeMS: 200 });
    assert.equal(await stream.tryNext(), null);

    const now = Date.now();
    const records = [];
    for (let i = 0; i < 40; i++) {
      const path = join(cacheDir, `f${i}.bin`);
      writeFileSync(path, `contents of ${i}`);
      // Half already past their deadline, half an hour away.
      const expired = i % 2 === 0;
      records.push({ _id: `f${i}`, path,
                     expireAt: new Date(now + (expired ? -1000 : 3600e3)) });
    }
    await files.insertMany(records);

    let deleted = 0;
    while (deleted < 20) {
      const e = await nextOrNull(stream, 15000);
      assert.ok(e, `expiry ${deleted + 1} of 20 arrives`);
      assert.equal(e.expired, true);
      const path = e.fullDocumentBeforeChange.path;
      assert.equal(path, join(cacheDir, `${e.documentKey._id}.bin`));
      unlinkSync(path);
      deleted++;
    }
    await stream.close();
    const left = (await files.find().toArray()).map((d) => d.path).sort();
    const onDisk = readdirSync(cacheDir).map((f) => join(cacheDir, f)).sort();
    assert.deepEqual(onDisk, left, 'no file without a record, and back');
    assert.equal(left.length, 20);
    for (const r of records) {
      assert.equal(existsSync(r.path), r.expireAt.getTime() > now, r._id);
    }
  } finally {
    rmSync(cacheDir, { recursive: true, force: true });
    await client.close();
    assert.equal(await server.stop(), 0);
  }
});
