import { useEffect, useState } from 'react';

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

/** False on a component's first render, true once that render has been painted. */
export function usePainted(): boolean {
  const [painted, setPainted] = useState(false);
  useEffect(() => {
    let cancelled = false;
    void afterPaint().then(() => {
      if (!cancelled) setPainted(true);
    });
    return () => {
      cancelled = true;
    };
  }, []);
  return painted;
}
