import { MANAGER_REQUIRED, translateMessage } from '@siteboard/shared';
import { describe, expect, it } from 'vitest';
import { MANAGER_INVALID, managerLinkFor, openWorkConflict, planRoleChange, recodeForRole, userCode } from './users.rules';

describe('userCode', () => {
  it('prefixes the role and pads the company number to four digits', () => {
    expect(userCode('admin', 1)).toBe('ADM-0001');
    expect(userCode('manager', 42)).toBe('MGR-0042');
    expect(userCode('team_member', 12345)).toBe('TM-12345');
  });
});

describe('recodeForRole', () => {
  it('keeps the number and takes the new role prefix', () => {
    expect(recodeForRole('TM-0007', 'manager')).toBe('MGR-0007');
    expect(recodeForRole('MGR-0012', 'admin')).toBe('ADM-0012');
  });

  it('leaves a code without a number alone', () => {
    expect(recodeForRole('LEGACY', 'manager')).toBe('LEGACY');
  });
});

describe('managerLinkFor', () => {
  it('keeps the manager only for team members', () => {
    expect(managerLinkFor('team_member', 5)).toBe(5);
    expect(managerLinkFor('manager', 5)).toBeNull();
    expect(managerLinkFor('admin', 5)).toBeNull();
    expect(managerLinkFor('team_member', undefined)).toBeNull();
  });
});

describe('planRoleChange', () => {
  const teamMember = { role: 'team_member' as const, managerId: 2, code: 'TM-0003' };
  const manager = { role: 'manager' as const, managerId: null, code: 'MGR-0002' };

  it('leaves role, manager and code alone when only other fields change', () => {
    expect(planRoleChange(3, teamMember, {})).toEqual({ ok: true, role: 'team_member', managerId: 2, code: 'TM-0003', managerToCheck: null, leavesManagerRole: false });
  });

  it('checks a new manager for a team member', () => {
    expect(planRoleChange(3, teamMember, { manager_id: 9 })).toMatchObject({ ok: true, managerId: 9, managerToCheck: 9 });
  });

  it('refuses to take the manager away from a team member', () => {
    expect(planRoleChange(3, teamMember, { manager_id: null })).toEqual({ ok: false, field: 'manager_id', message: MANAGER_REQUIRED });
  });

  it('requires a manager when a user becomes a team member', () => {
    expect(planRoleChange(2, manager, { role: 'team_member' })).toEqual({ ok: false, field: 'manager_id', message: MANAGER_REQUIRED });
    expect(planRoleChange(2, { role: 'admin', managerId: null, code: 'ADM-0001' }, { role: 'team_member' })).toMatchObject({ ok: false, message: MANAGER_REQUIRED });
  });

  it('checks the kept manager of someone who becomes a team member again', () => {
    expect(planRoleChange(3, { role: 'manager', managerId: 7, code: 'MGR-0003' }, { role: 'team_member' })).toMatchObject({ ok: true, managerId: 7, managerToCheck: 7 });
  });

  it('refuses a user as their own manager', () => {
    expect(planRoleChange(2, manager, { role: 'team_member', manager_id: 2 })).toEqual({ ok: false, field: 'manager_id', message: MANAGER_INVALID });
  });

  it('marks a manager who changes role, recodes them and links their new manager', () => {
    expect(planRoleChange(2, manager, { role: 'team_member', manager_id: 5 })).toEqual({
      ok: true,
      role: 'team_member',
      managerId: 5,
      code: 'TM-0002',
      managerToCheck: 5,
      leavesManagerRole: true,
    });
    expect(planRoleChange(2, manager, { role: 'admin' })).toMatchObject({ ok: true, role: 'admin', code: 'ADM-0002', leavesManagerRole: true });
  });

  it('drops the manager of someone who stops being a team member, but still checks a manager id sent with it', () => {
    expect(planRoleChange(3, teamMember, { role: 'manager' })).toEqual({ ok: true, role: 'manager', managerId: null, code: 'MGR-0003', managerToCheck: null, leavesManagerRole: false });
    expect(planRoleChange(3, teamMember, { role: 'manager', manager_id: 8 })).toMatchObject({ ok: true, managerId: null, managerToCheck: 8 });
  });
});

describe('openWorkConflict', () => {
  it('says how many subtasks are open, in each language with the number kept', () => {
    expect(openWorkConflict(1)).toBe('This user has 1 open subtask. Choose who takes over their work (reassign_to) to delete them.');
    expect(openWorkConflict(12)).toBe('This user has 12 open subtasks. Choose who takes over their work (reassign_to) to delete them.');
    expect(translateMessage(openWorkConflict(1), 'de')).toBe('Dieser Benutzer hat 1 offene Teilaufgabe. Wählen Sie, wer seine Arbeit übernimmt (reassign_to), um ihn zu löschen.');
    expect(translateMessage(openWorkConflict(12), 'es')).toBe('Esta persona tiene 12 subtareas pendientes. Elige quién se hace cargo de su trabajo (reassign_to) para eliminar su cuenta.');
    expect(translateMessage(openWorkConflict(12), 'fr')).toBe('Cette personne a 12 sous-tâches en cours. Choisissez qui reprend son travail (reassign_to) pour supprimer son compte.');
  });
});
