import type pg from 'pg';

/**
 * PGlite is PostgreSQL in single-user mode: it has no autovacuum. Without it a table's statistics
 * stay whatever its last ANALYZE saw, and nothing ever tells the session to plan again: a generic
 * plan made while a table was empty (decision record 005 makes every plan generic, and the
 * foreign-key checks keep theirs for the session's life) goes on scanning the whole table as it
 * grows, so each insert costs more than the last (decision record 015, "Embedded autovacuum").
 * Dead rows are never reclaimed either, and index-only scans find no visibility map.
 *
 * This does autovacuum's work on the embedded database's one session, by PostgreSQL's own rules
 * and settings (autovacuum_*_threshold / *_scale_factor / freeze_max_age): every `intervalMs` it
 * reads pg_stat_user_tables and runs VACUUM and/or ANALYZE on the tables past their thresholds.
 * ANALYZE also invalidates the cached plans of the tables it analyzes, so they are planned again
 * with what the table now holds. It goes through the pool like any query, so it never runs inside
 * a request's transaction; while it runs, requests wait, as for any other statement.
 *
 * On a big table a VACUUM or ANALYZE holds the session for seconds (2.1 and 2.7 s under the mixed
 * load on the large data), so there it waits for a quiet moment, as long as `maxPostponeMs`
 * at most: a crew's tap then does not freeze behind it, and under load without a pause it still
 * runs. A big table's statistics change slowly, so no plan turns stale meanwhile; the small and
 * growing tables whose plans decision record 015 is about (and a table never analyzed) are
 * maintained as soon as they need it.
 */
export interface EmbeddedMaintenance {
  /** Stops the timer and waits for the round in progress. */
  stop(): Promise<void>;
}

export interface MaintenanceRound {
  /** The statements run, e.g. `analyze "public"."subtasks"`. */
  statements: string[];
  ms: number;
}

export const MAINTENANCE_INTERVAL_MS = 2_000;
/** Tables above this many rows wait for a quiet moment. */
export const BIG_TABLE_ROWS = 20_000;
/** How long no request may have used the database for a moment to be quiet. */
export const QUIET_MS = 1_000;
/** The longest a big table's maintenance waits for a quiet moment before it runs all the same. */
export const MAX_POSTPONE_MS = 10 * 60_000;

/**
 * PostgreSQL's relation_needs_vacanalyze (autovacuum.c), per-table storage options aside: a table
 * needs VACUUM past autovacuum_vacuum_threshold + scale × its rows dead, or as many inserted since
 * the last (the insert thresholds), or when its oldest transaction id is older than
 * autovacuum_freeze_max_age; it needs ANALYZE past autovacuum_analyze_threshold + scale × its rows
 * modified. A table never analyzed (reltuples < 0) is analyzed once: the counters start at zero
 * with every start of PGlite, which keeps no statistics across restarts.
 */
const CANDIDATES = `
  with settings as (
    select current_setting('autovacuum_vacuum_threshold')::float8 as vacuum_base,
           current_setting('autovacuum_vacuum_scale_factor')::float8 as vacuum_scale,
           current_setting('autovacuum_vacuum_insert_threshold')::float8 as insert_base,
           current_setting('autovacuum_vacuum_insert_scale_factor')::float8 as insert_scale,
           current_setting('autovacuum_analyze_threshold')::float8 as analyze_base,
           current_setting('autovacuum_analyze_scale_factor')::float8 as analyze_scale,
           current_setting('autovacuum_freeze_max_age')::float8 as freeze_max_age
  )
  select format('%I.%I', s.schemaname, s.relname) as name,
         (s.n_dead_tup > vacuum_base + vacuum_scale * greatest(c.reltuples, 0)
           or (insert_base >= 0 and s.n_ins_since_vacuum > insert_base + insert_scale * greatest(c.reltuples, 0))
           or age(c.relfrozenxid) > freeze_max_age) as vacuum,
         (c.reltuples < 0 or s.n_mod_since_analyze > analyze_base + analyze_scale * greatest(c.reltuples, 0)) as analyze,
         c.reltuples::float8 as rows
  from pg_stat_user_tables s
  join pg_class c on c.oid = s.relid
  cross join settings
  where c.relkind = 'r'
  order by s.relid`;

export function startEmbeddedMaintenance(
  pool: pg.Pool,
  options: {
    intervalMs?: number;
    bigTableRows?: number;
    quietMs?: number;
    maxPostponeMs?: number;
    /** Each round that found work. */
    onRound?: (round: MaintenanceRound) => void;
    /** Each round that looked at the tables, whether or not it found work: what a test waits for instead of a fixed time. */
    onLooked?: () => void;
    onError?: (error: Error) => void;
  } = {},
): EmbeddedMaintenance {
  const intervalMs = options.intervalMs ?? MAINTENANCE_INTERVAL_MS;
  const bigTableRows = options.bigTableRows ?? BIG_TABLE_ROWS;
  const quietMs = options.quietMs ?? QUIET_MS;
  const maxPostponeMs = options.maxPostponeMs ?? MAX_POSTPONE_MS;
  let running: Promise<unknown> | undefined;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;

  /** When anyone but this maintenance last took the connection, and how many times anyone did. */
  let lastBusy = performance.now();
  let acquired = 0;
  const noteBusy = () => {
    acquired++;
    lastBusy = performance.now();
  };
  pool.on('acquire', noteBusy);
  const quiet = () => pool.waitingCount === 0 && performance.now() - lastBusy >= quietMs;
  /** Since when each big table has needed maintenance that waits for a quiet moment. */
  const waitingSince = new Map<string, number>();

  async function round(): Promise<MaintenanceRound> {
    const started = performance.now();
    const statements: string[] = [];
    const own = async <R extends pg.QueryResultRow>(text: string) => {
      const [acquiredBefore, busyBefore] = [acquired, lastBusy];
      const result = await pool.query<R>(text);
      // One connection handed out since was this query's; if no one else took one, it was not busy.
      if (acquired - acquiredBefore <= 1) lastBusy = busyBefore;
      return result;
    };
    const wasQuiet = quiet();
    const { rows } = await own<{ name: string; vacuum: boolean; analyze: boolean; rows: number }>(CANDIDATES);
    for (const row of rows) {
      if (stopped) break;
      const statement = row.vacuum ? `vacuum${row.analyze ? ' (analyze)' : ''} ${row.name}` : row.analyze ? `analyze ${row.name}` : undefined;
      if (!statement) {
        waitingSince.delete(row.name);
        continue;
      }
      if (row.rows > bigTableRows) {
        const since = waitingSince.get(row.name) ?? started;
        waitingSince.set(row.name, since);
        if (!(wasQuiet && quiet()) && started - since < maxPostponeMs) continue;
      }
      await own(statement);
      waitingSince.delete(row.name);
      statements.push(statement);
    }
    return { statements, ms: performance.now() - started };
  }

  function schedule() {
    if (stopped) return;
    timer = setTimeout(() => {
      running = round()
        .then(
          (done) => {
            options.onLooked?.();
            if (done.statements.length > 0) options.onRound?.(done);
          },
          (error: Error) => {
            if (!stopped) options.onError?.(error);
          },
        )
        .finally(() => {
          running = undefined;
          schedule();
        });
    }, intervalMs);
    timer.unref();
  }
  schedule();

  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      pool.off('acquire', noteBusy);
      await running?.catch(() => undefined);
    },
  };
}
