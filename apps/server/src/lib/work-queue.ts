import { ServiceUnavailableError } from '../platform';

export interface WorkQueueOptions {
  /** Jobs that run at once. */
  concurrency: number;
  /** Jobs that may wait their turn; one more is refused at once. */
  maxWaiting: number;
  /** The refusal's text (503, with Retry-After). */
  busy: string;
}

export interface WorkQueue {
  /**
   * Runs `work` when a place is free, in the order jobs came; refused with a 503 when the queue is
   * full. A job whose `signal` aborts while it waits (its caller went away) is dropped unrun.
   */
  run<T>(work: () => Promise<T>, signal?: AbortSignal): Promise<T>;
  readonly running: number;
  readonly waiting: number;
  /** Whether the next job would be refused. */
  readonly full: boolean;
}

interface Waiting {
  start(): void;
}

/**
 * A bounded queue for CPU-heavy work: a burst costs neither memory nor an answer that takes
 * minutes, it gets 503 and a Retry-After worked out from how long recent jobs took.
 */
export function createWorkQueue(options: WorkQueueOptions): WorkQueue {
  const waiting: Waiting[] = [];
  let running = 0;
  // A moving average of how long a job takes, for Retry-After; a second until one has run.
  let averageMs = 1000;

  const next = () => {
    while (running < options.concurrency && waiting.length > 0) {
      running++;
      waiting.shift()!.start();
    }
  };

  const full = () => running >= options.concurrency && waiting.length >= options.maxWaiting;

  return {
    get full() {
      return full();
    },
    get running() {
      return running;
    },
    get waiting() {
      return waiting.length;
    },
    run<T>(work: () => Promise<T>, signal?: AbortSignal): Promise<T> {
      if (full()) {
        const queuedTurns = (running + waiting.length) / options.concurrency;
        return Promise.reject(new ServiceUnavailableError(options.busy, Math.max(1, Math.ceil((queuedTurns * averageMs) / 1000))));
      }
      if (signal?.aborted) return Promise.reject(signal.reason);
      return new Promise<T>((resolve, reject) => {
        const job: Waiting = {
          start: () => {
            signal?.removeEventListener('abort', dropped);
            const started = performance.now();
            // The place is handed on before the caller hears its answer.
            work()
              .finally(() => {
                averageMs = 0.8 * averageMs + 0.2 * (performance.now() - started);
                running--;
                next();
              })
              .then(resolve, reject);
          },
        };
        const dropped = () => {
          const index = waiting.indexOf(job);
          if (index >= 0) waiting.splice(index, 1);
          reject(signal!.reason);
        };
        signal?.addEventListener('abort', dropped, { once: true });
        waiting.push(job);
        next();
      });
    },
  };
}
