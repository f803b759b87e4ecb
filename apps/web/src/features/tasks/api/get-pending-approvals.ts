import type { Subtask } from '@siteboard/shared';
import { apiPage } from '../../../lib/api-client';
import type { PagedListQuery } from '../../../lib/lists';
import { SUBTASK_PAGE_SIZE } from '../tasks.rules';

export const pendingApprovalsQueryKey = ['pending-approvals'] as const;

/** Subtasks awaiting the caller's decision (a team member: their own, sent for approval), a page at a time. */
export const getPendingApprovalPagesQuery = (): PagedListQuery<Subtask> => ({
  queryKey: [...pendingApprovalsQueryKey, 'pages'],
  pageSize: SUBTASK_PAGE_SIZE,
  fetchPage: (page) => apiPage<Subtask>('/api/pending-approvals/', { query: { ...page } }),
});
