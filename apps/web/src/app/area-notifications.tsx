import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { NotificationBell } from '../features/notifications/components/notification-bell';
import { addLiveNotification, clearLiveNotifications } from '../features/notifications/live-notifications';
import { useAuth } from '../lib/auth';
import { useRealtime } from '../lib/realtime';

/** The manager's and team member's bell, and the live connection that feeds it while the shell is open. */
export function AreaNotifications() {
  const { user } = useAuth();
  const queryClient = useQueryClient();
  // The next user of this page must not see this one's pushes.
  useEffect(() => clearLiveNotifications, []);
  useRealtime(user, { queryClient, onNotification: addLiveNotification });
  return user?.email ? <NotificationBell email={user.email} /> : null;
}
