import { useState, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { useConfirm } from '../../../components/ui/confirm-dialog';
import { Modal } from '../../../components/ui/modal';
import { formatDateTime, formatNumber } from '../../../lib/format';
import { countActions, discardEntries, flushQueue, groupByAction, queue, retryEntry, type QueuedEntry } from '../offline-queue';

/**
 * "Waiting to sync (N)": the writes made on this device that the server has not answered yet,
 * and those it refused, each with its reason, to retry or discard. Nothing shows when all is sent.
 */
export function SyncStatus() {
  const { t } = useTranslation();
  const entries = useSyncExternalStore(queue.subscribe, queue.entries);
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const confirm = useConfirm({ title: t('offline.discardTitle'), confirmLabel: t('offline.discard'), cancelLabel: t('offline.keep') });
  if (entries.length === 0) return null;
  const failed = countActions(entries.filter((entry) => entry.status === 'failed'));
  // One action's writes by kind, in the order made: "Photo (2) + Task change".
  const describe = (group: QueuedEntry[]) => {
    const kinds = new Map<QueuedEntry['kind'], number>();
    for (const entry of group) kinds.set(entry.kind, (kinds.get(entry.kind) ?? 0) + 1);
    return [...kinds].map(([kind, count]) => (count > 1 ? `${t(`offline.write.${kind}`)} (${count})` : t(`offline.write.${kind}`))).join(' + ');
  };
  const act = async (action: () => Promise<void>) => {
    setBusy(true);
    try {
      await action();
    } finally {
      setBusy(false);
    }
  };

  // Gone for good once discarded: said first, with what it was (its words show in the list above).
  const discard = async (group: QueuedEntry[]) => {
    if (await confirm.ask(t('offline.discardDescription', { what: describe(group) }))) await act(() => discardEntries(group.map((entry) => entry.id)));
  };

  return (
    <>
      {confirm.dialog}
      <Button variant={failed > 0 ? 'danger' : 'secondary'} className="px-3 py-1.5" onClick={() => setOpen(true)} data-testid="sync-status">
        {failed > 0 ? t('offline.failedCount', { count: failed }) : t('offline.waiting', { count: countActions(entries) })}
      </Button>
      <Modal open={open} onOpenChange={setOpen} title={t('offline.queueTitle')} description={t('offline.queueDescription')}>
        <ol className="space-y-2">
          {groupByAction(entries).map((group) => {
            const [first] = group as [QueuedEntry, ...QueuedEntry[]];
            const failedEntry = group.find((entry) => entry.status === 'failed');
            const subject = group.find((entry) => entry.subject)?.subject;
            return (
              <li key={first.id} className="rounded-lg border border-slate-200 px-3 py-2 text-sm">
                <div className="flex flex-wrap items-center justify-between gap-2">
                  <span className="min-w-0 break-words font-medium text-slate-800">
                    {describe(group)}
                    {subject && <span className="font-normal text-slate-600"> — {subject}</span>}
                  </span>
                  <time className="text-xs text-slate-500" dateTime={first.createdAt}>
                    {formatDateTime(first.createdAt)}
                  </time>
                </div>
                {typedHours(group).map((hours, index) => (
                  <p key={`hours-${index}`} className="mt-1 font-medium text-slate-700">
                    {t('dailyLog.entries.hoursValue', { hours: formatNumber(hours) })}
                  </p>
                ))}
                {typedWords(group).map((words, index) => (
                  <p key={index} className="mt-1 whitespace-pre-wrap break-words text-slate-700">
                    “{words}”
                  </p>
                ))}
                <p className={failedEntry ? 'mt-1 text-red-700' : 'mt-1 text-slate-600'}>
                  {failedEntry ? t('offline.status.failed', { detail: failedEntry.detail }) : t('offline.status.waiting')}
                </p>
                {failedEntry && (
                  <div className="mt-2 flex gap-2">
                    <Button className="px-3 py-1" disabled={busy} onClick={() => void act(() => retryEntry(failedEntry.id))}>
                      {t('offline.retry')}
                    </Button>
                    <Button variant="secondary" className="px-3 py-1" disabled={busy} onClick={() => void discard(group)}>
                      {t('offline.discard')}
                    </Button>
                  </div>
                )}
              </li>
            );
          })}
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

/** The hours a person logged in an action's writes (their entry on a day's log): shown with the words, as they are lost with them if discarded. */
function typedHours(group: readonly QueuedEntry[]): number[] {
  return group.flatMap((entry) => {
    const hours = (entry.json as { hours?: unknown } | undefined)?.hours;
    return typeof hours === 'number' && Number.isFinite(hours) ? [hours] : [];
  });
}

/** The words a person typed into an action's writes (a comment, the note sent with work, a day's notes), to copy before it is discarded. */
function typedWords(group: readonly QueuedEntry[]): string[] {
  return group.flatMap((entry) => {
    const json = entry.json as { text?: unknown; comment?: unknown; note?: unknown; notes?: unknown } | undefined;
    return [json?.text, json?.comment, json?.note, json?.notes].filter((words): words is string => typeof words === 'string' && words.trim() !== '');
  });
}
