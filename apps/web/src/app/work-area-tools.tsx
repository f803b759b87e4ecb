import { lazy, Suspense } from 'react';
import { ZoneNotice } from '../features/auth/components/zone-notice';
import { AfterFirstPaint } from './after-first-paint';

// Offline support (cache kept on the device, queued writes, service worker) loads beside the area, not in its first chunk.
// It mounts with the shell, not after the first paint: the kept answers must be restored before the
// screen's queries settle, or a page opened without a signal shows none of them (e2e offline.spec).
const OfflineTools = lazy(() => import('../features/offline/components/offline-tools'));
// The account menu (its popover and the change-password form) likewise: the avatar stands in until it is there.
const AccountMenu = lazy(() => import('../features/auth/components/account-menu').then((module) => ({ default: module.AccountMenu })));

/** The manager's and the team member's shell tools: the offline banner and sync state, and the avatar as the account menu. */
export const offlineTools = (
  <Suspense fallback={null}>
    <OfflineTools />
  </Suspense>
);

export const accountMenu = (avatar: string) => (
  <AfterFirstPaint
    placeholder={
      <span className="flex h-9 min-w-9 items-center justify-center rounded-full bg-brand-600 px-2 text-xs font-bold text-white" aria-hidden>
        {avatar}
      </span>
    }
  >
    <AccountMenu avatar={avatar} />
  </AfterFirstPaint>
);

/**
 * What stands above every area's page: the notice that times are on another clock than the device's.
 * It comes with the area, not with the account menu after the first paint: drawn late, it pushed the
 * page down under the reader (a layout shift, measured in e2e zone-notice.spec).
 */
export const pageNotices = <ZoneNotice />;
