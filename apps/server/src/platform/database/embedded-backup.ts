import fs from 'node:fs';
import { createRequire } from 'node:module';
import net from 'node:net';
import path from 'node:path';
import { PassThrough, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { DataDirLockedError, lockDataDir } from './data-dir-lock';
import type { Database } from './client';
import { migrationsFolder } from './embedded-template';

/** tar loads with the first backup or restore, not with every server that might take one. */
const loadTar = () => import('tar');

/**
 * Backups of the embedded database, taken while the server runs. A backup is one gzipped tar of
 * the data directory as it matters: PGlite's files (`pgdata/`, photos included: they are rows),
 * the generated JWT secret (so sessions and calendar feeds stay valid after a restore) and any
 * other file the server keeps there, plus `siteboard-backup.json` saying what made it.
 *
 * The running server holds the data directory (one process per directory), so the backup command
 * asks it, over a Unix socket in the directory that only its owner can open: the server has the
 * database's thread copy its files as they are at one instant (embedded-host.ts, `copyAtOneInstant`)
 * into a folder beside them, then streams the archive of that copy. With no server running, the command takes the
 * directory's lock itself and packs it as it is.
 */

/** The control socket's name in the data directory (the path must stay under ~100 bytes, a Unix socket's limit). */
export const BACKUP_SOCKET = 'siteboard.sock';
const MANIFEST = 'siteboard-backup.json';
/** What never goes into a backup: the lock, the socket, and copies in progress. */
const isTransient = (name: string) => name === 'siteboard.lock' || name === BACKUP_SOCKET || name.endsWith('.partial');

interface Manifest {
  format: 1;
  createdAt: string;
  /** PGlite's version: its files are read by the same PostgreSQL major version only. */
  pglite: string;
  /** The newest migration the backed-up database has. */
  migration: string;
  /** Taken from a running server (a copy at one instant) or from a stopped data directory. */
  taken: 'online' | 'offline';
}

export interface BackupSummary {
  taken: Manifest['taken'];
  bytes: number;
  files: number;
  ms: number;
}

function pgliteVersion(): string {
  const require = createRequire(import.meta.url);
  const entry = require.resolve('@electric-sql/pglite');
  const packageJson = path.join(entry.slice(0, entry.lastIndexOf(`${path.sep}dist${path.sep}`)), 'package.json');
  return (JSON.parse(fs.readFileSync(packageJson, 'utf8')) as { version: string }).version;
}

function newestMigration(): string {
  const journal = JSON.parse(fs.readFileSync(path.join(migrationsFolder, 'meta', '_journal.json'), 'utf8')) as { entries: { tag: string }[] };
  return journal.entries.at(-1)!.tag;
}

function manifest(taken: Manifest['taken']): string {
  return JSON.stringify({ format: 1, createdAt: new Date().toISOString(), pglite: pgliteVersion(), migration: newestMigration(), taken } satisfies Manifest, null, 2);
}

/**
 * A gzipped tar of `names` in `dir`, written to `out`. The fastest gzip level: a data directory is
 * mostly empty pages, which any level squeezes (the demo data's 40 MB to 4.9 MB at level 6, 5.6 MB at level 1),
 * and photos do not compress at all; level 1 took 141 ms of CPU there against 368 ms.
 */
async function pack(dir: string, names: string[], out: Writable) {
  const tar = await loadTar();
  await pipeline(tar.c({ gzip: { level: 1 }, cwd: dir, portable: true }, names), out);
}

/**
 * The server's side: answers `backup` on the data directory's control socket with `OK`, then the
 * archive, or `ERROR <why>`. One backup at a time; the copy is removed once sent (or failed).
 */
export async function serveEmbeddedBackups(database: Database, log: { info(message: string): void; error(message: string): void }) {
  const { dataDir, copyFiles } = database.files ?? {};
  if (!dataDir || !copyFiles) return { close: async () => {} };
  const socketPath = path.join(dataDir, BACKUP_SOCKET);
  // The directory is ours (its lock is held): a socket file left there is a killed server's.
  fs.rmSync(socketPath, { force: true });
  removeStaleCopies(dataDir);
  let running = false;
  const server = net.createServer((socket) => {
    let request = '';
    const onRequest = (chunk: Buffer) => {
      request += String(chunk);
      if (!request.includes('\n')) return void (request.length > 64 && socket.end('ERROR unknown request\n'));
      socket.off('data', onRequest);
      if (request.trim() !== 'backup') return void socket.end('ERROR unknown request\n');
      if (running) return void socket.end('ERROR a backup is already being taken\n');
      running = true;
      const staging = path.join(dataDir, `backup-${process.pid}-${Date.now()}.partial`);
      (async () => {
        const started = performance.now();
        fs.mkdirSync(staging);
        const { pausedMs } = await copyFiles(path.join(staging, 'pgdata'));
        log.info(`backup: the database's files were copied in ${Math.round(performance.now() - started)} ms; statements waited ${Math.round(pausedMs)} ms of it`);
        for (const name of fs.readdirSync(dataDir)) {
          if (name !== 'pgdata' && !isTransient(name)) fs.cpSync(path.join(dataDir, name), path.join(staging, name), { recursive: true });
        }
        fs.writeFileSync(path.join(staging, MANIFEST), manifest('online'));
        socket.write('OK\n');
        await pack(staging, fs.readdirSync(staging), socket);
      })()
        .catch((error: Error) => {
          log.error(`backup failed: ${error.message}`);
          if (socket.bytesWritten === 0) socket.end(`ERROR ${error.message}\n`);
          // Mid-archive: cut off, so the command sees an incomplete archive, never a short one that looks whole.
          else socket.destroy();
        })
        .finally(() => {
          running = false;
          fs.rmSync(staging, { recursive: true, force: true });
        });
    };
    socket.on('data', onRequest);
    socket.on('error', () => {});
  });
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(socketPath, resolve);
    });
  } catch (error) {
    log.error(`Online backups are off: the control socket ${socketPath} could not be opened (${(error as Error).message}).`);
    return { close: async () => {} };
  }
  // Only the server's own user may ask it for the database.
  fs.chmodSync(socketPath, 0o600);
  return {
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        fs.rmSync(socketPath, { force: true });
      }),
  };
}

/**
 * The backup command's side: writes the archive to `file` (through `file.partial`, renamed once
 * the whole archive has arrived and was read back as a complete tar with a database in it).
 */
export async function backupEmbedded(dataDir: string, file: string): Promise<BackupSummary> {
  const started = performance.now();
  const partial = `${file}.partial`;
  let release: (() => void) | undefined;
  try {
    let taken: Manifest['taken'];
    let archive: NodeJS.ReadableStream;
    try {
      release = lockDataDir(dataDir);
    } catch (error) {
      if (!(error instanceof DataDirLockedError)) throw error;
    }
    if (release) {
      if (!fs.existsSync(path.join(dataDir, 'pgdata', 'PG_VERSION'))) throw new Error(`${dataDir} holds no SiteBoard database.`);
      // Nothing runs on the directory (its lock is ours now): its files are the database.
      taken = 'offline';
      fs.writeFileSync(path.join(dataDir, MANIFEST), manifest('offline'));
      const out = new PassThrough();
      const names = fs.readdirSync(dataDir).filter((name) => !isTransient(name));
      void pack(dataDir, names, out)
        .catch((error: Error) => out.destroy(error))
        .finally(() => fs.rmSync(path.join(dataDir, MANIFEST), { force: true }));
      archive = out;
    } else {
      taken = 'online';
      archive = await askServer(path.join(dataDir, BACKUP_SOCKET));
    }
    const { files, bytes } = await writeChecked(archive, partial);
    fs.renameSync(partial, file);
    return { taken, bytes, files, ms: performance.now() - started };
  } catch (error) {
    fs.rmSync(partial, { force: true });
    throw error;
  } finally {
    release?.();
  }
}

/** Whether a process with this id runs (one of another user answers EPERM: it runs). */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Copies a killed process left in the data directory: a backup's staging folder (`backup-<pid>-…`,
 * the server's) or an export's copy (`snapshot-<pid>-…`, the command's), each named by the process
 * that made it and removed only once that process is gone (an export may be reading its copy).
 */
function removeStaleCopies(dataDir: string) {
  for (const name of fs.readdirSync(dataDir)) {
    const maker = /^(?:backup|snapshot)-(\d+)-\d+\.partial$/.exec(name);
    if (maker && !isRunning(Number(maker[1]))) fs.rmSync(path.join(dataDir, name), { recursive: true, force: true });
  }
}

/**
 * A copy of the embedded database as the running server holds it now, for an operator's command
 * that only reads (a company's export) and must not stop the server: a backup through the
 * server's control socket (it goes on serving), restored beside the data directory in a
 * `.partial` folder that no backup takes. `remove` deletes the copy; the command calls it when done.
 */
export async function snapshotOfRunningServer(dataDir: string): Promise<{ dataDir: string; remove(): void }> {
  const staging = path.join(dataDir, `snapshot-${process.pid}-${Date.now()}.partial`);
  const remove = () => fs.rmSync(staging, { recursive: true, force: true });
  try {
    fs.mkdirSync(staging, { mode: 0o700 });
    const file = path.join(staging, 'backup.tar.gz');
    await backupEmbedded(dataDir, file);
    const copy = path.join(staging, 'data');
    await restoreEmbedded(copy, file);
    fs.rmSync(file);
    return { dataDir: copy, remove };
  } catch (error) {
    remove();
    throw error;
  }
}

/** The running server's answer to `backup`: the archive's bytes after its `OK` line. */
function askServer(socketPath: string): Promise<NodeJS.ReadableStream> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(socketPath);
    const archive = new PassThrough();
    let head = Buffer.alloc(0);
    const onData = (chunk: Buffer) => {
      head = Buffer.concat([head, chunk]);
      const newline = head.indexOf('\n');
      if (newline < 0) return;
      socket.off('data', onData);
      const status = head.subarray(0, newline).toString();
      if (status !== 'OK') return void reject(new Error(`The server refused the backup: ${status.replace(/^ERROR /, '')}`));
      archive.write(head.subarray(newline + 1));
      socket.pipe(archive);
      socket.once('close', (hadError) => {
        if (hadError || !socket.readableEnded) archive.destroy(new Error('The server stopped sending the backup before its end.'));
      });
      resolve(archive);
    };
    socket.on('data', onData);
    socket.once('error', (error) =>
      reject(new Error(`The data directory is in use by a running server, which did not answer on ${socketPath} (${error.message}). Is it an older SiteBoard?`)),
    );
    socket.once('connect', () => socket.write('backup\n'));
  });
}

/** Writes the archive to `file` while reading it back as a tar: its entries, and whether it has a database and a manifest. */
async function writeChecked(archive: NodeJS.ReadableStream, file: string) {
  const names = new Set<string>();
  const tar = await loadTar();
  // Strict: a truncated or corrupt archive is an error, not a warning.
  const lister = tar.t({ strict: true, onReadEntry: (entry) => names.add(entry.path) });
  const listed = new Promise<void>((resolve, reject) => {
    lister.on('end', resolve);
    lister.on('error', reject);
  });
  // The whole database, password hashes and the JWT secret among it: for its owner's eyes only.
  const toFile = fs.createWriteStream(file, { mode: 0o600 });
  let bytes = 0;
  archive.on('data', (chunk: Buffer) => (bytes += chunk.length));
  archive.pipe(lister);
  await Promise.all([pipeline(archive, toFile), listed]);
  if (!names.has(MANIFEST) || !names.has('pgdata/PG_VERSION')) throw new Error('The backup is incomplete: it has no database in it.');
  return { files: [...names].filter((name) => !name.endsWith('/')).length, bytes };
}

export interface RestoreSummary {
  manifest: Manifest;
  files: number;
  /** Set when the backup was made with another PGlite than this SiteBoard's. */
  warning?: string;
}

/**
 * Restores an archive into an empty (or missing) data directory, under its lock, so no server
 * starts on it half restored: it is unpacked beside and moved into place once whole.
 */
export async function restoreEmbedded(dataDir: string, file: string): Promise<RestoreSummary> {
  if (!fs.existsSync(file)) throw new Error(`There is no backup at ${file}.`);
  if (fs.existsSync(dataDir) && fs.readdirSync(dataDir).length > 0) {
    throw new Error(`The data directory ${dataDir} is not empty: restore into an empty one (or move this one away first).`);
  }
  const release = lockDataDir(dataDir);
  const unpacked = path.join(dataDir, 'restore.partial');
  try {
    fs.mkdirSync(unpacked);
    let files = 0;
    const tar = await loadTar();
    await tar.x({ file, cwd: unpacked, strict: true, onReadEntry: (entry) => entry.type === 'File' && files++ });
    const manifestFile = path.join(unpacked, MANIFEST);
    if (!fs.existsSync(manifestFile) || !fs.existsSync(path.join(unpacked, 'pgdata', 'PG_VERSION'))) throw new Error(`${file} is not a SiteBoard backup: it has no database in it.`);
    const read = JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as Manifest;
    fs.rmSync(manifestFile);
    for (const name of fs.readdirSync(unpacked)) fs.renameSync(path.join(unpacked, name), path.join(dataDir, name));
    const installed = pgliteVersion();
    const warning = read.pglite.split('.').slice(0, 2).join('.') === installed.split('.').slice(0, 2).join('.') ? undefined : `The backup was made with PGlite ${read.pglite}; this SiteBoard has PGlite ${installed}. If it does not start, restore it with the SiteBoard version that made it.`;
    return { manifest: read, files, warning };
  } finally {
    fs.rmSync(unpacked, { recursive: true, force: true });
    release();
  }
}
