import type { MarkReadInput, MarkReadResponse } from '@siteboard/shared';
import { api } from '../../../lib/api-client';

/** `{}` marks every unread notification of the caller; `{ids}` only those. */
export const markNotificationsRead = (input: MarkReadInput = {}) => api<MarkReadResponse>('/api/notifications/mark-read/', { method: 'PATCH', body: input ?? {} });
