import type { DailyLog } from '@siteboard/shared';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { useConfirm } from '../../../components/ui/confirm-dialog';
import { PhotoPicker, PhotoStrip } from '../../../components/ui/photos';
import { WaitingPhotos, useWaitingPhotos } from '../../../components/waiting-photos';
import { useAuth } from '../../../lib/auth';
import { failureDetail } from '../../../lib/failure-message';
import { useDeleteLogPhoto } from '../api/delete-log-photo';
import { dailyLogPath } from '../api/get-daily-log';
import { formatDate, formatShortDate } from '../../../lib/format';
import { useUploadLogPhoto } from '../api/upload-log-photo';
import { LogBlock } from './log-view';

/**
 * The day's photos; whoever may add to the log adds more (the camera on a phone), one upload at a
 * time, each kept on the device without a signal; one's own photos can be removed until the log is signed.
 */
export function LogPhotos({ log, projectId, projectName, mayAdd, mayChangeOwn }: { log: DailyLog; projectId: number; projectName: string; mayAdd: boolean; mayChangeOwn: boolean }) {
  const { t } = useTranslation();
  const { user } = useAuth();
  const upload = useUploadLogPhoto();
  const remove = useDeleteLogPhoto();
  const [progress, setProgress] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const confirm = useConfirm({ title: t('dailyLog.photos.removeTitle'), confirmLabel: t('dailyLog.remove'), cancelLabel: t('dailyLog.cancel') });
  const open = log.status === 'draft';

  const onRemove = async (attachmentId: number) => {
    setFailure(null);
    if (!(await confirm.ask(t('dailyLog.photos.removeDescription')))) return;
    remove.mutate({ projectId, date: log.date, attachmentId }, { onError: (error) => setFailure(t('dailyLog.photos.removeFailed', { detail: failureDetail(error) })) });
  };

  const add = async (files: File[]) => {
    setFailure(null);
    for (const [index, file] of files.entries()) {
      setProgress(t('dailyLog.photos.uploading', { done: index + 1, count: files.length }));
      try {
        // Queued without a signal, it shows as waiting (and the page says it waits on the device).
        await upload.mutateAsync({ projectId, date: log.date, file, subject: projectName });
      } catch (error) {
        setFailure(t('dailyLog.photos.failed', { name: file.name, detail: failureDetail(error) }));
        break;
      }
    }
    setProgress(null);
  };

  const own = log.attachments.filter((photo) => photo.uploaded_by?.id === user?.id);
  const photosPath = `${dailyLogPath(projectId, log.date)}attachments/`;
  const waiting = useWaitingPhotos(photosPath);
  const subject = t('dailyLog.photos.subject', { date: formatDate(log.date) });
  return (
    <LogBlock title={t('dailyLog.section.photos')}>
      {log.attachments.length === 0 ? waiting.length === 0 && <p className="text-sm text-slate-500">{t('dailyLog.photos.none')}</p> : <PhotoStrip photos={log.attachments} subject={subject} caption={(photo) => (photo.for_date ? t('dailyLog.moved.for', { date: formatDate(photo.for_date) }) : null)} tileCaption={(photo) => (photo.for_date ? t('dailyLog.moved.for', { date: formatShortDate(photo.for_date, log.date) }) : null)} />}
      <WaitingPhotos path={photosPath} subject={subject} />
      {confirm.dialog}
      {mayChangeOwn && own.length > 0 && (
        <ul className="flex flex-wrap gap-2">
          {own.map((photo) => (
            <li key={photo.id}>
              <Button variant="ghost" size="sm" className="text-red-700" disabled={remove.isPending} onClick={() => void onRemove(photo.id)}>
                {t('dailyLog.photos.remove', { number: log.attachments.indexOf(photo) + 1 })}
              </Button>
            </li>
          ))}
        </ul>
      )}
      {open && mayAdd && <PhotoPicker disabled={progress !== null} onPick={(files) => void add(files)} />}
      {progress && (
        <p role="status" className="text-sm text-slate-600">
          {progress}
        </p>
      )}
      {failure && <Alert tone="error">{failure}</Alert>}
    </LogBlock>
  );
}
