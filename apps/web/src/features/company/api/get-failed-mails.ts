import { queryOptions, useQuery } from '@tanstack/react-query';
import type { FailedMail } from '@siteboard/shared';
import { api } from '../../../lib/api-client';

/** The company's mails that were given up (refused for good, or every retry failed), newest first. */
export const getFailedMails = () => api<FailedMail[]>('/api/email/failed/');

export const getFailedMailsQueryOptions = () => queryOptions({ queryKey: ['failed-mails'], queryFn: getFailedMails });

export const useFailedMails = (options: { enabled: boolean }) => useQuery({ ...getFailedMailsQueryOptions(), enabled: options.enabled });
