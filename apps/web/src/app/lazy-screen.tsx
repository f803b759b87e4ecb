import { Suspense, useEffect, type ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import { onIdle } from '../lib/after-paint';
import { preloadableLazy } from '../lib/preloadable-lazy';

export interface LazyScreen {
  /** The screen, its code loaded on first render (a loading line meanwhile). */
  Screen: ComponentType;
  /** Loads the screen's code ahead of time; loading twice is one download. */
  load: () => Promise<unknown>;
}

/** A screen of an area in its own chunk: the area's first screen loads without it. */
export function lazyScreen<Module>(importModule: () => Promise<Module>, pick: (module: Module) => ComponentType): LazyScreen {
  // Loaded ahead by `load` (the projects card, on hover), the screen then draws without its loading line.
  const { Component: Lazy, load } = preloadableLazy(async () => pick(await importModule()));
  function Screen() {
    const { t } = useTranslation();
    return (
      <Suspense fallback={<p className="text-sm text-slate-500">{t('app.loading')}</p>}>
        <Lazy />
      </Suspense>
    );
  }
  return { Screen, load };
}

declare global {
  interface Window {
    /**
     * Set by index.html's route-preload script (route-preload.ts): for each area's path, the files
     * of each screen one click away that the area's first load has not brought.
     */
    __siteboardNextScreens?: Record<string, string[][]>;
  }
}

const prefetched = new Set<string>();

/**
 * Fetches module files and compiles them without running them (`modulepreload`); resolves once each
 * has arrived or failed. A module `import()` of them later runs them from the module map. (A
 * `prefetch` link was not enough: Chromium fetched the files again for the import.)
 */
function prefetchFiles(files: string[]): Promise<unknown> {
  const fresh = files.filter((file) => !prefetched.has(file));
  return Promise.all(
    fresh.map(
      (file) =>
        new Promise<void>((resolve) => {
          prefetched.add(file);
          const link = document.createElement('link');
          link.rel = 'modulepreload';
          link.crossOrigin = '';
          link.href = file;
          link.onload = link.onerror = () => resolve();
          document.head.appendChild(link);
        }),
    ),
  );
}

/**
 * Once the page is idle, fetches the files of the area's screens one click away, without running
 * them: one screen per idle period, the next once the last has arrived. Running them here (their
 * code, the shared zod schemas) was a sixth of the main thread's work while a phone loads the
 * manager's dashboard (`git show f907f16:bench/results/2026-11-24-issue-22.md`); the click that opens a screen runs
 * its code then, from the module map, with no request. Without the build's list (the dev server) nothing is fetched.
 */
export function usePrefetchWhenIdle(areaPath: string) {
  useEffect(() => {
    let waiting: string[][] | undefined;
    let cancelled = false;
    let cancel = () => {};
    const prefetchNext = () => {
      // Read at the first idle moment: index.html's route-preload script is loaded `async`.
      waiting ??= [...(window.__siteboardNextScreens?.[areaPath] ?? [])];
      const files = waiting.shift();
      if (!files || cancelled) return;
      void prefetchFiles(files).then(whenIdle);
    };
    function whenIdle() {
      if (!cancelled) cancel = onIdle(prefetchNext);
    }
    whenIdle();
    return () => {
      cancelled = true;
      cancel();
    };
  }, [areaPath]);
}
