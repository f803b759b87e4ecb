import type { Subtask, SubtaskStatus } from '@siteboard/shared';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert } from '../../../components/ui/alert';
import { ApiError } from '../../../lib/api-client';
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
  const [outcome, setOutcome] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);
  const [saving, setSaving] = useState<{ id: number; status: SubtaskStatus } | null>(null);

  const change = async (subtask: Subtask, status: SubtaskStatus, texts: StatusChangeTexts, comment?: string): Promise<string | null> => {
    setSaving({ id: subtask.id, status });
    try {
      await update.mutateAsync({ id: subtask.id, status, comment });
      setOutcome({ tone: 'success', text: t(texts.success) });
      return null;
    } catch (error) {
      const reason = error instanceof ApiError ? ` ${error.detail}` : '';
      const text = `${t(texts.failure)}${reason}`;
      setOutcome({ tone: 'error', text });
      return text;
    } finally {
      setSaving(null);
    }
  };

  return { change, saving, message: outcome && <Alert tone={outcome.tone}>{outcome.text}</Alert> };
}
