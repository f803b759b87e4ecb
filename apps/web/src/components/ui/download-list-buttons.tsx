import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { downloadList, type ListFileFormat, type ListQuery } from '../../lib/download';
import { useQueryFailure } from '../../lib/failure-message';
import { Button } from './button';
import { Icon } from './icons';

/** "Download CSV" or "Download Excel"; `subject` names the list for screen readers, where several lists share a page. */
export function FileButton({ format, subject, pending, disabled, onClick }: { format: ListFileFormat; subject: string; pending: boolean; disabled?: boolean; onClick: () => void }) {
  const { t } = useTranslation();
  return (
    <Button variant="secondary" onClick={onClick} disabled={disabled || pending} aria-busy={pending} aria-label={t(`${format}.downloadSubject`, { subject })}>
      <Icon name="download" className="h-4 w-4" />
      {t(`${format}.download`)}
    </Button>
  );
}

/** One file of what a list or report call answers for this query: every matching row, not only the page on screen. */
function DownloadListButton({ format, path, query, subject }: { format: ListFileFormat; path: string; query?: ListQuery; subject: string }) {
  const download = useMutation({ mutationFn: () => downloadList(path, query, format) });
  const failure = useQueryFailure(download.error, { other: `${format}.failed` });
  return (
    <span className="inline-flex flex-col items-start gap-1">
      <FileButton format={format} subject={subject} pending={download.isPending} onClick={() => download.mutate()} />
      {failure && (
        <span role="alert" className="text-xs text-red-700">
          {failure}
        </span>
      )}
    </span>
  );
}

/**
 * "Download CSV" (codes and UTC times, for other programs) and "Download Excel" (the reader's
 * words, names and clock, for people) of a list or report call for this query.
 */
export function DownloadListButtons({ path, query, subject }: { path: string; query?: ListQuery; subject: string }) {
  return (
    <span className="inline-flex flex-wrap items-start gap-2">
      <DownloadListButton format="csv" path={path} query={query} subject={subject} />
      <DownloadListButton format="xlsx" path={path} query={query} subject={subject} />
    </span>
  );
}
