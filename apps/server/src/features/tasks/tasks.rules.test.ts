import { describe, expect, it } from 'vitest';
import { COMPLETED_PROJECT_READ_ONLY, SUBTASK_STATUSES, type SubtaskStatus } from '@siteboard/shared';
import {
  ASSIGNEE_MAY_ONLY_SUBMIT,
  NOT_YOUR_SUBTASK,
  ONLY_ONGOING_CAN_BE_SUBMITTED,
  decideSubtaskEdit,
  isApprover,
  latestDueDate,
  statusTimestamps,
  type SubtaskState,
} from './tasks.rules';

const NOW = new Date('2026-03-10T12:00:00Z');
const PROJECT_MANAGER = { id: 1, role: 'manager' as const };
const ASSIGNER = { id: 2, role: 'manager' as const };
const ASSIGNEE = { id: 3, role: 'team_member' as const };
const OTHER_MEMBER = { id: 4, role: 'team_member' as const };
const OTHER_MANAGER = { id: 5, role: 'manager' as const };
const ADMIN = { id: 6, role: 'admin' as const };

function state(overrides: Partial<SubtaskState> = {}): SubtaskState {
  return { status: 'ongoing', assignedToId: ASSIGNEE.id, assignedById: ASSIGNER.id, projectManagerId: PROJECT_MANAGER.id, projectStatus: 'ongoing', ...overrides };
}

describe('decideSubtaskEdit', () => {
  it('lets the assignee send an ongoing subtask for approval, stamping submitted_at', () => {
    expect(decideSubtaskEdit(ASSIGNEE, state(), { status: 'pending_approval' }, NOW)).toEqual({
      ok: true,
      statusChange: { from: 'ongoing', to: 'pending_approval' },
      timestamps: { submittedAt: NOW },
    });
  });

  it('lets an assignee who is a manager (but not an approver) send for approval too', () => {
    const managerAssignee = { id: 9, role: 'manager' as const };
    expect(decideSubtaskEdit(managerAssignee, state({ assignedToId: 9 }), { status: 'pending_approval' }, NOW).ok).toBe(true);
  });

  it.each(['ongoing', 'completed'] as const)('refuses the assignee any other status (%s) with forbidden', (status) => {
    expect(decideSubtaskEdit(ASSIGNEE, state({ status: 'pending_approval' }), { status }, NOW)).toEqual({ ok: false, error: 'forbidden', message: ASSIGNEE_MAY_ONLY_SUBMIT });
  });

  it.each([{ name: 'Renamed' }, { priority: 'high' as const }, { due_date: '2026-04-01' }, { assigned_to_id: 4 }, { description: 'x' }])(
    'refuses the assignee any field edit (%o), even alongside a submission',
    (edit) => {
      expect(decideSubtaskEdit(ASSIGNEE, state(), edit, NOW)).toMatchObject({ ok: false, error: 'forbidden' });
      expect(decideSubtaskEdit(ASSIGNEE, state(), { ...edit, status: 'pending_approval' }, NOW)).toMatchObject({ ok: false, error: 'forbidden' });
    },
  );

  it.each(['pending_approval', 'completed'] as const)('refuses to send a %s subtask for approval again', (status) => {
    expect(decideSubtaskEdit(ASSIGNEE, state({ status }), { status: 'pending_approval' }, NOW)).toEqual({ ok: false, error: 'invalid', message: ONLY_ONGOING_CAN_BE_SUBMITTED });
  });

  it.each([
    ['another team member', OTHER_MEMBER],
    ['a manager of another project who did not assign it', OTHER_MANAGER],
    ['an admin', ADMIN],
  ])('refuses %s with forbidden', (_who, actor) => {
    expect(decideSubtaskEdit(actor, state(), { status: 'pending_approval' }, NOW)).toEqual({ ok: false, error: 'forbidden', message: NOT_YOUR_SUBTASK });
  });

  it('does not count a team member who assigned the subtask as an approver', () => {
    const teamAssigner = { id: 7, role: 'team_member' as const };
    expect(isApprover(teamAssigner, state({ assignedById: 7 }))).toBe(false);
    expect(decideSubtaskEdit(teamAssigner, state({ assignedById: 7 }), { status: 'completed' }, NOW)).toMatchObject({ ok: false, error: 'forbidden' });
  });

  it.each([
    ['project manager', PROJECT_MANAGER],
    ['assigning manager', ASSIGNER],
  ])('lets the %s approve a pending subtask', (_who, actor) => {
    expect(decideSubtaskEdit(actor, state({ status: 'pending_approval' }), { status: 'completed' }, NOW)).toEqual({
      ok: true,
      statusChange: { from: 'pending_approval', to: 'completed' },
      timestamps: { completedAt: NOW },
    });
  });

  it('lets an approver decline a pending subtask back to ongoing', () => {
    expect(decideSubtaskEdit(PROJECT_MANAGER, state({ status: 'pending_approval' }), { status: 'ongoing' }, NOW)).toEqual({
      ok: true,
      statusChange: { from: 'pending_approval', to: 'ongoing' },
      timestamps: {},
    });
  });

  it('lets an approver set any status from any status', () => {
    for (const from of SUBTASK_STATUSES) {
      for (const to of SUBTASK_STATUSES) {
        expect(decideSubtaskEdit(ASSIGNER, state({ status: from }), { status: to }, NOW).ok).toBe(true);
      }
    }
  });

  it('lets an approver edit fields without a status change', () => {
    expect(decideSubtaskEdit(PROJECT_MANAGER, state(), { name: 'New', priority: 'low', due_date: '2026-05-01', assigned_to_id: 4 }, NOW)).toEqual({ ok: true, timestamps: {} });
  });

  it('treats setting the current status as no status change', () => {
    expect(decideSubtaskEdit(PROJECT_MANAGER, state({ status: 'completed' }), { status: 'completed' }, NOW)).toEqual({ ok: true, timestamps: {} });
  });

  it('refuses every change under a completed project, even from an approver', () => {
    for (const actor of [PROJECT_MANAGER, ASSIGNER, ASSIGNEE]) {
      expect(decideSubtaskEdit(actor, state({ projectStatus: 'completed' }), { status: 'pending_approval' }, NOW)).toEqual({
        ok: false,
        error: 'invalid',
        message: COMPLETED_PROJECT_READ_ONLY,
      });
    }
  });

  it('answers forbidden rather than completed-project to someone with no part in the subtask', () => {
    expect(decideSubtaskEdit(OTHER_MEMBER, state({ projectStatus: 'completed' }), { status: 'pending_approval' }, NOW)).toMatchObject({ error: 'forbidden' });
  });

  it('treats a planned project like an ongoing one', () => {
    expect(decideSubtaskEdit(ASSIGNEE, state({ projectStatus: 'planned' }), { status: 'pending_approval' }, NOW).ok).toBe(true);
  });
});

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
