import { canAddToSubtaskRecord, canDecideSubtask, canSubmitSubtask, COMMENT_MAX, subtaskParties, type Subtask, type User } from '@siteboard/shared';
import { useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { Alert } from '../../../components/ui/alert';
import { PriorityDot, StatusBadge } from '../../../components/ui/badges';
import { Button } from '../../../components/ui/button';
import { TextAreaField } from '../../../components/ui/form-field';
import { Modal } from '../../../components/ui/modal';
import { PersonText } from '../../../components/ui/person-text';
import { SUBTASK_PARAM } from '../../../components/ui/subtask-link';
import { WaitingPhotos } from '../../../components/waiting-photos';
import { ApiError, newIdempotencyKey } from '../../../lib/api-client';
import { useAuth } from '../../../lib/auth';
import { formatDate } from '../../../lib/format';
import type { ListSearch } from '../../../lib/lists';
import { useAddComment, useUploadPhoto } from '../api/add-to-record';
import { useSubtask, useSubtaskActivity } from '../api/get-subtask';
import { DeclineButton } from './decline-dialog';
import { PhotoPicker, PhotoStrip } from '../../../components/ui/photos';
import { SendForApprovalButton } from './send-for-approval';
import { SubtaskEditForm } from './subtask-edit-form';
import { SubtaskTimeline, WaitingComments } from './subtask-timeline';
import { useSubtaskStatusChange } from './use-subtask-status-change';
import { asItWillBe, useWaitingSubtasks } from './waiting-subtasks';

/**
 * The subtask named by `?subtask=` over whatever screen is open: its facts, what the viewer may do
 * with it (send for approval, approve or decline, edit), its timeline, a comment box and photos.
 */
export function SubtaskDrawer({ findAssignees }: { findAssignees: ListSearch<User> }) {
  const [params, setParams] = useSearchParams();
  const id = Number(params.get(SUBTASK_PARAM));
  const open = Number.isInteger(id) && id > 0;
  // While the drawer slides shut its title still names the task it showed.
  const shown = useRef(0);
  if (open) shown.current = id;
  const close = () => {
    const next = new URLSearchParams(params);
    next.delete(SUBTASK_PARAM);
    setParams(next, { replace: true });
  };
  return (
    <Modal open={open} onOpenChange={(next) => !next && close()} placement="side" title={<DrawerTitle id={shown.current} />}>
      {open && <SubtaskRecord id={id} findAssignees={findAssignees} />}
    </Modal>
  );
}

/** The task's name; while it cannot come (no signal and not on this device, or it failed) the drawer says what it is. */
function DrawerTitle({ id }: { id: number }) {
  const { t } = useTranslation();
  const subtask = useSubtask(id);
  if (subtask.data) return <>{subtask.data.name}</>;
  return <>{subtask.isError || subtask.fetchStatus === 'paused' ? t('record.heading') : '…'}</>;
}

function SubtaskRecord({ id, findAssignees }: { id: number; findAssignees: ListSearch<User> }) {
  const { t } = useTranslation();
  const subtask = useSubtask(id);
  const activity = useSubtaskActivity(id);
  const waiting = useWaitingSubtasks();
  if (subtask.isError || activity.isError) {
    return (
      <div className="space-y-3">
        <Alert tone="error">{t('record.loadFailed')}</Alert>
        <Button variant="secondary" onClick={() => void Promise.all([subtask.refetch(), activity.refetch()])}>
          {t('common.retry')}
        </Button>
      </div>
    );
  }
  // No signal and nothing on this device for this task: say so rather than load forever.
  if (!subtask.data) return <p role="status" className="text-sm text-slate-600">{subtask.fetchStatus === 'paused' ? t('record.offlineUnavailable') : t('app.loading')}</p>;
  return <RecordBody subtask={asItWillBe(subtask.data, waiting)} activity={activity} findAssignees={findAssignees} />;
}

function RecordBody({ subtask, activity, findAssignees }: { subtask: Subtask; activity: ReturnType<typeof useSubtaskActivity>; findAssignees: ListSearch<User> }) {
  const { entries } = activity;
  // Paused: the timeline is not on this device and cannot load without a signal.
  const timelinePaused = activity.fetchStatus === 'paused';
  const { t } = useTranslation();
  const { user } = useAuth();
  const status = useSubtaskStatusChange();
  const [editing, setEditing] = useState(false);
  const [saved, setSaved] = useState(false);
  const parties = subtaskParties(subtask);
  const viewer = user ?? { id: 0, role: 'team_member' as const };
  const mayDecide = canDecideSubtask(viewer, parties);
  const mayAdd = canAddToSubtaskRecord(viewer, parties);
  const photos = (entries ?? []).flatMap((entry) => (entry.attachment ? [entry.attachment] : []));
  const na = t('common.notAvailable');

  const facts: [string, ReactNode][] = [
    [t('record.status'), <StatusBadge key="status" status={subtask.status} />],
    [t('record.project'), subtask.major_task.project.name],
    [t('record.majorTask'), subtask.major_task.name],
    [t('record.assignee'), subtask.assigned_to ? <PersonText person={subtask.assigned_to} /> : na],
    [t('record.assignedBy'), subtask.assigned_by ? <PersonText person={subtask.assigned_by} /> : na],
    [t('record.dueDate'), formatDate(subtask.due_date) ?? na],
    [t('record.priority'), <PriorityDot key="priority" priority={subtask.priority} />],
  ];

  return (
    <div className="space-y-6">
      {status.message}
      {saved && <Alert tone="success">{t('record.saved')}</Alert>}
      {subtask.decline_reason && <Alert tone="error">{t('record.declinedBecause', { reason: subtask.decline_reason })}</Alert>}
      {parties.projectStatus === 'completed' && <Alert tone="info">{t('record.readOnly')}</Alert>}

      {editing ? (
        <SubtaskEditForm
          subtask={subtask}
          findAssignees={findAssignees}
          onDone={(changed) => {
            setEditing(false);
            setSaved(changed);
          }}
        />
      ) : (
        <section className="space-y-4">
          <dl className="grid grid-cols-[minmax(6rem,auto)_1fr] gap-x-4 gap-y-2 text-sm">
            {facts.map(([label, value]) => (
              <div key={label} className="contents">
                <dt className="font-medium text-slate-500">{label}</dt>
                <dd className="min-w-0 break-words text-slate-800">{value}</dd>
              </div>
            ))}
          </dl>
          {subtask.description && <p className="whitespace-pre-line break-words text-sm text-slate-700">{subtask.description}</p>}
          <div className="flex flex-wrap gap-2">
            {canSubmitSubtask(viewer, parties) && <SendForApprovalButton subtask={subtask} send={status.change} busy={status.saving !== null} />}
            {mayDecide && subtask.status === 'pending_approval' && (
              <>
                <Button className="px-3 py-1.5" disabled={status.saving !== null} onClick={() => void status.change(subtask, 'completed', { success: 'taskBoard.approved', failure: 'taskBoard.approveFailed' })}>
                  {t('taskBoard.approve')}
                </Button>
                <DeclineButton subtask={subtask} disabled={status.saving !== null} decline={(reason) => status.change(subtask, 'ongoing', { success: 'taskBoard.declined', failure: 'taskBoard.declineFailed' }, reason)} />
              </>
            )}
            {mayDecide && (
              <Button
                variant="secondary"
                className="px-3 py-1.5"
                onClick={() => {
                  setSaved(false);
                  setEditing(true);
                }}
              >
                {t('record.edit')}
              </Button>
            )}
          </div>
          {photos.length > 0 && <PhotoStrip photos={photos} subject={subtask.name} />}
        </section>
      )}

      <section aria-labelledby="timeline-title" className="space-y-3">
        <h3 id="timeline-title" className="text-sm font-semibold uppercase tracking-wide text-slate-500">
          {t('record.timeline')}
        </h3>
        {activity.earlier > 0 && (
          <Button variant="secondary" size="sm" disabled={activity.isFetchingNextPage} onClick={() => void activity.fetchNextPage()}>
            {t('record.showEarlier', { count: activity.earlier })}
          </Button>
        )}
        {entries ? <SubtaskTimeline entries={entries} subject={subtask.name} /> : <p role="status" className="text-sm text-slate-600">{timelinePaused ? t('record.timelineOffline') : t('app.loading')}</p>}
        <WaitingComments subtaskId={subtask.id} />
        <WaitingPhotos path={`/api/subtasks/${subtask.id}/attachments/`} subject={subtask.name} />
      </section>

      {mayAdd && <AddToRecord subtaskId={subtask.id} subject={subtask.name} />}
    </div>
  );
}

/** A comment and photos onto the record, for the subtask's parties. */
function AddToRecord({ subtaskId, subject }: { subtaskId: number; subject: string }) {
  const { t } = useTranslation();
  const comment = useAddComment();
  const upload = useUploadPhoto();
  const [text, setText] = useState('');
  const [failure, setFailure] = useState<string | null>(null);
  const [progress, setProgress] = useState<string | null>(null);
  const detail = (error: unknown) => (error instanceof ApiError ? error.detail : String(error));

  const send = async (event: React.FormEvent) => {
    event.preventDefault();
    if (!text.trim()) return;
    setFailure(null);
    try {
      await comment.mutateAsync({ subtaskId, text, subject });
      setText('');
    } catch (error) {
      setFailure(t('record.comment.failed', { detail: detail(error) }));
    }
  };

  const addPhotos = async (files: File[]) => {
    setFailure(null);
    // One pick is one action, however many photos: the offline queue counts it once.
    const action = newIdempotencyKey();
    for (const [index, file] of files.entries()) {
      setProgress(t('record.photos.uploading', { done: index + 1, count: files.length }));
      try {
        await upload.mutateAsync({ subtaskId, file, subject, action });
      } catch (error) {
        setFailure(t('record.photos.failed', { name: file.name, detail: detail(error) }));
        break;
      }
    }
    setProgress(null);
  };

  return (
    <section className="space-y-3 border-t border-slate-200 pt-4">
      {failure && <Alert tone="error">{failure}</Alert>}
      <form onSubmit={(event) => void send(event)} noValidate className="space-y-2">
        <TextAreaField label={t('record.comment.label')} maxLength={COMMENT_MAX} value={text} onChange={(event) => setText(event.target.value)} />
        <div className="flex flex-wrap items-center justify-between gap-2">
          <PhotoPicker disabled={progress !== null} onPick={(files) => void addPhotos(files)} />
          <Button type="submit" disabled={comment.isPending || !text.trim()}>
            {t('record.comment.submit')}
          </Button>
        </div>
        {progress && (
          <p role="status" className="text-sm text-slate-600">
            {progress}
          </p>
        )}
      </form>
    </section>
  );
}
