import type { Subtask } from '@siteboard/shared';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import type { PagedListState } from '../../../lib/lists';
import { usePhotosOf } from '../api/get-subtask';
import { DeclineButton } from './decline-dialog';
import { PhotoStrip } from '../../../components/ui/photos';
import { SubtaskListTable } from './subtask-list-table';
import { useSubtaskStatusChange } from './use-subtask-status-change';

const APPROVE = { success: 'taskBoard.approved', failure: 'taskBoard.approveFailed' };
const DECLINE = { success: 'taskBoard.declined', failure: 'taskBoard.declineFailed' };

/**
 * Subtasks waiting for this manager, a page at a time, with the photos sent as proof: each
 * approved (completed) at once, or declined (back to ongoing) with a reason.
 */
export function PendingApprovalsTable({ list, empty }: { list: PagedListState<Subtask>; empty: string }) {
  const { t } = useTranslation();
  const { change, saving, message } = useSubtaskStatusChange();
  const photos = usePhotosOf(list.items.map((subtask) => subtask.id)).data ?? [];

  return (
    <div className="space-y-3">
      {message}
      <SubtaskListTable
        subtasks={list.items}
        more={list}
        columns={['project', 'majorTask', 'subtaskTitle', 'teamMember', 'dueDate']}
        label={t('taskBoard.pendingApprovals')}
        empty={empty}
        action={{
          header: t('taskBoard.column.action'),
          render: (subtask, describedBy) => (
            <div className="space-y-2">
              {/* What the crew said with it: read before deciding, without opening the task. */}
              {subtask.submission_note && <p className="whitespace-pre-line break-words text-sm text-slate-700">{t('taskBoard.submissionNote', { note: subtask.submission_note })}</p>}
              <PhotoStrip photos={photos.filter((photo) => photo.subtask_id === subtask.id)} subject={subtask.name} />
              <div className="flex flex-wrap gap-2">
                <Button className="px-3 py-1.5" aria-describedby={describedBy} disabled={saving?.id === subtask.id} onClick={() => void change(subtask, 'completed', APPROVE)}>
                  {t('taskBoard.approve')}
                </Button>
                <DeclineButton subtask={subtask} describedBy={describedBy} disabled={saving?.id === subtask.id} decline={(reason) => change(subtask, 'ongoing', DECLINE, reason)} />
              </div>
            </div>
          ),
        }}
      />
    </div>
  );
}
