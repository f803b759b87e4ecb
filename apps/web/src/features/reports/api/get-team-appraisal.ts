import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { AppraisalItem } from '@siteboard/shared';
import { api } from '../../../lib/api-client';
import { queryRoots } from '../../../lib/query-keys';

export type AppraisalRange = { start_date?: string; end_date?: string };

/** The appraisals of the caller's team, optionally of subtasks due within a date range. */
export const getTeamAppraisal = (range: AppraisalRange = {}) => api<AppraisalItem[]>('/projects/api/manager-appraisal-report/', { query: range });

export const getTeamAppraisalQueryOptions = (range: AppraisalRange = {}) =>
  queryOptions({ queryKey: [...queryRoots.teamAppraisal, range], queryFn: () => getTeamAppraisal(range) });

/** The cards stay on screen while a new range loads. */
export const useTeamAppraisal = (range: AppraisalRange = {}) => useQuery({ ...getTeamAppraisalQueryOptions(range), placeholderData: keepPreviousData });
