import type { FastifyBaseLogger } from 'fastify';
import type { Counter } from 'prom-client';
import type { Metrics } from './metrics';

export interface SweepOptions {
  /** What the sweep is called in the log: a failure is logged as `<name> failed`. */
  name: string;
  intervalMs: number;
  /** A first run this soon after start (then every interval); unset: the first run is one interval in. */
  firstRunAfterMs?: number;
  /** One run; it logs its own result, a failure is logged here. */
  run: () => Promise<unknown>;
  log: Pick<FastifyBaseLogger, 'error'>;
  /** Counts the runs that ended and the time they took, by sweep (`siteboard_sweep_*`). */
  metrics?: Metrics;
}

export interface Sweep {
  /** No run starts from now on; resolves when the one running, if any, has ended. Safe to call again. */
  stop(): Promise<void>;
}

/**
 * Runs `run` every interval while the server runs, at most one at a time: a tick that comes while
 * a run is still going is skipped, not queued. A failed run is logged and the next tick runs
 * again. The timers are unref'd (they never keep the process alive); the caller stops the sweep
 * in its onClose hook, which then waits for the run in flight (idempotency keys, throttle
 * counters, notification reminders, daily digests).
 */
export function startSweep(options: SweepOptions): Sweep {
  const { name, intervalMs, firstRunAfterMs, run, log } = options;
  const counted = options.metrics && sweepCounters(options.metrics);
  let stopped = false;
  let running: Promise<void> | undefined;
  const tick = () => {
    if (stopped) return;
    const started = performance.now();
    const ended = (outcome: 'done' | 'failed') => {
      counted?.runs.inc({ sweep: name, outcome });
      counted?.seconds.inc({ sweep: name }, (performance.now() - started) / 1000);
    };
    // Started within the tick; an async wrapper so that a throw before run's first await is a failed run too.
    running ??= (async () => {
      await run();
    })()
      .then(
        () => ended('done'),
        (error: unknown) => {
          ended('failed');
          log.error({ err: error }, `${name} failed`);
        },
      )
      .finally(() => (running = undefined));
  };
  const first = firstRunAfterMs === undefined ? undefined : setTimeout(tick, firstRunAfterMs);
  const timer = setInterval(tick, intervalMs);
  first?.unref();
  timer.unref();
  return {
    async stop() {
      stopped = true;
      clearTimeout(first);
      clearInterval(timer);
      await running;
    },
  };
}

interface SweepCounters {
  runs: Counter<'sweep' | 'outcome'>;
  seconds: Counter<'sweep'>;
}

/** One pair of counters per registry, shared by every sweep (a name is registered once). */
const countersOf = new WeakMap<Metrics, SweepCounters>();

function sweepCounters(metrics: Metrics): SweepCounters {
  let counters = countersOf.get(metrics);
  if (!counters) {
    counters = {
      runs: metrics.counter({ name: 'siteboard_sweep_runs_total', help: 'Runs of each background sweep that ended, by outcome (done or failed).', labelNames: ['sweep', 'outcome'] }),
      seconds: metrics.counter({ name: 'siteboard_sweep_seconds_total', help: 'Time the runs of each background sweep took, ended ones only.', labelNames: ['sweep'] }),
    };
    countersOf.set(metrics, counters);
  }
  return counters;
}
