import type { DailyLogProject } from '@siteboard/shared';
import { useTranslation } from 'react-i18next';
import { Alert, RetryAlert } from '../../../components/ui/alert';
import { resendRefusedWriteTo } from '../../../lib/api-client';
import { formatDate, formatNumber } from '../../../lib/format';
import { useWaitingWrites } from '../../../lib/waiting-writes';
import { dailyLogPath } from '../api/get-daily-log';
import { useRecentLogs } from '../api/get-daily-logs';

/** A contribution to a day's log (one's hours and note, a photo), as the queue keeps its path. */
const CONTRIBUTION = /^\/api\/projects\/(\d+)\/daily-logs\/(\d{4}-\d{2}-\d{2})\/(entries|attachments)\/$/;

/**
 * The person's hours, notes and photos for a day of this project that the server refused once
 * their signal was back (the day's log was signed meanwhile), each with the reason. While the
 * project's log of today is open, "Add to today's log" sends it there instead, so the work is not
 * lost; the server decides again, and a signed log stays closed. Discarding stays in the device's
 * list of changes.
 */
export function RefusedContributions({ project }: { project: DailyLogProject }) {
  const { t } = useTranslation();
  const recent = useRecentLogs(project);
  const todayOpen = project.status !== 'completed' && recent.data !== undefined && recent.data.find((log) => log.date === project.today)?.status !== 'signed';
  const refused = useWaitingWrites().flatMap((write) => {
    const match = CONTRIBUTION.exec(write.path);
    return write.status === 'failed' && write.method === 'POST' && match && Number(match[1]) === project.id ? [{ write, date: match[2]!, part: match[3]! }] : [];
  });
  if (refused.length === 0) return null;
  return (
    <div className="space-y-2">
      {refused.map(({ write, date, part }) => {
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
        return todayOpen && date !== project.today && write.refusedWith === 409 ? (
          <RetryAlert key={write.id} onRetry={() => void resendRefusedWriteTo(write.id, `${dailyLogPath(project.id, project.today)}${part}/`)} retryLabel={t('dailyLog.refused.addToToday')}>
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
