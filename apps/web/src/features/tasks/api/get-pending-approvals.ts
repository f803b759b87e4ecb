import { subtaskListPages } from './get-subtasks';

export const pendingApprovalsQueryKey = ['pending-approvals'] as const;

/** Subtasks awaiting the caller's decision (a team member: their own, sent for approval), a page at a time. */
export const getPendingApprovalPagesQuery = () => subtaskListPages([...pendingApprovalsQueryKey, 'pages'], '/api/pending-approvals/');
