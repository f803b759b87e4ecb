import { useMutation } from '@tanstack/react-query';
import type { AppraisalQuery } from '@siteboard/shared';
import { downloadCsv } from '../../../lib/download';

/** The admin's report on one person as CSV: the subtasks behind its counts, one a row. */
export const downloadAppraisalCsv = (query: AppraisalQuery) => downloadCsv('/api/appraisal-report/', query);

export const useDownloadAppraisalCsv = () => useMutation({ mutationFn: downloadAppraisalCsv });
