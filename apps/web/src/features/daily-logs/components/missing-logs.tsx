import { MISSING_LOGS_DEFAULT_DAYS } from '@siteboard/shared';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { RetryAlert } from '../../../components/ui/alert';
import { SelectField } from '../../../components/ui/form-field';
import { Table, wrapCellClass } from '../../../components/ui/table';
import { useQueryFailure } from '../../../lib/failure-message';
import { formatDate } from '../../../lib/format';
import { useMissingDailyLogs } from '../api/get-missing-daily-logs';

const PERIODS = [7, MISSING_LOGS_DEFAULT_DAYS, 30, 90];

/**
 * For an admin: the open projects with working days (of the last week, two weeks, month or
 * quarter) that have no signed log; each day opens that day's log at `logPath`.
 */
export function MissingLogs({ logPath, staleTime }: { logPath: string; staleTime?: number }) {
  const { t } = useTranslation();
  const [days, setDays] = useState(MISSING_LOGS_DEFAULT_DAYS);
  const missing = useMissingDailyLogs(days, staleTime);
  const failure = useQueryFailure(missing.error, { other: 'dailyLog.loadFailed' });
  const rows = missing.data?.items ?? [];
  return (
    <div className="space-y-3">
      <div className="max-w-xs">
        <SelectField label={t('dailyLog.missing.period')} value={days} onChange={(event) => setDays(Number(event.target.value))}>
          {PERIODS.map((period) => (
            <option key={period} value={period}>
              {t('dailyLog.missing.lastDays', { count: period })}
            </option>
          ))}
        </SelectField>
      </div>
      {failure && (
        <RetryAlert onRetry={() => void missing.refetch()} retryLabel={t('dailyLog.retry')}>
          {failure}
        </RetryAlert>
      )}
      {missing.isPending ? (
        <p className="text-sm text-slate-600" role="status">
          {t('app.loading')}
        </p>
      ) : (
        <Table
          label={t('dailyLog.missing.title')}
          columns={[t('dailyLog.project'), t('dailyLog.missing.manager'), t('dailyLog.missing.days')]}
          isEmpty={rows.length === 0}
          empty={t('dailyLog.missing.none')}
          stackOnPhone
        >
          {rows.map((row) => (
            <tr key={row.project.id} className="align-top">
              <td className={`${wrapCellClass} font-medium text-slate-900`}>{row.project.name}</td>
              <td className={wrapCellClass} data-label={t('dailyLog.missing.manager')}>
                {row.project.manager ? (row.project.manager.full_name ?? row.project.manager.email) : t('dailyLog.missing.noManager')}
              </td>
              <td className={wrapCellClass} data-label={t('dailyLog.missing.daysShort')}>
                <ul className="flex flex-wrap gap-1.5" aria-label={t('dailyLog.missing.daysOf', { project: row.project.name })}>
                  {row.missing.map((date) => (
                    <li key={date}>
                      <Link
                        to={`${logPath}?project=${row.project.id}&date=${date}`}
                        className="inline-flex rounded-full bg-amber-50 px-2.5 py-0.5 text-xs font-semibold text-amber-900 ring-1 ring-amber-200 hover:bg-amber-100 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-600"
                      >
                        {formatDate(date)}
                      </Link>
                    </li>
                  ))}
                </ul>
              </td>
            </tr>
          ))}
        </Table>
      )}
    </div>
  );
}
