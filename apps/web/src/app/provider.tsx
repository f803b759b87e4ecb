import { onlineManager, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { ApiError } from '../lib/api-client';

// TanStack Query assumes a connection until the first "offline" event: a page opened without a
// signal must know at once, so that its queries wait for the connection instead of failing.
onlineManager.setOnline(navigator.onLine);

export function AppProvider({ children }: { children: ReactNode }) {
  const [queryClient] = useState(
    () =>
      new QueryClient({
        defaultOptions: {
          queries: {
            // A 4xx will not change by asking again; a dropped site connection might: one more try
            // after a second, so a failed load says so (with Retry) within about three seconds.
            retry: (failureCount, error) => !(error instanceof ApiError && error.status < 500) && failureCount < 1,
            retryDelay: 1000,
            refetchOnWindowFocus: true,
          },
          // A write always runs: the api client decides whether it goes out or into the offline queue.
          mutations: { networkMode: 'always' },
        },
      }),
  );
  return <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
}
