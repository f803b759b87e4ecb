import { describe, expect, it } from 'vitest';
import { countAxis, efficiencyScore, rangeLabel, toAppraisalItem } from './reports.rules';

describe('efficiencyScore', () => {
  it('is 0 with no tasks', () => {
    expect(efficiencyScore(0, 0)).toBe(0);
  });

  it('is the completed share as a whole percentage', () => {
    expect(efficiencyScore(0, 5)).toBe(0);
    expect(efficiencyScore(5, 5)).toBe(100);
    expect(efficiencyScore(1, 4)).toBe(25);
    expect(efficiencyScore(2, 3)).toBe(67);
    expect(efficiencyScore(1, 3)).toBe(33);
  });

  it('rounds halves up, exactly', () => {
    expect(efficiencyScore(1, 8)).toBe(13);
    expect(efficiencyScore(3, 8)).toBe(38);
    expect(efficiencyScore(1, 200)).toBe(1);
    expect(efficiencyScore(29, 200)).toBe(15);
    expect(efficiencyScore(199, 200)).toBe(100);
  });

  it('agrees with Math.round(100 × completed / total) wherever that is not a half', () => {
    for (let total = 1; total <= 120; total++) {
      for (let completed = 0; completed <= total; completed++) {
        const exact = (100 * completed) / total;
        if (exact % 1 !== 0.5) expect(efficiencyScore(completed, total), `${completed}/${total}`).toBe(Math.round(exact));
      }
    }
  });
});

describe('toAppraisalItem', () => {
  it('names the person by e-mail and adds the score', () => {
    expect(
      toAppraisalItem({ id: 7, email: 'ann@example.test', fullName: 'Ann Lee', code: 'TM-0007', role: 'team_member', managerId: 3, total: 4, completed: 3, ongoing: 1, pendingApproval: 0, closedUnfinished: 0, overdue: 1, completedWithDueDate: 3, completedOnTime: 2 }),
    ).toEqual({
      user_id: 7,
      name: 'ann@example.test',
      full_name: 'Ann Lee',
      code: 'TM-0007',
      role: 'team_member',
      efficiency_score: 75,
      total_tasks: 4,
      completed_tasks: 3,
      ongoing_tasks: 1,
      pending_approval_tasks: 0,
      closed_unfinished_tasks: 0,
      overdue_tasks: 1,
      on_time_completion_rate: 67,
      first_pass_approval_rate: null,
      declines_received: 0,
      median_decision_hours: null,
    });
  });

  it('adds what the approvers decided: first-pass rate, declines, the median rounded to a tenth of an hour', () => {
    const counts = { id: 7, email: 'a@x.test', fullName: null, code: 'TM-0007', role: 'team_member' as const, managerId: 3, total: 4, completed: 4, ongoing: 0, pendingApproval: 0, closedUnfinished: 0, overdue: 0, completedWithDueDate: 0, completedOnTime: 0 };
    expect(toAppraisalItem({ ...counts, declines: 3, approved: 4, firstPass: 1, medianHours: 26.26 })).toMatchObject({
      on_time_completion_rate: null,
      first_pass_approval_rate: 25,
      declines_received: 3,
      median_decision_hours: 26.3,
    });
  });
});

describe('rangeLabel', () => {
  it('names every shape of range', () => {
    expect(rangeLabel({})).toBe('All time');
    expect(rangeLabel({ start: '2026-01-01', end: '2026-03-31' })).toBe('2026-01-01 to 2026-03-31');
    expect(rangeLabel({ start: '2026-01-01', end: '2026-01-01' })).toBe('2026-01-01');
    expect(rangeLabel({ start: '2026-01-01' })).toBe('From 2026-01-01');
    expect(rangeLabel({ end: '2026-03-31' })).toBe('Up to 2026-03-31');
  });
});

describe('countAxis', () => {
  it('gives an all-zero chart an axis', () => {
    expect(countAxis(0)).toEqual({ top: 1, step: 1 });
  });

  it('uses whole, round steps with the top at or above the largest value', () => {
    expect(countAxis(4)).toEqual({ top: 4, step: 1 });
    expect(countAxis(7)).toEqual({ top: 8, step: 2 });
    expect(countAxis(10)).toEqual({ top: 10, step: 2 });
    expect(countAxis(23)).toEqual({ top: 25, step: 5 });
    expect(countAxis(300)).toEqual({ top: 300, step: 100 });
    expect(countAxis(1234)).toEqual({ top: 1500, step: 500 });
  });

  it('never needs more than five intervals', () => {
    for (let value = 0; value <= 5000; value += 7) {
      const { top, step } = countAxis(value);
      expect(top).toBeGreaterThanOrEqual(value);
      expect(top / step).toBeLessThanOrEqual(5);
      expect(Number.isInteger(step)).toBe(true);
    }
  });
});
