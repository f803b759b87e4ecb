import { canSubmitSubtask, subtaskParties, type Subtask } from '@siteboard/shared';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { useAuth } from '../../../lib/auth';
import { useUpdateSubtask } from '../api/update-subtask';
import type { SubtaskAction } from './subtask-list-table';

/**
 * The team member's "Send for Approval" column for a subtask list, with its outcome message:
 * the button shows only where the server would accept it (spec §4).
 */
export function useSendForApproval(): { action: SubtaskAction | undefined; message: React.ReactNode } {
  const { t } = useTranslation();
  const { user } = useAuth();
  const update = useUpdateSubtask();
  const [outcome, setOutcome] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);
  const [busyId, setBusyId] = useState<number | null>(null);

  const send = async (subtask: Subtask) => {
    setBusyId(subtask.id);
    try {
      await update.mutateAsync({ id: subtask.id, status: 'pending_approval' });
      setOutcome({ tone: 'success', text: t('taskBoard.sentForApproval') });
    } catch {
      setOutcome({ tone: 'error', text: t('taskBoard.sendForApprovalFailed') });
    } finally {
      setBusyId(null);
    }
  };

  const viewer = user;
  const action: SubtaskAction | undefined =
    viewer
      ? {
          header: t('taskBoard.column.action'),
          render: (subtask) =>
            canSubmitSubtask(viewer, subtaskParties(subtask)) ? (
              <Button className="px-3 py-1.5" disabled={busyId === subtask.id} onClick={() => void send(subtask)}>
                {t('taskBoard.sendForApproval')}
              </Button>
            ) : null,
        }
      : undefined;
  return { action, message: outcome && <Alert tone={outcome.tone}>{outcome.text}</Alert> };
}
