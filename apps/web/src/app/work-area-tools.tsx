import { lazy, Suspense } from 'react';
import { AccountMenu } from '../features/auth/components/account-menu';

// Offline support (cache kept on the device, queued writes, service worker) loads beside the area, not in its first chunk.
const OfflineTools = lazy(() => import('../features/offline/components/offline-tools'));

/** The manager's and the team member's shell tools: the offline banner and sync state, and the avatar as the account menu. */
export const offlineTools = (
  <Suspense fallback={null}>
    <OfflineTools />
  </Suspense>
);

export const accountMenu = (avatar: string) => <AccountMenu avatar={avatar} />;
