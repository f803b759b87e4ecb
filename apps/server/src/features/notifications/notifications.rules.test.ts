import { describe, expect, it } from 'vitest';
import { NOTIFICATION_TYPES, type NotificationType } from '@siteboard/shared';
import { messages, recipientsOf, type Parties } from './notifications.rules';

const task = { name: 'Pour footing B', projectName: 'Foundation' };

describe('notification messages', () => {
  it('names the person, the task and the project for each type', () => {
    expect(messages.taskAssignment('mia@acme.test', task, '2026-07-01')).toBe("mia@acme.test assigned you 'Pour footing B' (Foundation), due 2026-07-01");
    expect(messages.taskAssignment('mia@acme.test', task, null)).toBe("mia@acme.test assigned you 'Pour footing B' (Foundation)");
    expect(messages.taskSubmission('ana@acme.test', task)).toBe("ana@acme.test sent 'Pour footing B' (Foundation) for approval");
    expect(messages.taskApproved('mia@acme.test', task)).toBe("mia@acme.test approved 'Pour footing B' (Foundation)");
    expect(messages.taskDeclined('mia@acme.test', task)).toBe("mia@acme.test declined 'Pour footing B' (Foundation); it is ongoing again");
    expect(messages.deadlineReminder(task, '2026-07-01')).toBe("'Pour footing B' (Foundation) is due tomorrow (2026-07-01)");
    expect(messages.approvalDelay(task, 'ana@acme.test', 48)).toBe("'Pour footing B' (Foundation) from ana@acme.test has been waiting for approval for more than 48 hours");
    expect(messages.approvalDelay(task, null, 1)).toBe("'Pour footing B' (Foundation) has been waiting for approval for more than 1 hour");
  });

  it('keeps names as they are written', () => {
    expect(messages.taskApproved('o.neil@acme.test', { name: "Fix 'north' wall", projectName: 'Dock (phase 2)' })).toBe("o.neil@acme.test approved 'Fix 'north' wall' (Dock (phase 2))");
  });
});

describe('recipientsOf', () => {
  const parties: Parties = { assigneeId: 1, assignerId: 2, projectManagerId: 3 };

  it('sends assignments, approvals and declines to the assignee', () => {
    for (const type of ['task_assignment', 'task_approved', 'task_declined', 'deadline_reminder'] as const) {
      expect(recipientsOf(type, parties, 9), type).toEqual([1]);
    }
  });

  it('never tells people of their own act: assigning to oneself, approving one’s own task', () => {
    expect(recipientsOf('task_assignment', parties, 1)).toEqual([]);
    expect(recipientsOf('task_approved', parties, 1)).toEqual([]);
  });

  it('sends a submission to the project manager and the assigner, once each, never to the submitter', () => {
    expect(recipientsOf('task_submission', parties, 1)).toEqual([3, 2]);
    expect(recipientsOf('task_submission', { assigneeId: 1, assignerId: 3, projectManagerId: 3 }, 1)).toEqual([3]);
    expect(recipientsOf('task_submission', { assigneeId: 3, assignerId: 2, projectManagerId: 3 }, 3)).toEqual([2]);
    expect(recipientsOf('task_submission', { assigneeId: 1, assignerId: null, projectManagerId: null }, 1)).toEqual([]);
  });

  it('sends an approval delay to the approvers, not to the one waiting', () => {
    expect(recipientsOf('approval_delay', parties, null)).toEqual([3, 2]);
    expect(recipientsOf('approval_delay', { assigneeId: 2, assignerId: 2, projectManagerId: 3 }, null)).toEqual([3]);
  });

  it('skips people who are gone (null)', () => {
    expect(recipientsOf('task_approved', { assigneeId: null, assignerId: 2, projectManagerId: 3 }, 2)).toEqual([]);
  });

  it('has a rule for every type', () => {
    for (const type of NOTIFICATION_TYPES as readonly NotificationType[]) expect(Array.isArray(recipientsOf(type, parties, null))).toBe(true);
  });
});
