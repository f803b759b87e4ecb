import { queryOptions, useQuery } from '@tanstack/react-query';
import type { NotificationRecord } from '@siteboard/shared';
import { api } from '../../../lib/api-client';
import { queryRoots } from '../../../lib/query-keys';

export const getNotifications = (email: string) => api<NotificationRecord[]>('/api/notifications/', { query: { email } });

/** The prefix key `['notifications']` covers every user's list (the live connection invalidates it). */
export const getNotificationsQueryOptions = (email = '') => queryOptions({ queryKey: email ? [...queryRoots.notifications, email] : queryRoots.notifications, queryFn: () => getNotifications(email) });

export const useNotifications = (email: string | undefined) => useQuery({ ...getNotificationsQueryOptions(email ?? ''), enabled: Boolean(email) });
