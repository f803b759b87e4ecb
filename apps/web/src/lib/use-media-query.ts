import { useSyncExternalStore } from 'react';

/** Whether `query` matches now, following its changes; false where there is no matchMedia (jsdom). */
export function useMediaQuery(query: string): boolean {
  const supported = typeof window.matchMedia === 'function';
  return useSyncExternalStore(
    (onChange) => {
      if (!supported) return () => {};
      const list = window.matchMedia(query);
      list.addEventListener('change', onChange);
      return () => list.removeEventListener('change', onChange);
    },
    () => supported && window.matchMedia(query).matches,
  );
}

export function useViewportWidth(): number {
  return useSyncExternalStore(
    (onChange) => {
      window.addEventListener('resize', onChange);
      return () => window.removeEventListener('resize', onChange);
    },
    () => window.innerWidth,
  );
}
