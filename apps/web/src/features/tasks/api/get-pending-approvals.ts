import { queryRoots } from '../../../lib/query-keys';
import { subtaskListPages } from './get-subtasks';

export const pendingApprovalsQueryKey = queryRoots.pendingApprovals;

/** Subtasks awaiting the caller's decision (a team member: their own, sent for approval), a page at a time. */
export const getPendingApprovalPagesQuery = () => subtaskListPages([...pendingApprovalsQueryKey, 'pages'], '/api/pending-approvals/');
