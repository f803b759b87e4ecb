import { describe, expect, it } from 'vitest';
import type { SubtaskStatus } from '@siteboard/shared';
import { latestDueDate, statusTimestamps } from './tasks.rules';

const NOW = new Date('2026-03-10T12:00:00Z');

describe('statusTimestamps', () => {
  const cases: [SubtaskStatus, SubtaskStatus, object][] = [
    ['ongoing', 'pending_approval', { submittedAt: NOW }],
    ['pending_approval', 'completed', { completedAt: NOW }],
    ['ongoing', 'completed', { completedAt: NOW }],
    ['pending_approval', 'ongoing', {}],
    ['completed', 'ongoing', { completedAt: null }],
    ['completed', 'pending_approval', { submittedAt: NOW, completedAt: null }],
  ];
  it.each(cases)('%s → %s sets %o', (from, to, expected) => {
    expect(statusTimestamps({ from, to }, NOW)).toEqual(expected);
  });
});

describe('latestDueDate', () => {
  it('is the latest date, ignoring missing ones', () => {
    expect(latestDueDate(['2026-03-09', null, '2026-12-01', '2026-10-31'])).toBe('2026-12-01');
  });
  it('is null without dates', () => {
    expect(latestDueDate([])).toBeNull();
    expect(latestDueDate([null])).toBeNull();
  });
});
