import { describe, expect, it } from 'vitest';
import {
  ASSIGNEE_MAY_ONLY_SUBMIT,
  COMPLETED_PROJECT_READ_ONLY,
  NEW_SUBTASK_STARTS_ONGOING,
  NOT_YOUR_SUBTASK,
  ONLY_ONGOING_CAN_BE_SUBMITTED,
  PAST_DUE_DATE_NEEDS_PROJECT_MANAGER,
  canDecideSubtask,
  canManageMajorTask,
  canSubmitSubtask,
  decideNewSubtask,
  decideSubtaskEdit,
  isProjectManager,
  isSubtaskApprover,
  type SubtaskParties,
} from './permissions';
import { SUBTASK_STATUSES } from './tasks';

const PROJECT_MANAGER = { id: 1, role: 'manager' as const };
const ASSIGNER = { id: 2, role: 'manager' as const };
const ASSIGNEE = { id: 3, role: 'team_member' as const };
const OTHER_MEMBER = { id: 4, role: 'team_member' as const };
const OTHER_MANAGER = { id: 5, role: 'manager' as const };
const ADMIN = { id: 6, role: 'admin' as const };

function state(overrides: Partial<SubtaskParties> = {}): SubtaskParties {
  return { status: 'ongoing', assignedToId: ASSIGNEE.id, assignedById: ASSIGNER.id, projectManagerId: PROJECT_MANAGER.id, projectStatus: 'ongoing', ...overrides };
}

describe('decideSubtaskEdit', () => {
  it('lets the assignee send an ongoing subtask for approval, stamping submitted_at', () => {
    expect(decideSubtaskEdit(ASSIGNEE, state(), { status: 'pending_approval' })).toEqual({
      ok: true,
      statusChange: { from: 'ongoing', to: 'pending_approval' }
    });
  });

  it('lets an assignee who is a manager (but not an approver) send for approval too', () => {
    const managerAssignee = { id: 9, role: 'manager' as const };
    expect(decideSubtaskEdit(managerAssignee, state({ assignedToId: 9 }), { status: 'pending_approval' }).ok).toBe(true);
  });

  it.each(['ongoing', 'completed'] as const)('refuses the assignee any other status (%s) with forbidden', (status) => {
    expect(decideSubtaskEdit(ASSIGNEE, state({ status: 'pending_approval' }), { status })).toEqual({ ok: false, error: 'forbidden', message: ASSIGNEE_MAY_ONLY_SUBMIT });
  });

  it.each([{ name: 'Renamed' }, { priority: 'high' as const }, { due_date: '2026-04-01' }, { assigned_to_id: 4 }, { description: 'x' }])(
    'refuses the assignee any field edit (%o), even alongside a submission',
    (edit) => {
      expect(decideSubtaskEdit(ASSIGNEE, state(), edit)).toMatchObject({ ok: false, error: 'forbidden' });
      expect(decideSubtaskEdit(ASSIGNEE, state(), { ...edit, status: 'pending_approval' })).toMatchObject({ ok: false, error: 'forbidden' });
    },
  );

  it.each(['pending_approval', 'completed'] as const)('refuses to send a %s subtask for approval again', (status) => {
    expect(decideSubtaskEdit(ASSIGNEE, state({ status }), { status: 'pending_approval' })).toEqual({ ok: false, error: 'invalid', message: ONLY_ONGOING_CAN_BE_SUBMITTED });
  });

  it.each([
    ['another team member', OTHER_MEMBER],
    ['a manager of another project who did not assign it', OTHER_MANAGER],
    ['an admin', ADMIN],
  ])('refuses %s with forbidden', (_who, actor) => {
    expect(decideSubtaskEdit(actor, state(), { status: 'pending_approval' })).toEqual({ ok: false, error: 'forbidden', message: NOT_YOUR_SUBTASK });
  });

  it('does not count a team member who assigned the subtask as an approver', () => {
    const teamAssigner = { id: 7, role: 'team_member' as const };
    expect(isSubtaskApprover(teamAssigner, state({ assignedById: 7 }))).toBe(false);
    expect(decideSubtaskEdit(teamAssigner, state({ assignedById: 7 }), { status: 'completed' })).toMatchObject({ ok: false, error: 'forbidden' });
  });

  it.each([
    ['project manager', PROJECT_MANAGER],
    ['assigning manager', ASSIGNER],
  ])('lets the %s approve a pending subtask', (_who, actor) => {
    expect(decideSubtaskEdit(actor, state({ status: 'pending_approval' }), { status: 'completed' })).toEqual({
      ok: true,
      statusChange: { from: 'pending_approval', to: 'completed' }
    });
  });

  it('lets an approver decline a pending subtask back to ongoing', () => {
    expect(decideSubtaskEdit(PROJECT_MANAGER, state({ status: 'pending_approval' }), { status: 'ongoing' })).toEqual({
      ok: true,
      statusChange: { from: 'pending_approval', to: 'ongoing' }
    });
  });

  it('lets an approver set any status from any status', () => {
    for (const from of SUBTASK_STATUSES) {
      for (const to of SUBTASK_STATUSES) {
        expect(decideSubtaskEdit(ASSIGNER, state({ status: from }), { status: to }).ok).toBe(true);
      }
    }
  });

  it('lets an approver edit fields without a status change', () => {
    expect(decideSubtaskEdit(PROJECT_MANAGER, state(), { name: 'New', priority: 'low', due_date: '2026-05-01', assigned_to_id: 4 })).toEqual({ ok: true });
  });

  it('treats setting the current status as no status change', () => {
    expect(decideSubtaskEdit(PROJECT_MANAGER, state({ status: 'completed' }), { status: 'completed' })).toEqual({ ok: true });
  });

  it('refuses every change under a completed project, even from an approver', () => {
    for (const actor of [PROJECT_MANAGER, ASSIGNER, ASSIGNEE]) {
      expect(decideSubtaskEdit(actor, state({ projectStatus: 'completed' }), { status: 'pending_approval' })).toEqual({
        ok: false,
        error: 'invalid',
        message: COMPLETED_PROJECT_READ_ONLY,
      });
    }
  });

  it('answers forbidden rather than completed-project to someone with no part in the subtask', () => {
    expect(decideSubtaskEdit(OTHER_MEMBER, state({ projectStatus: 'completed' }), { status: 'pending_approval' })).toMatchObject({ error: 'forbidden' });
  });

  it('treats a planned project like an ongoing one', () => {
    expect(decideSubtaskEdit(ASSIGNEE, state({ projectStatus: 'planned' }), { status: 'pending_approval' }).ok).toBe(true);
  });
});

describe('canSubmitSubtask and canDecideSubtask: what the screens offer', () => {
  it('offers Send for Approval to the assignee of an ongoing subtask, whatever their role', () => {
    expect(canSubmitSubtask(ASSIGNEE, state())).toBe(true);
    expect(canSubmitSubtask({ id: 9, role: 'manager' }, state({ assignedToId: 9 }))).toBe(true);
  });

  it('offers it to no one else, nor once sent, nor in a completed project', () => {
    expect(canSubmitSubtask(OTHER_MEMBER, state())).toBe(false);
    expect(canSubmitSubtask(PROJECT_MANAGER, state())).toBe(false);
    expect(canSubmitSubtask(ASSIGNEE, state({ status: 'pending_approval' }))).toBe(false);
    expect(canSubmitSubtask(ASSIGNEE, state({ projectStatus: 'completed' }))).toBe(false);
  });

  it("leaves a manager's own work in another manager's project to that manager to approve", () => {
    const selfAssigned = state({ assignedById: ASSIGNER.id, assignedToId: ASSIGNER.id, status: 'pending_approval' });
    expect(decideSubtaskEdit(ASSIGNER, selfAssigned, { status: 'completed' })).toEqual({ ok: false, error: 'forbidden', message: ASSIGNEE_MAY_ONLY_SUBMIT });
    expect(canDecideSubtask(ASSIGNER, selfAssigned)).toBe(false);
    expect(canSubmitSubtask(ASSIGNER, { ...selfAssigned, status: 'ongoing' })).toBe(true);
    expect(decideSubtaskEdit(PROJECT_MANAGER, selfAssigned, { status: 'completed' }).ok).toBe(true);
    // The project's own manager runs their project: their own work there is theirs to close.
    expect(canDecideSubtask(PROJECT_MANAGER, state({ assignedById: PROJECT_MANAGER.id, assignedToId: PROJECT_MANAGER.id }))).toBe(true);
  });

  it('offers the status dropdown to approvers only, and not in a completed project', () => {
    expect(canDecideSubtask(PROJECT_MANAGER, state())).toBe(true);
    expect(canDecideSubtask(ASSIGNER, state())).toBe(true);
    expect(canDecideSubtask(OTHER_MANAGER, state())).toBe(false);
    expect(canDecideSubtask(ASSIGNEE, state())).toBe(false);
    expect(canDecideSubtask(ADMIN, state())).toBe(false);
    expect(canDecideSubtask(PROJECT_MANAGER, state({ projectStatus: 'completed' }))).toBe(false);
  });
});

describe('canManageMajorTask', () => {
  const parties = { createdById: ASSIGNER.id, projectManagerId: PROJECT_MANAGER.id };

  it.each([
    ["the project's manager", PROJECT_MANAGER, true],
    ['the manager who created it', ASSIGNER, true],
    ['an admin', ADMIN, true],
    ['another manager', OTHER_MANAGER, false],
    ['a team member', ASSIGNEE, false],
  ] as const)('answers %s: %s', (_who, actor, allowed) => {
    expect(canManageMajorTask(actor, parties)).toBe(allowed);
  });

  it('lets no manager in through a project without a manager or a task without a creator', () => {
    expect(canManageMajorTask(OTHER_MANAGER, { createdById: null, projectManagerId: null })).toBe(false);
  });
});

describe('decideNewSubtask', () => {
  const today = '2026-11-24';

  it("lets the project's manager create a subtask in any status and with a past due date", () => {
    expect(decideNewSubtask(PROJECT_MANAGER, PROJECT_MANAGER.id, { status: 'completed', dueDate: '2026-01-01' }, today)).toEqual({ ok: true });
  });

  it.each([OTHER_MANAGER, ASSIGNEE])('refuses anyone else (%o) a status other than ongoing as forbidden', (actor) => {
    expect(decideNewSubtask(actor, PROJECT_MANAGER.id, { status: 'completed', dueDate: today }, today)).toEqual({ ok: false, error: 'forbidden', field: 'status', message: NEW_SUBTASK_STARTS_ONGOING });
  });

  it.each([OTHER_MANAGER, ASSIGNEE])('refuses anyone else (%o) a due date before today as invalid, naming due_date; today itself is fine', (actor) => {
    expect(decideNewSubtask(actor, PROJECT_MANAGER.id, { status: 'ongoing', dueDate: '2026-11-23' }, today)).toEqual({
      ok: false,
      error: 'invalid',
      field: 'due_date',
      message: PAST_DUE_DATE_NEEDS_PROJECT_MANAGER,
    });
    expect(decideNewSubtask(actor, PROJECT_MANAGER.id, { status: 'ongoing', dueDate: today }, today)).toEqual({ ok: true });
  });

  it('treats an admin who happens to have the id of no manager like anyone else', () => {
    expect(isProjectManager(ADMIN, ADMIN.id)).toBe(false);
  });
});
