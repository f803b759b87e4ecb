// jsdom has no service worker, so vite-plugin-pwa's registration module (a virtual module its build
// generates) stands as what it reports where registration is impossible: nothing to refresh.
import { useState } from 'react';

export function useRegisterSW() {
  const needRefresh = useState(false);
  const offlineReady = useState(false);
  return { needRefresh, offlineReady, updateServiceWorker: async () => {} };
}
