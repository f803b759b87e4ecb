import { queryOptions, useQuery } from '@tanstack/react-query';
import type { AppraisalItem, AppraisalQuery } from '@siteboard/shared';
import { api } from '../../../lib/api-client';

/** The server answers a one-element list; the spec's client reads its first element. */
export const getAppraisalReport = async (query: AppraisalQuery) => (await api<AppraisalItem[]>('/api/appraisal-report/', { query }))[0] ?? null;

export const getAppraisalReportQueryOptions = (query: AppraisalQuery) =>
  queryOptions({ queryKey: ['appraisal-report', query], queryFn: () => getAppraisalReport(query) });

/** Nothing is asked until a person is chosen and Generate is pressed. */
export const useAppraisalReport = (query: AppraisalQuery | null) =>
  useQuery({ ...getAppraisalReportQueryOptions(query ?? { user_id: 0 }), enabled: query !== null });
