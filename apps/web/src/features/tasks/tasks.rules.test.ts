import { describe, expect, it } from 'vitest';
import { isOverdue } from '@siteboard/shared';
import { bySoonestDue, dueDateConcerns } from './tasks.rules';

describe('isOverdue and bySoonestDue', () => {
  const today = '2026-05-10';
  it('calls overdue only unfinished work due before today', () => {
    expect(isOverdue({ status: 'ongoing', due_date: '2026-05-09' }, today)).toBe(true);
    expect(isOverdue({ status: 'pending_approval', due_date: '2026-05-09' }, today)).toBe(true);
    expect(isOverdue({ status: 'completed', due_date: '2026-05-09' }, today)).toBe(false);
    expect(isOverdue({ status: 'ongoing', due_date: today }, today)).toBe(false);
    expect(isOverdue({ status: 'ongoing', due_date: null }, today)).toBe(false);
    // A completed project closed it unfinished: no open work, so not late either (decision record 061).
    expect(isOverdue({ status: 'ongoing', due_date: '2026-05-09', closed_unfinished_at: '2026-05-09T16:00:00.000Z' }, today)).toBe(false);
  });

  it('puts overdue work on top, then the soonest due, undated last', () => {
    const tasks = [
      { id: 1, status: 'ongoing' as const, due_date: null },
      { id: 2, status: 'ongoing' as const, due_date: '2026-06-01' },
      { id: 3, status: 'completed' as const, due_date: '2026-05-01' },
      { id: 4, status: 'ongoing' as const, due_date: '2026-05-02' },
      { id: 5, status: 'ongoing' as const, due_date: '2026-05-20' },
    ];
    expect([...tasks].sort((a, b) => bySoonestDue(a, b, today)).map((task) => task.id)).toEqual([4, 3, 5, 2, 1]);
  });
});

describe('due dates that ask for confirmation', () => {
  const project = { start_date: '2026-03-01', end_date: '2026-06-30' };
  it('names a date in the past and one outside the project, the project dates included', () => {
    expect(dueDateConcerns('2026-04-01', '2026-03-15', project)).toEqual([]);
    expect(dueDateConcerns('2026-03-01', '2026-03-01', project)).toEqual([]);
    expect(dueDateConcerns('2026-06-30', '2026-03-01', project)).toEqual([]);
    expect(dueDateConcerns('2026-03-10', '2026-03-15', project)).toEqual([{ kind: 'past' }]);
    expect(dueDateConcerns('2026-02-01', '2026-03-15', project)).toEqual([{ kind: 'past' }, { kind: 'beforeStart', start: '2026-03-01' }]);
    expect(dueDateConcerns('2026-07-01', '2026-03-15', project)).toEqual([{ kind: 'afterEnd', end: '2026-06-30' }]);
  });
  it('checks only the past while the project dates are unknown', () => {
    expect(dueDateConcerns('2027-01-01', '2026-03-15', null)).toEqual([]);
    expect(dueDateConcerns('2026-01-01', '2026-03-15', null)).toEqual([{ kind: 'past' }]);
  });
});
