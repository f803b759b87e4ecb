import { queryOptions } from '@tanstack/react-query';
import type { AdminDashboard } from '@siteboard/shared';
import { api } from '../../../lib/api-client';
import { queryRoots } from '../../../lib/query-keys';

/** The first page of each admin dashboard list in one answer (decision record 068). */
export const getAdminDashboard = () => api<AdminDashboard>('/api/admin-dashboard/');

export const getAdminDashboardQueryOptions = () => queryOptions({ queryKey: queryRoots.adminDashboard, queryFn: getAdminDashboard });
