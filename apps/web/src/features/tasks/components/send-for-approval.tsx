import { canSubmitSubtask, subtaskParties } from '@siteboard/shared';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { useAuth } from '../../../lib/auth';
import type { SubtaskAction } from './subtask-list-table';
import { useSubtaskStatusChange } from './use-subtask-status-change';

const SEND_TEXTS = { success: 'taskBoard.sentForApproval', failure: 'taskBoard.sendForApprovalFailed' };

/**
 * The "Send for Approval" column for a list of the viewer's subtasks, with its outcome message:
 * the button shows only where the server would accept it (spec §4).
 */
export function useSendForApproval(): { action: SubtaskAction | undefined; message: React.ReactNode } {
  const { t } = useTranslation();
  const { user } = useAuth();
  const { change, saving, message } = useSubtaskStatusChange();
  const action: SubtaskAction | undefined = user
    ? {
        header: t('taskBoard.column.action'),
        render: (subtask) =>
          canSubmitSubtask(user, subtaskParties(subtask)) ? (
            <Button className="px-3 py-1.5" disabled={saving?.id === subtask.id} onClick={() => void change(subtask, 'pending_approval', SEND_TEXTS)}>
              {t('taskBoard.sendForApproval')}
            </Button>
          ) : null,
      }
    : undefined;
  return { action, message };
}
