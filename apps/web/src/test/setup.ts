/**
 * What jsdom lacks and the screens' libraries expect of a browser (Radix measures with
 * ResizeObserver, the landing and shells ask matchMedia).
 */
import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, beforeAll } from 'vitest';

afterEach(() => cleanup());

// A worker's files share one window (isolate: false in vitest.config.ts): each file starts on a
// device no earlier file signed in on or chose a language on (this file runs before every file).
if (typeof window !== 'undefined') localStorage.clear();
// The app's i18n is one module of the worker too: a file that ended in another language (a French
// invitation accepted, a German profile) would leave the next file's screens in it.
beforeAll(async () => {
  if (typeof window === 'undefined') return;
  const { currentLanguage, DEFAULT_LANGUAGE, setLanguage } = await import('../lib/i18n');
  if (currentLanguage() !== DEFAULT_LANGUAGE) await setLanguage(DEFAULT_LANGUAGE, { remember: false });
});

// The screens talk to a real server on PGlite: on a busy machine an answer (a photo's resize) can
// take seconds. findBy…/waitFor keep polling their condition that long before giving up.
configure({ asyncUtilTimeout: 15_000 });

if (typeof window !== 'undefined') {
  window.ResizeObserver ??= class {
    observe() {}
    unobserve() {}
    disconnect() {}
  };
  window.matchMedia ??= (query: string) =>
    ({ matches: false, media: query, onchange: null, addListener() {}, removeListener() {}, addEventListener() {}, removeEventListener() {}, dispatchEvent: () => false }) as MediaQueryList;
  Element.prototype.scrollIntoView ??= () => {};
  // jsdom has no object URLs: a photo waiting on the device is shown by one (the browser journeys show it for real).
  let objectUrls = 0;
  URL.createObjectURL ??= () => `blob:jsdom/${++objectUrls}`;
  URL.revokeObjectURL ??= () => {};
  Element.prototype.hasPointerCapture ??= () => false;
  Element.prototype.releasePointerCapture ??= () => {};
}
