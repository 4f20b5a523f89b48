// `ttldb --db DIR` is the real mongosh (tests/clients/node_modules, named by
// TTLDB_MONGOSH) against the database served in-process on a private Unix
// socket (tools/shell/mongosh_session.h): JavaScript the built-in subset
// cannot run works, --eval / script files / --json / exit codes are
// mongosh's, no TCP port is opened, and the socket's 0700 directory is gone
// afterwards. Without a mongosh the built-in subset runs, and says so.
//
// Expected values: a duplicate _id is MongoDB's DuplicateKey, code 11000
// (src/mongo/base/error_codes.yml); db.c.stats() is the $collStats storage
// stats ({ns: "test.c", count}, src/mongo/db/stats/storage_stats.cpp);
// getParameter replies the parameter's value
// (src/mongo/db/commands/parameters.cpp); mongosh prints --eval's last value
// and, with --json=relaxed, as relaxed Extended JSON.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MONGOSH, TTLDB_BIN } from './harness.mjs';

// Runs `ttldb args` with TTLDB_MONGOSH = `mongosh`; resolves to
// {code, out, err}.
function ttldb(args, { mongosh = MONGOSH, input = '' } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(TTLDB_BIN, args, {
      env: { ...process.env, TTLDB_MONGOSH: mongosh,
             MONGOSH_NO_UPDATE_CHECK: '1', NO_COLOR: '1' },
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (c) => { out += c; });
    child.stderr.on('data', (c) => { err += c; });
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, out, err }));
    child.stdin.end(input);
  });
}

function withDir(use) {
  return async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ttldb-shell-test-'));
    try {
      await use(dir);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
}

test('--eval runs JavaScript the subset cannot', withDir(async (dir) => {
  const db = join(dir, 'db');
  const { code, out, err } = await ttldb([
    '--db', db, '--quiet', '--ttl-monitor-sleep-secs', '7', '--eval', `
      db.c.insertMany([{_id: 1, v: 2}, {_id: 2, v: 3}]);
      let sum = 0;
      for (const d of db.c.find().sort({_id: 1})) sum += d.v;
      let caught;
      try { db.c.insertOne({_id: 1}) } catch (e) { caught = \`\${e.name} \${e.code}\` }
      const st = db.c.stats();
      const sleep = db.adminCommand({getParameter: 1, ttlMonitorSleepSecs: 1});
      \`\${typeof sum} \${sum} \${caught} \${st.ns} \${st.count} \${sleep.ttlMonitorSleepSecs}\``,
  ]);
  assert.equal(err, '');
  assert.equal(code, 0);
  assert.equal(out, 'number 5 MongoServerError 11000 test.c 2 7\n');
  // The data is in DIR: the built-in shell reads it back.
  const again = await ttldb(['--db', db, '--quiet', '--subset', '--eval',
                             'db.c.countDocuments()']);
  assert.deepEqual(again, { code: 0, out: '2\n', err: '' });
}));

// The operator helpers of issue 33 through `ttldb --db` as through serve:
// db.setProfilingLevel / getProfilingStatus (the profile command,
// src/mongo/db/commands/profile_common.cpp: {was, slowms, sampleRate}) and
// the 1 MiB capped system.profile it creates
// (src/mongo/db/profile_collection.cpp), db.currentOp() (the running
// $currentOp aggregate itself is in inprog), the 8.0 bulkWrite command
// behind db.getMongo().bulkWrite (its insertedCount), and rs.status() as a
// standalone answers it: 76 NoReplicationEnabled
// (src/mongo/base/error_codes.yml).
test('mongosh\'s operator helpers work in the shell', withDir(async (dir) => {
  const { code, out, err } = await ttldb([
    '--db', join(dir, 'db'), '--quiet', '--eval', `
      const was = db.setProfilingLevel(2).was;
      db.c.insertOne({_id: 1});
      db.c.findOne({_id: 1});
      const status = db.getProfilingStatus();
      const profiled = db.system.profile.countDocuments({ns: 'test.c'});
      const capped = db.system.profile.stats().capped;
      db.setProfilingLevel(0);
      const ops = db.currentOp().inprog.length;
      const bulk = db.getMongo().bulkWrite([
        {name: 'insertOne', namespace: 'test.d', document: {_id: 1}},
        {name: 'insertOne', namespace: 'other.e', document: {_id: 2}}]);
      let rsCode;
      try { rs.status() } catch (e) { rsCode = e.code }
      \`\${was} \${status.was} \${profiled >= 2} \${capped} \${ops >= 1} \${bulk.insertedCount} \${rsCode}\``,
  ]);
  assert.equal(err, '');
  assert.equal(code, 0);
  assert.equal(out, '0 2 true true true 2 76\n');
}));

test('--json prints relaxed Extended JSON', withDir(async (dir) => {
  const db = join(dir, 'db');
  const { code, out, err } = await ttldb([
    '--db', db, '--quiet', '--json', '--eval',
    'db.c.insertOne({_id: 1, n: NumberLong("5"), at: new Date(0)}); db.c.findOne()',
  ]);
  assert.equal(err, '');
  assert.equal(code, 0);
  assert.deepEqual(JSON.parse(out),
                   { _id: 1, n: 5, at: { $date: '1970-01-01T00:00:00Z' } });
}));

test('a script file, and a failing one', withDir(async (dir) => {
  const db = join(dir, 'db');
  const script = join(dir, 'fill.js');
  writeFileSync(script, [
    'for (let i = 0; i < 3; i++) db.items.insertOne({_id: i, sq: i * i});',
    'const docs = db.items.find({}, {_id: 0}).toArray();',
    'print(docs.map((d) => d.sq).join(","));',
    'db.items.countDocuments()',  // a file prints only what it prints
    '',
  ].join('\n'));
  assert.deepEqual(await ttldb(['--db', db, '--quiet', script]),
                   { code: 0, out: '0,1,4\n', err: '' });

  const failing = join(dir, 'fail.js');
  writeFileSync(failing, 'print("before");\nthrow new Error("boom");\nprint("after");\n');
  const failed = await ttldb(['--db', db, '--quiet', failing]);
  assert.equal(failed.code, 1);
  assert.equal(failed.out, 'before\n');
  assert.match(failed.err, /Error: boom/);

  const quit = await ttldb(['--db', db, '--quiet', '--eval', 'quit(3)']);
  assert.equal(quit.code, 3);
}));

test('piped standard input runs as typed', withDir(async (dir) => {
  const { code, out } = await ttldb(['--db', join(dir, 'db'), '--quiet'], {
    input: 'let n = 0; while (n < 4) n++\nn * 10\n',
  });
  assert.equal(code, 0);
  assert.match(out, /test> 40\n/);
}));

test('the server listens on a private socket only', withDir(async (dir) => {
  // From inside mongosh: the socket's directory mode, and whether its parent
  // (ttldb, process.ppid) holds a TCP socket in the LISTEN state (0A).
  const probe = `
    const fs = require('fs');
    const host = decodeURIComponent(db.getMongo().getURI().slice('mongodb://'.length).split('/')[0]);
    const socketDir = host.slice(0, host.lastIndexOf('/'));
    const inodes = new Set();
    for (const fd of fs.readdirSync('/proc/' + process.ppid + '/fd')) {
      let link = '';
      try { link = fs.readlinkSync('/proc/' + process.ppid + '/fd/' + fd) } catch (e) {}
      const m = /^socket:\\[(\\d+)\\]$/.exec(link);
      if (m) inodes.add(m[1]);
    }
    let listening = 0;
    for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
      let text = '';
      try { text = fs.readFileSync(table, 'utf8') } catch (e) {}
      for (const line of text.split('\\n').slice(1)) {
        const f = line.trim().split(/\\s+/);
        if (f[3] === '0A' && inodes.has(f[9])) listening++;
      }
    }
    JSON.stringify({socketDir, mode: (fs.statSync(socketDir).mode & 0o777).toString(8),
                    socket: fs.statSync(host).isSocket(), unixSockets: inodes.size > 0,
                    listening})`;
  const { code, out, err } = await ttldb(['--db', join(dir, 'db'), '--quiet',
                                          '--eval', probe]);
  assert.equal(err, '');
  assert.equal(code, 0);
  const seen = JSON.parse(out);
  assert.equal(seen.mode, '700');
  assert.equal(seen.socket, true);
  assert.equal(seen.unixSockets, true);
  assert.equal(seen.listening, 0, 'no TCP listener');
  assert.equal(existsSync(seen.socketDir), false, 'socket directory removed');
}));

test('without mongosh the built-in subset runs and says so',
     withDir(async (dir) => {
  const missing = join(dir, 'no-such-mongosh');
  const db = join(dir, 'db');
  const { code, out, err } = await ttldb(['--db', db, '--quiet', '--eval', '1 + 2'],
                                         { mongosh: missing });
  assert.equal(code, 0);
  assert.equal(out, '3\n');
  assert.equal(err, `ttldb: TTLDB_MONGOSH: ${missing} is not an executable ` +
    'file; running the built-in shell, a JavaScript subset (no loops, ' +
    'functions, template literals or JavaScript built-ins; tools/README.md). ' +
    '--subset chooses it without this note.\n');
  // It is the subset: a loop is a syntax error there.
  const loop = await ttldb(['--db', db, '--quiet', '--eval',
                            'for (let i = 0; i < 2; i++) print(i)'],
                           { mongosh: missing });
  assert.equal(loop.code, 1);
  assert.match(loop.err, /SyntaxError/);
  // TTLDB_MONGOSH=none chooses it silently, as --subset does.
  assert.deepEqual(await ttldb(['--db', db, '--quiet', '--eval', '1 + 2'],
                               { mongosh: 'none' }),
                   { code: 0, out: '3\n', err: '' });
}));
