import { startTransition, useEffect, useState } from 'react';

/**
 * How long a deferred part waits for a frame that does not come. A page draws no frames while its
 * tab is in the background, and headless Chromium sometimes stops drawing them at all (a journey's
 * bell stayed a placeholder for six minutes): past this, the part comes without the paint.
 */
export const PAINT_WAIT_MS = 1_000;
/** How long a deferred part waits for an idle moment on a main thread that stays busy. */
export const IDLE_WAIT_MS = 2_000;

/**
 * Resolves once the frame being prepared has been painted: an animation frame (just before that
 * paint), then a task (just after it); or after PAINT_WAIT_MS if no frame comes. Work the first
 * screen does not show starts here, so the screen is painted first (decision record 036).
 */
export function afterPaint(): Promise<void> {
  return new Promise((resolve) => {
    if (typeof requestAnimationFrame !== 'function') {
      setTimeout(resolve);
      return;
    }
    const fallback = setTimeout(resolve, PAINT_WAIT_MS);
    requestAnimationFrame(() =>
      setTimeout(() => {
        clearTimeout(fallback);
        resolve();
      }),
    );
  });
}

/**
 * Runs `callback` when the main thread is next idle (soon after, where there is no
 * requestIdleCallback), or after `timeout` ms at the latest if given; answers its cancel.
 */
export function onIdle(callback: () => void, { timeout }: { timeout?: number } = {}): () => void {
  // No window: the page is gone (a test's jsdom torn down while a prefetch chain still waited); nothing is left to run for.
  if (typeof window === 'undefined') return () => {};
  if (typeof window.requestIdleCallback !== 'function') {
    const timer = window.setTimeout(callback, 1);
    return () => window.clearTimeout(timer);
  }
  const handle = window.requestIdleCallback(() => callback(), timeout === undefined ? undefined : { timeout });
  return () => window.cancelIdleCallback(handle);
}

/** False until the promise `start` makes when the component mounts (once) has resolved, then true. */
export function useResolved(start: () => Promise<unknown>): boolean {
  const [resolved, setResolved] = useState(false);
  useEffect(() => {
    let cancelled = false;
    void start().then(() => {
      // A transition: what appears now is not urgent, so React renders it in slices between other work.
      if (!cancelled) startTransition(() => setResolved(true));
    });
    return () => {
      cancelled = true;
    };
    // Started once, with the first render's `start`.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  return resolved;
}

/** Resolves when the main thread is next idle, or after IDLE_WAIT_MS on one that stays busy. */
export const whenIdle = (): Promise<void> => new Promise((resolve) => void onIdle(resolve, { timeout: IDLE_WAIT_MS }));

/** False on a component's first render, true once that render has been painted. */
export const usePainted = (): boolean => useResolved(afterPaint);

/** False on a component's first render, true once that render has been painted and the main thread has been idle since. */
export const useIdleAfterPaint = (): boolean => useResolved(() => afterPaint().then(whenIdle));
