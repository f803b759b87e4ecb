import { useState, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { Modal } from '../../../components/ui/modal';
import { formatDateTime } from '../../../lib/format';
import { countActions, discardEntry, flushQueue, queue, retryEntry } from '../offline-queue';

/**
 * "Waiting to sync (N)": the writes made on this device that the server has not answered yet,
 * and those it refused, each with its reason, to retry or discard. Nothing shows when all is sent.
 */
export function SyncStatus() {
  const { t } = useTranslation();
  const entries = useSyncExternalStore(queue.subscribe, queue.entries);
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  if (entries.length === 0) return null;
  const failed = countActions(entries.filter((entry) => entry.status === 'failed'));
  const act = async (action: () => Promise<void>) => {
    setBusy(true);
    try {
      await action();
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <Button variant={failed > 0 ? 'danger' : 'secondary'} className="px-3 py-1.5" onClick={() => setOpen(true)} data-testid="sync-status">
        {failed > 0 ? t('offline.failedCount', { count: failed }) : t('offline.waiting', { count: countActions(entries) })}
      </Button>
      <Modal open={open} onOpenChange={setOpen} title={t('offline.queueTitle')} description={t('offline.queueDescription')}>
        <ol className="space-y-2">
          {entries.map((entry) => (
            <li key={entry.id} className="rounded-lg border border-slate-200 px-3 py-2 text-sm">
              <div className="flex flex-wrap items-center justify-between gap-2">
                <span className="min-w-0 break-words font-medium text-slate-800">
                  {t(`offline.write.${entry.kind}`)}
                  {entry.subject && <span className="font-normal text-slate-600"> — {entry.subject}</span>}
                </span>
                <time className="text-xs text-slate-500" dateTime={entry.createdAt}>
                  {formatDateTime(entry.createdAt)}
                </time>
              </div>
              <p className={entry.status === 'failed' ? 'mt-1 text-red-700' : 'mt-1 text-slate-600'}>
                {entry.status === 'failed' ? t('offline.status.failed', { detail: entry.detail }) : t('offline.status.waiting')}
              </p>
              {entry.status === 'failed' && (
                <div className="mt-2 flex gap-2">
                  <Button className="px-3 py-1" disabled={busy} onClick={() => void act(() => retryEntry(entry.id))}>
                    {t('offline.retry')}
                  </Button>
                  <Button variant="secondary" className="px-3 py-1" disabled={busy} onClick={() => void act(() => discardEntry(entry.id))}>
                    {t('offline.discard')}
                  </Button>
                </div>
              )}
            </li>
          ))}
        </ol>
        <div className="mt-4 flex justify-end gap-3">
          <Button variant="secondary" disabled={busy} onClick={() => void act(flushQueue)}>
            {t('offline.syncNow')}
          </Button>
          <Button variant="secondary" onClick={() => setOpen(false)}>
            {t('offline.close')}
          </Button>
        </div>
      </Modal>
    </>
  );
}
