// Security of `ttldb serve` with the real clients: --auth with SCRAM-SHA-256
// users (the Node driver's and mongosh's own SCRAM), the localhost
// exception, the bind rule, and TLS with certificates made here by the
// openssl CLI (never committed). Expected answers: src/mongo/db/commands.cpp
// (13 "Command find requires authentication"), src/mongo/db/auth/
// sasl_commands.cpp (18 AuthenticationFailed), the manual's "Localhost
// Exception" and "TLS/SSL (Transport Encryption)" pages.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MongoClient } from 'mongodb';
import { startServer, TTLDB_BIN } from './harness.mjs';

const MONGOSH = join(dirname(fileURLToPath(import.meta.url)),
                     'node_modules', '.bin', 'mongosh');
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

function mongosh(args, input) {
  return new Promise((resolve, reject) => {
    const child = spawn(MONGOSH, [...args, '--quiet'],
                        { env: { ...process.env, MONGOSH_NO_UPDATE_CHECK: '1',
                                 NO_COLOR: '1' } });
    let out = '';
    let err = '';
    child.stdout.on('data', (c) => { out += c; });
    child.stderr.on('data', (c) => { err += c; });
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, out, err }));
    child.stdin.end(input);
  });
}

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
