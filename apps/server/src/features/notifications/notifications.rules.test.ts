import { describe, expect, it } from 'vitest';
import { LANGUAGES, NOTIFICATION_TYPES, type NotificationType } from '@siteboard/shared';
import { englishText, notificationText, params, recipientsOf, textFor, type NotificationParams, type Parties } from './notifications.rules';

/** A person as the params name them: user id and e-mail. */
const who = (email: string) => ({ id: 1, email });

const task = { name: 'Pour footing B', projectName: 'Foundation' };

describe('notification texts', () => {
  const text = (type: NotificationType, p: NotificationParams) => englishText(type, p);

  it('names the person, the task and the project for each type', () => {
    expect(text('task_assignment', params.taskAssignment(who('mia@acme.test'), task, '2026-07-01'))).toBe("mia@acme.test assigned you 'Pour footing B' (Foundation), due 2026-07-01");
    expect(text('task_assignment', params.taskAssignment(who('mia@acme.test'), task, null))).toBe("mia@acme.test assigned you 'Pour footing B' (Foundation)");
    expect(text('task_submission', params.taskSubmission(who('ana@acme.test'), task))).toBe("ana@acme.test sent 'Pour footing B' (Foundation) for approval");
    expect(text('task_approved', params.taskApproved(who('mia@acme.test'), task))).toBe("mia@acme.test approved 'Pour footing B' (Foundation)");
    expect(text('task_declined', params.taskDeclined(who('mia@acme.test'), task))).toBe("mia@acme.test declined 'Pour footing B' (Foundation); it is ongoing again");
    expect(text('deadline_reminder', params.deadlineReminder(task, '2026-07-01'))).toBe("'Pour footing B' (Foundation) is due tomorrow (2026-07-01)");
    expect(text('approval_delay', params.approvalDelay(task, who('ana@acme.test'), 48))).toBe("'Pour footing B' (Foundation) from ana@acme.test has been waiting for approval for more than 48 hours");
    expect(text('approval_delay', params.approvalDelay(task, null, 1))).toBe("'Pour footing B' (Foundation) has been waiting for approval for more than 1 hour");
  });

  it("quotes what was said: a decline's reason, a submission's note, a comment", () => {
    expect(text('task_declined', params.taskDeclined(who('mia@acme.test'), task, 'rebar spacing wrong at grid C'))).toBe("mia@acme.test declined 'Pour footing B' (Foundation): rebar spacing wrong at grid C");
    expect(text('task_submission', params.taskSubmission(who('ana@acme.test'), task, 'photos of both sides'))).toBe("ana@acme.test sent 'Pour footing B' (Foundation) for approval: photos of both sides");
    expect(text('task_comment', params.taskComment(who('ana@acme.test'), task, 'Concrete truck late'))).toBe("ana@acme.test commented on 'Pour footing B' (Foundation): Concrete truck late");
    const long = text('task_comment', params.taskComment(who('ana@acme.test'), task, 'x'.repeat(2000)));
    expect(long.length).toBeLessThan(300);
    expect(long.endsWith('…')).toBe(true);
  });

  it('names the assignee and the date of an overdue subtask', () => {
    expect(text('task_overdue', params.taskOverdue(task, who('ana@acme.test'), '2026-07-01'))).toBe("'Pour footing B' (Foundation), assigned to ana@acme.test, is overdue: it was due 2026-07-01");
  });

  it('keeps names as they are written', () => {
    expect(text('task_approved', params.taskApproved(who('o.neil@acme.test'), { name: "Fix 'north' wall", projectName: 'Dock (phase 2)' }))).toBe("o.neil@acme.test approved 'Fix 'north' wall' (Dock (phase 2))");
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

describe('notificationText per language', () => {
  const task = { name: 'Pour slab', projectName: 'Dock 4' };
  const every: [NotificationType, NotificationParams][] = [
    ['task_assignment', params.taskAssignment(who('ana@example.test'), task, '2026-03-05')],
    ['task_assignment', params.taskAssignment(who('ana@example.test'), task, null)],
    ['task_submission', params.taskSubmission(who('ana@example.test'), task, 'done')],
    ['task_approved', params.taskApproved(who('ana@example.test'), task)],
    ['task_declined', params.taskDeclined(who('ana@example.test'), task, 'cracks')],
    ['task_declined', params.taskDeclined(who('ana@example.test'), task)],
    ['task_comment', params.taskComment(who('ana@example.test'), task, 'ok')],
    ['deadline_reminder', params.deadlineReminder(task, '2026-03-05')],
    ['approval_delay', params.approvalDelay(task, who('bo@example.test'), 1)],
    ['approval_delay', params.approvalDelay(task, null, 48)],
    ['task_overdue', params.taskOverdue(task, who('bo@example.test'), '2026-03-05')],
  ];

  it.each(LANGUAGES)('writes every type in %s, every value filled in', (language) => {
    for (const [type, p] of every) {
      const text = notificationText(type, p, language);
      expect(text, type).not.toMatch(/\{\w+\}/);
      expect(text, type).toContain('Pour slab');
      if (language !== 'en') expect(text, type).not.toBe(englishText(type, p));
    }
  });

  it('writes each language’s own words, quotes and dates', () => {
    const [type, p] = every[7]!;
    expect(notificationText(type, p, 'en')).toBe("'Pour slab' (Dock 4) is due tomorrow (2026-03-05)");
    expect(notificationText(type, p, 'es')).toBe('«Pour slab» (Dock 4) se entrega mañana (5 mar 2026)');
    expect(notificationText(type, p, 'fr')).toBe('« Pour slab » (Dock 4) arrive à échéance demain (5 mars 2026)');
    expect(notificationText(type, p, 'de')).toBe('„Pour slab“ (Dock 4) ist morgen fällig (05.03.2026)');
    expect(notificationText('approval_delay', params.approvalDelay(task, null, 1), 'de')).toBe('„Pour slab“ (Dock 4) wartet seit mehr als 1 Stunde auf Abnahme');
  });

  it('keeps a row without params (written before they were kept) as it was written', () => {
    expect(textFor({ type: 'task_approved', message: 'old text', params: null, personName: null }, 'es')).toBe('old text');
  });

  it('names the person by the name read with the row, by the stored e-mail without one', () => {
    const stored = { type: 'task_approved', message: 'stored English', params: params.taskApproved(who('ana@acme.test'), task) };
    expect(textFor({ ...stored, personName: 'Ana Ruiz' }, 'en')).toBe("Ana Ruiz approved 'Pour slab' (Dock 4)");
    expect(textFor({ ...stored, personName: 'Ana Ruiz' }, 'es')).toBe('Ana Ruiz aprobó «Pour slab» (Dock 4)');
    expect(textFor({ ...stored, personName: null }, 'en')).toBe("ana@acme.test approved 'Pour slab' (Dock 4)");
  });
});
