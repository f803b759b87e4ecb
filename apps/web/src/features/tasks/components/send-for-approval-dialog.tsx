import { COMMENT_MAX, type Subtask } from '@siteboard/shared';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { TextAreaField } from '../../../components/ui/form-field';
import { Modal } from '../../../components/ui/modal';
import { PhotoPicker } from '../../../components/ui/photos';
import { ApiError, newIdempotencyKey } from '../../../lib/api-client';
import { useUploadPhoto } from '../api/add-to-record';
import type { useSubtaskStatusChange } from './use-subtask-status-change';

const SEND_TEXTS = { success: 'taskBoard.sentForApproval', failure: 'taskBoard.sendForApprovalFailed' };

export type Send = ReturnType<typeof useSubtaskStatusChange>['change'];

/**
 * "Send for Approval" in one step: photos of the work (the camera on a phone) and a note, then
 * the submission. The photos go up first, one at a time; if one is refused the task is not sent,
 * the dialog says which photo and why, and keeps the rest. It stays mounted once opened, so what
 * was picked and typed is still there when it opens again.
 */
export function SendForApprovalDialog({ subtask, send, busy, open, onOpenChange }: { subtask: Subtask; send: Send; busy: boolean; open: boolean; onOpenChange: (open: boolean) => void }) {
  const { t } = useTranslation();
  const upload = useUploadPhoto();
  const [photos, setPhotos] = useState<File[]>([]);
  const [note, setNote] = useState('');
  const [progress, setProgress] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    setFailure(null);
    const waiting = [...photos];
    // The photos and the submission are one thing the person did: the offline queue counts it once.
    const action = newIdempotencyKey();
    while (waiting.length > 0) {
      const photo = waiting[0]!;
      setProgress(t('record.photos.uploading', { done: photos.length - waiting.length + 1, count: photos.length }));
      try {
        await upload.mutateAsync({ subtaskId: subtask.id, file: photo, subject: subtask.name, action });
      } catch (error) {
        setFailure(t('record.photos.failed', { name: photo.name, detail: error instanceof ApiError ? error.detail : String(error) }));
        setPhotos(waiting);
        setProgress(null);
        return;
      }
      waiting.shift();
    }
    setPhotos([]);
    setProgress(null);
    // Sent, the outcome shows above the list, where the task now stands; refused, the dialog stays
    // open with the reason, the note kept.
    const refused = await send(subtask, 'pending_approval', SEND_TEXTS, note.trim() || undefined, action);
    if (refused) {
      setFailure(refused);
      return;
    }
    setNote('');
    onOpenChange(false);
  };

  const working = progress !== null || busy;
  return (
    <Modal open={open} onOpenChange={(next) => !working && onOpenChange(next)} title={t('record.send.title')} description={t('record.send.description')}>
        <form onSubmit={(event) => void submit(event)} noValidate className="space-y-4">
          <p className="break-words text-sm font-medium text-slate-800">{subtask.name}</p>
          {failure && <Alert tone="error">{failure}</Alert>}
          <div className="space-y-2">
            <PhotoPicker disabled={working} onPick={(files) => setPhotos((current) => [...current, ...files])} />
            <p className="text-xs text-slate-500">{t('record.photos.hint')}</p>
            {photos.length > 0 && (
              <ul className="space-y-1 text-sm text-slate-700">
                {photos.map((photo, index) => (
                  <li key={`${photo.name}-${index}`} className="flex items-center justify-between gap-2 rounded-lg bg-slate-50 px-3 py-1.5">
                    <span className="min-w-0 truncate">{photo.name}</span>
                    <button
                      type="button"
                      className="-my-1.5 -mr-2 inline-flex h-11 w-11 shrink-0 items-center justify-center rounded text-lg text-slate-500 hover:text-red-700 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-600"
                      aria-label={t('record.photos.remove', { name: photo.name })}
                      disabled={working}
                      onClick={() => setPhotos((current) => current.filter((_, position) => position !== index))}
                    >
                      ×
                    </button>
                  </li>
                ))}
              </ul>
            )}
          </div>
          <TextAreaField label={t('record.send.note')} maxLength={COMMENT_MAX} value={note} onChange={(event) => setNote(event.target.value)} />
          {progress && (
            <p role="status" className="text-sm text-slate-600">
              {progress}
            </p>
          )}
          <div className="flex flex-wrap justify-end gap-3">
            <Button variant="secondary" disabled={working} onClick={() => onOpenChange(false)}>
              {t('record.cancel')}
            </Button>
            <Button type="submit" disabled={working}>
              {t('taskBoard.sendForApproval')}
            </Button>
          </div>
        </form>
      </Modal>
  );
}
