/**
 * `npm run bench:photos` — what photo uploads cost the server, and everyone else on it.
 *
 * For each database (BENCH_DB=postgres|pglite|both, default postgres) and each checkout (this
 * one, and with BENCH_BEFORE_DIR an earlier one, see bench/lib/server.ts), on a fresh database and
 * a freshly started server, one after the other so both see the same machine:
 * - alone: a 12-megapixel, 4 MB phone JPEG uploaded BENCH_ALONE times (default 5), one at a time;
 *   the median time to the answer;
 * - reads: the p99 of a project list read over and over on one connection, with nothing else
 *   going on and while BENCH_UPLOADERS (default 4) clients upload 12-MP photos without pause from
 *   another process (a 503 waits its Retry-After), in BENCH_READ_ROUNDS (default 5) alternating
 *   windows of each, so that both see the same machine (other work on it comes and goes); the
 *   ratio of the two;
 * - storm: BENCH_STORM (default 20) uploads of a 10 MB photo sent at once; the server's peak
 *   resident memory (its whole process tree, sampled every 100 ms), the answers, and its memory
 *   BENCH_AFTER_SECONDS (default 60) later.
 * BENCH_NODE_ARGS: node's own arguments for this checkout's server, space-separated (e.g.
 * `--cpu-prof --cpu-prof-dir=/tmp/prof` to see what holds its event loop while photos arrive).
 * Writes bench/results/photos.md (the current result; git keeps the history).
 */
import { fork } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { databaseUrl, postgresTransport, withAdmin } from '../lib/large-database';
import { benchNodeArgs, checkoutsToMeasure, ensureServerBuilt, type RunningServer, startServer, thisCheckout } from '../lib/server';
import { call } from '../lib/api';
import { percentile, readFor, sleep } from '../lib/reads';
import { machineLine, writeResult } from '../lib/results';

const DATABASES = (process.env.BENCH_DB ?? 'postgres') === 'both' ? (['postgres', 'pglite'] as const) : ([process.env.BENCH_DB ?? 'postgres'] as ('postgres' | 'pglite')[]);
const ALONE = Number(process.env.BENCH_ALONE ?? 5);
const UPLOADERS = Number(process.env.BENCH_UPLOADERS ?? 4);
const STORM = Number(process.env.BENCH_STORM ?? 20);
const AFTER_SECONDS = Number(process.env.BENCH_AFTER_SECONDS ?? 60);
const READ_SECONDS = Number(process.env.BENCH_READ_SECONDS ?? 10);
const READ_ROUNDS = Number(process.env.BENCH_READ_ROUNDS ?? 5);

/** A camera's noise over a gradient, at the JPEG quality that comes closest under `targetBytes`. */
async function cameraJpeg(width: number, height: number, sigma: number, targetBytes: number): Promise<Buffer> {
  const noisy = await sharp({ create: { width, height, channels: 3, background: '#7a8a70', noise: { type: 'gaussian', mean: 120, sigma } } })
    .raw()
    .toBuffer();
  let best: Buffer | undefined;
  for (let low = 50, high = 100; low <= high; ) {
    const quality = Math.floor((low + high) / 2);
    const jpeg = await sharp(noisy, { raw: { width, height, channels: 3 } }).jpeg({ quality }).toBuffer();
    if (jpeg.length <= targetBytes) {
      best = jpeg;
      low = quality + 1;
    } else high = quality - 1;
  }
  if (!best) throw new Error(`No JPEG of ${width}×${height} fits in ${targetBytes} bytes`);
  return best;
}

interface Session {
  origin: string;
  token: string;
  subtaskId: number;
}

/** A company with a project whose manager uploads photos to one subtask of it. */
async function setUp(origin: string): Promise<Session> {
  const password = 'bench photos password';
  const email = `admin-${process.pid}@photos.bench`;
  const signup = await call<{ company_id: number }>(origin, 'POST', '/api/signup/', undefined, { company_name: `Photos ${process.pid} ${Date.now()}`, company_password: password, email, password });
  const signIn = async (who: string, role: string) => (await call<{ access: string }>(origin, 'POST', '/api/token/', undefined, { email: who, password, role, company_id: signup.company_id })).access;
  const admin = await signIn(email, 'admin');
  const managerEmail = `manager-${process.pid}@photos.bench`;
  const manager = await call<{ id: number }>(origin, 'POST', '/api/users/', admin, { email: managerEmail, password, role: 'manager', designation: null, mobile_number: null });
  const project = await call<{ id: number }>(origin, 'POST', '/api/projects/', admin, { name: 'Photos', start_date: '2026-01-01', end_date: '2026-12-31', manager_id: manager.id, status: 'ongoing' });
  const token = await signIn(managerEmail, 'manager');
  const majorTask = await call<{ subtasks: { id: number }[] }>(origin, 'POST', '/api/major-tasks/', token, {
    project_id: project.id,
    name: 'Pour',
    subtasks: [{ name: 'Footing', assigned_to_id: manager.id, due_date: '2026-06-30', priority: 'medium' }],
  });
  return { origin, token, subtaskId: majorTask.subtasks[0]!.id };
}

/** One upload; a 503 is answered (it says when to come back), not retried here. Status 0: no answer within fetch's 5 minutes. */
async function upload(session: Session, photo: Buffer): Promise<{ status: number; ms: number; retryAfter: number }> {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(photo)], { type: 'image/jpeg' }), 'IMG_0001.JPG');
  const started = performance.now();
  try {
    const response = await fetch(`${session.origin}/api/subtasks/${session.subtaskId}/attachments/`, { method: 'POST', headers: { authorization: `Bearer ${session.token}` }, body: form });
    await response.arrayBuffer();
    return { status: response.status, ms: performance.now() - started, retryAfter: Number(response.headers.get('retry-after') ?? 0) };
  } catch {
    return { status: 0, ms: performance.now() - started, retryAfter: 0 };
  }
}

const median = (values: number[]) => percentile(values, 50);

/**
 * UPLOADERS clients uploading the photo without pause, from a process of their own (uploaders.mjs),
 * so that the reads measured here wait for the server only. They start paused; `pause` resolves
 * once every upload in flight has its answer; `stop` ends them and counts the photos stored.
 */
function startUploaders(session: Session, photo: Buffer): { resume(): void; pause(): Promise<void>; stop(): Promise<number> } {
  const photoPath = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'siteboard-photos-')), 'phone.jpeg');
  fs.writeFileSync(photoPath, photo);
  const child = fork(path.join(import.meta.dirname, 'uploaders.mjs'), [JSON.stringify({ ...session, photoPath, uploaders: UPLOADERS })]);
  let paused = () => {};
  const answer = new Promise<number>((resolve, reject) => {
    child.on('message', (message: 'paused' | { uploaded?: number; error?: string }) => {
      if (message === 'paused') paused();
      else if (message.error === undefined) resolve(message.uploaded!);
      else reject(new Error(message.error));
    });
    child.once('exit', (code) => reject(new Error(`the uploaders ended with code ${code}`)));
  });
  answer.catch(() => {});
  return {
    resume: () => child.send('resume'),
    pause: () =>
      Promise.race([
        new Promise<void>((resolve) => {
          paused = resolve;
          child.send('pause');
        }),
        answer.then(() => {}),
      ]),
    async stop() {
      child.send('stop');
      try {
        return await answer;
      } finally {
        fs.rmSync(path.dirname(photoPath), { recursive: true, force: true });
      }
    },
  };
}

interface Result {
  aloneMs: number;
  idleP99: number;
  busyP99: number;
  busyReads: number;
  idleReads: number;
  uploadsDuringReads: number;
  idleMiB: number;
  peakMiB: number;
  afterMiB: number;
  stormAnswers: Record<number, number>;
  stormSeconds: number;
}

async function measure(server: RunningServer, phone: Buffer, large: Buffer): Promise<Result> {
  const session = await setUp(server.origin);
  // Warm: sharp loads with the first photo; idle is measured once a photos' process that ends
  // when it has had nothing to do for 10 s (lib/images.ts) has ended.
  await upload(session, phone);
  await sleep(15_000);
  const idleMiB = server.rssKiB() / 1024;

  const alone: number[] = [];
  for (let round = 0; round < ALONE; round++) {
    const answer = await upload(session, phone);
    if (answer.status !== 201) throw new Error(`upload alone: ${answer.status}`);
    alone.push(answer.ms);
  }

  const idle: number[] = [];
  const busy: number[] = [];
  const uploaders = startUploaders(session, phone);
  for (let round = 0; round < READ_ROUNDS; round++) {
    idle.push(...(await readFor(session, READ_SECONDS / READ_ROUNDS)));
    uploaders.resume();
    // The uploads first fill the queue; then the reads are measured against it.
    await sleep(1000);
    busy.push(...(await readFor(session, READ_SECONDS / READ_ROUNDS)));
    // Every photo sent has its answer (processed or refused) before the next idle window.
    await uploaders.pause();
  }
  const uploaded = await uploaders.stop();
  await sleep(2000);

  let peakKiB = 0;
  const sampler = setInterval(() => (peakKiB = Math.max(peakKiB, server.rssKiB())), 100);
  const stormStarted = performance.now();
  const answers = await Promise.all(Array.from({ length: STORM }, () => upload(session, large)));
  const stormSeconds = (performance.now() - stormStarted) / 1000;
  clearInterval(sampler);
  peakKiB = Math.max(peakKiB, server.rssKiB());
  await sleep(AFTER_SECONDS * 1000);
  const stormAnswers: Record<number, number> = {};
  for (const answer of answers) stormAnswers[answer.status] = (stormAnswers[answer.status] ?? 0) + 1;
  return {
    aloneMs: median(alone),
    idleP99: percentile(idle, 99),
    busyP99: percentile(busy, 99),
    idleReads: idle.length / READ_SECONDS,
    busyReads: busy.length / READ_SECONDS,
    uploadsDuringReads: uploaded,
    idleMiB,
    peakMiB: peakKiB / 1024,
    afterMiB: server.rssKiB() / 1024,
    stormAnswers,
    stormSeconds,
  };
}

async function main() {
  const started = new Date();
  const loadAtStart = os.loadavg()[0]!;
  const checkouts = checkoutsToMeasure();
  for (const checkout of checkouts) ensureServerBuilt(checkout);
  console.log('Making the photos…');
  const phone = await cameraJpeg(4032, 3024, 18, 4 * 1024 * 1024);
  const large = await cameraJpeg(4032, 3024, 60, 10 * 1024 * 1024 - 64 * 1024);
  console.log(`phone photo ${(phone.length / 2 ** 20).toFixed(2)} MiB, large ${(large.length / 2 ** 20).toFixed(2)} MiB, both 4032×3024`);

  const rows: string[] = [];
  for (const database of DATABASES) {
    for (const checkout of checkouts) {
      const name = `siteboard_bench_photos_${process.pid}_${checkout.label}`;
      const dataDir = database === 'pglite' ? fs.mkdtempSync(path.join(os.tmpdir(), 'siteboard-photos-')) : undefined;
      if (database === 'postgres') await withAdmin((client) => client.query(`create database ${name}`));
      // Ports 4420–4439 are this bench's.
      const server = await startServer({ env: dataDir ? { DATA_DIR: dataDir } : { DATABASE_URL: databaseUrl(name) }, checkout, stdio: 'collect', port: checkout === thisCheckout ? 4421 : 4420, nodeArgs: benchNodeArgs(checkout) });
      try {
        const result = await measure(server, phone, large);
        const answers = Object.entries(result.stormAnswers)
          .map(([status, count]) => `${count}× ${status === '0' ? 'no answer in 5 min' : status}`)
          .join(', ');
        console.log(`${database} ${checkout.label}:`, JSON.stringify(result));
        rows.push(
          `| ${database} | ${checkout.label} | ${(result.aloneMs / 1000).toFixed(2)} s | ${result.idleP99.toFixed(1)} ms | ${result.busyP99.toFixed(1)} ms | **${(result.busyP99 / result.idleP99).toFixed(2)}×** | ${result.idleReads.toFixed(0)} → ${result.busyReads.toFixed(0)} /s (${result.uploadsDuringReads} photos) | ${result.idleMiB.toFixed(0)} MiB | ${result.peakMiB.toFixed(0)} MiB | ${result.afterMiB.toFixed(0)} MiB | ${answers} in ${result.stormSeconds.toFixed(1)} s |`,
        );
      } finally {
        await server.stop();
        if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
        if (database === 'postgres') await withAdmin((client) => client.query(`drop database if exists ${name} with (force)`));
      }
    }
  }

  const markdown = [
    `# Photo uploads: time, memory and everyone else's reads — ${started.toISOString().slice(0, 10)}`,
    '',
    `\`npm run bench:photos\`${process.env.BENCH_BEFORE_DIR ? ' with BENCH_BEFORE_DIR (before: the earlier checkout; after: this one), one after the other on the same machine' : ''}. A fresh database and server per row.`,
    `- alone: the median of ${ALONE} uploads of a 12-megapixel (4032×3024) ${(phone.length / 2 ** 20).toFixed(1)} MiB JPEG, one at a time, to the answer;`,
    `- reads: the p99 of \`GET /api/projects/?limit=20\`, one request after another on one connection, idle and while ${UPLOADERS} clients of another process upload that photo without pause (a 503 waits its Retry-After), ${READ_SECONDS} s of each in ${READ_ROUNDS} alternating windows (so both see the same machine); reads per second idle → busy, and the photos stored meanwhile;`,
    `- storm: ${STORM} uploads of a ${(large.length / 2 ** 20).toFixed(1)} MiB 12-megapixel JPEG sent at once; resident memory of the server's process tree idle before, at its peak (sampled every 100 ms), and ${AFTER_SECONDS} s after the last answer; the answers.`,
    '',
    `${machineLine(loadAtStart)} PostgreSQL through ${postgresTransport()}.`,
    '',
    '| database | code | alone | read p99 idle | read p99 busy | ratio | reads/s | idle RSS | peak RSS | RSS after | storm answers |',
    '|---|---|---:|---:|---:|---:|---|---:|---:|---:|---|',
    ...rows,
  ].join('\n');
  writeResult('photos.md', markdown);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
