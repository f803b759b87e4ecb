import 'fake-indexeddb/auto';
import { QueryClient, dehydrate } from '@tanstack/react-query';
import { createStore, get, set } from 'idb-keyval';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../lib/api-client';
import { startCachePersistence } from './persist-cache';

const plan = { id: 1, name: 'Ground floor – 1', pins: [{ id: 4, x: 0.25, y: 0.5 }] };

describe('what a device keeps for a start without a signal', () => {
  it('keeps an answer whose reload failed, and shows it after the next start as it was', async () => {
    const before = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const { stop, restored } = startCachePersistence(before, { id: 7, role: 'manager' });
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
    const next = startCachePersistence(after, { id: 7, role: 'manager' });
    await next.restored;
    next.stop();
    expect(after.getQueryData(queryKey)).toEqual(plan);
    expect(after.getQueryData(refusedKey)).toBeUndefined();
    expect(after.getQueryData(oldKey)).toBeUndefined();
    expect(after.getQueryState(queryKey)).toMatchObject({ status: 'success', error: null });
  });

  it('drops from a team member’s device the colleagues’ phone numbers kept before record 118 hid them, and keeps their projects', async () => {
    const store = createStore('siteboard-cache', 'queries');
    const colleague = { id: 12, email: 'ana@example.com', full_name: 'Ana Ruiz', role: 'team_member', mobile_number: '+52 55 1234 5678', manager_id: 3 };
    const usersKey = ['users', 'assignable'];
    const peopleKey = ['users', 'people', 'ana'];
    const projectsKey = ['projects', 'list'];
    const logKey = ['daily-logs', 'day', 3, '2026-11-29'];
    // What a device kept before versions: the users lists whole, beside the projects and a day's log, with no version beside them.
    const earlier = new QueryClient();
    earlier.setQueryData(usersKey, [colleague]);
    earlier.setQueryData(peopleKey, { items: [colleague], total: 1 });
    earlier.setQueryData(projectsKey, [{ id: 3, name: 'Harbour Wall' }]);
    earlier.setQueryData(logKey, { date: '2026-11-29', notes: 'Poured the footing' });
    await set('siteboard-queries-8', JSON.stringify({ timestamp: Date.now(), buster: '', clientState: dehydrate(earlier) }), store);

    // The first start of this version, without a signal.
    const member = new QueryClient();
    const started = startCachePersistence(member, { id: 8, role: 'team_member' });
    await started.restored;
    expect(member.getQueryData(projectsKey)).toEqual([{ id: 3, name: 'Harbour Wall' }]);
    expect(member.getQueryData(logKey)).toEqual({ date: '2026-11-29', notes: 'Poured the footing' });
    expect(member.getQueryData(usersKey)).toBeUndefined();
    expect(member.getQueryData(peopleKey)).toBeUndefined();
    // The device holds the number no more, though nothing on screen changed since.
    await vi.waitFor(async () => expect(await get('siteboard-queries-8', store)).not.toContain('1234 5678'), { timeout: 5_000 });
    expect(await get('siteboard-queries-8', store)).toContain('Harbour Wall');
    // What it keeps from now on comes back to the same person in the same role, and to nobody in another.
    member.setQueryData(usersKey, [{ ...colleague, mobile_number: null, manager_id: null }]);
    await vi.waitFor(async () => expect(await get('siteboard-queries-8', store)).toContain('ana@example.com'), { timeout: 5_000 });
    started.stop();
    const again = new QueryClient();
    const restart = startCachePersistence(again, { id: 8, role: 'team_member' });
    await restart.restored;
    restart.stop();
    expect(again.getQueryData(usersKey)).toEqual([{ ...colleague, mobile_number: null, manager_id: null }]);
    expect(again.getQueryData(projectsKey)).toEqual([{ id: 3, name: 'Harbour Wall' }]);
    const promoted = new QueryClient();
    const asManager = startCachePersistence(promoted, { id: 8, role: 'manager' });
    await asManager.restored;
    asManager.stop();
    expect(promoted.getQueryData(usersKey)).toBeUndefined();
    expect(promoted.getQueryData(projectsKey)).toBeUndefined();
  });

  it('keeps what a manager’s device kept before answers carried a version: their last-seen screens survive the update', async () => {
    const store = createStore('siteboard-cache', 'queries');
    const projectsKey = ['projects', 'list'];
    const earlier = new QueryClient();
    earlier.setQueryData(projectsKey, [{ id: 3, name: 'Harbour Wall' }]);
    await set('siteboard-queries-9', JSON.stringify({ buster: '', timestamp: Date.now(), clientState: dehydrate(earlier) }), store);

    const manager = new QueryClient();
    const started = startCachePersistence(manager, { id: 9, role: 'manager' });
    await started.restored;
    started.stop();
    expect(manager.getQueryData(projectsKey)).toEqual([{ id: 3, name: 'Harbour Wall' }]);
  });
});
