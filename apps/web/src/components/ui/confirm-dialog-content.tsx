import * as AlertDialog from '@radix-ui/react-alert-dialog';
import { useRef, type ReactNode, type RefObject } from 'react';
import { focusBack } from '../../lib/focus';
import { buttonClasses } from './button';

export interface ConfirmTexts {
  title: string;
  description: ReactNode;
  confirmLabel: string;
  cancelLabel: string;
  onConfirm: () => void;
  /** The description says why it cannot be done yet; Cancel stays. */
  confirmDisabled?: boolean;
}

/**
 * The confirmation itself (Radix AlertDialog), loaded on first use by confirm-dialog.tsx: title,
 * description, Cancel (focused first) and the confirming action. Escape cancels; on close, focus
 * goes back to `returnFocus` (the button that opened it) or what had focus as it opened, or, when
 * that went with what was confirmed, to the nearest place where it stood (`focusBack`).
 */
export function ConfirmDialogContent({
  open,
  onOpenChange,
  tone,
  returnFocus,
  title,
  description,
  confirmLabel,
  cancelLabel,
  onConfirm,
  confirmDisabled = false,
}: ConfirmTexts & { open: boolean; onOpenChange: (open: boolean) => void; tone: 'danger' | 'primary'; returnFocus?: RefObject<HTMLElement | null> }) {
  const opener = useRef<Element | null>(null);
  const wasOpen = useRef(false);
  // Read as it opens, before Radix moves focus into the dialog.
  if (open && !wasOpen.current) opener.current = returnFocus?.current ?? document.activeElement;
  wasOpen.current = open;
  return (
    <AlertDialog.Root open={open} onOpenChange={onOpenChange}>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="fixed inset-0 z-50 bg-slate-900/50" />
        <AlertDialog.Content
          className="fixed left-1/2 top-1/2 z-50 w-[calc(100%-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 rounded-2xl bg-white p-6 shadow-xl"
          onCloseAutoFocus={(event) => {
            event.preventDefault();
            focusBack(returnFocus?.current ?? opener.current);
          }}
        >
          <AlertDialog.Title className="text-lg font-semibold text-ink">{title}</AlertDialog.Title>
          {/* A block, not Radix's <p>: a description may hold a field (who takes over a deleted user's work). */}
          <AlertDialog.Description asChild>
            <div className="mt-2 break-words text-sm text-slate-600">{description}</div>
          </AlertDialog.Description>
          <div className="mt-6 flex flex-wrap justify-end gap-3">
            <AlertDialog.Cancel className={buttonClasses('secondary')}>{cancelLabel}</AlertDialog.Cancel>
            <AlertDialog.Action className={buttonClasses(tone)} onClick={onConfirm} disabled={confirmDisabled}>
              {confirmLabel}
            </AlertDialog.Action>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}
