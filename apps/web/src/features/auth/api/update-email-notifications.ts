import type { EmailNotifications, Profile } from '@siteboard/shared';
import { api } from '../../../lib/api-client';
import { useReplacingMutation } from '../../../lib/list-mutation';
import { getProfileQueryOptions } from './get-profile';

/** Which notification e-mails the user takes: none, the daily digest, or each as it happens. */
export const updateEmailNotifications = (email_notifications: EmailNotifications) => api<Profile>('/api/profile/', { method: 'PATCH', body: { email_notifications } });

export function useUpdateEmailNotifications() {
  return useReplacingMutation(updateEmailNotifications, getProfileQueryOptions().queryKey);
}
