import { fork, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { entryFile } from '../paths';
import type { HostMessage, HostOptions, ServerMessage } from './embedded-protocol';
import { consoleLog, type DatabaseLog } from './statements';

export type EmbeddedHostKind = 'thread' | 'process';

export interface EmbeddedHost {
  /** The folder holding the Unix socket: node-postgres connects with `host` set to it. */
  socketDir: string;
  /** Copies the data directory's database files to `target` (a new folder) as they are at one instant, while it runs on; answers how long statements waited. */
  copyFiles(target: string): Promise<{ pausedMs: number }>;
  /** Checkpoints, closes PGlite and ends the thread or process; safe to call twice. */
  close(): Promise<void>;
}

/** PostgreSQL's socket name for port 5432, as node-postgres derives it from `host` and `port`. */
const SOCKET_NAME = '.s.PGSQL.5432';

/** The host's file (platform/paths.ts, `entryFile`): tests name their compiled copy in SITEBOARD_EMBEDDED_HOST_FILE. */
const hostEntry = () => entryFile(import.meta.url, { source: 'embedded-host.ts', compiled: 'embedded-host', env: 'SITEBOARD_EMBEDDED_HOST_FILE' });

/** Whether the data directory holds a database already (else the first start creates it). */
export function embeddedDatabaseExists(dataDir: string): boolean {
  return fs.existsSync(path.join(dataDir, 'pgdata', 'PG_VERSION'));
}

/**
 * Threads of in-memory databases that were closed, kept for the next one this process opens
 * (`keepThread`: tests open one or more per test file, each a fresh database from the snapshot):
 * a kept thread starts it without starting a thread, loading PGlite's code and compiling its
 * WebAssembly again (0.5 s of CPU each, out of 2.7 s for a whole start).
 */
const idleThreads: ThreadChannel[] = [];

/** Starts PGlite on its own thread or in its own process and waits until it accepts connections. */
export async function startEmbeddedHost(
  dataDir: string | null,
  kind: EmbeddedHostKind,
  snapshot?: string,
  { keepThread = false, log = consoleLog }: { keepThread?: boolean; log?: DatabaseLog } = {},
): Promise<EmbeddedHost> {
  // A private folder: the socket accepts any local connection that can reach it, without a password.
  const socketDir = fs.mkdtempSync(path.join(os.tmpdir(), 'siteboard-db-'));
  fs.chmodSync(socketDir, 0o700);
  const options: HostOptions = { dataDir, socketPath: path.join(socketDir, SOCKET_NAME), snapshot };
  const keep = keepThread && kind === 'thread' && dataDir === null;
  const idle = keep ? idleThreads.pop() : undefined;
  let channel: Channel;
  let thread: ThreadChannel | undefined;
  if (idle) {
    channel = thread = idle;
    idle.ref();
    idle.post({ type: 'open', options });
  } else {
    const entry = hostEntry();
    channel = kind === 'thread' ? (thread = threadChannel(entry, options)) : processChannel(entry, options);
  }
  // The host's socket server reports to this database's log (a kept thread serves the next one's).
  const stopReporting = channel.on((message) => {
    if (message.type === 'log') log[message.level]({ embedded: true }, message.message);
  });
  try {
    await channel.next('ready');
  } catch (error) {
    stopReporting();
    await channel.kill();
    fs.rmSync(socketDir, { recursive: true, force: true });
    throw error;
  }
  const kept = keep ? thread : undefined;
  let closing: Promise<void> | undefined;
  let copying: Promise<unknown> = Promise.resolve();
  return {
    socketDir,
    copyFiles(target) {
      // One copy at a time: the host answers each with one `copied`.
      const copied = copying.then(async () => {
        const answer = channel.next('copied');
        channel.post({ type: 'copy', target });
        const message = await answer;
        return { pausedMs: message.type === 'copied' ? (message.pausedMs ?? 0) : 0 };
      });
      copying = copied.catch(() => {});
      return copied;
    },
    close: () =>
      (closing ??= (async () => {
        let closed = false;
        try {
          channel.post({ type: 'close' });
          await channel.next('closed');
          closed = true;
        } finally {
          stopReporting();
          if (kept && closed) {
            kept.unref();
            idleThreads.push(kept);
          } else {
            await channel.kill();
          }
          fs.rmSync(socketDir, { recursive: true, force: true });
        }
      })()),
  };
}

interface Channel {
  post(message: ServerMessage): void;
  /** Calls `listener` with each of the host's messages until the answered function is called. */
  on(listener: (message: HostMessage) => void): () => void;
  /** Resolves with the host's next message of this type; rejects if the host fails or ends first. */
  next(type: 'ready' | 'closed' | 'copied'): Promise<HostMessage>;
  kill(): Promise<void>;
}

interface ThreadChannel extends Channel {
  /** Whether the thread keeps the process alive (a kept thread, idle, does not). */
  ref(): void;
  unref(): void;
}

function waiter(on: (listener: (message: HostMessage) => void) => () => void, ended: Promise<string>) {
  return (type: 'ready' | 'closed' | 'copied') =>
    new Promise<HostMessage>((resolve, reject) => {
      const stop = on((message) => {
        if (message.type === 'failed' || (message.type === type && 'error' in message && message.error)) {
          stop();
          reject(new Error(`The embedded database failed: ${message.error}`));
        } else if (message.type === type) {
          stop();
          resolve(message);
        }
      });
      ended.then((why) => {
        stop();
        reject(new Error(`The embedded database stopped: ${why}`));
      });
    });
}

function threadChannel(entry: { file: string; execArgv: string[] }, options: HostOptions): ThreadChannel {
  // A worker does not inherit the --import of its process (nor vitest's transform): it registers tsx itself.
  const worker =
    entry.execArgv.length > 0
      ? new Worker(`import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(pathToFileURL(entry.file).href)}); })`, { eval: true, workerData: options })
      : new Worker(entry.file, { workerData: options });
  const ended = new Promise<string>((resolve) => {
    worker.once('error', (error) => resolve(error.stack ?? error.message));
    worker.once('exit', (code) => resolve(`its thread exited with code ${code}`));
  });
  const on = (listener: (message: HostMessage) => void) => {
    worker.on('message', listener);
    return () => void worker.off('message', listener);
  };
  return {
    post: (message) => worker.postMessage(message),
    on,
    next: waiter(on, ended),
    kill: async () => {
      await worker.terminate();
    },
    ref: () => worker.ref(),
    unref: () => worker.unref(),
  };
}

function processChannel(entry: { file: string; execArgv: string[] }, options: HostOptions): Channel {
  const child: ChildProcess = fork(entry.file, [], {
    execArgv: entry.execArgv,
    env: { ...process.env, SITEBOARD_EMBEDDED_HOST: JSON.stringify(options) },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const ended = exited.then(() => `its process exited with code ${child.exitCode ?? child.signalCode}`);
  const on = (listener: (message: HostMessage) => void) => {
    child.on('message', listener);
    return () => void child.off('message', listener);
  };
  return {
    post: (message) => child.send(message),
    on,
    next: waiter(on, ended),
    kill: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        child.disconnect();
        await exited;
      }
    },
  };
}
