import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { EMBEDDED_START_PARAMS, type HostMessage, type HostOptions, type ServerMessage } from './embedded-protocol';

/**
 * The embedded database's own thread (a worker) or process (a child): PGlite behind its
 * PostgreSQL wire-protocol server on a Unix socket, so that the server's event loop never runs a
 * query itself and talks to it the way it talks to PostgreSQL (decision record 015).
 */
async function host(options: HostOptions, send: (message: HostMessage) => void, onMessage: (handler: (message: ServerMessage) => void) => void) {
  const pglite = await PGlite.create(options.dataDir ? path.join(options.dataDir, 'pgdata') : undefined, {
    pgliteWasmModule: await compilePglite(),
    startParams: [...PGlite.defaultStartParams, ...EMBEDDED_START_PARAMS],
    loadDataDir: options.snapshot && !options.dataDir ? new Blob([fs.readFileSync(options.snapshot)]) : undefined,
  });
  // The server's pool holds one connection, but node-postgres ends a connection whose query
  // failed (pg-pool's query() releases it with the error) and opens the next one at once: a second
  // slot lets that replacement in while the socket server is still closing the old one.
  const server = new PGLiteSocketServer({ db: pglite, path: options.socketPath, maxConnections: 2 });
  await server.start();

  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      await server.stop();
      // A clean shutdown leaves nothing to replay at the next start.
      await pglite.exec('CHECKPOINT');
      await pglite.close();
    })());

  onMessage((message) => {
    if (message.type === 'close') {
      close().then(
        () => send({ type: 'closed' }),
        (error: Error) => send({ type: 'closed', error: error.message }),
      );
    }
  });
  send({ type: 'ready' });
  return close;
}

/** Node's WebAssembly global, which this project's TypeScript libraries (no DOM) declare as types only. */
const wasm = (globalThis as unknown as { WebAssembly: { compileStreaming(source: Response): Promise<WebAssembly.Module> } }).WebAssembly;

/**
 * PGlite's WebAssembly, compiled as it streams from its file. PGlite on its own reads the whole
 * file (9 MB) into a buffer first, which then waits, resident, for a garbage collection that an
 * idle thread may not run for a long time.
 */
async function compilePglite(): Promise<WebAssembly.Module> {
  const file = path.join(path.dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite')), 'pglite.wasm');
  const body = (await fs.openAsBlob(file)).stream();
  return wasm.compileStreaming(new Response(body, { headers: { 'content-type': 'application/wasm' } }));
}

function fail(send: (message: HostMessage) => void) {
  return (error: Error) => send({ type: 'failed', error: error.stack ?? error.message });
}

if (!isMainThread && parentPort) {
  const port = parentPort;
  const send = (message: HostMessage) => port.postMessage(message);
  host(workerData as HostOptions, send, (handler) => port.on('message', handler)).catch(fail(send));
} else if (process.send) {
  const send = (message: HostMessage) => process.send?.(message);
  const options = JSON.parse(process.env.SITEBOARD_EMBEDDED_HOST ?? '{}') as HostOptions;
  host(options, send, (handler) => process.on('message', handler)).then(
    (close) => {
      // The server that started this process is gone (even by kill -9): flush and stop too.
      process.on('disconnect', () => void close().finally(() => process.exit(0)));
      // Signals are the server's to handle: it asks this process to close in its own order.
      process.on('SIGINT', () => {});
      process.on('SIGTERM', () => {});
    },
    (error: Error) => {
      fail(send)(error);
      process.exit(1);
    },
  );
}
