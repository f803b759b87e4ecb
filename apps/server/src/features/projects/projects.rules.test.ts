import { describe, expect, it } from 'vitest';
import { END_BEFORE_START } from '@siteboard/shared';
import { MANAGER_CONFLICT, endDateError, resolveManagerField } from './projects.rules';

describe('resolveManagerField', () => {
  it('takes manager_id, reported under manager_id', () => {
    expect(resolveManagerField({ manager_id: 4 })).toEqual({ ok: true, managerId: 4, field: 'manager_id' });
  });
  it("takes the spec client's manager, reported under manager", () => {
    expect(resolveManagerField({ manager: 4 })).toEqual({ ok: true, managerId: 4, field: 'manager' });
  });
  it('accepts both when they agree', () => {
    expect(resolveManagerField({ manager: 4, manager_id: 4 })).toEqual({ ok: true, managerId: 4, field: 'manager_id' });
  });
  it('refuses two different values', () => {
    expect(resolveManagerField({ manager: 4, manager_id: 5 })).toEqual({ ok: false, field: 'manager_id', message: MANAGER_CONFLICT });
  });
  it('leaves the manager alone when neither is sent', () => {
    expect(resolveManagerField({})).toEqual({ ok: true, managerId: undefined, field: 'manager' });
  });
});

describe('endDateError', () => {
  it('accepts an end on or after the start', () => {
    expect(endDateError('2026-01-01', '2026-01-01')).toBeUndefined();
    expect(endDateError('2026-01-31', '2026-02-01')).toBeUndefined();
  });
  it('refuses an end before the start', () => {
    expect(endDateError('2026-02-01', '2026-01-31')).toBe(END_BEFORE_START);
  });
});
