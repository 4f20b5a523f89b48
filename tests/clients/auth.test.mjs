// Security of `ttldb serve` with the real clients: --auth with SCRAM-SHA-256
// users (the Node driver's and mongosh's own SCRAM), the localhost
// exception, the bind rule, and TLS with certificates made here by the
// openssl CLI (never committed). Expected answers: src/mongo/db/commands.cpp
// (13 "Command find requires authentication"), src/mongo/db/auth/
// sasl_commands.cpp (18 AuthenticationFailed), the manual's "Localhost
// Exception" and "TLS/SSL (Transport Encryption)" pages.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync, execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MongoClient } from 'mongodb';
import { runMongosh, startServer, TTLDB_BIN } from './harness.mjs';

const QUICK = { serverSelectionTimeoutMS: 3000 };
let server;
let certs;

// A CA, and a server certificate it signs for localhost/127.0.0.1, and a
// client certificate: P-256 keys, valid one day.
function makeCertificates() {
  const dir = mkdtempSync(join(tmpdir(), 'ttldb-tls-'));
  const run = (...args) => execFileSync('openssl', args, { cwd: dir,
                                                           stdio: 'pipe' });
  const key = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1',
               '-nodes'];
  run('req', '-x509', ...key, '-keyout', 'ca.key', '-out', 'ca.pem',
      '-days', '1', '-subj', '/CN=ttldb test CA');
  writeFileSync(join(dir, 'ext.cnf'),
                'subjectAltName=DNS:localhost,IP:127.0.0.1\n');
  for (const name of ['server', 'client']) {
    run('req', ...key, '-keyout', `${name}.key`, '-out', `${name}.csr`,
        '-subj', `/CN=${name === 'server' ? 'localhost' : 'ttldb client'}`);
    run('x509', '-req', '-in', `${name}.csr`, '-CA', 'ca.pem', '-CAkey',
        'ca.key', '-CAcreateserial', '-out', `${name}.crt`, '-days', '1',
        '-extfile', 'ext.cnf');
    writeFileSync(join(dir, `${name}.pem`),
                  readFileSync(join(dir, `${name}.crt`), 'utf8') +
                  readFileSync(join(dir, `${name}.key`), 'utf8'));
  }
  return { dir, ca: join(dir, 'ca.pem'), server: join(dir, 'server.pem'),
           client: join(dir, 'client.pem') };
}

const mongosh = runMongosh;

async function withClient(uri, options, fn) {
  const client = new MongoClient(uri, { ...QUICK, ...options });
  try {
    await client.connect();
    return await fn(client);
  } finally {
    await client.close();
  }
}

before(async () => {
  certs = makeCertificates();
  server = await startServer(['--auth']);
});

after(async () => {
  if (server) assert.equal(await server.stop(), 0, 'clean shutdown');
  if (certs) rmSync(certs.dir, { recursive: true, force: true });
});

const userUri = (user, pwd) =>
  `mongodb://${user}:${pwd}@127.0.0.1:${server.port}/?authSource=admin`;

test('--auth: commands need a user; the first one comes through the localhost exception', async () => {
  await withClient(server.uri, {}, async (client) => {
    await assert.rejects(client.db('test').collection('c').findOne({}),
                         { code: 13,
                           message: 'Command find requires authentication' });
    // ping and hello run unauthenticated (generic.cpp, hello.cpp).
    assert.equal((await client.db('admin').command({ ping: 1 })).ok, 1);
    await client.db('admin').command({ createUser: 'root', pwd: 'rootpw',
                                       roles: ['root'] });
    // The exception is closed once a user exists.
    await assert.rejects(
      client.db('admin').command({ createUser: 'x', pwd: 'p', roles: [] }),
      { code: 13 });
  });
});

test('the driver authenticates with SCRAM-SHA-256; a wrong password is 18', async () => {
  await withClient(userUri('root', 'rootpw'), {}, async (client) => {
    const admin = client.db('admin');
    const status = await admin.command({ connectionStatus: 1 });
    assert.deepEqual(status.authInfo.authenticatedUsers,
                     [{ user: 'root', db: 'admin' }]);
    await client.db('test').collection('c').insertOne({ _id: 1, v: 'x' });
    assert.deepEqual(await client.db('test').collection('c').findOne({}),
                     { _id: 1, v: 'x' });
    await admin.command({ createUser: 'app', pwd: 'apppw',
                          roles: [{ role: 'readWrite', db: 'test' }] });
    await admin.command({ createUser: 'ro', pwd: 'ropw',
                          roles: [{ role: 'read', db: 'test' }] });
    const info = await admin.command({ usersInfo: 'app' });
    assert.deepEqual(info.users[0].roles, [{ role: 'readWrite', db: 'test' }]);
    assert.equal(info.users[0].credentials, undefined);
  });
  await assert.rejects(
    withClient(userUri('root', 'wrong'), {}, async () => {}),
    { code: 18, codeName: 'AuthenticationFailed' });
  await assert.rejects(
    withClient(userUri('nobody', 'x'), {}, async () => {}),
    { code: 18 });
});

test('roles: read cannot write, readWrite cannot drop the database', async () => {
  await withClient(userUri('ro', 'ropw'), {}, async (client) => {
    const c = client.db('test').collection('c');
    assert.equal(await c.countDocuments(), 1);
    await assert.rejects(c.insertOne({ v: 2 }), (e) => e.code === 13 &&
      /^not authorized on test to execute command \{ insert/.test(e.message));
  });
  await withClient(userUri('app', 'apppw'), {}, async (client) => {
    const c = client.db('test').collection('c');
    await c.insertOne({ v: 2 });
    await c.createIndex({ v: 1 });
    await assert.rejects(client.db('test').dropDatabase(), { code: 13 });
    await assert.rejects(client.db('other').collection('c').findOne(),
                         { code: 13 });
  });
  // updateUser changes the password.
  await withClient(userUri('root', 'rootpw'), {}, (client) =>
    client.db('admin').command({ updateUser: 'app', pwd: 'newpw' }));
  await assert.rejects(withClient(userUri('app', 'apppw'), {}, async () => {}),
                       { code: 18 });
  await withClient(userUri('app', 'newpw'), {}, async () => {});
});

test('mongosh -u -p', async () => {
  const { code, out, err } = await mongosh(
    [`${server.uri}test`, '-u', 'root', '-p', 'rootpw',
     '--authenticationDatabase', 'admin'],
    'db.runCommand({connectionStatus: 1}).authInfo.authenticatedUsers\n' +
    'db.c.countDocuments()\n');
  assert.equal(code, 0, err + out);
  assert.match(out, /user: 'root', db: 'admin'/);
  assert.match(out, /^(test> )?2$/m);
  const bad = await mongosh([`${server.uri}test`, '-u', 'root', '-p', 'nope',
                             '--authenticationDatabase', 'admin'], '');
  assert.notEqual(bad.code, 0);
  assert.match(bad.err + bad.out, /Authentication failed/);
});

test('bind: a non-loopback address needs --auth', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'ttldb-bind-'));
  try {
    const refused = spawn(TTLDB_BIN, ['serve', '--db', dir, '--port', '0',
                                      '--bind', '0.0.0.0']);
    let err = '';
    refused.stderr.on('data', (c) => { err += c; });
    const code = await new Promise((r) => refused.on('exit', r));
    assert.equal(code, 1);
    assert.match(err, /refusing to bind 0\.0\.0\.0: binding a non-loopback address requires access control; start with --auth/);
    const ok = spawn(TTLDB_BIN, ['serve', '--db', dir, '--port', '0',
                                 '--bind', '0.0.0.0', '--auth']);
    let out = '';
    const port = await new Promise((resolve, reject) => {
      ok.stderr.on('data', (c) => {
        out += c;
        const m = /listening on 0\.0\.0\.0:(\d+)/.exec(out);
        if (m) resolve(Number(m[1]));
      });
      ok.on('exit', () => reject(new Error(out)));
    });
    await withClient(`mongodb://127.0.0.1:${port}/`, {}, async (client) => {
      await assert.rejects(client.db('test').collection('c').findOne(),
                           { code: 13 });
    });
    ok.kill('SIGTERM');
    assert.equal(await new Promise((r) => ok.on('exit', r)), 0);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('TLS: requireTLS with the driver (tls, tlsCAFile) and mongosh --tls', async () => {
  const tls = await startServer(['--tlsMode', 'requireTLS',
                                 '--tlsCertificateKeyFile', certs.server,
                                 '--tlsCAFile', certs.ca,
                                 '--tlsAllowConnectionsWithoutCertificates']);
  try {
    await withClient(tls.uri, { tls: true, tlsCAFile: certs.ca },
                     async (client) => {
      await client.db('test').collection('t').insertOne({ _id: 1 });
      assert.equal(await client.db('test').collection('t').countDocuments(), 1);
    });
    // In the clear: the server closes the connection.
    const FAIL = { serverSelectionTimeoutMS: 1000 };
    await assert.rejects(withClient(tls.uri, FAIL, async () => {}));
    // A certificate the client does not trust.
    await assert.rejects(withClient(tls.uri, { ...FAIL, tls: true },
                                    async () => {}));
    const { code, out, err } = await mongosh(
      [`${tls.uri}test`, '--tls', '--tlsCAFile', certs.ca],
      'db.t.countDocuments()\n');
    assert.equal(code, 0, err + out);
    assert.match(out, /^(test> )?1$/m);
  } finally {
    assert.equal(await tls.stop(), 0);
  }
});

test('TLS: preferTLS serves both; a client certificate is required with tlsCAFile', async () => {
  const tls = await startServer(['--tlsMode', 'preferTLS',
                                 '--tlsCertificateKeyFile', certs.server,
                                 '--tlsCAFile', certs.ca]);
  try {
    await withClient(tls.uri, {}, (c) => c.db('admin').command({ ping: 1 }));
    // Without a client certificate the handshake fails.
    await assert.rejects(withClient(tls.uri, { tls: true,
                                               tlsCAFile: certs.ca,
                                               serverSelectionTimeoutMS: 1000 },
                                    async () => {}));
    await withClient(tls.uri, { tls: true, tlsCAFile: certs.ca,
                                tlsCertificateKeyFile: certs.client },
                     (c) => c.db('admin').command({ ping: 1 }));
  } finally {
    assert.equal(await tls.stop(), 0);
  }
});

// Issue 28 item 5: `ttldb backup --host` against a server that requires
// TLS and a login, as the mongo tools do (--tls --tlsCAFile, --username
// --password): the server's certificate must be trusted and name the host.
test('ttldb backup --host --tls logs in over TLS (issue 28 item 5)', async () => {
  const tls = await startServer(['--auth', '--tlsMode', 'requireTLS',
                                 '--tlsCertificateKeyFile', certs.server,
                                 '--tlsCAFile', certs.ca,
                                 '--tlsAllowConnectionsWithoutCertificates']);
  const out = join(mkdtempSync(join(tmpdir(), 'ttldb-backup-tls-')), 'copy');
  const backup = (...extra) => spawnSync(TTLDB_BIN, [
    'backup', '--host', `127.0.0.1:${tls.port}`, '--out', out, '--quiet',
    ...extra], { encoding: 'utf8', timeout: 60000 });
  try {
    const options = { tls: true, tlsCAFile: certs.ca };
    await withClient(tls.uri, options, (c) => c.db('admin').command(
      { createUser: 'root', pwd: 'rootpw', roles: ['root'] }));
    await withClient(`mongodb://root:rootpw@127.0.0.1:${tls.port}/`, options,
                     (c) => c.db('app').collection('c').insertOne({ _id: 1 }));
    const login = ['--username', 'root', '--password', 'rootpw'];
    // In the clear the server closes the connection.
    const plain = backup(...login);
    assert.equal(plain.status, 1);
    assert.match(plain.stderr, /^ttldb backup: the server closed the connection/);
    // A certificate the system's CAs do not sign.
    const untrusted = backup('--tls', ...login);
    assert.equal(untrusted.status, 1);
    assert.match(untrusted.stderr,
                 /^ttldb backup: the TLS certificate of 127\.0\.0\.1 is not trusted: /);
    const anonymous = backup('--tls', '--tlsCAFile', certs.ca);
    assert.equal(anonymous.status, 1);
    assert.match(anonymous.stderr, /Command createBackup requires authentication/);
    const ok = backup('--tls', '--tlsCAFile', certs.ca, ...login);
    assert.equal(ok.status, 0, ok.stderr);
    const copy = await startServer([], out);
    try {
      await withClient(copy.uri, {}, async (c) => assert.deepEqual(
        await c.db('app').collection('c').find().toArray(), [{ _id: 1 }]));
    } finally {
      await copy.stop({ keep: true });
    }
    // --tls options without --tls are a usage error.
    const usage = backup('--tlsCAFile', certs.ca);
    assert.equal(usage.status, 2);
    assert.match(usage.stderr, /--tlsCAFile and --tlsCertificateKeyFile need --tls/);
  } finally {
    assert.equal(await tls.stop(), 0);
    rmSync(join(out, '..'), { recursive: true, force: true });
  }
});

// reliability-3.md N1: granting a role needs grantRole on the role's
// database (src/mongo/db/commands/user_management_commands_common.cpp
// checkAuthorizedToGrantRoles; updateUser with roles also needs revokeRole
// on any resource); the error is commands.cpp's "not authorized on <db> to
// execute command".
test('a userAdmin or dbOwner of one database grants no role elsewhere (N1)', async () => {
  await withClient(userUri('root', 'rootpw'), {}, async (client) => {
    await client.db('A').command({ createUser: 'ua', pwd: 'uapw',
                                   roles: ['userAdmin'] });
    await client.db('A').command({ createUser: 'own', pwd: 'ownpw',
                                   roles: ['dbOwner'] });
  });
  const uriA = (user, pwd) =>
    `mongodb://${user}:${pwd}@127.0.0.1:${server.port}/?authSource=A`;
  const refused = (name) => (e) => e.code === 13 &&
    new RegExp(`^not authorized on A to execute command \\{ ${name}: `)
      .test(e.message);
  await withClient(uriA('ua', 'uapw'), {}, async (client) => {
    await assert.rejects(client.db('A').command({
      createUser: 'evil', pwd: 'evilpw',
      roles: [{ role: 'root', db: 'admin' }] }), refused('createUser'));
    await client.db('A').command({ createUser: 'fine', pwd: 'p',
                                   roles: ['readWrite'] });
    await assert.rejects(client.db('A').command({
      grantRolesToUser: 'fine', roles: [{ role: 'root', db: 'admin' }] }),
    refused('grantRolesToUser'));
    await client.db('A').command({ grantRolesToUser: 'fine',
                                   roles: ['dbOwner'] });
  });
  await withClient(uriA('own', 'ownpw'), {}, async (client) => {
    await assert.rejects(client.db('A').command({
      updateUser: 'own',
      roles: ['dbOwner', { role: 'readWriteAnyDatabase', db: 'admin' }] }),
    refused('updateUser'));
    await assert.rejects(client.db('A').command({
      createUser: 'evil2', pwd: 'p', roles: [{ role: 'readWrite', db: 'B' }] }),
    refused('createUser'));
  });
  await assert.rejects(withClient(uriA('evil', 'evilpw'), {}, async () => {}),
                       { code: 18 });
  await withClient(userUri('root', 'rootpw'), {}, async (client) => {
    const info = await client.db('A').command({ usersInfo: 'own' });
    assert.deepEqual(info.users[0].roles, [{ role: 'dbOwner', db: 'A' }]);
    const fine = await client.db('A').command({ usersInfo: 'fine' });
    assert.deepEqual(fine.users[0].roles, [{ role: 'readWrite', db: 'A' },
                                           { role: 'dbOwner', db: 'A' }]);
  });
});

// reliability-3.md N2: aggregate is authorized by its stages, as mongod's
// getPrivilegesForAggregate (src/mongo/db/auth/authorization_checks.cpp)
// with $out's insert + remove (pipeline/document_source_out.h) and
// $merge's insert + update (pipeline/merge_processor.cpp) on the target;
// the error is commands.cpp's "not authorized on <db> to execute command".
test('aggregate: $out and $merge need write privileges on their target (N2)', async () => {
  await withClient(userUri('root', 'rootpw'), {}, async (client) => {
    const admin = client.db('admin');
    await client.db('agg').collection('c').insertMany(
      [{ _id: 1, v: 1 }, { _id: 2, v: 2 }, { _id: 3, v: 3 }]);
    await client.db('agg').collection('secret').insertMany(
      [{ _id: 1, s: 'x' }, { _id: 2, s: 'y' }]);
    await admin.command({ createUser: 'aggro', pwd: 'p',
                          roles: [{ role: 'read', db: 'agg' }] });
    await admin.command({ createUser: 'aggrw', pwd: 'p',
                          roles: [{ role: 'readWrite', db: 'agg' }] });
    await admin.command({ createUser: 'mover', pwd: 'p',
                          roles: [{ role: 'read', db: 'agg' },
                                  { role: 'readWrite', db: 'archive' }] });
  });
  const refused = (e) => e.code === 13 && e.codeName === 'Unauthorized' &&
    /^not authorized on agg to execute command \{ aggregate: "c"/.test(e.message);
  await withClient(userUri('aggro', 'p'), {}, async (client) => {
    const c = client.db('agg').collection('c');
    // A read, with a $lookup of its database, is a read.
    assert.deepEqual(await c.aggregate([
      { $match: { _id: 1 } },
      { $lookup: { from: 'secret', localField: '_id', foreignField: '_id',
                   as: 's' } }]).toArray(),
    [{ _id: 1, v: 1, s: [{ _id: 1, s: 'x' }] }]);
    await assert.rejects(c.aggregate([{ $out: 'ro_out' }]).toArray(), refused);
    await assert.rejects(c.aggregate([
      { $project: { v: 1, hacked: { $literal: true } } },
      { $merge: { into: 'secret', whenMatched: 'merge' } }]).toArray(),
    refused);
    await assert.rejects(c.aggregate([{ $match: { _id: -1 } },
                                      { $out: 'secret' }]).toArray(),
                         refused);
  });
  await withClient(userUri('aggrw', 'p'), {}, async (client) => {
    const c = client.db('agg').collection('c');
    await c.aggregate([{ $out: 'w_out' }]).toArray();
    assert.equal(await client.db('agg').collection('w_out').countDocuments(),
                 3);
    // Its own database only.
    await assert.rejects(
      c.aggregate([{ $out: { db: 'archive', coll: 'x' } }]).toArray(),
      refused);
  });
  await withClient(userUri('mover', 'p'), {}, async (client) => {
    // Read on agg and readWrite on archive: $out from one to the other.
    await client.db('agg').collection('c')
      .aggregate([{ $out: { db: 'archive', coll: 'c' } }]).toArray();
  });
  await withClient(userUri('root', 'rootpw'), {}, async (client) => {
    const agg = client.db('agg');
    assert.deepEqual(await agg.collection('secret').find().toArray(),
                     [{ _id: 1, s: 'x' }, { _id: 2, s: 'y' }]);
    assert.deepEqual(
      await agg.listCollections({ name: 'ro_out' }).toArray(), []);
    assert.equal(
      await client.db('archive').collection('c').countDocuments(), 3);
  });
});

// reliability-3.md N3: $out and $merge into {db, coll} write that database
// (MongoDB 8.0: document_source_out.cpp, document_source_merge.cpp).
test('aggregate: $out and $merge to {db, coll} write that database (N3)', async () => {
  await withClient(userUri('root', 'rootpw'), {}, async (client) => {
    const app = client.db('app');
    await app.collection('users').insertMany(
      [0, 1, 2, 3, 4].map((i) => ({ _id: i, name: `u${i}` })));
    await app.collection('events').insertMany(
      [{ _id: 10, e: 'a' }, { _id: 11, e: 'b' }, { _id: 12, e: 'c' }]);
    await app.collection('events')
      .aggregate([{ $out: { db: 'archive', coll: 'users' } }]).toArray();
    assert.equal(await app.collection('users').countDocuments(), 5);
    assert.deepEqual(
      await client.db('archive').collection('users').find()
        .sort({ _id: 1 }).toArray(),
      [{ _id: 10, e: 'a' }, { _id: 11, e: 'b' }, { _id: 12, e: 'c' }]);
    await app.collection('events')
      .aggregate([{ $merge: { into: { db: 'archive', coll: 'ev' } } }])
      .toArray();
    assert.equal(await client.db('archive').collection('ev').countDocuments(),
                 3);
    assert.deepEqual(await app.listCollections({ name: 'ev' }).toArray(), []);
  });
});

// reliability-3.md N8: a cursor belongs to the user (and the logical
// session) that opened it.
// getMore: 13 "cursor id <id> was not created by the authenticated user"
// (src/mongo/db/commands/getmore_cmd.cpp validateAuthorization);
// killCursors: the command fails with commands.cpp's message
// (killcursors_common.h, authorization_checks.cpp checkAuthForKillCursors).
test('a cursor belongs to the user that opened it (N8)', async () => {
  await withClient(userUri('root', 'rootpw'), {}, async (client) => {
    await client.db('curs').collection('c').insertMany(
      [1, 2, 3, 4, 5].map((i) => ({ _id: i })));
    for (const user of ['alice', 'bob']) {
      await client.db('admin').command({
        createUser: user, pwd: 'p', roles: [{ role: 'read', db: 'curs' }] });
    }
  });
  await withClient(userUri('alice', 'p'), {}, async (alice) => {
    const asLong = { promoteLongs: false };
    const first = await alice.db('curs').command(
      { find: 'c', sort: { _id: 1 }, batchSize: 2 }, asLong);
    const id = first.cursor.id;
    assert.notEqual(id.toString(), '0');
    await withClient(userUri('bob', 'p'), {}, async (bob) => {
      // Bob's driver sends his own session (lsid), which mongod checks
      // first (cursor_manager.cpp pinCursor: checkCursorSessionPrivilege):
      // 13, naming both sessions as "<lsid> - <uid> -  - " (uid: the
      // base64 SHA-256 of "user@db"). The user check behind it
      // (getmore_cmd.cpp validateAuthorization: "cursor id N was not
      // created by the authenticated user") is for clients without
      // sessions: commands/auth_commands_test.cc.
      const session = (user) => `[0-9a-f-]{36} - ${
        createHash('sha256').update(`${user}@admin`).digest('base64')
          .replace(/[+/]/g, '\\$&')} -  - `;
      await assert.rejects(
        bob.db('curs').command({ getMore: id, collection: 'c' }),
        (e) => e.code === 13 && e.codeName === 'Unauthorized' && new RegExp(
          `^Cursor session id \\(${session('alice')}\\) is not the same as the ` +
          `operation context's session id \\(${session('bob')}\\)$`).test(e.message));
      await assert.rejects(
        bob.db('curs').command({ killCursors: 'c', cursors: [id] }),
        (e) => e.code === 13 &&
          /^not authorized on curs to execute command \{ killCursors: "c"/
            .test(e.message));
    });
    const more = await alice.db('curs').command(
      { getMore: id, collection: 'c', batchSize: 2 }, asLong);
    assert.deepEqual(more.cursor.nextBatch, [{ _id: 3 }, { _id: 4 }]);
    const killed = await alice.db('curs').command(
      { killCursors: 'c', cursors: [id] }, asLong);
    assert.deepEqual(killed.cursorsKilled.map(String), [id.toString()]);
  });
});

// reliability-3.md L1: ten simultaneous createUser through the localhost
// exception made ten root users. Exactly one is created; the others get
// the answer of an unauthenticated createUser once a user exists.
test('the localhost exception admits one of ten concurrent createUser (L1)', async () => {
  const fresh = await startServer(['--auth']);
  const clients = [];
  try {
    for (let i = 0; i < 10; ++i) {
      const c = new MongoClient(fresh.uri, QUICK);
      await c.connect();
      clients.push(c);
    }
    const results = await Promise.allSettled(clients.map((c, i) =>
      c.db('admin').command({ createUser: `u${i}`, pwd: 'p',
                              roles: ['root'] })));
    const created = results.flatMap((r, i) =>
      r.status === 'fulfilled' ? [i] : []);
    assert.equal(created.length, 1, JSON.stringify(results));
    for (const r of results) {
      if (r.status === 'fulfilled') continue;
      assert.equal(r.reason.code, 13);
      assert.equal(r.reason.message,
                   'Command createUser requires authentication');
    }
    await withClient(
      `mongodb://u${created[0]}:p@127.0.0.1:${fresh.port}/?authSource=admin`,
      {}, async (client) => {
        const info = await client.db('admin').command({ usersInfo: 1 });
        assert.deepEqual(info.users.map((u) => u.user), [`u${created[0]}`]);
      });
  } finally {
    for (const c of clients) await c.close();
    assert.equal(await fresh.stop(), 0);
  }
});

// Issue 28 item 1: usersInfo/rolesInfo/listDatabases through the driver's
// helpers. Expected answers: jstests/auth/list_databases.js (a user
// without listDatabases sees the databases it holds a role on; 13 for
// authorizedDatabases: false), authorization_backend_local.cpp (usersInfo
// fields; showPrivileges only for exact names, 20), builtin_roles.yml.
test('usersInfo, rolesInfo and listDatabases show what a user may see', async () => {
  await withClient(userUri('root', 'rootpw'), {}, async (client) => {
    const admin = client.db('admin');
    for (const name of ['lista', 'listb', 'listc']) {
      await client.db(name).collection('c').insertOne({ x: 1 });
    }
    await admin.command({ createUser: 'lister', pwd: 'p',
                          roles: [{ role: 'read', db: 'lista' },
                                  { role: 'readWrite', db: 'listc' }],
                          customData: { team: 'ops' } });
    const { users } = await admin.command({ usersInfo: 'lister',
                                            showPrivileges: true });
    assert.equal(users.length, 1);
    const u = users[0];
    assert.equal(u._id, 'admin.lister');
    assert.equal(u.userId.sub_type, 4);
    assert.deepEqual(u.mechanisms, ['SCRAM-SHA-256']);
    assert.deepEqual(u.customData, { team: 'ops' });
    assert.deepEqual(u.inheritedRoles, u.roles);
    const lista = u.inheritedPrivileges.find(
      (p) => p.resource.db === 'lista' && p.resource.collection === '');
    assert.ok(lista.actions.includes('find'));
    assert.ok(!lista.actions.includes('insert'));
    await assert.rejects(admin.command({ usersInfo: 1, showPrivileges: true }),
                         { code: 20 });
    const roles = await client.db('lista').command({
      rolesInfo: 1, showBuiltinRoles: true });
    assert.deepEqual(roles.roles.map((r) => r.role).sort(),
                     ['dbAdmin', 'dbOwner', 'enableSharding', 'read',
                      'readWrite', 'userAdmin']);
    const names = (await admin.admin().listDatabases({ nameOnly: true }))
      .databases.map((d) => d.name);
    for (const n of ['lista', 'listb', 'listc']) assert.ok(names.includes(n));
  });
  await withClient(userUri('lister', 'p'), {}, async (client) => {
    const admin = client.db('admin').admin();
    const dbs = (await admin.listDatabases({ nameOnly: true })).databases
      .map((d) => d.name).sort();
    assert.deepEqual(dbs, ['lista', 'listc']);
    await assert.rejects(admin.listDatabases({ authorizedDatabases: false }),
                         { code: 13 });
    const self = await client.db('admin').command({ usersInfo: 'lister' });
    assert.equal(self.users[0].user, 'lister');
    await assert.rejects(client.db('admin').command({ usersInfo: 'root' }),
                         { code: 13 });
    const read = await client.db('lista').command({ rolesInfo: 'read',
                                                    showPrivileges: true });
    assert.equal(read.roles[0].isBuiltin, true);
    assert.ok(read.roles[0].privileges.length > 0);
  });
});

// MongoDB's built-in roles and privileges, enforced (builtin_roles.yml;
// the expected roles of jstests/auth/lib/commands_lib.js: collMod and
// validate roles_dbAdmin, find roles_read, serverStatus roles_monitoring,
// insert roles_write).
test('built-in roles: dbAdmin runs collMod and validate, not find; clusterMonitor serverStatus, not insert', async () => {
  let sleepSecs;
  await withClient(userUri('root', 'rootpw'), {}, async (client) => {
    sleepSecs = (await client.db('admin').command({
      getParameter: 1, ttlMonitorSleepSecs: 1 })).ttlMonitorSleepSecs;
    await client.db('roles').collection('c').insertOne({ _id: 1 });
    await client.db('roles').command({ createUser: 'dba', pwd: 'p',
                                       roles: ['dbAdmin'] });
    await client.db('admin').command({ createUser: 'monitor', pwd: 'p',
                                       roles: ['clusterMonitor'] });
    await client.db('admin').command({ createUser: 'hosts', pwd: 'p',
                                       roles: ['hostManager'] });
    // Admin-only roles exist on admin only.
    await assert.rejects(
      client.db('roles').command({ createUser: 'x', pwd: 'p',
                                   roles: ['clusterMonitor'] }),
      { code: 31, message: 'Could not find role: clusterMonitor@roles' });
  });
  const dbaUri = `mongodb://dba:p@127.0.0.1:${server.port}/?authSource=roles`;
  await withClient(dbaUri, {}, async (client) => {
    const db = client.db('roles');
    // dbAdmin's createIndex and collMod: a TTL index, then its lifetime.
    await db.collection('c').createIndex({ t: 1 }, { expireAfterSeconds: 60 });
    const mod = await db.command({
      collMod: 'c', index: { keyPattern: { t: 1 }, expireAfterSeconds: 120 } });
    assert.equal(mod.expireAfterSeconds_new, 120);
    assert.equal((await db.command({ validate: 'c' })).valid, true);
    assert.equal((await db.command({ dbStats: 1 })).ok, 1);
    await assert.rejects(db.collection('c').findOne({}), (e) => e.code === 13 &&
      /^not authorized on roles to execute command \{ find/.test(e.message));
    await assert.rejects(db.collection('c').insertOne({}), { code: 13 });
    await assert.rejects(client.db('admin').command({ serverStatus: 1 }),
                         { code: 13 });
  });
  await withClient(userUri('monitor', 'p'), {}, async (client) => {
    const status = await client.db('admin').command({ serverStatus: 1 });
    assert.equal(status.ok, 1);
    assert.equal((await client.db('admin').command({ currentOp: 1 })).ok, 1);
    assert.equal((await client.db('roles').command({ dbStats: 1 })).ok, 1);
    await assert.rejects(client.db('roles').collection('c').insertOne({}),
                         (e) => e.code === 13 &&
      /^not authorized on roles to execute command \{ insert/.test(e.message));
    await assert.rejects(client.db('roles').collection('c').findOne({}),
                         { code: 13 });
    await assert.rejects(client.db('admin').command({
      setParameter: 1, ttlMonitorSleepSecs: sleepSecs }), { code: 13 });
  });
  await withClient(userUri('hosts', 'p'), {}, async (client) => {
    // hostManager: setParameter, not getParameter (clusterMonitor's).
    assert.equal((await client.db('admin').command({
      setParameter: 1, ttlMonitorSleepSecs: sleepSecs })).ok, 1);
    await assert.rejects(client.db('admin').command({ serverStatus: 1 }),
                         { code: 13 });
  });
});

test('watch() under --auth: read on a database may watch it, no one else',
     async () => {
  // document_source_change_stream.h: find and changeStream on the
  // namespace; the read role holds both (builtin_roles.yml).
  await withClient(userUri('root', 'rootpw'), {}, (client) =>
    client.db('test').collection('c').insertOne({ _id: 'w0' }));
  await withClient(userUri('ro', 'ropw'), {}, async (client) => {
    const s = client.db('test').collection('c').watch([],
                                                      { maxAwaitTimeMS: 100 });
    assert.equal(await s.tryNext(), null);
    await s.close();
    const other = client.db('other').collection('c').watch();
    await assert.rejects(other.tryNext(), (e) => e.code === 13 &&
      /not authorized on other to execute command \{ aggregate/.test(e.message));
    await other.close();
  });
});
