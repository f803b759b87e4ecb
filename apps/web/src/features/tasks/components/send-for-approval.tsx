import { canSubmitSubtask, subtaskParties, type Subtask } from '@siteboard/shared';

import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { useAuth } from '../../../lib/auth';
import { loadOnApproach, preloadableLazy, useMountedFromFirstOpen } from '../../../lib/preloadable-lazy';
import type { Send } from './send-for-approval-dialog';
import type { SubtaskAction } from './subtask-list-table';
import { useSubtaskStatusChange } from './use-subtask-status-change';
import { LazyPart } from '../../../components/ui/lazy-part';

// The dialog (its modal, photo picker and note field) loads when the button is pointed at, focused or
// first pressed: the lists that show the button, the team member's phone dashboard among them, draw
// without it (decision record 099), as the Decline button's does (095).
const { Component: SendForApprovalDialog, load: loadDialog } = preloadableLazy(() => import('./send-for-approval-dialog').then((module) => module.SendForApprovalDialog));

/** "Send for Approval": opens the dialog that takes the work's photos and a note, then sends it. `describedBy`: the row's subtask name. */
export function SendForApprovalButton({ subtask, send, busy, describedBy }: { subtask: Subtask; send: Send; busy: boolean; describedBy?: string }) {
  const { t } = useTranslation();
  const { open, setOpen, mounted, show } = useMountedFromFirstOpen();
  return (
    <>
      <Button
        className="px-3 py-1.5"
        aria-describedby={describedBy}
        disabled={busy}
        {...loadOnApproach(loadDialog)}
        onClick={show}
      >
        {t('taskBoard.sendForApproval')}
      </Button>
      {mounted && (
        <LazyPart>
          <SendForApprovalDialog subtask={subtask} send={send} busy={busy} open={open} onOpenChange={setOpen} />
        </LazyPart>
      )}
    </>
  );
}

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
        render: (subtask, describedBy) =>
          canSubmitSubtask(user, subtaskParties(subtask)) ? <SendForApprovalButton subtask={subtask} send={change} busy={saving?.id === subtask.id} describedBy={describedBy} /> : null,
      }
    : undefined;
  return { action, message };
}
