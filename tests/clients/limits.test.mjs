// The server's resource limits through the real Node driver and raw
// sockets (issue 28 items 12 and 13; review reliability-3 N7, L7, L8;
// docs/server.md "Limits"): open cursors bounded per server, databases
// bounded, and a client that never reads its replies holds one encoded reply
// per connection, not several times that.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { readFileSync } from 'node:fs';
import { MongoClient } from 'mongodb';
import { startServer, rejectsWithCode } from './harness.mjs';
import { opMsg } from './op_msg.mjs';

let server;
let client;

before(async () => {
  server = await startServer(['--max-cursors', '4', '--max-databases', '3']);
  client = new MongoClient(server.uri, { serverSelectionTimeoutMS: 10000 });
  await client.connect();
});

after(async () => {
  await client?.close();
  if (server) assert.equal(await server.stop(), 0, 'clean shutdown');
});

test('databases beyond --max-databases are 264 TooManyFilesOpen', async () => {
  for (const name of ['d1', 'd2', 'd3']) {
    await client.db(name).collection('c').insertOne({ _id: 1 });
  }
  await rejectsWithCode(client.db('d4').collection('c').insertOne({ _id: 1 }), 264,
                    /cannot create database 'd4': 3 databases exist.*--max-databases 3/);
  const names = (await client.db('admin').admin().listDatabases()).databases
    .map((d) => d.name).sort();
  assert.deepEqual(names, ['d1', 'd2', 'd3']);
  // Existing databases keep working; a drop makes room.
  await client.db('d1').collection('c').insertOne({ _id: 2 });
  await client.db('d3').dropDatabase();
  await client.db('d4').collection('c').insertOne({ _id: 1 });
});

test('cursors beyond --max-cursors are refused; closing frees them', async () => {
  const c = client.db('d1').collection('c');
  await c.insertMany([{ _id: 10 }, { _id: 11 }, { _id: 12 }]);
  const other = new MongoClient(server.uri, { serverSelectionTimeoutMS: 10000 });
  await other.connect();
  const open = [];
  for (let i = 0; i < 4; ++i) {
    const r = await (i % 2 ? other : client).db('d1')
      .command({ find: 'c', batchSize: 1 });
    assert.notEqual(r.cursor.id.toString(), '0');
    open.push(r.cursor.id);
  }
  await rejectsWithCode(client.db('d1').command({ find: 'c', batchSize: 1 }), 2,
                    /too many open cursors on this server \(limit 4\)/);
  // getMore still finds a cursor by id; killCursors frees a place.
  const more = await client.db('d1').command({ getMore: open[0], collection: 'c', batchSize: 1 });
  assert.equal(more.cursor.nextBatch.length, 1);
  await client.db('d1').command({ killCursors: 'c', cursors: [open[0]] });
  const again = await client.db('d1').command({ find: 'c', batchSize: 1 });
  assert.notEqual(again.cursor.id.toString(), '0');
  await client.db('d1').command({ killCursors: 'c', cursors: [again.cursor.id, open[2]] });
  // Closing a connection (the driver's pool) frees its cursors.
  await other.close();
});

function rssBytes(pid) {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(m[1]) * 1024;
}

test('a client that never reads holds one encoded reply per connection', async () => {
  // 16,000 documents of about 930 bytes: one find returns them all in a
  // first batch of about 15 MB (no cursor stays open).
  const c = client.db('d2').collection('big');
  const pad = 'x'.repeat(900);
  for (let k = 0; k < 16; ++k) {
    await c.insertMany(Array.from({ length: 1000 }, (_, i) => ({ _id: k * 1000 + i, pad })));
  }
  // The same find once, read to the end: what the engine caches (documents,
  // blocks) is in the baseline, not counted against the connections.
  assert.equal((await c.find().batchSize(100000).toArray()).length, 16000);
  await new Promise((r) => setTimeout(r, 500));
  const base = rssBytes(server.pid);
  // 10 connections each pipeline 5 finds of the whole collection and never
  // read (review L7: 65 MB per connection before).
  const socks = [];
  for (let s = 0; s < 10; ++s) {
    const sock = net.connect(server.port, '127.0.0.1');
    sock.pause();
    await new Promise((resolve) => sock.on('connect', resolve));
    for (let i = 0; i < 5; ++i) {
      sock.write(opMsg(i + 1, { find: 'big', batchSize: 100000, $db: 'd2' }));
    }
    socks.push(sock);
  }
  // Let the server build the replies and block sending them (the
  // memory the review measured stayed pinned until the timeout).
  await new Promise((r) => setTimeout(r, 5000));
  const perConnection = (rssBytes(server.pid) - base) / 10;
  // One encoded 16 MiB reply each, plus what the socket buffers took.
  assert.ok(perConnection < 32 * 1024 * 1024,
            `${(perConnection / 1048576).toFixed(1)} MiB per connection`);
  // Other clients are served meanwhile.
  assert.equal((await client.db('admin').command({ ping: 1 })).ok, 1);
  for (const sock of socks) sock.destroy();
});
