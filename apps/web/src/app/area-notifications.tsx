import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { getNotificationsQueryOptions } from '../features/notifications/api/get-notifications';
import { NotificationBell } from '../features/notifications/components/notification-bell';
import { addLiveNotification, clearLiveNotifications } from '../features/notifications/live-notifications';
import { projectsQueryKey } from '../features/projects/api/get-projects';
import { TASK_LIST_KEYS } from '../features/tasks/api/invalidate-task-lists';
import { teamWorkloadQueryKey } from '../features/users/api/get-team-workload';
import { useAuth } from '../lib/auth';
import { useRealtime } from '../lib/realtime';

const TASK_KEYS = [...TASK_LIST_KEYS, teamWorkloadQueryKey, projectsQueryKey];

/** The manager's and team member's bell, and the live connection that feeds it while the shell is open. */
export function AreaNotifications() {
  const { user } = useAuth();
  const queryClient = useQueryClient();
  // The next user of this page must not see this one's pushes.
  useEffect(() => clearLiveNotifications, []);
  useRealtime(user, { queryClient, notificationsKey: getNotificationsQueryOptions().queryKey, taskKeys: TASK_KEYS, onNotification: addLiveNotification });
  return user?.email ? <NotificationBell email={user.email} /> : null;
}
