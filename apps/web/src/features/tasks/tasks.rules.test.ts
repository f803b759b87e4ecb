import { describe, expect, it } from 'vitest';
import { canDecideSubtask, canSendForApproval, priorityCounts, progressOf } from './tasks.rules';

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

describe('who may change a subtask status', () => {
  const manager = { id: 2, role: 'manager' as const };
  it('is the project manager or the assigner', () => {
    expect(canDecideSubtask(manager, { assigned_by: { id: 9, email: 'x' } }, 2)).toBe(true);
    expect(canDecideSubtask(manager, { assigned_by: { id: 2, email: 'x' } }, 3)).toBe(true);
    expect(canDecideSubtask(manager, { assigned_by: { id: 9, email: 'x' } }, 3)).toBe(false);
    expect(canDecideSubtask(manager, { assigned_by: null }, null)).toBe(false);
  });
  it('is never a team member', () => {
    expect(canDecideSubtask({ id: 2, role: 'team_member' }, { assigned_by: { id: 2, email: 'x' } }, 2)).toBe(false);
  });
});

describe('canSendForApproval', () => {
  const member = { id: 7, role: 'team_member' as const };
  const subtask = { status: 'ongoing' as const, assigned_to: { id: 7, email: 'tm@example.com' }, major_task: { project: { status: 'ongoing' } } };

  it("offers it on the assignee's own ongoing subtask of a live project", () => {
    expect(canSendForApproval(member, subtask)).toBe(true);
    expect(canSendForApproval(member, { ...subtask, major_task: { project: { status: 'planned' } } })).toBe(true);
  });

  it('refuses other assignees, other statuses, completed projects and managers', () => {
    expect(canSendForApproval({ ...member, id: 8 }, subtask)).toBe(false);
    expect(canSendForApproval(member, { ...subtask, status: 'pending_approval' })).toBe(false);
    expect(canSendForApproval(member, { ...subtask, major_task: { project: { status: 'completed' } } })).toBe(false);
    expect(canSendForApproval({ ...member, role: 'manager' }, subtask)).toBe(false);
  });
});
