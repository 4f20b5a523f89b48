// `ttldb serve --unix-socket PATH`: the official Node.js driver connects
// through the socket with a percent-encoded path as the host
// (mongodb://%2Ftmp%2Fttldb.sock, the connection string spec's form for
// Unix domain sockets; mongod's --unixSocketPrefix/--filePermissions).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MongoClient } from 'mongodb';
import { startServer } from './harness.mjs';

test('the driver connects through --unix-socket', async () => {
  const sockDir = mkdtempSync(join(tmpdir(), 'ttldb-sock-'));
  const path = join(sockDir, 'ttldb.sock');
  const server = await startServer(['--unix-socket', path]);
  try {
    assert.ok(statSync(path).isSocket());
    const client = new MongoClient(`mongodb://${encodeURIComponent(path)}/`,
                                   { serverSelectionTimeoutMS: 10000 });
    await client.connect();
    try {
      const c = client.db('test').collection('viaSocket');
      await c.insertOne({ _id: 1, at: new Date(0) });
      assert.deepEqual(await c.findOne({ _id: 1 }), { _id: 1, at: new Date(0) });
      // The same data is there over TCP.
      const tcp = new MongoClient(server.uri);
      await tcp.connect();
      assert.equal(await tcp.db('test').collection('viaSocket').countDocuments(), 1);
      await tcp.close();
    } finally {
      await client.close();
    }
  } finally {
    assert.equal(await server.stop(), 0, 'clean shutdown');
    rmSync(sockDir, { recursive: true, force: true });
  }
});
