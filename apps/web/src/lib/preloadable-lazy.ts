import { lazy, useState, type ComponentType } from 'react';

/**
 * A component whose code is its own chunk, loaded on first render or ahead of time with `load`
 * (loading twice is one download). Once loaded it renders at once: React.lazy reads a thenable
 * that has already settled without suspending, so a preloaded screen shows no loading state first.
 */
export function preloadableLazy<Props extends object = object>(
  importComponent: () => Promise<ComponentType<Props>>,
): { Component: ComponentType<Props>; load: () => Promise<ComponentType<Props>> } {
  let loaded: ComponentType<Props> | undefined;
  let loading: Promise<ComponentType<Props>> | undefined;
  const load = () =>
    (loading ??= importComponent().then((component) => {
      loaded = component;
      return component;
    }));
  const Component = lazy(() => {
    if (!loaded) return load().then((component) => ({ default: component }));
    const module = { default: loaded };
    return { then: (resolve: (value: typeof module) => void) => resolve(module) } as Promise<typeof module>;
  });
  return { Component, load };
}

/** A trigger's props that load a lazily loaded part as the pointer comes over it or focus reaches it. */
export const loadOnApproach = (load: () => Promise<unknown>) => ({ onPointerEnter: () => void load(), onFocus: () => void load() });

/**
 * A dialog loaded on first use: `open` as usual, and `mounted` from its first opening on, so that
 * closing it is the dialog's own (animated, focus-returning) close. `show` opens it.
 */
export function useMountedFromFirstOpen() {
  const [open, setOpen] = useState(false);
  const [mounted, setMounted] = useState(false);
  const show = () => {
    setMounted(true);
    setOpen(true);
  };
  return { open, setOpen, mounted, show };
}
