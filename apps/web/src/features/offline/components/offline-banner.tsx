import { useQueryClient } from '@tanstack/react-query';
import { useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { formatTime } from '../../../lib/format';
import { watchConnection } from '../offline-queue';

const subscribeConnection = (listener: () => void) => watchConnection(listener, listener);
const hasConnection = () => navigator.onLine;

/**
 * Whether the browser has a connection. Not TanStack Query's online state: back online, the
 * offline queue holds that at "offline" until its writes have gone (reads wait for them), and the
 * banner would say "Offline" while the device syncs.
 */
export function useOnline() {
  return useSyncExternalStore(subscribeConnection, hasConnection);
}

/** Without a signal the screens show what this device saw last, and say since when. */
export function OfflineBanner() {
  const { t } = useTranslation();
  const cache = useQueryClient().getQueryCache();
  // The newest answer on screen: it changes as the kept answers are put back after a start.
  const lastUpdated = useSyncExternalStore(
    (listener) => cache.subscribe(listener),
    () => cache.getAll().reduce((newest, query) => Math.max(newest, query.state.dataUpdatedAt), 0),
  );
  if (useOnline()) return null;
  const time = formatTime(lastUpdated);
  return (
    <div role="status" className="mb-4 rounded-lg border border-amber-200 bg-amber-50 px-4 py-2 text-sm font-medium text-amber-900" data-testid="offline-banner">
      {lastUpdated > 0 ? t('offline.banner', { time }) : t('offline.bannerNothingYet')}
    </div>
  );
}
