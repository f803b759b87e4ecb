import type { Subtask, SubtaskStatus } from '@siteboard/shared';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert } from '../../../components/ui/alert';
import { ApiError } from '../../../lib/api-client';
import { findSubtaskIn } from '../../../lib/query-keys';
import { useUpdateSubtask } from '../api/update-subtask';

/** The message keys of one kind of status change: what shows when it worked, and when it did not. */
export interface StatusChangeTexts {
  success: string;
  failure: string;
}

/**
 * Changes a subtask's status from a list, one row at a time: which row is saving (and to which
 * status), and the outcome as a message above the list. A failure replaces an earlier success:
 * the two never show together (spec §8), and it says the server's reason after the spec's words.
 * Resolves once the lists show the new state: to null when it worked, else to the failure's text
 * (a dialog the change was made from shows it too, over the list's message).
 */
export function useSubtaskStatusChange() {
  const { t } = useTranslation();
  const update = useUpdateSubtask();
  const queryClient = useQueryClient();
  const [outcome, setOutcome] = useState<{ tone: 'success' | 'error'; text: string; subtaskId: number; status: SubtaskStatus } | null>(null);
  const [saving, setSaving] = useState<{ id: number; status: SubtaskStatus } | null>(null);

  // "Task sent for approval!" speaks of a state: once fresh data shows the subtask has moved on
  // (declined, approved, changed by someone else), the message goes.
  useEffect(() => {
    if (outcome?.tone !== 'success') return;
    return queryClient.getQueryCache().subscribe((event) => {
      if (event.type !== 'updated' || event.action.type !== 'success') return;
      const now = subtaskStatusIn(event.query.state.data, outcome.subtaskId);
      if (now !== undefined && now !== outcome.status) setOutcome(null);
    });
  }, [outcome, queryClient]);

  const change = async (subtask: Subtask, status: SubtaskStatus, texts: StatusChangeTexts, comment?: string, action?: string): Promise<string | null> => {
    setSaving({ id: subtask.id, status });
    try {
      await update.mutateAsync({ id: subtask.id, status, comment, subject: subtask.name, action });
      setOutcome({ tone: 'success', text: t(texts.success), subtaskId: subtask.id, status });
      return null;
    } catch (error) {
      const reason = error instanceof ApiError ? ` ${error.detail}` : '';
      const text = `${t(texts.failure)}${reason}`;
      setOutcome({ tone: 'error', text, subtaskId: subtask.id, status });
      return text;
    } finally {
      setSaving(null);
    }
  };

  return { change, saving, message: outcome && <Alert tone={outcome.tone}>{outcome.text}</Alert> };
}

/** The status of subtask `id` wherever it stands in a query's answer (one subtask, a list, pages, a project's tasks), if there. */
function subtaskStatusIn(data: unknown, id: number): SubtaskStatus | undefined {
  return findSubtaskIn(data, id, (subtask) => typeof subtask.status === 'string')?.status as SubtaskStatus | undefined;
}
