import { Suspense, type ReactNode } from 'react';
import { afterPaint, useResolved, whenIdle } from '../lib/after-paint';

// One deferred part at a time: each waits for the one before it, then for an idle moment, so that
// their code and first renders come as separate short tasks rather than one long one.
let turns: Promise<void> = Promise.resolve();

/**
 * True once the screen this component first rendered with has been painted and the main thread
 * has been idle since (after the deferred parts that asked before it).
 */
export function useAfterFirstPaint(): boolean {
  return useResolved(() => (turns = turns.then(afterPaint).then(whenIdle)));
}

/**
 * Header tools and other extras of a screen, rendered (and their lazy code fetched) only after the
 * screen's first paint, so that they do not compete with its main content for the network and the
 * main thread (decision record 036). `placeholder` holds their place meanwhile.
 */
export function AfterFirstPaint({ children, placeholder = null }: { children: ReactNode; placeholder?: ReactNode }) {
  const ready = useAfterFirstPaint();
  if (!ready) return placeholder;
  return <Suspense fallback={placeholder}>{children}</Suspense>;
}
