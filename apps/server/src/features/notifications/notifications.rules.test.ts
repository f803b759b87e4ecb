import { describe, expect, it } from 'vitest';
import { NOTIFICATION_TYPES, type NotificationType } from '@siteboard/shared';
import { englishText, params, recipientsOf, type NotificationParams, type Parties } from './notifications.rules';

const task = { name: 'Pour footing B', projectName: 'Foundation' };

describe('notification texts', () => {
  const text = (type: NotificationType, p: NotificationParams) => englishText(type, p);

  it('names the person, the task and the project for each type', () => {
    expect(text('task_assignment', params.taskAssignment('mia@acme.test', task, '2026-07-01'))).toBe("mia@acme.test assigned you 'Pour footing B' (Foundation), due 2026-07-01");
    expect(text('task_assignment', params.taskAssignment('mia@acme.test', task, null))).toBe("mia@acme.test assigned you 'Pour footing B' (Foundation)");
    expect(text('task_submission', params.taskSubmission('ana@acme.test', task))).toBe("ana@acme.test sent 'Pour footing B' (Foundation) for approval");
    expect(text('task_approved', params.taskApproved('mia@acme.test', task))).toBe("mia@acme.test approved 'Pour footing B' (Foundation)");
    expect(text('task_declined', params.taskDeclined('mia@acme.test', task))).toBe("mia@acme.test declined 'Pour footing B' (Foundation); it is ongoing again");
    expect(text('deadline_reminder', params.deadlineReminder(task, '2026-07-01'))).toBe("'Pour footing B' (Foundation) is due tomorrow (2026-07-01)");
    expect(text('approval_delay', params.approvalDelay(task, 'ana@acme.test', 48))).toBe("'Pour footing B' (Foundation) from ana@acme.test has been waiting for approval for more than 48 hours");
    expect(text('approval_delay', params.approvalDelay(task, null, 1))).toBe("'Pour footing B' (Foundation) has been waiting for approval for more than 1 hour");
  });

  it("quotes what was said: a decline's reason, a submission's note, a comment", () => {
    expect(text('task_declined', params.taskDeclined('mia@acme.test', task, 'rebar spacing wrong at grid C'))).toBe("mia@acme.test declined 'Pour footing B' (Foundation): rebar spacing wrong at grid C");
    expect(text('task_submission', params.taskSubmission('ana@acme.test', task, 'photos of both sides'))).toBe("ana@acme.test sent 'Pour footing B' (Foundation) for approval: photos of both sides");
    expect(text('task_comment', params.taskComment('ana@acme.test', task, 'Concrete truck late'))).toBe("ana@acme.test commented on 'Pour footing B' (Foundation): Concrete truck late");
    const long = text('task_comment', params.taskComment('ana@acme.test', task, 'x'.repeat(2000)));
    expect(long.length).toBeLessThan(300);
    expect(long.endsWith('…')).toBe(true);
  });

  it('names the assignee and the date of an overdue subtask', () => {
    expect(text('task_overdue', params.taskOverdue(task, 'ana@acme.test', '2026-07-01'))).toBe("'Pour footing B' (Foundation), assigned to ana@acme.test, is overdue: it was due 2026-07-01");
  });

  it('keeps names as they are written', () => {
    expect(text('task_approved', params.taskApproved('o.neil@acme.test', { name: "Fix 'north' wall", projectName: 'Dock (phase 2)' }))).toBe("o.neil@acme.test approved 'Fix 'north' wall' (Dock (phase 2))");
  });
});

describe('recipientsOf', () => {
  const parties: Parties = { assigneeId: 1, assignerId: 2, projectManagerId: 3 };

  it('sends a comment to every other party, and an overdue subtask to the project manager', () => {
    expect(recipientsOf('task_comment', parties, 1)).toEqual([2, 3]);
    expect(recipientsOf('task_comment', parties, 3)).toEqual([1, 2]);
    expect(recipientsOf('task_overdue', parties, null)).toEqual([3]);
  });

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
