import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { EmbeddedSessionServer } from './embedded-session-server';
import { EMBEDDED_START_PARAMS, type HostMessage, type HostOptions, type ServerMessage } from './embedded-protocol';

/**
 * The embedded database's own thread (a worker) or process (a child): PGlite behind its
 * PostgreSQL wire-protocol server on a Unix socket, so that the server's event loop never runs a
 * query itself and talks to it the way it talks to PostgreSQL (decision record 015).
 */
async function host(options: HostOptions, send: (message: HostMessage) => void): Promise<Hosted> {
  const pglite = await PGlite.create(options.dataDir ? path.join(options.dataDir, 'pgdata') : undefined, {
    pgliteWasmModule: await compilePglite(),
    startParams: [...PGlite.defaultStartParams, ...EMBEDDED_START_PARAMS],
    loadDataDir: options.snapshot && !options.dataDir ? snapshotBlob(options.snapshot) : undefined,
  });
  // What the socket server has to say goes to the server's log (a worker's or child's console is plain text beside it).
  const server = new EmbeddedSessionServer(pglite, options.socketPath, { report: (level, message) => send({ type: 'log', level, message }) });
  await server.start();

  let closing: Promise<void> | undefined;
  return {
    copy: (target) => copyAtOneInstant(pglite, path.join(options.dataDir!, 'pgdata'), target),
    close: () =>
      (closing ??= (async () => {
        await server.stop();
        // A clean shutdown leaves nothing to replay at the next start; in memory there is no next start.
        if (options.dataDir) await pglite.exec('CHECKPOINT');
        await pglite.close();
      })()),
  };
}

interface Hosted {
  copy(target: string): Promise<{ pausedMs: number }>;
  close(): Promise<void>;
}

/**
 * Serves the server's messages for the database this thread or process hosts; after `closed`, an
 * `open` starts another one in its place (tests keep a thread for their in-memory databases,
 * embedded.ts), with PGlite's compiled WebAssembly and the snapshot already at hand.
 */
function serve(first: HostOptions, send: (message: HostMessage) => void, onMessage: (handler: (message: ServerMessage) => void) => void): Promise<Hosted> {
  const start = (options: HostOptions) => {
    const hosted = host(options, send);
    hosted.then(() => send({ type: 'ready' }), fail(send));
    return hosted;
  };
  let current = start(first);
  onMessage((message) => {
    if (message.type === 'open') current = start(message.options);
    if (message.type === 'copy') {
      current
        .then((hosted) => hosted.copy(message.target))
        .then(
          ({ pausedMs }) => send({ type: 'copied', pausedMs }),
          (error: Error) => send({ type: 'copied', error: error.message }),
        );
    }
    if (message.type === 'close') {
      current
        .then((hosted) => hosted.close())
        .then(
          () => send({ type: 'closed' }),
          (error: Error) => send({ type: 'closed', error: error.message }),
        );
    }
  });
  return current;
}

/**
 * Copies PGlite's files as they are at one instant, as if the process had been killed then: a
 * start from the copy replays the write-ahead log and has every transaction committed before that
 * instant, none after. PGlite's own dumpDataDir does the same into memory, with every statement
 * waiting throughout; photos make the database large, so this copies on the disk, in two passes:
 * first while the database runs on, then, under PGlite's own lock (the socket server runs every
 * message under it, so no statement runs meanwhile), again every file changed since the first
 * pass began, and away every file removed since. Statements wait only for that second pass.
 */
async function copyAtOneInstant(pglite: PGlite, pgdata: string, target: string): Promise<{ pausedMs: number }> {
  // File times come from a coarse clock (a few ms behind): a margin keeps a write at the start from looking older.
  const since = Date.now() - 2_000;
  await copyTree(pgdata, target, () => true);
  return pglite.runExclusive(async () => {
    const paused = performance.now();
    await copyTree(pgdata, target, (source, copied) => !copied || source.mtimeMs >= since || source.size !== copied.size);
    await removeMissing(pgdata, target);
    return { pausedMs: performance.now() - paused };
  });
}

/** Copies the files `wanted` says of `from` into `to` (reflinked where the file system can); a file gone meanwhile is skipped. */
async function copyTree(from: string, to: string, wanted: (source: fs.Stats, copied: fs.Stats | undefined) => boolean) {
  await fs.promises.mkdir(to, { recursive: true });
  for (const entry of (await fs.promises.readdir(from, { withFileTypes: true }).catch(gone)) ?? []) {
    const source = path.join(from, entry.name);
    const copy = path.join(to, entry.name);
    if (entry.isDirectory()) {
      await copyTree(source, copy, wanted);
      continue;
    }
    const [sourceStat, copiedStat] = await Promise.all([fs.promises.stat(source).catch(gone), fs.promises.stat(copy).catch(gone)]);
    if (sourceStat && wanted(sourceStat, copiedStat)) await fs.promises.copyFile(source, copy, fs.constants.COPYFILE_FICLONE).catch(gone);
  }
}

/** Removes from `to` what `from` no longer has (a dropped table's file, a recycled log segment). */
async function removeMissing(from: string, to: string) {
  for (const entry of await fs.promises.readdir(to, { withFileTypes: true })) {
    const source = path.join(from, entry.name);
    if (!fs.existsSync(source)) await fs.promises.rm(path.join(to, entry.name), { recursive: true, force: true });
    else if (entry.isDirectory()) await removeMissing(source, path.join(to, entry.name));
  }
}

function gone(error: NodeJS.ErrnoException): undefined {
  if (error.code === 'ENOENT') return undefined;
  throw error;
}

/** Node's WebAssembly global, which this project's TypeScript libraries (no DOM) declare as types only. */
const wasm = (globalThis as unknown as { WebAssembly: { compileStreaming(source: Response): Promise<WebAssembly.Module> } }).WebAssembly;

let compiled: Promise<WebAssembly.Module> | undefined;

/**
 * PGlite's WebAssembly, compiled as it streams from its file, once per thread or process. PGlite on
 * its own reads the whole file (9 MB) into a buffer first, which then waits, resident, for a
 * garbage collection that an idle thread may not run for a long time.
 */
function compilePglite(): Promise<WebAssembly.Module> {
  compiled ??= (async () => {
    const file = path.join(path.dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite')), 'pglite.wasm');
    const body = (await fs.openAsBlob(file)).stream();
    return wasm.compileStreaming(new Response(body, { headers: { 'content-type': 'application/wasm' } }));
  })();
  return compiled;
}

/** The snapshots' bytes by file, read once per thread: a file is written whole under a name of its own (test/database-templates.ts). */
const snapshots = new Map<string, ArrayBuffer>();

/**
 * A snapshot tarball for PGlite to load. PGlite reads it with `arrayBuffer()` and only copies out of
 * it; a Blob made of the file's bytes would copy all 40 MB in and out again through a stream (half a
 * second of CPU per database on two cores).
 */
function snapshotBlob(file: string): Blob {
  let bytes = snapshots.get(file);
  if (!bytes) {
    const buffer = fs.readFileSync(file);
    bytes = buffer.buffer.slice(buffer.byteOffset, buffer.byteOffset + buffer.byteLength) as ArrayBuffer;
    snapshots.set(file, bytes);
  }
  return new LoadedBlob(bytes);
}

/** Bytes already in memory, read the way PGlite reads a Blob, without a copy. */
class LoadedBlob extends Blob {
  readonly #bytes: ArrayBuffer;
  constructor(bytes: ArrayBuffer) {
    super([]);
    this.#bytes = bytes;
  }
  override arrayBuffer(): Promise<ArrayBuffer> {
    return Promise.resolve(this.#bytes);
  }
}

function fail(send: (message: HostMessage) => void) {
  return (error: Error) => send({ type: 'failed', error: error.stack ?? error.message });
}

if (!isMainThread && parentPort) {
  const port = parentPort;
  serve(workerData as HostOptions, (message) => port.postMessage(message), (handler) => port.on('message', handler));
} else if (process.send) {
  // Once the server is gone there is no one to tell (a send then would be an uncaught error).
  const send = (message: HostMessage) => void (process.connected && process.send?.(message));
  const options = JSON.parse(process.env.SITEBOARD_EMBEDDED_HOST ?? '{}') as HostOptions;
  serve(options, send, (handler) => process.on('message', handler)).then(
    (hosted) => {
      // The server that started this process is gone (even by kill -9): flush and stop too.
      process.on('disconnect', () => void hosted.close().finally(() => process.exit(0)));
      // Signals are the server's to handle: it asks this process to close in its own order.
      process.on('SIGINT', () => {});
      process.on('SIGTERM', () => {});
    },
    () => process.exit(1),
  );
}
