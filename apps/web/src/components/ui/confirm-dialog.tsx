import * as AlertDialog from '@radix-ui/react-alert-dialog';
import { useState, type ReactNode } from 'react';
import { buttonClasses } from './button';

/**
 * "Are you sure?" before something that cannot be undone. Focus starts on Cancel, Escape cancels,
 * and focus returns to the trigger afterwards (Radix AlertDialog).
 */
export function ConfirmDialog({
  trigger,
  title,
  description,
  confirmLabel,
  cancelLabel,
  onConfirm,
  confirmDisabled,
}: {
  trigger: ReactNode;
  title: string;
  description: ReactNode;
  confirmLabel: string;
  cancelLabel: string;
  onConfirm: () => void;
  /** The description says why it cannot be done yet; Cancel stays. */
  confirmDisabled?: boolean;
}) {
  return (
    <AlertDialog.Root>
      <AlertDialog.Trigger asChild>{trigger}</AlertDialog.Trigger>
      <ConfirmContent title={title} description={description} confirmLabel={confirmLabel} cancelLabel={cancelLabel} tone="danger" onConfirm={onConfirm} confirmDisabled={confirmDisabled} />
    </AlertDialog.Root>
  );
}

/**
 * A confirmation asked from code, when the answer decides how an action goes on (the server
 * asked first, e.g. a 409): `ask` opens the dialog and resolves true on confirm, false on cancel.
 */
export function useConfirm({ title, confirmLabel, cancelLabel }: { title: string; confirmLabel: string; cancelLabel: string }) {
  const [pending, setPending] = useState<{ description: ReactNode; resolve: (confirmed: boolean) => void } | null>(null);
  const settle = (confirmed: boolean) => {
    pending?.resolve(confirmed);
    setPending(null);
  };
  const ask = (description: ReactNode) => new Promise<boolean>((resolve) => setPending({ description, resolve }));
  const dialog = (
    <AlertDialog.Root open={pending !== null} onOpenChange={(open) => !open && settle(false)}>
      <ConfirmContent title={title} description={pending?.description} confirmLabel={confirmLabel} cancelLabel={cancelLabel} tone="primary" onConfirm={() => settle(true)} />
    </AlertDialog.Root>
  );
  return { ask, dialog };
}

/** The dialog itself, for both: title, description, Cancel (focused first) and the confirming action. */
function ConfirmContent({
  title,
  description,
  confirmLabel,
  cancelLabel,
  tone,
  onConfirm,
  confirmDisabled = false,
}: {
  title: string;
  description: ReactNode;
  confirmLabel: string;
  cancelLabel: string;
  tone: 'danger' | 'primary';
  onConfirm: () => void;
  confirmDisabled?: boolean;
}) {
  return (
    <AlertDialog.Portal>
      <AlertDialog.Overlay className="fixed inset-0 z-50 bg-slate-900/50" />
      <AlertDialog.Content className="fixed left-1/2 top-1/2 z-50 w-[calc(100%-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 rounded-2xl bg-white p-6 shadow-xl">
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
  );
}
