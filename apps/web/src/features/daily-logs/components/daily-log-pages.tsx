import { DAILY_LOG_SECTIONS, decideAmendment, decideContribution, decideLogKeeping, type DailyLog, type DailyLogProject } from '@siteboard/shared';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, RetryAlert } from '../../../components/ui/alert';
import { useConfirm } from '../../../components/ui/confirm-dialog';
import { useLeaveGuard } from '../../../components/ui/leave-guard';
import { PageTitle } from '../../../components/ui/page-title';
import { useAuth } from '../../../lib/auth';
import { useQueryFailure } from '../../../lib/failure-message';
import { formatDate, formatDateTime, formatNumber } from '../../../lib/format';
import { useWaitingWrites } from '../../../lib/waiting-writes';
import { dailyLogPath, useDailyLog } from '../api/get-daily-log';
import { crewMayAddTo } from '../api/get-daily-log-projects';
import { RECENT_DAYS, useRecentLogs } from '../api/get-daily-logs';
import { recentDays, type DayState } from '../daily-logs.rules';
import { Amendments } from './amendments';
import { DayWork } from './day-work';
import { LogDownloads } from './log-downloads';
import { LogEntries } from './log-entries';
import { LogForm } from './log-form';
import { LogPhotos } from './log-photos';
import { RefusedContributions } from './refused-contributions';
import { useLogPicker } from './log-picker';
import { LogBlock, SectionView } from './log-view';

const STATE_TONE: Record<DayState, string> = {
  signed: 'bg-green-50 text-green-800 ring-green-200',
  draft: 'bg-amber-50 text-amber-900 ring-amber-200',
  none: 'bg-white text-slate-600 ring-slate-200',
};

/** The last two weeks of the project, each day with the state of its log: a tap opens it. */
function RecentDays({ project, date, onPick }: { project: DailyLogProject; date: string; onPick: (date: string) => void }) {
  const { t } = useTranslation();
  const logs = useRecentLogs(project);
  const days = recentDays(project.today, RECENT_DAYS, logs.data ?? []);
  return (
    <nav aria-label={t('dailyLog.recentDays')} className="-mx-4 overflow-x-auto px-4 pb-1 sm:mx-0 sm:px-0">
      <ul className="flex gap-2">
        {days.map((day) => (
          <li key={day.date} className="shrink-0">
            <button
              type="button"
              onClick={() => onPick(day.date)}
              aria-current={day.date === date ? 'date' : undefined}
              className={`flex min-w-24 flex-col rounded-xl px-3 py-2 text-left text-xs ring-1 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-600 aria-[current=date]:ring-2 aria-[current=date]:ring-brand-600 ${STATE_TONE[day.state]}`}
            >
              <span className="font-semibold">{formatDate(day.date)}</span>
              <span>{t(`dailyLog.dayState.${day.state}`)}</span>
            </button>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** Draft or signed (by whom, when), and the day's numbers. */
export function LogStatus({ log }: { log: Pick<DailyLog, 'date' | 'status' | 'signed_by' | 'signed_at' | 'crew_headcount' | 'crew_hours' | 'hours_lost'> }) {
  const { t } = useTranslation();
  return (
    <div className={`flex flex-wrap items-center justify-between gap-3 rounded-2xl px-4 py-3 ring-1 ${log.status === 'signed' ? 'bg-green-50 ring-green-200' : 'bg-amber-50 ring-amber-200'}`} data-testid="log-status">
      <p className="text-sm font-semibold text-slate-900">
        {log.status === 'signed'
          ? t('dailyLog.signedBy', { name: log.signed_by ? (log.signed_by.full_name ?? log.signed_by.email) : '', time: formatDateTime(log.signed_at) })
          : t('dailyLog.draft', { date: formatDate(log.date) })}
      </p>
      <p className="text-sm text-slate-700">
        {t('dailyLog.totals', {
          people: t('dailyLog.totals.people', { count: log.crew_headcount, n: formatNumber(log.crew_headcount) }),
          manHours: t('dailyLog.totals.manHours', { count: log.crew_hours, n: formatNumber(log.crew_hours) }),
          lost: t('dailyLog.totals.hoursLost', { count: log.hours_lost, n: formatNumber(log.hours_lost) }),
        })}
      </p>
    </div>
  );
}

/** The log as it reads: every section, then the day's work (what the manager left out is not shown). */
function LogReadOnly({ log }: { log: DailyLog }) {
  const { t } = useTranslation();
  return (
    <>
      {DAILY_LOG_SECTIONS.map((section) => (
        <LogBlock key={section} title={t(`dailyLog.section.${section}`)}>
          <SectionView section={section} content={log} />
        </LogBlock>
      ))}
      <LogBlock title={t('dailyLog.section.work')}>
        <DayWork work={log.work} logHasPhotos={log.attachments.length > 0} />
      </LogBlock>
    </>
  );
}

/** The picked day's log, and what to show when it failed to load (with a retry). */
function useLoadedLog(projectId: number | null, date: string | null) {
  const { t } = useTranslation();
  const log = useDailyLog(projectId, date);
  const failure = useQueryFailure(log.error, { other: 'dailyLog.loadFailed' });
  const failureAlert = failure && (
    <RetryAlert onRetry={() => void log.refetch()} retryLabel={t('dailyLog.retry')}>
      {failure}
    </RetryAlert>
  );
  return { day: log.data, failureAlert };
}

/**
 * What the writes to the day's log that wait on this device say: from the one queued on this screen,
 * or from earlier (the page opened again without a signal); gone once none waits any more (sent,
 * the log shows it), back with the next one. The keeper's form says it of its own saves, beside
 * its buttons (`exceptFormSaves`): the page does not say it a second time.
 */
function useQueuedNotice(projectId: number | null, date: string | null, exceptFormSaves = false) {
  const { t } = useTranslation();
  const path = projectId !== null && date !== null ? dailyLogPath(projectId, date) : null;
  const waiting = useWaitingWrites().some(
    (write) => write.status === 'waiting' && path !== null && write.path.startsWith(path) && !(exceptFormSaves && write.method === 'PUT' && write.path === path),
  );
  return waiting ? <Alert tone="info">{t('dailyLog.queued')}</Alert> : null;
}

/**
 * The manager's (and an admin's) daily log: a project they keep and a day, the last two weeks at a
 * glance, the day's log to fill in and sign (read-only once signed), its amendments beside it, the
 * crew's entries and photos, and the downloads.
 */
export function DailyLogPage() {
  const { t } = useTranslation();
  const { user } = useAuth();
  // What is typed in the log and not saved: another day, project or page asks first (it is not kept).
  const [unsaved, setUnsaved] = useState(false);
  const leave = useConfirm({ title: t('drafts.leaveTitle'), confirmLabel: t('drafts.leave'), cancelLabel: t('drafts.stay') });
  const leaveByLink = useLeaveGuard(unsaved, t('dailyLog.leaveUnsaved'));
  const { picker, picked, choose } = useLogPicker(
    () => true,
    () => !unsaved || leave.ask(t('dailyLog.leaveUnsaved')),
  );
  const { day, failureAlert } = useLoadedLog(picked?.project.id ?? null, picked?.date ?? null);
  const notice = useQueuedNotice(picked?.project.id ?? null, picked?.date ?? null, true);
  const parties =
    picked && day ? { projectManagerId: picked.project.manager?.id ?? null, projectStatus: picked.project.status, hasWork: picked.project.may_contribute, logStatus: day.status } : null;
  const mayKeep = Boolean(user && parties && decideLogKeeping(user, parties).ok);
  const mayAmend = Boolean(user && parties && decideAmendment(user, parties).ok);
  const mayContribute = Boolean(user && parties && decideContribution(user, parties).ok);
  const beside = day !== undefined && (day.status === 'signed' || day.amendments.length > 0);

  return (
    <>
      <PageTitle>{t('dailyLog.title')}</PageTitle>
      <div className="space-y-4">
        {picker}
        {leave.dialog}
        {leaveByLink}
        {picked && <RecentDays project={picked.project} date={picked.date} onPick={(date) => void choose({ date })} />}
        {picked && <RefusedContributions project={picked.project} date={picked.date} onOpenToday={() => void choose({ date: picked.project.today })} />}
        {failureAlert}
        {picked && day && (
          <>
            <LogStatus log={day} />
            {picked.project.status === 'completed' && <Alert tone="info">{t('dailyLog.completedReadOnly')}</Alert>}
            {notice}
            {/* A signed log's amendments stand beside it on a wide screen (below it on a phone); a draft takes the whole width. */}
            <div className={`grid items-start gap-4 ${beside ? 'xl:grid-cols-[minmax(0,1fr)_24rem]' : ''}`}>
              <div className="min-w-0 space-y-4">
                {mayKeep ? <LogForm key={`${picked.project.id}-${day.date}`} log={day} projectId={picked.project.id} projectName={picked.project.name} today={picked.project.today} onUnsavedChange={setUnsaved} /> : <LogReadOnly log={day} />}
                {/* The keepers count people in the crew rows; the entry form is for those who log their own hours. */}
                <LogEntries log={day} projectId={picked.project.id} projectName={picked.project.name} mayAdd={mayContribute && !mayKeep} mayChangeOwn={mayContribute} />
                <LogPhotos log={day} projectId={picked.project.id} projectName={picked.project.name} mayAdd={mayContribute} mayChangeOwn={mayContribute} />
              </div>
              <aside className="min-w-0 space-y-4 xl:sticky xl:top-20" aria-label={t('dailyLog.beside')}>
                {beside && <Amendments log={day} projectId={picked.project.id} mayAmend={mayAmend} />}
                <LogDownloads projectId={picked.project.id} date={day.date} today={picked.project.today} />
              </aside>
            </div>
          </>
        )}
      </div>
    </>
  );
}

/**
 * The crew's daily log on a phone: a project they have work in, today (or an earlier day), their
 * own hours, notes and photos (kept on the device without a signal), and what the day's log holds.
 */
export function CrewDailyLogPage() {
  const { t } = useTranslation();
  const { picker, picked, choose } = useLogPicker(crewMayAddTo);
  const { day, failureAlert } = useLoadedLog(picked?.project.id ?? null, picked?.date ?? null);
  const notice = useQueuedNotice(picked?.project.id ?? null, picked?.date ?? null);
  const open = picked?.project.status !== 'completed' && day?.status === 'draft';
  return (
    <>
      <PageTitle>{t('dailyLog.title')}</PageTitle>
      <div className="space-y-4">
        {picker}
        {picked && <RefusedContributions project={picked.project} date={picked.date} onOpenToday={() => void choose({ date: picked.project.today })} />}
        {failureAlert}
        {picked && day && (
          <>
            <LogStatus log={day} />
            {!open && <Alert tone="info">{picked.project.status === 'completed' ? t('dailyLog.completedReadOnly') : t('dailyLog.signedReadOnly')}</Alert>}
            {notice}
            <LogEntries log={day} projectId={picked.project.id} projectName={picked.project.name} mayAdd={open} mayChangeOwn={open} />
            <LogPhotos log={day} projectId={picked.project.id} projectName={picked.project.name} mayAdd={open} mayChangeOwn={open} />
            <LogBlock title={t('dailyLog.section.work')}>
              <DayWork work={day.work} logHasPhotos={day.attachments.length > 0} />
            </LogBlock>
            {day.amendments.length > 0 && <Amendments log={day} projectId={picked.project.id} mayAmend={false} />}
          </>
        )}
      </div>
    </>
  );
}
