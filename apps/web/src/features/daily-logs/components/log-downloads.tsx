import { DAILY_LOG_DEFAULT_EXPORT_DAYS, DAILY_LOG_EXPORT_MAX_DAYS, DAILY_LOG_PDF_MAX_DAYS, exportRange, shiftDate } from '@siteboard/shared';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { Icon } from '../../../components/ui/icons';
import { DateField } from '../../../components/ui/form-field';
import { useQueryFailure } from '../../../lib/failure-message';
import { useMessageText } from '../../../lib/use-message-text';
import { downloadDailyLogs, type LogDownload } from '../api/download-daily-logs';
import { LogBlock } from './log-view';

/** The day's PDF, and a range's PDF, CSV or Excel workbook (with totals). */
export function LogDownloads({ projectId, date, today }: { projectId: number; date: string; today: string }) {
  const { t } = useTranslation();
  const [from, setFrom] = useState(() => shiftDate(date, 1 - 7));
  const [to, setTo] = useState(date);
  const messageText = useMessageText();
  const download = useMutation({ mutationFn: (what: LogDownload) => downloadDailyLogs(projectId, what) });
  // The server's rule for a range, asked here first: a range it refuses is refused before the round trip, in its words.
  const [refusal, setRefusal] = useState<string | null>(null);
  const serverFailure = useQueryFailure(download.error, { other: 'dailyLog.downloads.failed' });
  const failure = refusal ?? serverFailure;
  const ask = (what: LogDownload) => {
    if (what.kind !== 'day-pdf') {
      const check = exportRange({ from: what.from, to: what.to }, today, DAILY_LOG_DEFAULT_EXPORT_DAYS, what.kind === 'range-pdf' ? DAILY_LOG_PDF_MAX_DAYS : DAILY_LOG_EXPORT_MAX_DAYS);
      if (!check.ok) {
        download.reset();
        setRefusal(messageText(check.message));
        return;
      }
    }
    setRefusal(null);
    download.mutate(what);
  };
  // Another day answers the refusal: it no longer stands under the range.
  const pick = (set: (value: string) => void, value: string) => {
    setRefusal(null);
    set(value);
  };
  const button = (label: string, what: LogDownload) => (
    <Button variant="secondary" disabled={download.isPending} onClick={() => ask(what)}>
      <Icon name="download" className="h-4 w-4" />
      {label}
    </Button>
  );
  const day: LogDownload = { kind: 'day-pdf', date };
  const [rangePdf, csv, xlsx] = (['range-pdf', 'csv', 'xlsx'] as const).map((kind): LogDownload => ({ kind, from, to }));
  return (
    <LogBlock title={t('dailyLog.downloads.title')}>
      <div className="flex flex-wrap gap-2">{button(t('dailyLog.downloads.dayPdf'), day)}</div>
      <div className="grid gap-3 sm:grid-cols-2">
        <DateField label={t('dailyLog.downloads.from')} value={from} max={to} onChange={(value) => pick(setFrom, value)} />
        <DateField label={t('dailyLog.downloads.to')} value={to} max={today} onChange={(value) => pick(setTo, value)} />
      </div>
      <p className="text-xs text-slate-500">{t('dailyLog.downloads.hint', { days: DAILY_LOG_PDF_MAX_DAYS })}</p>
      <div className="flex flex-wrap gap-2">
        {button(t('dailyLog.downloads.rangePdf'), rangePdf!)}
        {button(t('dailyLog.downloads.csv'), csv!)}
        {button(t('dailyLog.downloads.xlsx'), xlsx!)}
      </div>
      {failure && (
        <p role="alert" className="text-sm text-red-700">
          {failure}
        </p>
      )}
    </LogBlock>
  );
}
