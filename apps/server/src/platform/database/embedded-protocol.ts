/** What the server tells the embedded database host at start (as workerData, or in the environment of a child). */
export interface HostOptions {
  /** PGlite's data lives in `<dataDir>/pgdata`; null keeps it in memory (tests). */
  dataDir: string | null;
  /** The Unix socket the host serves the PostgreSQL protocol on. */
  socketPath: string;
  /**
   * In memory only: a data directory tarball (PGlite's dumpDataDir) to start from instead of an
   * empty cluster. Tests start every database from one migrated snapshot.
   */
  snapshot?: string;
}

/** `log`: something the host's socket server has to say (a connection it ended, its own failure), for the server's log. */
export type HostMessage =
  | { type: 'ready' }
  | { type: 'closed'; error?: string }
  | { type: 'failed'; error: string }
  | { type: 'copied'; error?: string; pausedMs?: number }
  | { type: 'log'; level: HostLogLevel; message: string };

export type HostLogLevel = 'warn' | 'error';
/**
 * `copy`: copy the data directory's files to `target` as they are at one instant (an online backup).
 * `open`: after `closed`, host another database in the same thread (tests' in-memory databases).
 */
export type ServerMessage = { type: 'close' } | { type: 'copy'; target: string } | { type: 'open'; options: HostOptions };

/**
 * Settings for PGlite's PostgreSQL: the same generic plans as on PostgreSQL (decision record 005),
 * and shared buffers of 32 MB instead of 128 MB. PGlite's WebAssembly memory never shrinks, and
 * the buffers fill with what the first big reads touch; pages past them come from the operating
 * system's file cache (decision record 016 has the measurements).
 */
export const EMBEDDED_START_PARAMS = ['-c', 'plan_cache_mode=force_generic_plan', '-c', 'shared_buffers=32MB'];
