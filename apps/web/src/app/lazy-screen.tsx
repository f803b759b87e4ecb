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
  // Prefetched when idle (usePrefetchWhenIdle), the screen then draws without its loading line.
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

/**
 * Once the page is idle, fetches the code of the screens one click away: one screen per idle
 * period, the next once the last has arrived, so that their downloads and evaluation never pile
 * up into one long task while the first screen is still settling (decision record 036).
 */
export function usePrefetchWhenIdle(screens: LazyScreen[]) {
  useEffect(() => {
    const waiting = [...screens];
    let cancelled = false;
    let cancel = () => {};
    const prefetchNext = () => {
      const screen = waiting.shift();
      if (!screen || cancelled) return;
      void screen.load().then(whenIdle, whenIdle);
    };
    function whenIdle() {
      if (!cancelled) cancel = onIdle(prefetchNext);
    }
    whenIdle();
    return () => {
      cancelled = true;
      cancel();
    };
  }, [screens]);
}
