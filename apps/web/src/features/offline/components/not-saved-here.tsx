import { useQueryClient, type Query } from '@tanstack/react-query';
import { useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { RetryAlert } from '../../../components/ui/alert';

/** A query a screen shows now that has nothing yet and waits for the connection to ask for it. */
const waitsWithNothing = (query: Query) => query.getObserversCount() > 0 && query.state.data === undefined && query.state.fetchStatus === 'paused';

/**
 * Without a signal, a screen whose answers were never kept on this device would say "Loading..."
 * until the connection returns: this says why at once, above it, with a Retry (which asks again;
 * the answers also come on their own once the connection is back).
 */
export function NotSavedHere() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const cache = queryClient.getQueryCache();
  const waiting = useSyncExternalStore(
    (listener) => cache.subscribe(listener),
    () => cache.getAll().some(waitsWithNothing),
  );
  if (!waiting) return null;
  return (
    <RetryAlert onRetry={() => void queryClient.refetchQueries({ predicate: waitsWithNothing })} retryLabel={t('offline.retry')}>
      {t('offline.notSavedHere')}
    </RetryAlert>
  );
}
