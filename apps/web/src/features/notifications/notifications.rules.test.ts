import { describe, expect, it } from 'vitest';
import type { LiveNotification, NotificationRecord } from '@siteboard/shared';
import { badgeCount, fromLive, mergeKey, mergeNotifications, normaliseMessage, rememberId, SEEN_IDS_CAP } from './notifications.rules';

const record = (id: number, message: string, createdAt: string, isRead = false, type: NotificationRecord['notification']['type'] = 'task_assignment'): NotificationRecord => ({
  id,
  is_read: isRead,
  created_at: createdAt,
  subtask_id: null,
  notification: { type, message, created_by: 'm@example.com', created_at: createdAt },
});

const live = (id: number, message: string, timestamp: string, type: LiveNotification['type'] = 'task_assignment'): LiveNotification => ({ id, type, message, created_by: 'm@example.com', timestamp });

describe('normaliseMessage and mergeKey', () => {
  it('trims, lowercases and collapses inner whitespace', () => {
    expect(normaliseMessage('  Task  "Pour\tslab"\n assigned ')).toBe('task "pour slab" assigned');
  });

  it('keys by type and normalised message', () => {
    expect(mergeKey('task_approved', 'Done  now')).toBe(mergeKey('task_approved', ' done now'));
    expect(mergeKey('task_approved', 'Done')).not.toBe(mergeKey('task_declined', 'Done'));
  });
});

describe('mergeNotifications', () => {
  it('lets the API copy win over a newer live copy of the same notification', () => {
    const merged = mergeNotifications([record(1, 'Task A assigned', '2026-01-01T10:00:00Z', true)], [live(1, ' task a  ASSIGNED', '2026-01-01T10:00:05Z')]);
    expect(merged).toHaveLength(1);
    expect(merged[0]).toMatchObject({ source: 'api', id: 1, isRead: true, message: 'Task A assigned' });
  });

  it('keeps the newer of two live copies and of two API copies', () => {
    const lives = mergeNotifications([], [live(1, 'Same', '2026-01-01T10:00:00Z'), live(2, 'same', '2026-01-01T11:00:00Z')]);
    expect(lives.map((item) => item.id)).toEqual([2]);
    const apis = mergeNotifications([record(5, 'X', '2026-01-01T12:00:00Z'), record(4, 'x', '2026-01-01T09:00:00Z')], []);
    expect(apis.map((item) => item.id)).toEqual([5]);
  });

  it('keeps different types with the same message apart and sorts newest first', () => {
    const merged = mergeNotifications(
      [record(1, 'Pour slab', '2026-01-01T08:00:00Z', false, 'task_submission'), record(2, 'Pour slab', '2026-01-01T09:00:00Z', false, 'task_approved')],
      [live(3, 'New one', '2026-01-01T10:00:00Z', 'task_declined')],
    );
    expect(merged.map((item) => item.type)).toEqual(['task_declined', 'task_approved', 'task_submission']);
  });

  it('puts unparsable times last instead of throwing', () => {
    const merged = mergeNotifications([record(1, 'old', 'not a date')], [live(2, 'new', '2026-01-01T10:00:00Z')]);
    expect(merged.map((item) => item.id)).toEqual([2, 1]);
  });

  it('marks live items unread and accepts a push without an id', () => {
    expect(fromLive({ type: 'deadline_reminder', message: 'Due', created_by: 'System', timestamp: '2026-01-01T00:00:00Z' })).toMatchObject({ id: undefined, isRead: false, source: 'live' });
  });
});

describe('badgeCount', () => {
  const lastOpen = '2026-01-01T10:00:00Z';

  it('counts unread API items only', () => {
    expect(badgeCount([record(1, 'a', '2026-01-01T09:00:00Z'), record(2, 'b', '2026-01-01T09:00:00Z', true)], [], lastOpen)).toBe(1);
  });

  it('adds live items newer than the last opening that have no API twin', () => {
    expect(badgeCount([], [live(1, 'a', '2026-01-01T10:00:01Z'), live(2, 'b', '2026-01-01T09:59:59Z')], lastOpen)).toBe(1);
  });

  it('does not count a live item twice once its API copy arrived, read or not', () => {
    expect(badgeCount([record(1, 'A', '2026-01-01T10:00:01Z')], [live(1, ' a ', '2026-01-01T10:00:01Z')], lastOpen)).toBe(1);
    expect(badgeCount([record(1, 'A', '2026-01-01T10:00:01Z', true)], [live(1, 'a', '2026-01-01T10:00:01Z')], lastOpen)).toBe(0);
  });

  it('counts every live item when the bell was never opened, and twins only once', () => {
    expect(badgeCount([], [live(1, 'a', '2020-01-01T00:00:00Z'), live(2, 'A', '2020-01-01T00:00:01Z')], null)).toBe(1);
  });
});

describe('rememberId', () => {
  it('reports a repeated id as not new', () => {
    const first = rememberId([], 7);
    expect(first).toEqual({ seen: [7], isNew: true });
    expect(rememberId(first.seen, 7).isNew).toBe(false);
  });

  it(`keeps at most ${SEEN_IDS_CAP} ids, evicting the oldest`, () => {
    let seen: number[] = [];
    for (let id = 1; id <= SEEN_IDS_CAP + 5; id += 1) seen = rememberId(seen, id).seen;
    expect(seen).toHaveLength(SEEN_IDS_CAP);
    expect(seen[0]).toBe(6);
    expect(rememberId(seen, 1).isNew).toBe(true);
    expect(rememberId(seen, SEEN_IDS_CAP + 5).isNew).toBe(false);
  });

  it('honours a smaller cap', () => {
    expect(rememberId([1, 2], 3, 2).seen).toEqual([2, 3]);
  });
});
