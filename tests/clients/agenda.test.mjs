// agenda (a job queue on MongoDB, with @agendajs/mongo-backend) against
// `ttldb serve` (issue 33): three workers, each with its own connection,
// share one agendaJobs collection and every job runs exactly once.
// agenda locks a job with findOneAndUpdate({name, lockedAt: null or stale,
// nextRunAt <= now}, {$set: {lockedAt}}, {sort: {nextRunAt, priority},
// returnDocument: 'after'}) (MongoJobRepository.getNextJobToRun), so
// exactly-once rests on findAndModify matching and writing one document
// atomically, as MongoDB does (src/mongo/db/commands/query_cmd/
// find_and_modify.cpp: the match and the write are one operation under the
// collection lock; manual reference/method/db.collection.findOneAndUpdate,
// "Upsert with Unique Index" and atomicity notes).
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { Agenda } from 'agenda';
import { MongoBackend } from '@agendajs/mongo-backend';
import { withServerAndClient } from './harness.mjs';

const WORKERS = 3;
const JOBS = 90;

let client;
let uri;
const workers = [];

// Registered first so that it runs before the server stops.
// agenda's stop() closes the connection only if the worker is still running
// (a worker never started, or stopped before, keeps it), so close each
// backend itself.
after(async () => {
  await Promise.all(workers.map(async ({ agenda, backend }) => {
    await agenda.stop(false);
    await backend.disconnect();
  }));
});

withServerAndClient((s, c) => { client = c; uri = `${s.uri}queue`; });

const jobs = () => client.db('queue').collection('agendaJobs');

// A worker as an app process creates it: its own connection, polling every
// 50 ms (agenda's default is 5 s), `define`d handlers that log each run.
// lockLifetime 10 s instead of the default 10 min: agenda leaves a timer of
// half the lock lifetime behind every run (JobProcessor's
// checkIfJobIsStillAlive), which keeps this file's process alive that long.
// A job would have to stall 10 s before another worker may take it over.
const LOCK = { lockLifetime: 10000 };
async function startWorker(id, runs, { start = true } = {}) {
  const backend = new MongoBackend({ address: uri, name: `worker-${id}` });
  const agenda = new Agenda({ backend, processEvery: 50 });
  agenda.define('work', async (job) => {
    runs.push({ k: job.attrs.data.k, worker: id });
    await new Promise((r) => setTimeout(r, 5));
  }, LOCK);
  agenda.define('fail', async () => { throw new Error('disk full'); }, LOCK);
  agenda.on('error', (e) => runs.push({ error: e }));
  workers.push({ agenda, backend });
  await (start ? agenda.start() : agenda.ready);
  return agenda;
}

async function waitFor(predicate, ms) {
  const deadline = Date.now() + ms;
  while (!(await predicate())) {
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 50));
  }
  return true;
}

test(`${WORKERS} workers run each of ${JOBS} jobs exactly once`, async () => {
  const runs = [];
  // Worker 0 queues everything before anyone works.
  const first = await startWorker(0, runs, { start: false });
  const ix = await jobs().listIndexes().toArray();
  assert.deepEqual(ix.find((i) => i.name === 'findAndLockNextJobIndex')?.key,
                   { name: 1, priority: -1, lockedAt: 1, nextRunAt: 1,
                     disabled: 1 });
  await Promise.all(Array.from({ length: JOBS },
                               (_, k) => first.now('work', { k })));
  assert.equal(await jobs().countDocuments({ name: 'work' }), JOBS);

  await Promise.all([first.start(), startWorker(1, runs),
                     startWorker(2, runs)]);
  const done = await waitFor(async () =>
    await jobs().countDocuments({ name: 'work', lastFinishedAt: { $ne: null } })
      === JOBS, 60000);
  assert.ok(done, `finished ${runs.length} runs in time`);
  // Let the workers poll a few more times: nothing may run again.
  await new Promise((r) => setTimeout(r, 300));
  await Promise.all(workers.map((w) => w.agenda.stop(false)));

  assert.deepEqual(runs.filter((r) => r.error), []);
  const perKey = new Map();
  for (const r of runs) perKey.set(r.k, (perKey.get(r.k) ?? 0) + 1);
  assert.equal(perKey.size, JOBS);
  assert.deepEqual([...perKey.values()].filter((n) => n !== 1), [],
                   'a job ran more than once');
  assert.equal(runs.length, JOBS);
  // Finished one-time jobs are unlocked and not scheduled again.
  assert.equal(await jobs().countDocuments(
    { name: 'work', lockedAt: null, nextRunAt: null,
      lastRunAt: { $type: 'date' }, lastFinishedAt: { $type: 'date' } }),
  JOBS);
});

test('a failing job records failCount, failReason and failedAt', async () => {
  const runs = [];
  const agenda = await startWorker(3, runs);
  const job = await agenda.now('fail');
  const failed = await waitFor(async () =>
    (await jobs().findOne({ name: 'fail' }))?.failCount === 1, 20000);
  assert.ok(failed, 'the job failed in time');
  const doc = await jobs().findOne({ name: 'fail' });
  assert.equal(doc._id.toHexString(), String(job.attrs._id));
  assert.equal(doc.failReason, 'disk full');
  assert.ok(doc.failedAt instanceof Date);
  assert.equal(doc.lockedAt, null);
  assert.deepEqual(runs, []);
});
