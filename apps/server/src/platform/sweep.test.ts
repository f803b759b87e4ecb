import { afterEach, describe, expect, it, vi } from 'vitest';
import { createMetrics } from './metrics';
import { startSweep, type Sweep, type SweepOptions } from './sweep';

const INTERVAL_MS = 5;
const WAIT = { timeout: 5_000, interval: 2 };

const started: Sweep[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((sweep) => sweep.stop()));
});

/** A sweep on real timers whose interval ticks are counted (the count is read after the tick ran). */
function start(run: SweepOptions['run'], options: Partial<SweepOptions> = {}) {
  const log = { error: vi.fn() };
  let ticks = 0;
  const realSetInterval = globalThis.setInterval;
  const spy = vi.spyOn(globalThis, 'setInterval').mockImplementation(((callback: () => void, ms: number) =>
    realSetInterval(() => {
      ticks++;
      callback();
    }, ms)) as typeof setInterval);
  let sweep: Sweep;
  try {
    sweep = startSweep({ name: 'test sweep', intervalMs: INTERVAL_MS, run, log, ...options });
  } finally {
    spy.mockRestore();
  }
  started.push(sweep);
  return { sweep, log, ticks: () => ticks };
}

/** A run that waits until the test lets it end. */
function gated() {
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  return { gate, open };
}

describe('startSweep', () => {
  it('runs every interval', async () => {
    let runs = 0;
    start(async () => void runs++);

    await vi.waitFor(() => expect(runs).toBeGreaterThanOrEqual(3), WAIT);
  });

  it('runs first after firstRunAfterMs, well before the first interval', async () => {
    let runs = 0;
    start(async () => void runs++, { intervalMs: 60_000, firstRunAfterMs: 1 });

    await vi.waitFor(() => expect(runs).toBe(1), WAIT);
  });

  it('skips the ticks that come while a run is going, and never runs two at once', async () => {
    let runs = 0;
    let active = 0;
    let mostActive = 0;
    const first = gated();
    const { ticks } = start(async () => {
      runs++;
      active++;
      mostActive = Math.max(mostActive, active);
      if (runs === 1) await first.gate;
      active--;
    });

    await vi.waitFor(() => expect(runs).toBe(1), WAIT);
    const ticksAtFirstRun = ticks();
    await vi.waitFor(() => expect(ticks()).toBeGreaterThanOrEqual(ticksAtFirstRun + 3), WAIT);
    expect(runs).toBe(1);

    first.open();
    await vi.waitFor(() => expect(runs).toBeGreaterThanOrEqual(3), WAIT);
    expect(mostActive).toBe(1);
  });

  it('logs a failed run, a rejection or a throw, and runs again on the next tick', async () => {
    const rejected = new Error('rejected');
    const thrown = new Error('thrown');
    let runs = 0;
    const { log } = start(() => {
      runs++;
      if (runs === 1) return Promise.reject(rejected);
      if (runs === 2) throw thrown;
      return Promise.resolve();
    });

    await vi.waitFor(() => expect(runs).toBeGreaterThanOrEqual(3), WAIT);
    expect(log.error.mock.calls).toEqual([
      [{ err: rejected }, 'test sweep failed'],
      [{ err: thrown }, 'test sweep failed'],
    ]);
  });

  it('stop() waits for the run in flight, and no run starts after it', async () => {
    let runs = 0;
    let finished = false;
    const run = gated();
    const { sweep } = start(async () => {
      runs++;
      await run.gate;
      finished = true;
    });
    await vi.waitFor(() => expect(runs).toBe(1), WAIT);

    let stopped = false;
    const stopping = sweep.stop().then(() => (stopped = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(stopped).toBe(false);
    run.open();
    await stopping;
    expect(finished).toBe(true);
    await sweep.stop();

    // Time enough for several intervals: a sweep started now on the same interval runs three times.
    let controlRuns = 0;
    start(async () => void controlRuns++);
    await vi.waitFor(() => expect(controlRuns).toBeGreaterThanOrEqual(3), WAIT);
    expect(runs).toBe(1);
  });

  it('stopped before its first run, never runs', async () => {
    let runs = 0;
    const { sweep } = start(async () => void runs++, { firstRunAfterMs: 1 });
    await sweep.stop();

    let controlRuns = 0;
    start(async () => void controlRuns++);
    await vi.waitFor(() => expect(controlRuns).toBeGreaterThanOrEqual(3), WAIT);
    expect(runs).toBe(0);
  });

  it('counts the runs that ended, by sweep and outcome, in the metrics', async () => {
    const metrics = createMetrics({ warn: vi.fn() } as never);
    let runs = 0;
    start(async () => void runs++, { name: 'reminder sweep', metrics });
    start(
      async () => {
        throw new Error('the database is gone');
      },
      { name: 'digest sweep', metrics },
    );

    await vi.waitFor(async () => {
      const text = await metrics.text();
      expect(Number(/siteboard_sweep_runs_total\{sweep="reminder sweep",outcome="done"\} (\d+)/.exec(text)?.[1])).toBeGreaterThanOrEqual(2);
      expect(Number(/siteboard_sweep_runs_total\{sweep="digest sweep",outcome="failed"\} (\d+)/.exec(text)?.[1])).toBeGreaterThanOrEqual(2);
    }, WAIT);
    const text = await metrics.text();
    expect(text).not.toContain('sweep="reminder sweep",outcome="failed"');
    expect(text).toMatch(/siteboard_sweep_seconds_total\{sweep="reminder sweep"\} [\d.e-]+/);
  });
});
