import { useQueryClient } from '@tanstack/react-query';
import { lazy, useEffect } from 'react';
import { Icon } from '../components/ui/icons';
import { addLiveNotification, clearLiveNotifications } from '../features/notifications/live-notifications';
import { useAuth } from '../lib/auth';
import { useRealtime } from '../lib/realtime';
import { AfterFirstPaint } from './after-first-paint';

// The bell (its popover, tabs and list) loads after the area's first paint; pushes that arrive
// before it are kept by live-notifications and shown once it is there.
const NotificationBell = lazy(() => import('../features/notifications/components/notification-bell').then((module) => ({ default: module.NotificationBell })));

/** The manager's and team member's bell, and the live connection that feeds it while the shell is open. */
export function AreaNotifications() {
  const { user } = useAuth();
  const queryClient = useQueryClient();
  // The next user of this page must not see this one's pushes.
  useEffect(() => clearLiveNotifications, []);
  useRealtime(user, { queryClient, onNotification: addLiveNotification });
  if (!user?.email) return null;
  return (
    <AfterFirstPaint
      placeholder={
        <span className="flex h-9 w-9 items-center justify-center text-slate-600" aria-hidden>
          <Icon name="bell" />
        </span>
      }
    >
      <NotificationBell email={user.email} />
    </AfterFirstPaint>
  );
}
