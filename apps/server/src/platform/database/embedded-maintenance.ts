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
         (c.reltuples < 0 or s.n_mod_since_analyze > analyze_base + analyze_scale * greatest(c.reltuples, 0)) as analyze
  from pg_stat_user_tables s
  join pg_class c on c.oid = s.relid
  cross join settings
  where c.relkind = 'r'
  order by s.relid`;

export function startEmbeddedMaintenance(
  pool: pg.Pool,
  options: { intervalMs?: number; onRound?: (round: MaintenanceRound) => void; onError?: (error: Error) => void } = {},
): EmbeddedMaintenance {
  const intervalMs = options.intervalMs ?? MAINTENANCE_INTERVAL_MS;
  let running: Promise<unknown> | undefined;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;

  async function round(): Promise<MaintenanceRound> {
    const started = performance.now();
    const statements: string[] = [];
    const { rows } = await pool.query<{ name: string; vacuum: boolean; analyze: boolean }>(CANDIDATES);
    for (const row of rows) {
      if (stopped) break;
      const statement = row.vacuum ? `vacuum${row.analyze ? ' (analyze)' : ''} ${row.name}` : row.analyze ? `analyze ${row.name}` : undefined;
      if (!statement) continue;
      await pool.query(statement);
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
      await running?.catch(() => undefined);
    },
  };
}
