import { describe, expect, it } from 'vitest';
import { END_BEFORE_START, translateMessage } from '@siteboard/shared';
import { MANAGER_CONFLICT, awaitingApprovalConflict, endDateError, resolveManagerField } from './projects.rules';

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

describe('awaitingApprovalConflict', () => {
  it('says how many subtasks await approval, in each language with the number kept', () => {
    expect(awaitingApprovalConflict(1)).toBe('1 subtask awaits approval. Confirm to complete the project anyway.');
    expect(awaitingApprovalConflict(3)).toBe('3 subtasks await approval. Confirm to complete the project anyway.');
    expect(translateMessage(awaitingApprovalConflict(1), 'fr')).toBe('1 sous-tâche attend une validation. Confirmez pour terminer quand même le projet.');
    expect(translateMessage(awaitingApprovalConflict(3), 'de')).toBe('3 Teilaufgaben warten auf Abnahme. Bestätigen Sie, um das Projekt trotzdem abzuschließen.');
    expect(translateMessage(awaitingApprovalConflict(3), 'es')).toBe('Hay 3 subtareas pendientes de aprobación. Confirma para terminar el proyecto de todos modos.');
  });
});
