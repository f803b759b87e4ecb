import { describe, expect, it } from 'vitest';
import { localToday, priorityCounts, progressOf } from './tasks.rules';

describe('major task summary', () => {
  it('counts subtasks by priority and completed ones for progress', () => {
    const subtasks = [
      { priority: 'high' as const, status: 'completed' as const },
      { priority: 'high' as const, status: 'ongoing' as const },
      { priority: 'low' as const, status: 'pending_approval' as const },
    ];
    expect(priorityCounts(subtasks)).toEqual({ low: 1, medium: 0, high: 2 });
    expect(progressOf(subtasks)).toEqual({ completed: 1, total: 3 });
    expect(progressOf([])).toEqual({ completed: 0, total: 0 });
  });
});

describe('localToday', () => {
  it('is the date on the local calendar, zero-padded', () => {
    expect(localToday(new Date(2026, 0, 5, 23, 59))).toBe('2026-01-05');
    expect(localToday(new Date(2026, 10, 24, 0, 0))).toBe('2026-11-24');
  });
});
