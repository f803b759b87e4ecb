import { useMutation } from '@tanstack/react-query';
import type { AppraisalQuery } from '@siteboard/shared';
import { api } from '../../../lib/api-client';

export const APPRAISAL_PDF_FILE_NAME = 'appraisal_report.pdf';

export const generateAppraisalPdf = (query: AppraisalQuery) => api<Blob>('/api/generate-appraisal-pdf/', { query, responseType: 'blob' });

/** Hands the file to the browser's downloads, then lets go of the memory it held. */
function saveBlob(blob: Blob, fileName: string) {
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

export const useGenerateAppraisalPdf = () =>
  useMutation({
    mutationFn: generateAppraisalPdf,
    onSuccess: (blob) => saveBlob(blob, APPRAISAL_PDF_FILE_NAME),
  });
