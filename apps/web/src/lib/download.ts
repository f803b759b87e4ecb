import { apiFile, type RequestOptions } from './api-client';

/** Hands the file to the browser's downloads, then lets go of the memory it held. */
export function saveBlob(blob: Blob, fileName: string) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  // The browser reads the URL when the click is handled; a moment later it can go.
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** A list or report call's query, as its screen filters it. */
export type ListQuery = NonNullable<RequestOptions['query']>;

/** The files a list or report call answers besides JSON: CSV for other programs, an Excel workbook for people. */
export type ListFileFormat = 'csv' | 'xlsx';

/**
 * Downloads what a list or report call answers as a file (every matching row, with the bearer
 * token like every call) and saves it under the name the server gave it.
 */
export async function downloadList(path: string, query: ListQuery = {}, format: ListFileFormat): Promise<void> {
  const file = await apiFile(path, { query: { ...query, format } });
  saveBlob(file.blob, file.fileName ?? `siteboard.${format}`);
}
