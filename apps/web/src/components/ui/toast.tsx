import { useEffect, useRef, type ReactNode } from 'react';
import { createPortal } from 'react-dom';

const tones = {
  error: 'border-red-200 bg-red-50 text-red-800',
  success: 'border-green-200 bg-green-50 text-green-800',
} as const;

/** One stack for the page's toasts, fixed to the bottom of the viewport so a result is in view wherever the page is scrolled. */
function toastRegion(): HTMLElement {
  const existing = document.getElementById('toast-region');
  if (existing) return existing;
  const region = document.createElement('div');
  region.id = 'toast-region';
  region.className = 'pointer-events-none fixed inset-x-4 bottom-4 z-40 flex flex-col items-center gap-2 md:inset-x-auto md:right-6 md:items-end';
  document.body.append(region);
  return region;
}

/** How long a success stays in view before it leaves on its own. */
export const SUCCESS_SHOWN_MS = 8000;

/**
 * The result of an action, in view: a success leaves on its own after `hideAfterMs`; an error stays
 * until dismissed or replaced. Both can be dismissed.
 */
export function Toast({ tone, children, onDismiss, dismissLabel, hideAfterMs }: { tone: keyof typeof tones; children: ReactNode; onDismiss: () => void; dismissLabel: string; hideAfterMs?: number }) {
  const dismiss = useRef(onDismiss);
  useEffect(() => {
    dismiss.current = onDismiss;
  });
  useEffect(() => {
    if (!hideAfterMs) return;
    const timer = setTimeout(() => dismiss.current(), hideAfterMs);
    return () => clearTimeout(timer);
  }, [hideAfterMs]);
  return createPortal(
    // The message alone is the live region: its Dismiss button is not read out with it.
    <div className={`pointer-events-auto flex w-full max-w-md items-start gap-3 rounded-lg border px-4 py-3 text-sm shadow-lg ${tones[tone]}`}>
      <div role={tone === 'error' ? 'alert' : 'status'} className="min-w-0 flex-1 break-words">
        {children}
      </div>
      <button
        type="button"
        onClick={onDismiss}
        aria-label={dismissLabel}
        className="-my-1 -mr-2 shrink-0 rounded px-2 py-1 text-base leading-none hover:bg-white/70 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-current"
      >
        <span aria-hidden>×</span>
      </button>
    </div>,
    toastRegion(),
  );
}
