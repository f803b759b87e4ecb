import { apiFile } from '../../../lib/api-client';
import { saveBlob } from '../../../lib/download';

export type LogDownload = { kind: 'day-pdf'; date: string } | { kind: 'range-pdf' | 'csv' | 'xlsx'; from: string; to: string };

/** A day's PDF, or a range's PDF, CSV or Excel workbook, saved under the name the server gave it. */
export async function downloadDailyLogs(projectId: number, download: LogDownload): Promise<void> {
  const base = `/api/projects/${projectId}/daily-logs/`;
  const file =
    download.kind === 'day-pdf'
      ? await apiFile(`${base}${download.date}/pdf/`)
      : await apiFile(download.kind === 'range-pdf' ? `${base}pdf/` : base, { query: { from: download.from, to: download.to, ...(download.kind === 'range-pdf' ? {} : { format: download.kind }) } });
  saveBlob(file.blob, file.fileName ?? `daily-logs.${download.kind === 'csv' ? 'csv' : download.kind === 'xlsx' ? 'xlsx' : 'pdf'}`);
}
