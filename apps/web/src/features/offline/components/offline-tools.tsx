import { useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { usePainted } from '../../../lib/after-paint';
import { setBeforeSignOut, useAuth } from '../../../lib/auth';
import { clearQueue, queue, startQueue } from '../offline-queue';
import { clearPersistedCache, startCachePersistence } from '../persist-cache';
import { NotSavedHere } from './not-saved-here';
import { OfflineBanner } from './offline-banner';

// The sync state (its list dialog) and the service worker's prompt come after the area's first paint;
// the kept answers and the queue start at once (a page opened without a signal needs them first).
const SyncStatus = lazy(() => import('./sync-status').then((module) => ({ default: module.SyncStatus })));
const UpdatePrompt = lazy(() => import('./update-prompt'));

/**
 * Everything the signed-in areas need to work without a signal (issue 20), loaded with them and
 * never by the landing page: the cached answers kept on the device, the queue of writes made
 * offline, the offline banner, and the service worker with its "new version" prompt.
 */
export default function OfflineTools() {
  const { t } = useTranslation();
  const { user } = useAuth();
  const queryClient = useQueryClient();
  const userId = user?.id;
  const role = user?.role;
  const painted = usePainted();

  useEffect(() => {
    if (userId === undefined || role === undefined) return;
    let cancelled = false;
    let stopQueue = () => {};
    const { stop: stopCache } = startCachePersistence(queryClient, { id: userId, role });
    void startQueue(userId, () => void queryClient.invalidateQueries()).then((stop) => {
      if (cancelled) stop();
      else stopQueue = stop;
    });
    setBeforeSignOut(async () => {
      const waiting = queue.entries().length;
      if (waiting > 0 && !window.confirm(t('offline.signOutWarning', { count: waiting }))) return false;
      await clearQueue();
      await clearPersistedCache(userId);
      return true;
    });
    return () => {
      cancelled = true;
      setBeforeSignOut(null);
      stopCache();
      stopQueue();
    };
  }, [queryClient, userId, role, t]);

  return (
    <>
      <div className="mb-4 flex flex-wrap items-start justify-between gap-3 empty:hidden">
        <OfflineBanner />
        <NotSavedHere />
        {painted && (
          <Suspense fallback={null}>
            <SyncStatus />
          </Suspense>
        )}
      </div>
      {painted && (
        <Suspense fallback={null}>
          <UpdatePrompt />
        </Suspense>
      )}
    </>
  );
}
