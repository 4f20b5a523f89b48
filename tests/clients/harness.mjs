// Starts `ttldb serve` on a free port over a fresh temporary directory, for
// the client tests. TTLDB_BIN names the binary (scripts/client_tests.sh
// sets it to Bazel's build of //tools:ttldb).
import assert from 'node:assert/strict';
import { after, before } from 'node:test';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MongoClient } from 'mongodb';

export const TTLDB_BIN = process.env.TTLDB_BIN || 'ttldb';

// Resolves to {port, uri, dir, pid, stop(), kill()} once the server listens.
// `args` are extra `ttldb serve` flags; `dir` reuses a data directory.
// stop() sends SIGTERM and resolves to the exit code (0 after a clean
// shutdown); it also removes the directory unless `{keep: true}` is passed.
// kill() is kill -9 (SIGKILL): it resolves once the process is gone and
// keeps the directory, for a restart on it.
export function startServer(args = [], dir = undefined) {
  dir ??= mkdtempSync(join(tmpdir(), 'ttldb-serve-'));
  const child = spawn(TTLDB_BIN, ['serve', '--db', dir, '--port', '0', ...args],
                      { stdio: ['ignore', 'inherit', 'pipe'] });
  let stderr = '';
  const exited = new Promise((resolve) => child.on('exit', (code, signal) =>
    resolve(code ?? signal)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(
      `ttldb serve did not start: ${stderr}`)), 20000);
    child.on('error', reject);
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
      const m = /listening on 127\.0\.0\.1:(\d+)/.exec(stderr);
      if (m && timer) {
        clearTimeout(timer);
        const port = Number(m[1]);
        resolve({
          port,
          dir,
          pid: child.pid,
          uri: `mongodb://127.0.0.1:${port}/`,
          stderr: () => stderr,
          async stop({ keep = false } = {}) {
            child.kill('SIGTERM');
            const code = await exited;
            if (!keep) rmSync(dir, { recursive: true, force: true });
            return code;
          },
          async kill() {
            child.kill('SIGKILL');
            return exited;
          },
        });
      }
    });
    exited.then((code) => reject(new Error(
      `ttldb serve exited (${code}) before listening: ${stderr}`)));
  });
}

// The real mongosh of tests/clients/node_modules, run with `args` (--quiet
// added) and `input` typed on its standard input; resolves to
// {code, out, err}.
export const MONGOSH = join(dirname(fileURLToPath(import.meta.url)),
                            'node_modules', '.bin', 'mongosh');
export function runMongosh(args, input = '') {
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

// Asserts that `promise` rejects with a server error of `code` whose message
// matches `message` (a RegExp, optional).
export function rejectsWithCode(promise, code, message) {
  return assert.rejects(promise, (e) => {
    assert.equal(e?.constructor?.name, 'MongoServerError', String(e));
    assert.equal(e.code, code, e.message);
    if (message) assert.match(e.message, message);
    return true;
  });
}

// Starts one `ttldb serve` (startServer(args)) and a connected Node driver
// client before the file's tests, hands both to `use(server, client)`, and
// closes the client and checks the server's clean shutdown after them.
// `use` may be async (awaited before the tests: node:test does not order a
// file's root-level before hooks after one another's promises).
export function withServerAndClient(use, args = []) {
  let server;
  let client;
  before(async () => {
    server = await startServer(args);
    client = new MongoClient(server.uri, { serverSelectionTimeoutMS: 10000 });
    await client.connect();
    await use(server, client);
  });
  after(async () => {
    await client?.close();
    if (server) assert.equal(await server.stop(), 0, 'clean shutdown');
  });
}
