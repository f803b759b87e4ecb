import { useMutation } from '@tanstack/react-query';
import type { AppraisalQuery } from '@siteboard/shared';
import { api } from '../../../lib/api-client';
import { saveBlob } from '../../../lib/download';

export const APPRAISAL_PDF_FILE_NAME = 'appraisal_report.pdf';

export const generateAppraisalPdf = (query: AppraisalQuery) => api<Blob>('/api/generate-appraisal-pdf/', { query, responseType: 'blob' });

export const useGenerateAppraisalPdf = () =>
  useMutation({
    mutationFn: generateAppraisalPdf,
    onSuccess: (blob) => saveBlob(blob, APPRAISAL_PDF_FILE_NAME),
  });
