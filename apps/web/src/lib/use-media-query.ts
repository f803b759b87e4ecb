import { useSyncExternalStore } from 'react';

// One list per query: React reads the snapshot at every render of every component that asks, and
// matchMedia parses its query and builds a new list each time (the shell's, about a tenth of the
// admin dashboard's first render on a phone). A list's `matches` follows the viewport by itself.
const lists = new Map<string, MediaQueryList>();
let listsOf: typeof window.matchMedia | undefined;
function mediaList(query: string): MediaQueryList {
  // A matchMedia replaced since (a test's stand-in for a phone or a desktop) answers with lists of its own.
  if (listsOf !== window.matchMedia) {
    listsOf = window.matchMedia;
    lists.clear();
  }
  let list = lists.get(query);
  if (!list) {
    list = window.matchMedia(query);
    lists.set(query, list);
  }
  return list;
}

/** Whether `query` matches now, following its changes; false where there is no matchMedia (jsdom). */
export function useMediaQuery(query: string): boolean {
  const supported = typeof window.matchMedia === 'function';
  return useSyncExternalStore(
    (onChange) => {
      if (!supported) return () => {};
      const list = mediaList(query);
      list.addEventListener('change', onChange);
      return () => list.removeEventListener('change', onChange);
    },
    () => supported && mediaList(query).matches,
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
