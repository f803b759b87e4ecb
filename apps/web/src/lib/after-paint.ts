import { startTransition, useEffect, useState } from 'react';

/**
 * Resolves once the frame being prepared has been painted: an animation frame (just before that
 * paint), then a task (just after it). Work the first screen does not show starts here, so the
 * screen is painted first (decision record 036).
 */
export function afterPaint(): Promise<void> {
  return new Promise((resolve) => {
    if (typeof requestAnimationFrame !== 'function') setTimeout(resolve);
    else requestAnimationFrame(() => setTimeout(resolve));
  });
}

/** Runs `callback` when the main thread is next idle (soon after, where there is no requestIdleCallback); answers its cancel. */
export function onIdle(callback: () => void): () => void {
  if (typeof window.requestIdleCallback !== 'function') {
    const timer = window.setTimeout(callback, 1);
    return () => window.clearTimeout(timer);
  }
  const handle = window.requestIdleCallback(() => callback());
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

/** Resolves when the main thread is next idle. */
export const whenIdle = (): Promise<void> => new Promise((resolve) => void onIdle(resolve));

/** False on a component's first render, true once that render has been painted. */
export const usePainted = (): boolean => useResolved(afterPaint);

/** False on a component's first render, true once that render has been painted and the main thread has been idle since. */
export const useIdleAfterPaint = (): boolean => useResolved(() => afterPaint().then(whenIdle));
