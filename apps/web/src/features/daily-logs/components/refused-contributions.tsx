import type { DailyLogProject } from '@siteboard/shared';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ActionAlert, Alert, RetryAlert } from '../../../components/ui/alert';
import { resendRefusedWriteTo } from '../../../lib/api-client';
import { formatDate, formatNumber } from '../../../lib/format';
import { useWaitingWrites, wasSent } from '../../../lib/waiting-writes';
import { dailyLogPath } from '../api/get-daily-log';
import { useRecentLogs } from '../api/get-daily-logs';

/** A contribution to a day's log (one's hours and note, a photo), as the queue keeps its path. */
const CONTRIBUTION = /^\/api\/projects\/(\d+)\/daily-logs\/(\d{4}-\d{2}-\d{2})\/(entries|attachments)\/(?:\?for_date=(\d{4}-\d{2}-\d{2}))?$/;

/**
 * What a waiting write adds to a daily log, read from its address: the project, the day of the log
 * it went to, whether an entry or a photo, and the day it was for (one moved here from an earlier
 * day's signed log says so in its address; moved on again, it keeps that first day).
 */
export function contributionOf(path: string): { projectId: number; logDate: string; part: 'entries' | 'attachments'; forDate: string } | undefined {
  const match = CONTRIBUTION.exec(path);
  return match ? { projectId: Number(match[1]), logDate: match[2]!, part: match[3] as 'entries' | 'attachments', forDate: match[4] ?? match[2]! } : undefined;
}

/**
 * The person's hours, notes and photos for a day of this project that the server refused once
 * their signal was back (the day's log was signed meanwhile), each with the reason. While the
 * project's log of today is open, "Add to today's log" sends it there instead, so the work is not
 * lost; the server decides again, and a signed log stays closed. Discarding stays in the device's
 * list of changes. What is moved goes as it was written, with the day it was for beside it (the
 * address's `for_date`, records 123 and 129), which today's log shows in each reader's language, so
 * whoever reads or signs it is not misled. Once the server took it into today's log (not
 * when it was refused again and discarded), the screen says so, with the way to today's log
 * (`onOpenToday`) while another day is shown (`date`).
 */
export function RefusedContributions({ project, date: shown, onOpenToday }: { project: DailyLogProject; date: string; onOpenToday: () => void }) {
  const { t } = useTranslation();
  // The writes moved to today's log on this screen; said to be added once the server took them.
  const [moved, setMoved] = useState<readonly number[]>([]);
  const writes = useWaitingWrites();
  const added = moved.some(wasSent);
  const recent = useRecentLogs(project);
  const todayOpen = project.status !== 'completed' && recent.data !== undefined && recent.data.find((log) => log.date === project.today)?.status !== 'signed';
  const refused = writes.flatMap((write) => {
    const contribution = contributionOf(write.path);
    return write.status === 'failed' && write.method === 'POST' && contribution?.projectId === project.id ? [{ write, date: contribution.forDate, logDate: contribution.logDate, part: contribution.part }] : [];
  });
  // The day it was for goes beside the entry or photo as a date, never into the crew's own text.
  const moveToToday = async (id: number, part: string, date: string) => {
    await resendRefusedWriteTo(id, `${dailyLogPath(project.id, project.today)}${part}/?for_date=${date}`);
    setMoved((ids) => [...ids, id]);
  };
  if (refused.length === 0 && !added) return null;
  return (
    <div className="space-y-2">
      {added && (
        <ActionAlert tone="success" action={shown !== project.today ? { label: t('dailyLog.moved.openToday'), onClick: onOpenToday } : undefined}>
          {t('dailyLog.moved.added', { date: formatDate(project.today) })}
        </ActionAlert>
      )}
      {refused.map(({ write, date, logDate, part }) => {
        const { hours, note } = (write.json ?? {}) as { hours?: number; note?: string };
        const message = (
          <>
            {t(part === 'entries' ? 'dailyLog.refused.entry' : 'dailyLog.refused.photo', { date: formatDate(date), detail: write.detail })}
            {typeof hours === 'number' && <span className="mt-1 block font-medium">{t('dailyLog.entries.hoursValue', { hours: formatNumber(hours) })}</span>}
            {note && <span className="mt-1 block whitespace-pre-wrap break-words">“{note}”</span>}
          </>
        );
        // Offered for a day signed meanwhile (409) only: a refusal of the work itself (no work of
        // theirs in the project, a file too large) would be refused on today's log too.
        return todayOpen && logDate !== project.today && write.refusedWith === 409 ? (
          <RetryAlert key={write.id} onRetry={() => void moveToToday(write.id, part, date)} retryLabel={t('dailyLog.refused.addToToday')}>
            {message}
          </RetryAlert>
        ) : (
          <Alert key={write.id} tone="error">
            {message}
          </Alert>
        );
      })}
    </div>
  );
}
