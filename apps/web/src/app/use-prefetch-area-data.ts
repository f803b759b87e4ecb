import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { onIdle } from '../lib/after-paint';
import { useAuth } from '../lib/auth';
import type { WorkBoard } from './area-data';

/**
 * Once the area's first screen is painted and the page is idle, and only with a connection (and a
 * password of the user's own), asks for what every other screen of the area needs (its own chunk, fetched then: the first load
 * carries none of it).
 */
export function usePrefetchAreaData(board: WorkBoard) {
  const queryClient = useQueryClient();
  const { user } = useAuth();
  const userId = user?.id;
  // Held at the password gate, every call but the profile is refused: nothing is asked ahead until then.
  const mustChangePassword = user?.must_change_password === true;
  useEffect(() => {
    if (userId === undefined || mustChangePassword) return;
    let cancelled = false;
    const cancelIdle = onIdle(() => {
      if (!navigator.onLine) return;
      void import('./area-data').then(({ prefetchAreaData }) => !cancelled && prefetchAreaData(queryClient, board));
    });
    return () => {
      cancelled = true;
      cancelIdle();
    };
  }, [queryClient, board, userId, mustChangePassword]);
}
