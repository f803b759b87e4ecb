/**
 * `npm run bench:sheets` — what rendering a drawing costs the server, and everyone else on it (issue 43).
 *
 * On a fresh PostgreSQL database (BENCH_DB=pglite for the embedded one) and a freshly started
 * compiled server (this checkout's, and with BENCH_BEFORE_DIR an earlier one's first, each on a
 * database of its own; see bench/lib/server.ts), one after the other:
 * - an A1 vector drawing (a PDF of BENCH_LINES, default 30,000, line segments and labels) and an
 *   A0 scanned drawing (a PDF holding one 200 dpi greyscale scan, 6,622 × 9,362 px): the time from
 *   the upload to the sheet being ready, and the peak resident memory of the server's process tree
 *   (its rendering processes included, sampled every 50 ms) against its idle memory, and the
 *   rendering process's own peak (its VmHWM, which no sampling misses);
 * - reads: the p99 of a project list read over and over on one connection for BENCH_READ_SECONDS
 *   (default 10) with nothing else going on, then while the A0 drawing renders (uploaded again
 *   until the reads end), side by side, and their ratio.
 * Writes bench/results/sheets.md (the current result; git keeps the history).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import PDFDocument from 'pdfkit';
import sharp from 'sharp';
import { databaseUrl, postgresTransport, withAdmin } from '../lib/large-database';
import { type Checkout, checkoutsToMeasure, ensureServerBuilt, type RunningServer, startServer, thisCheckout } from '../lib/server';
import { call } from '../lib/api';
import { percentile, readFor, sleep } from '../lib/reads';
import { machineLine, writeResult } from '../lib/results';

const DATABASE = (process.env.BENCH_DB ?? 'postgres') as 'postgres' | 'pglite';
const LINES = Number(process.env.BENCH_LINES ?? 30_000);
const READ_SECONDS = Number(process.env.BENCH_READ_SECONDS ?? 10);
const MM = 72 / 25.4;

function pdf(build: (document: PDFKit.PDFDocument) => void): Promise<Buffer> {
  const document = new PDFDocument({ autoFirstPage: false });
  const chunks: Buffer[] = [];
  document.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve) => document.on('end', () => resolve(Buffer.concat(chunks))));
  build(document);
  document.end();
  return done;
}

/** An A1 floor plan as CAD exports it: thousands of wall and grid lines, room labels. */
function vectorA1(): Promise<Buffer> {
  const [width, height] = [841 * MM, 594 * MM];
  let seed = 42;
  const random = () => ((seed = (seed * 16807) % 2147483647) / 2147483647);
  return pdf((document) => {
    document.addPage({ size: [width, height], margin: 0 });
    document.lineWidth(0.3);
    for (let line = 0; line < LINES; line++) {
      const x = 40 + random() * (width - 80);
      const y = 40 + random() * (height - 80);
      const horizontal = random() < 0.5;
      const length = 5 + random() * 120;
      document.moveTo(x, y).lineTo(horizontal ? Math.min(width - 40, x + length) : x, horizontal ? y : Math.min(height - 40, y + length));
      if (line % 200 === 199) document.stroke();
    }
    document.stroke();
    document.fontSize(6);
    for (let label = 0; label < 400; label++) document.text(`Room ${label + 1}`, 40 + random() * (width - 120), 40 + random() * (height - 80), { lineBreak: false });
  });
}

/** An A0 drawing as a scanner hands it over: one 200 dpi greyscale image filling the page. */
async function scannedA0(): Promise<Buffer> {
  const [pixelsWide, pixelsHigh] = [6622, 9362];
  const lines = Array.from({ length: 400 }, (_, index) => {
    const at = (index * 7919) % (index % 2 ? pixelsWide : pixelsHigh);
    return index % 2 ? `<line x1="${at}" y1="0" x2="${at}" y2="${pixelsHigh}" stroke="#222" stroke-width="3"/>` : `<line x1="0" y1="${at}" x2="${pixelsWide}" y2="${at}" stroke="#222" stroke-width="3"/>`;
  });
  const drawing = Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${pixelsWide}" height="${pixelsHigh}">${lines.join('')}</svg>`);
  const scan = await sharp({ create: { width: pixelsWide, height: pixelsHigh, channels: 3, background: '#f4f1ea', noise: { type: 'gaussian', mean: 235, sigma: 6 } } })
    .composite([{ input: drawing }])
    .greyscale()
    .jpeg({ quality: 70 })
    .toBuffer();
  return pdf((document) => {
    document.addPage({ size: [841 * MM, 1189 * MM], margin: 0 });
    document.image(scan, 0, 0, { width: 841 * MM, height: 1189 * MM });
  });
}

interface Session {
  origin: string;
  token: string;
  projectId: number;
}

/** A company whose admin uploads drawings to one project. */
async function setUp(origin: string): Promise<Session> {
  const password = 'bench sheets password';
  const email = `admin-${process.pid}@sheets.bench`;
  const signup = await call<{ company_id: number }>(origin, 'POST', '/api/signup/', undefined, { company_name: `Sheets ${process.pid} ${Date.now()}`, company_password: password, email, password });
  const token = (await call<{ access: string }>(origin, 'POST', '/api/token/', undefined, { email, password, role: 'admin', company_id: signup.company_id })).access;
  const manager = await call<{ id: number }>(origin, 'POST', '/api/users/', token, { email: `manager-${process.pid}@sheets.bench`, password, role: 'manager', designation: null, mobile_number: null });
  const project = await call<{ id: number }>(origin, 'POST', '/api/projects/', token, { name: 'Drawings', start_date: '2026-01-01', end_date: '2026-12-31', manager_id: manager.id, status: 'ongoing' });
  return { origin, token, projectId: project.id };
}

/** Uploads a drawing and waits for its sheet: the time to ready and its size. */
async function render(session: Session, file: Buffer, name: string): Promise<{ ms: number; width: number; height: number }> {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(file)], { type: 'application/pdf' }), name);
  const started = performance.now();
  const response = await fetch(`${session.origin}/api/projects/${session.projectId}/sheets/`, { method: 'POST', headers: { authorization: `Bearer ${session.token}` }, body: form });
  if (response.status !== 202) throw new Error(`upload ${name}: ${response.status} ${await response.text()}`);
  const [sheet] = (await response.json()) as { id: number }[];
  for (;;) {
    const current = await call<{ status: string; failure: string | null; width: number; height: number }>(session.origin, 'GET', `/api/sheets/${sheet!.id}/`, session.token);
    if (current.status === 'failed') throw new Error(`${name} failed: ${current.failure}`);
    if (current.status === 'ready') return { ms: performance.now() - started, width: current.width, height: current.height };
    await sleep(100);
  }
}


/** The processes a server started (its rendering processes among them), by /proc. */
function descendants(pid: number): number[] {
  try {
    const children = fs.readdirSync(`/proc/${pid}/task`).flatMap((task) => fs.readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').split(' ').filter(Boolean).map(Number));
    return children.flatMap((child) => [child, ...descendants(child)]);
  } catch {
    return [];
  }
}

/** A process's peak resident memory so far (VmHWM), in KiB; 0 once it is gone. */
function highWaterKiB(pid: number): number {
  try {
    return Number(/VmHWM:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
  } catch {
    return 0;
  }
}

/**
 * Runs `work` while sampling the server tree's resident memory every 50 ms: the work's answer, the
 * tree's peak, and the largest peak (VmHWM) of any process the server started meanwhile.
 */
async function withPeak<T>(server: RunningServer, work: () => Promise<T>): Promise<{ answer: T; peakMiB: number; childPeakMiB: number }> {
  let peakKiB = server.rssKiB();
  let childPeakKiB = 0;
  const sampler = setInterval(() => {
    peakKiB = Math.max(peakKiB, server.rssKiB());
    for (const child of descendants(server.pid)) childPeakKiB = Math.max(childPeakKiB, highWaterKiB(child));
  }, 50);
  try {
    return { answer: await work(), peakMiB: peakKiB / 1024, childPeakMiB: childPeakKiB / 1024 };
  } finally {
    clearInterval(sampler);
  }
}

const load = () => os.loadavg()[0]!.toFixed(1);

/** One checkout's server on a fresh database: both drawings' renders, then the reads idle and while the A0 scan renders. */
async function measure(checkout: Checkout, a1: Buffer, a0: Buffer): Promise<{ rows: string[]; reads: string }> {
  const name = `siteboard_bench_sheets_${process.pid}_${checkout.label}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'siteboard-sheets-bench-'));
  if (DATABASE === 'postgres') await withAdmin((client) => client.query(`create database ${name}`));
  // Ports 4560–4569 are this bench's.
  const server = await startServer({ env: { DATA_DIR: dataDir, ...(DATABASE === 'postgres' ? { DATABASE_URL: databaseUrl(name) } : {}) }, checkout, stdio: 'collect', port: checkout === thisCheckout ? 4561 : 4560 });
  const rows: string[] = [];
  try {
    const session = await setUp(server.origin);
    await readFor(session, 2);
    await sleep(2000);
    const idleMiB = server.rssKiB() / 1024;
    for (const [label, file, fileName] of [
      ['A1 vector drawing', a1, 'A1 plan.pdf'],
      ['A0 scanned drawing', a0, 'A0 scan.pdf'],
    ] as const) {
      const loadBefore = load();
      const { answer, peakMiB, childPeakMiB } = await withPeak(server, () => render(session, file, fileName));
      console.log(checkout.label, label, answer, `peak ${peakMiB.toFixed(0)} MiB, rendering process ${childPeakMiB.toFixed(0)} MiB`);
      rows.push(`| ${label} | ${checkout.label} | ${answer.width} × ${answer.height} | ${(answer.ms / 1000).toFixed(1)} s | ${idleMiB.toFixed(0)} MiB | ${peakMiB.toFixed(0)} MiB | **${childPeakMiB.toFixed(0)} MiB** | ${loadBefore} → ${load()} |`);
      await sleep(2000);
    }

    const loadBefore = load();
    const idle = await readFor(session, READ_SECONDS);
    let rendering = true;
    let rendered = 0;
    const renderer = (async () => {
      while (rendering) {
        await render(session, a0, 'A0 scan again.pdf');
        rendered++;
      }
    })();
    await sleep(500);
    const busy = await readFor(session, READ_SECONDS);
    rendering = false;
    await renderer;
    const [idleP99, busyP99] = [percentile(idle, 99), percentile(busy, 99)];
    console.log(`${checkout.label}: reads p99 idle ${idleP99.toFixed(1)} ms, while rendering ${busyP99.toFixed(1)} ms`);
    const reads = `| ${checkout.label} | ${idleP99.toFixed(1)} ms | ${busyP99.toFixed(1)} ms | **${(busyP99 / idleP99).toFixed(2)}×** | ${(idle.length / READ_SECONDS).toFixed(0)} → ${(busy.length / READ_SECONDS).toFixed(0)} /s | ${rendered + 1} | ${loadBefore} → ${load()} |`;
    return { rows, reads };
  } finally {
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
    if (DATABASE === 'postgres') await withAdmin((client) => client.query(`drop database if exists ${name} with (force)`));
  }
}

async function main() {
  const started = new Date();
  const loadAtStart = os.loadavg()[0]!;
  const checkouts = checkoutsToMeasure();
  for (const checkout of checkouts) ensureServerBuilt(checkout);
  console.log('Making the drawings…');
  const a1 = await vectorA1();
  const a0 = await scannedA0();
  console.log(`A1 vector ${(a1.length / 2 ** 20).toFixed(1)} MiB, A0 scan ${(a0.length / 2 ** 20).toFixed(1)} MiB`);

  const rows: string[] = [];
  const reads: string[] = [];
  for (const checkout of checkouts) {
    const result = await measure(checkout, a1, a0);
    rows.push(...result.rows);
    reads.push(result.reads);
  }
  rows.sort((one, other) => one.localeCompare(other));

  const markdown = [
    `# Drawings: rendering time, memory, and everyone else's reads — ${started.toISOString().slice(0, 10)}`,
    '',
    `\`npm run bench:sheets\`${process.env.BENCH_BEFORE_DIR ? ' with BENCH_BEFORE_DIR (before: the earlier checkout; after: this one), one after the other on the same machine' : ''} on ${DATABASE === 'postgres' ? `PostgreSQL (through ${postgresTransport()})` : 'the embedded database'}, the compiled server, a fresh database each. Each drawing is uploaded and its sheet polled until ready; the server's process tree (its rendering process included) is sampled every 50 ms, and the rendering process's own peak is its VmHWM (the figure that matters: it does not depend on sampling, and hardly on load). Rendering is capped at 12,000 px on the long side and 48 M pixels.`,
    `- A1 vector drawing: a PDF of ${LINES.toLocaleString('en')} line segments and 400 labels on one A1 page (0.6 MiB);`,
    '- A0 scanned drawing: a PDF holding one 200 dpi greyscale scan (6,622 × 9,362 px JPEG, 7.2 MiB) filling an A0 page.',
    '',
    '| drawing | checkout | rendered | upload → ready | server tree RSS idle | tree peak while rendering | rendering process peak | load (1 min) |',
    '|---|---|---:|---:|---:|---:|---:|---|',
    ...rows,
    '',
    `Reads: \`GET /api/projects/?limit=20\`, one after another on one connection for ${READ_SECONDS} s, idle and then while the A0 scan renders (uploaded again and again until the reads end).`,
    '',
    '| checkout | read p99 idle | read p99 while rendering | ratio | reads/s | A0 renders | load (1 min) |',
    '|---|---:|---:|---:|---|---:|---|',
    ...reads,
    '',
    machineLine(loadAtStart),
  ].join('\n');
  writeResult('sheets.md', markdown);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
