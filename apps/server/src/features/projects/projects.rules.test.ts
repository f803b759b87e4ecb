import { describe, expect, it } from 'vitest';
import { END_BEFORE_START, translateMessage } from '@siteboard/shared';
import { MANAGER_CONFLICT, endDateError, openWorkConflict, resolveManagerField } from './projects.rules';

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

describe('openWorkConflict', () => {
  it('says how many subtasks are unfinished and that nothing is approved, in each language with the number kept', () => {
    expect(openWorkConflict(1)).toBe('1 subtask is unfinished. Completing the project approves nothing: it closes that subtask as unfinished. Confirm to complete the project anyway.');
    expect(openWorkConflict(3)).toBe('3 subtasks are unfinished. Completing the project approves nothing: it closes them as unfinished. Confirm to complete the project anyway.');
    expect(translateMessage(openWorkConflict(1), 'fr')).toBe('1 sous-tâche est inachevée. Terminer le projet ne valide rien : il la clôt comme inachevée. Confirmez pour terminer quand même le projet.');
    expect(translateMessage(openWorkConflict(3), 'de')).toBe('3 Teilaufgaben sind unerledigt. Der Projektabschluss nimmt nichts ab: Er schließt sie als unerledigt. Bestätigen Sie, um das Projekt trotzdem abzuschließen.');
    expect(translateMessage(openWorkConflict(3), 'es')).toBe('Hay 3 subtareas sin terminar. Terminar el proyecto no aprueba nada: las cierra como no terminadas. Confirma para terminar el proyecto de todos modos.');
  });
});
