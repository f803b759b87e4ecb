import { onlineManager, useQueryClient } from '@tanstack/react-query';
import { useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';

const subscribeOnline = (listener: () => void) => onlineManager.subscribe(listener);
const isOnline = () => onlineManager.isOnline();

/** Whether the browser has a connection, as TanStack Query (which pauses fetches without one) sees it. */
export function useOnline() {
  return useSyncExternalStore(subscribeOnline, isOnline);
}

/** Without a signal the screens show what this device saw last, and say since when. */
export function OfflineBanner() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  if (useOnline()) return null;
  const lastUpdated = Math.max(0, ...queryClient.getQueryCache().getAll().map((query) => query.state.dataUpdatedAt));
  const time = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(lastUpdated);
  return (
    <div role="status" className="mb-4 rounded-lg border border-amber-200 bg-amber-50 px-4 py-2 text-sm font-medium text-amber-900" data-testid="offline-banner">
      {lastUpdated > 0 ? t('offline.banner', { time }) : t('offline.bannerNothingYet')}
    </div>
  );
}
