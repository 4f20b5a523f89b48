// `ttldb serve` as a process: refused binds, and SIGTERM finishing an
// in-flight write before closing the databases cleanly.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { MongoClient } from 'mongodb';
import { startServer, TTLDB_BIN } from './harness.mjs';

test('a non-loopback bind is refused: authentication is not implemented', () => {
  const r = spawnSync(TTLDB_BIN, ['serve', '--db', '/nonexistent-unused',
                                  '--bind', '0.0.0.0', '--port', '0'],
                      { encoding: 'utf8', timeout: 20000 });
  assert.equal(r.status, 1, r.stderr);
  assert.match(r.stderr, /refusing to bind 0\.0\.0\.0: binding a non-loopback address requires authentication, which ttldb does not implement yet/);
});

test('SIGTERM lets an in-flight insert finish, then shuts down cleanly', async () => {
  const N = 20000;
  const server = await startServer();
  const client = new MongoClient(server.uri, { maxPoolSize: 1 });
  await client.connect();
  const docs = Array.from({ length: N }, (_, i) => ({ _id: i, pad: 'x'.repeat(100) }));
  const insert = client.db('test').collection('big').insertMany(docs)
    .then(() => 'acknowledged', (e) => e);
  // Give the request time to reach the server, then stop it.
  await new Promise((r) => setTimeout(r, 100));
  const code = await server.stop({ keep: true });
  const outcome = await insert;
  await client.close();
  assert.equal(code, 0, `exit code; stderr: ${server.stderr()}`);
  // The databases reopen, and an acknowledged insert is all there.
  const again = await startServer([], server.dir);
  const c2 = new MongoClient(again.uri);
  try {
    await c2.connect();
    const n = await c2.db('test').collection('big').estimatedDocumentCount();
    console.log(`# insert: ${outcome}; ${n} documents after restart`);
    if (outcome === 'acknowledged') assert.equal(n, N);
    else assert.ok(n === 0 || n === N, `partial insert: ${n} (${outcome})`);
    const v = await c2.db('test').command({ validate: 'big' }).catch((e) => e);
    if (!(v instanceof Error)) assert.equal(v.valid, true);
  } finally {
    await c2.close();
    assert.equal(await again.stop(), 0);
  }
});
