import { useEffect } from 'react';

/**
 * Where focus goes when the control that had it goes away with what it did: an approved subtask
 * leaves its list, a deleted project its table, a status change swaps its button for a badge. The
 * browser drops focus to the page's top (`<body>`), and a keyboard or screen-reader user would
 * start over from there; here it stays where they were instead: the control now in the same place
 * of the same row (or the row itself) while the row stays, else the first control of the row that
 * took its place (or of the one above, when it was the last), else the heading above the list,
 * else the page's heading. Dialogs and menus give focus back themselves (`focusBack`, the same rule).
 */
const CONTROL = 'a[href], button, input, select, textarea, summary, [tabindex]:not([tabindex="-1"])';
const ROW = 'tr, li, [data-focus-row]';
const HEADING = 'h1, h2, h3, h4, h5, h6';
/** Their own code moves focus when they close. */
const OWN_FOCUS = '[role="dialog"], [role="alertdialog"], [role="menu"], [role="listbox"]';

/** Where a control stood when it had focus, read while it is still on the page. */
interface Place {
  row: Element | null;
  /** The row's list (its parent) and its place in it. */
  list: Element | null;
  rowIndex: number;
  controlIndex: number;
  /** The nearest heading before the row (or the control): the list's. */
  heading: Element | null;
}

const places = new WeakMap<Element, Place>();

/** On the page, enabled and shown (a row's phone-only or desktop-only buttons are there but not drawn). */
const usable = (element: Element): element is HTMLElement =>
  element instanceof HTMLElement &&
  element.isConnected &&
  !element.hasAttribute('disabled') &&
  !element.closest('[inert], [hidden]') &&
  (typeof element.checkVisibility !== 'function' || element.checkVisibility());

const controlsIn = (root: Element) => [...root.querySelectorAll(CONTROL)].filter(usable);

function placeOf(element: Element): Place {
  const row = element.closest(ROW);
  const list = row?.parentElement ?? null;
  return {
    row,
    list,
    rowIndex: row && list ? [...list.children].indexOf(row) : -1,
    controlIndex: row ? controlsIn(row).findIndex((control) => control === element) : -1,
    heading: headingBefore(row ?? element),
  };
}

function headingBefore(element: Element): Element | null {
  const headings = [...document.querySelectorAll(HEADING)];
  return headings.findLast((heading) => heading.compareDocumentPosition(element) & Node.DOCUMENT_POSITION_FOLLOWING && !heading.contains(element)) ?? null;
}

/** Focuses `element`, giving a non-control (a row, a heading) a tabindex that lets it take focus without joining the Tab order. */
function focusOn(element: Element | null | undefined, options?: FocusOptions): boolean {
  if (!(element instanceof HTMLElement) || !element.isConnected) return false;
  if (!element.matches(CONTROL) && !element.hasAttribute('tabindex')) element.setAttribute('tabindex', '-1');
  element.focus(options);
  return document.activeElement === element;
}

/** A field a phone opens its keyboard for. */
const isTypingField = (element: Element) =>
  element instanceof HTMLTextAreaElement ||
  (element instanceof HTMLElement && element.isContentEditable) ||
  (element instanceof HTMLInputElement && !['button', 'checkbox', 'radio', 'submit', 'reset', 'file', 'image', 'range', 'color'].includes(element.type));

const pageHeading = () => document.querySelector('main h1') ?? document.querySelector('h1');

function focusNear(place: Place | undefined): void {
  if (place?.row?.isConnected) {
    const controls = controlsIn(place.row);
    if (focusOn(controls[Math.min(place.controlIndex, controls.length - 1)] ?? place.row)) return;
  }
  if (place?.list?.isConnected && place.rowIndex >= 0) {
    const rows = [...place.list.children];
    for (const row of [rows[place.rowIndex], rows[place.rowIndex - 1]]) {
      if (row && focusOn(controlsIn(row)[0])) return;
    }
  }
  if (place?.heading?.isConnected && focusOn(place.heading)) return;
  focusOn(pageHeading());
}

/** The history entry this document was loaded at (the router keeps a key in each entry's state; the first load of a tab has none). */
const loadedAt: unknown = typeof window === 'undefined' ? undefined : (window.history.state as { key?: unknown } | null)?.key;

/**
 * Whether a screen was reached by a move inside the app (a sign-in, a link), not by loading or
 * reloading the page: the router names the entry it shows by `location.key`, "default" for one it
 * did not make itself.
 */
export const reachedByMove = (locationKey: string): boolean => locationKey !== (loadedAt ?? 'default');

/**
 * Focuses the page's heading (the h1 in `main`) once it is drawn (a screen whose code or data is
 * still loading draws it later), so a screen reader names the new page; not once the person has
 * put focus somewhere themselves meanwhile. Returns the stop.
 */
export function focusPageHeading(main: HTMLElement, options?: FocusOptions): () => void {
  const shown = () => focusOn(main.querySelector('h1'), options);
  if (shown()) return () => {};
  const observer = new MutationObserver(() => shown() && stop());
  const stop = () => {
    observer.disconnect();
    document.removeEventListener('focusin', stop);
  };
  observer.observe(main, { childList: true, subtree: true });
  document.addEventListener('focusin', stop);
  return stop;
}

/**
 * Focus back on what opened a dialog while it is on the page and can take it; when it went with
 * the change the dialog made (the row a decline removed), the nearest place where it stood.
 */
export function focusBack(opener: Element | null | undefined): void {
  if (opener && opener !== document.body && usable(opener) && focusOn(opener)) return;
  // Drawn again meanwhile as a new element (a drawing's pin): the one that took its place (`data-focus-key`).
  const key = opener instanceof HTMLElement ? opener.dataset.focusKey : undefined;
  const redrawn = key === undefined ? undefined : [...document.querySelectorAll<HTMLElement>('[data-focus-key]')].find((element) => element.dataset.focusKey === key);
  if (redrawn && usable(redrawn) && focusOn(redrawn)) return;
  focusNear(opener ? places.get(opener) : undefined);
}

/**
 * Keeps focus on the page while the app runs (installed once, at the root): remembers where each
 * focused control stands, and when it leaves the page while it had focus, focuses the nearest
 * place (`focusNear`). One disabled while its write runs (Approve) is waited for: focus goes back
 * to it when it can take it again, or near it when it is gone. A click elsewhere is the person's
 * own choice of where focus is: nothing is moved after it.
 */
export function useKeepFocusInPlace() {
  useEffect(() => {
    let last: Element | null = null;
    const onFocusIn = (event: FocusEvent) => {
      const target = event.target;
      last = target instanceof Element && target !== document.body && !target.closest(OWN_FOCUS) ? target : null;
      if (last) places.set(last, placeOf(last));
    };
    const onPointerDown = () => {
      last = null;
    };
    const observer = new MutationObserver(() => {
      if (!last || (document.activeElement && document.activeElement !== document.body)) return;
      if (last.isConnected && last.hasAttribute('disabled')) return;
      // A field one types in, left while still there and usable: the person left it (a phone's
      // "Done", Tab away), and focusing it again when the page next changes would pop the keyboard
      // back up. A button or a dropdown dropped by a redraw (a re-sorted row) is given focus back.
      if (last.isConnected && isTypingField(last)) {
        last = null;
        return;
      }
      const gone = last;
      last = null;
      focusBack(gone);
    });
    document.addEventListener('focusin', onFocusIn);
    document.addEventListener('pointerdown', onPointerDown, true);
    observer.observe(document.body, { childList: true, subtree: true, attributes: true, attributeFilter: ['disabled'] });
    return () => {
      document.removeEventListener('focusin', onFocusIn);
      document.removeEventListener('pointerdown', onPointerDown, true);
      observer.disconnect();
    };
  }, []);
}
