import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { onIdle } from '../lib/after-paint';
import { useAuth } from '../lib/auth';
import type { WorkBoard } from './area-data';

/**
 * Once the area's first screen is painted and the page is idle, and only with a connection, asks
 * for what every other screen of the area needs (its own chunk, fetched then: the first load
 * carries none of it).
 */
export function usePrefetchAreaData(board: WorkBoard) {
  const queryClient = useQueryClient();
  const userId = useAuth().user?.id;
  useEffect(() => {
    if (userId === undefined) return;
    let cancelled = false;
    const cancelIdle = onIdle(() => {
      if (!navigator.onLine) return;
      void import('./area-data').then(({ prefetchAreaData }) => !cancelled && prefetchAreaData(queryClient, board));
    });
    return () => {
      cancelled = true;
      cancelIdle();
    };
  }, [queryClient, board, userId]);
}
