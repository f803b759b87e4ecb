import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useSearchParams } from 'react-router';

/**
 * `?refresh=true` asks the screen to load its data again; the parameter is then taken out of the
 * address by replacing it, so going back or reloading does not ask again.
 */
export function useRefreshParam() {
  const [params, setParams] = useSearchParams();
  const queryClient = useQueryClient();
  const requested = params.get('refresh') === 'true';

  useEffect(() => {
    if (!requested) return;
    void queryClient.invalidateQueries();
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete('refresh');
        return next;
      },
      { replace: true },
    );
  }, [requested, queryClient, setParams]);
}
