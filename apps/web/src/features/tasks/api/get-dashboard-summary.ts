import { queryOptions, useQuery } from '@tanstack/react-query';
import type { DashboardSummary } from '@siteboard/shared';
import { api } from '../../../lib/api-client';
import { queryRoots } from '../../../lib/query-keys';

/** The dashboard cards' counts in one request; each table loads only when its card opens it. */
export const getDashboardSummaryQueryOptions = () =>
  queryOptions({ queryKey: queryRoots.dashboardSummary, queryFn: () => api<DashboardSummary>('/api/dashboard-summary/') });

/** `enabled` false: the counts already kept are shown, and none is asked for yet. */
export const useDashboardSummary = ({ enabled = true }: { enabled?: boolean } = {}) => useQuery({ ...getDashboardSummaryQueryOptions(), enabled });
