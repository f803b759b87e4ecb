import { queryOptions, useQuery } from '@tanstack/react-query';
import type { EmailStatus } from '@siteboard/shared';
import { api } from './api-client';

/** Whether this server sends e-mail: what needs it (invitations, failed mails) shows only when it does (decision record 078). */
export const getEmailStatus = () => api<EmailStatus>('/api/email/');

// A server's mail setting changes only with a restart: asked once per page load.
export const getEmailStatusQueryOptions = () => queryOptions({ queryKey: ['email-status'], queryFn: getEmailStatus, staleTime: Infinity });

/** `enabled: false`: the cached answer, if any, without asking (the account menu asks ahead, with a signal only). */
export const useEmailStatus = ({ enabled = true }: { enabled?: boolean } = {}) => useQuery({ ...getEmailStatusQueryOptions(), enabled });
