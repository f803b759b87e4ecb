import { useMutation } from '@tanstack/react-query';
import type { AppraisalQuery } from '@siteboard/shared';
import { downloadList, type ListFileFormat } from '../../../lib/download';

/** The admin's report on one person as a file (CSV or Excel): the subtasks behind its counts, one a row. */
export const downloadAppraisalFile = (query: AppraisalQuery, format: ListFileFormat) => downloadList('/api/appraisal-report/', query, format);

export const useDownloadAppraisalFile = (format: ListFileFormat) => useMutation({ mutationFn: (query: AppraisalQuery) => downloadAppraisalFile(query, format) });
