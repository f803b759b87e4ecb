import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { downloadCsv, type ListQuery } from '../../lib/download';
import { useQueryFailure } from '../../lib/failure-message';
import { Button } from './button';
import { Icon } from './icons';

/** The "Download CSV" button itself; `subject` names the list for screen readers, where several lists share a page. */
export function CsvButton({ subject, pending, disabled, onClick }: { subject: string; pending: boolean; disabled?: boolean; onClick: () => void }) {
  const { t } = useTranslation();
  return (
    <Button variant="secondary" onClick={onClick} disabled={disabled || pending} aria-busy={pending} aria-label={t('csv.downloadSubject', { subject })}>
      <Icon name="download" className="h-4 w-4" />
      {t('csv.download')}
    </Button>
  );
}

/** "Download CSV" of what a list or report call answers for this query: every matching row, not only the page on screen. */
export function DownloadCsvButton({ path, query, subject }: { path: string; query?: ListQuery; subject: string }) {
  const download = useMutation({ mutationFn: () => downloadCsv(path, query) });
  const failure = useQueryFailure(download.error, { other: 'csv.failed' });
  return (
    <span className="inline-flex flex-col items-start gap-1">
      <CsvButton subject={subject} pending={download.isPending} onClick={() => download.mutate()} />
      {failure && (
        <span role="alert" className="text-xs text-red-700">
          {failure}
        </span>
      )}
    </span>
  );
}
