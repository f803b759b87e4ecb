import { createElement, lazy, useState, type ComponentType } from 'react';

/**
 * A part's code that could not be fetched: no signal before the offline copy held it. `LazyPart`
 * says so in place; `forget` lets the next render ask for it again.
 */
export class CodeNotLoaded extends Error {
  constructor(
    cause: unknown,
    readonly forget: () => void,
  ) {
    super('The code of this part could not be loaded.', { cause });
    this.name = 'CodeNotLoaded';
  }
}

/**
 * A component whose code is its own chunk, loaded on first render or ahead of time with `load`
 * (loading twice is one download). Once loaded it renders at once: React.lazy reads a thenable
 * that has already settled without suspending, so a preloaded screen shows no loading state first.
 * A fetch that fails throws `CodeNotLoaded`; the next `load` asks again, and its `forget` lets the
 * next render ask again too (React keeps a lazy component's failure, so a new one takes its place).
 */
export function preloadableLazy<Props extends object = object>(
  importComponent: () => Promise<ComponentType<Props>>,
): { Component: ComponentType<Props>; load: () => Promise<ComponentType<Props>> } {
  let loaded: ComponentType<Props> | undefined;
  let loading: Promise<ComponentType<Props>> | undefined;
  const load = () =>
    (loading ??= importComponent().then(
      (component) => {
        loaded = component;
        return component;
      },
      (error: unknown) => {
        // The next `load` (a press after a preload failed) asks again; a part drawn already keeps its
        // failure until Retry (`forget`): React draws a failed part once more, which would ask again, and again.
        loading = undefined;
        // A fetch that failed is a TypeError; a module that failed as it ran is the screen's failure.
        if (!(error instanceof TypeError)) throw error;
        console.error(error);
        throw new CodeNotLoaded(error, () => {
          current = lazyOnce();
        });
      },
    ));
  const lazyOnce = () =>
    lazy(() => {
      if (!loaded) return load().then((component) => ({ default: component }));
      const module = { default: loaded };
      return { then: (resolve: (value: typeof module) => void) => resolve(module) } as Promise<typeof module>;
    });
  let current = lazyOnce();
  const Component = (props: Props) => createElement(current, props);
  return { Component, load };
}

/** A trigger's props that load a lazily loaded part as the pointer comes over it or focus reaches it. */
export const loadOnApproach = (load: () => Promise<unknown>) => {
  // Ahead of time only: without a signal the press that follows says so (`LazyPart`).
  const preload = () => void load().catch(() => undefined);
  return { onPointerEnter: preload, onFocus: preload };
};

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
