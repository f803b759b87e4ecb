import 'fake-indexeddb/auto';
import { QueryClient } from '@tanstack/react-query';
import { createStore, get } from 'idb-keyval';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../lib/api-client';
import { startCachePersistence } from './persist-cache';

const plan = { id: 1, name: 'Ground floor – 1', pins: [{ id: 4, x: 0.25, y: 0.5 }] };

describe('what a device keeps for a start without a signal', () => {
  it('keeps an answer whose reload failed, and shows it after the next start as it was', async () => {
    const before = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const { stop, restored } = startCachePersistence(before, 7);
    await restored;
    const queryKey = ['sheets', 'sheet', 1];
    await before.fetchQuery({ queryKey, queryFn: () => plan });
    // Another the server refuses since (the project was deleted), and one seen two days ago.
    const refusedKey = ['sheets', 'sheet', 2];
    await before.fetchQuery({ queryKey: refusedKey, queryFn: () => ({ ...plan, id: 2 }) });
    await before.fetchQuery({ queryKey: refusedKey, queryFn: () => Promise.reject(new ApiError(404, 'Not found.', undefined, null)), staleTime: 0 }).catch(() => undefined);
    const oldKey = ['sheets', 'sheet', 3];
    before.setQueryData(oldKey, { ...plan, id: 3 }, { updatedAt: Date.now() - 2 * 24 * 60 * 60 * 1000 });
    // The signal goes: the reload fails, and the screen still shows the plan it had.
    await before.fetchQuery({ queryKey, queryFn: () => Promise.reject(new TypeError('Failed to fetch')), staleTime: 0 }).catch(() => undefined);
    expect(before.getQueryState(queryKey)).toMatchObject({ status: 'error', data: plan });

    await vi.waitFor(async () => expect(await get('siteboard-queries-7', createStore('siteboard-cache', 'queries'))).toContain('Ground floor'), { timeout: 5_000 });
    stop();
    // The next start, still without a signal.
    const after = new QueryClient();
    const next = startCachePersistence(after, 7);
    await next.restored;
    next.stop();
    expect(after.getQueryData(queryKey)).toEqual(plan);
    expect(after.getQueryData(refusedKey)).toBeUndefined();
    expect(after.getQueryData(oldKey)).toBeUndefined();
    expect(after.getQueryState(queryKey)).toMatchObject({ status: 'success', error: null });
  });
});
