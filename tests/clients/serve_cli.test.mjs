// `ttldb serve` as a process: refused binds, SIGTERM finishing an in-flight
// write before closing the databases cleanly, and `ttldb backup --host`
// asking a running server for an online backup.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MongoClient } from 'mongodb';
import { startServer, TTLDB_BIN } from './harness.mjs';

test('a non-loopback bind is refused without --auth', () => {
  const r = spawnSync(TTLDB_BIN, ['serve', '--db', '/nonexistent-unused',
                                  '--bind', '0.0.0.0', '--port', '0'],
                      { encoding: 'utf8', timeout: 20000 });
  assert.equal(r.status, 1, r.stderr);
  assert.match(r.stderr, /refusing to bind 0\.0\.0\.0: binding a non-loopback address requires access control; start with --auth/);
});

test('SIGTERM lets an in-flight insert finish, then shuts down cleanly', async () => {
  // One insert command of N documents, written one by one (ordered), so a
  // second connection sees the count grow while the command is in flight.
  // SIGTERM arrives then: the server must finish the command, answer it,
  // and only then close (mongod's shutdown also lets running operations
  // end). The outcome is deterministic: acknowledged, and all N are there.
  const N = 60000;
  const server = await startServer();
  const client = new MongoClient(server.uri, { maxPoolSize: 1 });
  const watcher = new MongoClient(server.uri, { maxPoolSize: 1 });
  await client.connect();
  await watcher.connect();
  const docs = Array.from({ length: N }, (_, i) => ({ _id: i, pad: 'x'.repeat(100) }));
  let settled = false;
  const insert = client.db('test').collection('big').insertMany(docs)
    .then(() => 'acknowledged', (e) => e)
    .finally(() => { settled = true; });
  let seen = 0;
  const started = Date.now();
  while (seen === 0 && !settled && Date.now() - started < 30000) {
    seen = await watcher.db('test').collection('big').countDocuments();
  }
  await watcher.close();
  assert.ok(seen > 0 && seen < N && !settled,
            `the insert was not caught in flight (seen ${seen}, settled ${settled}): raise N`);
  const code = await server.stop({ keep: true });
  const outcome = await insert;
  await client.close();
  assert.equal(code, 0, `exit code; stderr: ${server.stderr()}`);
  assert.equal(outcome, 'acknowledged');
  // The databases reopen, and the acknowledged insert is all there.
  const again = await startServer([], server.dir);
  const c2 = new MongoClient(again.uri);
  try {
    await c2.connect();
    assert.equal(await c2.db('test').collection('big').countDocuments(), N);
    const v = await c2.db('test').command({ validate: 'big' });
    assert.equal(v.valid, true);
  } finally {
    await c2.close();
    assert.equal(await again.stop(), 0);
  }
});

// A running server holds its directories' locks, so `ttldb backup --db`
// cannot open them; `ttldb backup --host` asks the server, which copies
// every database from one snapshot each while a writer keeps writing
// (createBackup, docs/operations.md). The copy is a root that another
// `ttldb serve` serves: the documents, the TTL index, Validate clean.
test('ttldb backup --host backs up a running server while it is written to', async () => {
  const server = await startServer();
  const client = new MongoClient(server.uri);
  const out = join(mkdtempSync(join(tmpdir(), 'ttldb-backup-')), 'copy');
  try {
    await client.connect();
    const c = client.db('app').collection('sessions');
    await c.createIndex({ lastSeen: 1 }, { expireAfterSeconds: 3600 });
    await c.insertMany(Array.from({ length: 1000 }, (_, i) =>
      ({ _id: i, lastSeen: new Date() })));
    await client.db('other').collection('x').insertOne({ _id: 'only' });
    let stop = false;
    let written = 0;
    const writer = (async () => {
      while (!stop) { await c.insertOne({ _id: 1000 + written, lastSeen: new Date() }); written++; }
    })();
    const r = await new Promise((resolve) => {
      const p = spawn(TTLDB_BIN, ['backup', '--host', `127.0.0.1:${server.port}`,
                                  '--out', out], { encoding: 'utf8' });
      let stdout = '', stderr = '';
      p.stdout.on('data', (d) => { stdout += d; });
      p.stderr.on('data', (d) => { stderr += d; });
      p.on('exit', (status) => resolve({ status, stdout, stderr }));
    });
    stop = true;
    await writer;
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /backed up 127\.0\.0\.1:\d+ to .*copy/);

    // The same destination again: refused, nothing changed.
    const again = spawnSync(TTLDB_BIN, ['backup', '--host', `127.0.0.1:${server.port}`,
                                        '--out', out], { encoding: 'utf8' });
    assert.equal(again.status, 1);
    assert.match(again.stderr, /backupDir is not empty/);

    const copy = await startServer([], out);
    const c2 = new MongoClient(copy.uri);
    try {
      await c2.connect();
      const s2 = c2.db('app').collection('sessions');
      const n = await s2.countDocuments();
      assert.ok(n >= 1000 && n <= 1000 + written, `${n} documents`);
      // One snapshot: the ids present are exactly 0 .. n-1.
      const max = await s2.find().sort({ _id: -1 }).limit(1).toArray();
      assert.equal(max[0]._id, n - 1);
      const ttl = (await s2.indexes()).find((i) => i.name === 'lastSeen_1');
      assert.equal(ttl.expireAfterSeconds, 3600);
      assert.equal((await c2.db('app').command({ validate: 'sessions' })).valid, true);
      assert.deepEqual(await c2.db('other').collection('x').find().toArray(), [{ _id: 'only' }]);
    } finally {
      await c2.close();
      await copy.stop();
    }
  } finally {
    await client.close();
    await server.stop();
    rmSync(join(out, '..'), { recursive: true, force: true });
  }
});

// Under --auth, `ttldb backup --host` logs in (SCRAM-SHA-256, as a driver
// does) before createBackup; without a user it gets mongod's refusal
// (commands.cpp: 13 "Command createBackup requires authentication"), with a
// wrong password sasl_commands.cpp's 18 "Authentication failed.". The
// users are in admin.system.users, so the copy, served with --auth, takes
// the same logins (issue 28 item 5).
test('ttldb backup --host logs in under --auth, and the copy keeps the users', async () => {
  const server = await startServer(['--auth']);
  const out = join(mkdtempSync(join(tmpdir(), 'ttldb-backup-')), 'copy');
  const backup = (...extra) => spawnSync(TTLDB_BIN, [
    'backup', '--host', `127.0.0.1:${server.port}`, '--out', out, ...extra],
  { encoding: 'utf8', timeout: 60000 });
  let client = new MongoClient(server.uri);
  try {
    await client.connect();
    await client.db('admin').command({ createUser: 'root', pwd: 'rootpw',
                                       roles: ['root'] });
    await client.close();
    client = new MongoClient(server.uri, { auth: { username: 'root', password: 'rootpw' } });
    await client.connect();
    await client.db('app').command({ createUser: 'appuser', pwd: 'apppw',
                                     roles: ['readWrite'] });
    await client.db('app').collection('c').insertOne({ _id: 1 });

    const anonymous = backup();
    assert.equal(anonymous.status, 1);
    assert.match(anonymous.stderr,
                 /MongoServerError\[Unauthorized\]: Command createBackup requires authentication/);
    const wrong = backup('--username', 'root', '--password', 'nope');
    assert.equal(wrong.status, 1);
    assert.match(wrong.stderr, /MongoServerError\[AuthenticationFailed\]: Authentication failed\./);
    // A user without the cluster privilege is refused by the command.
    const app = backup('--username', 'appuser', '--password', 'apppw',
                       '--authenticationDatabase', 'app');
    assert.equal(app.status, 1);
    assert.match(app.stderr, /MongoServerError\[Unauthorized\]: not authorized on admin/);
    const ok = backup('--username', 'root', '--password', 'rootpw', '--quiet');
    assert.equal(ok.status, 0, ok.stderr);

    const copy = await startServer(['--auth'], out);
    try {
      const c2 = new MongoClient(copy.uri, {
        auth: { username: 'appuser', password: 'apppw' }, authSource: 'app' });
      try {
        await c2.connect();
        assert.deepEqual(await c2.db('app').collection('c').find().toArray(), [{ _id: 1 }]);
      } finally {
        await c2.close();
      }
    } finally {
      await copy.stop({ keep: true });
    }
  } finally {
    await client.close();
    await server.stop();
    rmSync(join(out, '..'), { recursive: true, force: true });
  }
});
