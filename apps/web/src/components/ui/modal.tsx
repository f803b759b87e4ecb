import * as Dialog from '@radix-ui/react-dialog';
import { useRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { focusBack } from '../../lib/focus';
import { Icon } from './icons';

const PLACEMENT = {
  // A dialog in the middle of the screen.
  center: 'left-1/2 top-1/2 max-h-[calc(100dvh-2rem)] w-[calc(100vw-2rem)] max-w-lg -translate-x-1/2 -translate-y-1/2 rounded-2xl',
  // A panel from the right edge: the whole screen on a phone, a side sheet on wider screens.
  side: 'inset-y-0 right-0 h-dvh w-full sm:max-w-xl sm:rounded-l-2xl',
} as const;

/**
 * A modal dialog (Radix): focus moves in and back, Escape and the close button close it, and the
 * page behind cannot be reached meanwhile. "Back" is what had focus when it opened (it is opened
 * from a button, a row, a menu, not from a Radix trigger); when that is gone (the row an approval
 * removed), the nearest place where it stood (`focusBack`), so the next Tab starts from there, not
 * from the page's top.
 */
export function Modal({
  open,
  onOpenChange,
  title,
  description,
  placement = 'center',
  children,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: ReactNode;
  description?: ReactNode;
  placement?: keyof typeof PLACEMENT;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const opener = useRef<Element | null>(null);
  const wasOpen = useRef(false);
  // Read as it opens, before Radix moves focus into the dialog.
  if (open && !wasOpen.current) opener.current = document.activeElement;
  wasOpen.current = open;
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-slate-900/50" />
        <Dialog.Content
          className={`fixed z-50 flex flex-col overflow-hidden bg-white shadow-xl ${PLACEMENT[placement]}`}
          {...(description ? {} : { 'aria-describedby': undefined })}
          onCloseAutoFocus={(event) => {
            event.preventDefault();
            focusBack(opener.current);
          }}
        >
          <div className="flex items-start justify-between gap-3 border-b border-slate-200 px-5 py-4">
            <div className="min-w-0">
              <Dialog.Title className="break-words text-lg font-semibold text-ink">{title}</Dialog.Title>
              {description && <Dialog.Description className="mt-1 break-words text-sm text-slate-600">{description}</Dialog.Description>}
            </div>
            <Dialog.Close className="-mr-2 shrink-0 rounded-full p-2 text-slate-500 hover:bg-slate-100 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-600" aria-label={t('common.close')}>
              <Icon name="declined" className="h-5 w-5" />
            </Dialog.Close>
          </div>
          <div className="min-h-0 flex-1 overflow-y-auto px-5 py-4">{children}</div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
