import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Subtask } from '@siteboard/shared';
import { api } from '../../../lib/api-client';

/** Subtasks awaiting the caller's decision (a team member: their own, sent for approval). */
export const getPendingApprovals = () => api<Subtask[]>('/api/pending-approvals/');

export const getPendingApprovalsQueryOptions = () => queryOptions({ queryKey: ['pending-approvals'], queryFn: getPendingApprovals });

export const usePendingApprovals = () => useQuery(getPendingApprovalsQueryOptions());
