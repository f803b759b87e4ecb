import { describe, expect, it } from 'vitest';
import { ServiceUnavailableError } from '../platform';
import { createWorkQueue } from './work-queue';

/** A job that runs until released, and says when it started. */
function job(log: string[], name: string) {
  let release!: () => void;
  const done = new Promise<void>((resolve) => (release = resolve));
  return { work: () => (log.push(name), done.then(() => name)), release };
}

describe('the bounded work queue', () => {
  it('runs at most `concurrency` jobs at once, the others in the order they came', async () => {
    const queue = createWorkQueue({ concurrency: 2, maxWaiting: 5, busy: 'Busy.' });
    const log: string[] = [];
    const jobs = ['a', 'b', 'c', 'd'].map((name) => job(log, name));
    const results = jobs.map((each) => queue.run(each.work));
    expect(log).toEqual(['a', 'b']);
    expect([queue.running, queue.waiting]).toEqual([2, 2]);
    jobs[1]!.release();
    await results[1];
    expect(log).toEqual(['a', 'b', 'c']);
    for (const each of jobs) each.release();
    expect(await Promise.all(results)).toEqual(['a', 'b', 'c', 'd']);
    expect([queue.running, queue.waiting]).toEqual([0, 0]);
  });

  it('refuses a job once every place and seat is taken, with a 503 that says when to come back', async () => {
    const queue = createWorkQueue({ concurrency: 1, maxWaiting: 2, busy: 'Busy.' });
    const log: string[] = [];
    const jobs = ['a', 'b', 'c'].map((name) => job(log, name));
    const results = jobs.map((each) => queue.run(each.work));
    expect(queue.full).toBe(true);
    const refused = await queue.run(job(log, 'd').work).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ServiceUnavailableError);
    expect(refused).toMatchObject({ statusCode: 503, detail: 'Busy.' });
    expect((refused as ServiceUnavailableError).retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect(log).toEqual(['a']);
    for (const each of jobs) each.release();
    await Promise.all(results);
    expect(queue.full).toBe(false);
  });

  it('drops a waiting job whose caller went away, and runs the next instead', async () => {
    const queue = createWorkQueue({ concurrency: 1, maxWaiting: 5, busy: 'Busy.' });
    const log: string[] = [];
    const [first, gone, next] = ['a', 'b', 'c'].map((name) => job(log, name));
    const caller = new AbortController();
    const results = [queue.run(first!.work), queue.run(gone!.work, caller.signal).catch((error: unknown) => error), queue.run(next!.work)];
    caller.abort(new Error('gone'));
    first!.release();
    next!.release();
    expect(await Promise.all(results)).toEqual(['a', new Error('gone'), 'c']);
    expect(log).toEqual(['a', 'c']);
  });
});
