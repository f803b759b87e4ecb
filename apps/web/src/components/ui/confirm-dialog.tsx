import { cloneElement, useRef, useState, type ButtonHTMLAttributes, type ReactElement, type ReactNode, type Ref } from 'react';
import { preloadableLazy, useMountedFromFirstOpen } from '../../lib/preloadable-lazy';
import type { ConfirmTexts } from './confirm-dialog-content';
import { LazyPart } from './lazy-part';

// The dialog (Radix AlertDialog, its focus trap and scroll lock) loads when its button is first
// pointed at, focused or pressed: tables with a Delete on every row draw without it (decision record 098).
const { Component: ConfirmDialogContent, load: loadConfirmDialog } = preloadableLazy(() => import('./confirm-dialog-content').then((module) => module.ConfirmDialogContent));

type TriggerProps = ButtonHTMLAttributes<HTMLButtonElement> & { ref?: Ref<HTMLButtonElement> };
/** What the trigger says to assistive technology: it opens a dialog. */
const OPENS_DIALOG = { 'aria-haspopup': 'dialog' } as const;

/**
 * "Are you sure?" before something that cannot be undone. Focus starts on Cancel, Escape cancels,
 * and focus returns to the trigger afterwards. `trigger` is the button that opens it.
 */
export function ConfirmDialog({ trigger, ...texts }: ConfirmTexts & { trigger: ReactElement<TriggerProps> }) {
  const { open, setOpen, mounted, show } = useMountedFromFirstOpen();
  const triggerRef = useRef<HTMLButtonElement>(null);
  const own = trigger.props;
  return (
    <>
      {cloneElement(trigger, {
        ...OPENS_DIALOG,
        ref: triggerRef,
        'aria-expanded': open,
        onPointerEnter: (event) => {
          own.onPointerEnter?.(event);
          void loadConfirmDialog();
        },
        onFocus: (event) => {
          own.onFocus?.(event);
          void loadConfirmDialog();
        },
        onClick: (event) => {
          own.onClick?.(event);
          show();
        },
      })}
      {mounted && (
        <LazyPart>
          <ConfirmDialogContent {...texts} open={open} onOpenChange={setOpen} tone="danger" returnFocus={triggerRef} />
        </LazyPart>
      )}
    </>
  );
}

/**
 * A confirmation asked from code, when the answer decides how an action goes on (the server
 * asked first, e.g. a 409): `ask` opens the dialog and resolves true on confirm, false on cancel.
 */
export function useConfirm({ title, confirmLabel, cancelLabel }: { title: string; confirmLabel: string; cancelLabel: string }) {
  const [pending, setPending] = useState<{ description: ReactNode; resolve: (confirmed: boolean) => void } | null>(null);
  const [asked, setAsked] = useState(false);
  const settle = (confirmed: boolean) => {
    pending?.resolve(confirmed);
    setPending(null);
  };
  const ask = (description: ReactNode) =>
    new Promise<boolean>((resolve) => {
      setAsked(true);
      setPending({ description, resolve });
    });
  const dialog = asked && (
    <LazyPart>
      <ConfirmDialogContent
        open={pending !== null}
        onOpenChange={(open) => !open && settle(false)}
        tone="primary"
        title={title}
        description={pending?.description}
        confirmLabel={confirmLabel}
        cancelLabel={cancelLabel}
        onConfirm={() => settle(true)}
      />
    </LazyPart>
  );
  return { ask, dialog };
}
