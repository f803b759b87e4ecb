import { useEffect, useRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

const tones = {
  error: 'border-red-200 bg-red-50 text-red-800',
  success: 'border-green-200 bg-green-50 text-green-800',
  info: 'border-sky-200 bg-sky-50 text-sky-800',
} as const;

/**
 * `focusOnShow`: the outcome of what the person just did on a form that stays (a create screen
 * emptied for the next one): focus moves to it, in the middle of the screen, where a phone showing
 * the form's bottom would otherwise leave it scrolled away above.
 */
export function Alert({ tone, children, focusOnShow = false }: { tone: keyof typeof tones; children: ReactNode; focusOnShow?: boolean }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!focusOnShow || !box.current) return;
    box.current.focus({ preventScroll: true });
    box.current.scrollIntoView({ block: 'center' });
  }, [focusOnShow]);
  return (
    <div ref={box} tabIndex={focusOnShow ? -1 : undefined} role={tone === 'error' ? 'alert' : 'status'} className={`rounded-lg border px-4 py-3 text-sm focus:outline-none ${tones[tone]}`}>
      {children}
    </div>
  );
}

/** The look of the one button an alert offers, in its tone. */
const actionTones = {
  error: 'text-red-800 ring-red-300 hover:bg-red-100 focus-visible:ring-red-600',
  success: 'text-green-800 ring-green-300 hover:bg-green-100 focus-visible:ring-green-700',
} as const;

/** A message with the one thing to do about it beside it (`action`, when there is one now). */
export function ActionAlert({ tone, children, action }: { tone: keyof typeof actionTones; children: ReactNode; action?: { label: string; onClick: () => void } }) {
  return (
    <div role={tone === 'error' ? 'alert' : 'status'} className={`flex flex-wrap items-center justify-between gap-3 rounded-lg border px-4 py-3 text-sm ${tones[tone]}`}>
      <span>{children}</span>
      {action && (
        <button type="button" onClick={action.onClick} className={`rounded-lg bg-white px-3 py-1.5 font-semibold ring-1 focus-visible:outline-none focus-visible:ring-2 ${actionTones[tone]}`}>
          {action.label}
        </button>
      )}
    </div>
  );
}

/** A load that failed, with the way out: Retry asks again. */
export function RetryAlert({ children, onRetry, retryLabel }: { children: ReactNode; onRetry: () => void; retryLabel: string }) {
  return (
    <ActionAlert tone="error" action={{ label: retryLabel, onClick: onRetry }}>
      {children}
    </ActionAlert>
  );
}

/** A list that failed to load, in the words every list says it with ("Failed to load data. Please try again."), with Retry. */
export function ListLoadFailed({ onRetry }: { onRetry: () => void }) {
  const { t } = useTranslation();
  return (
    <RetryAlert onRetry={onRetry} retryLabel={t('common.retry')}>
      {t('list.loadFailed')}
    </RetryAlert>
  );
}
