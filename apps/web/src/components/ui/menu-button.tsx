import { useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';

export interface MenuItem {
  key: string;
  label: ReactNode;
  /** A choice among several (the language): shown ticked, announced as checked. */
  checked?: boolean;
  onSelect?: () => void;
}

const ITEM = '[role="menuitem"], [role="menuitemradio"]';

/**
 * A small accessible menu button (ARIA menu pattern: Escape, arrow keys, outside click) for the
 * landing header and the shells; a menu library would cost the landing page more than its whole
 * budget allows. `label` names the menu, and the button unless `triggerLabel` does: a button that
 * shows words ("EN") has a name that contains them, so a person who says what they see reaches it.
 */
export function MenuButton({
  label,
  triggerLabel = label,
  trigger,
  items,
  triggerClassName,
}: {
  label: string;
  triggerLabel?: string;
  trigger: ReactNode;
  items: MenuItem[];
  triggerClassName: string;
}) {
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const root = useRef<HTMLDivElement>(null);
  const triggerRef = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!open) return;
    const entries = [...(root.current?.querySelectorAll<HTMLElement>(ITEM) ?? [])];
    (entries.find((entry) => entry.getAttribute('aria-checked') === 'true') ?? entries[0])?.focus();
    const closeOnOutsideClick = (event: PointerEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', closeOnOutsideClick);
    return () => document.removeEventListener('pointerdown', closeOnOutsideClick);
  }, [open]);

  const close = () => {
    setOpen(false);
    triggerRef.current?.focus();
  };

  const onMenuKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const entries = [...(root.current?.querySelectorAll<HTMLElement>(ITEM) ?? [])];
    const current = entries.indexOf(document.activeElement as HTMLElement);
    if (event.key === 'Escape') close();
    else if (event.key === 'Tab') setOpen(false);
    else if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      const step = event.key === 'ArrowDown' ? 1 : -1;
      entries[(current + step + entries.length) % entries.length]?.focus();
    }
  };

  return (
    <div ref={root} className="relative">
      <button
        ref={triggerRef}
        type="button"
        aria-label={triggerLabel}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        className={triggerClassName}
        onClick={() => setOpen((value) => !value)}
      >
        {trigger}
      </button>
      {open && (
        <div
          id={menuId}
          role="menu"
          aria-label={label}
          onKeyDown={onMenuKeyDown}
          className="absolute right-0 z-50 mt-1.5 w-max min-w-40 max-w-[calc(100vw-1.5rem)] rounded-lg bg-white p-1 text-sm text-slate-800 shadow-xl ring-1 ring-slate-200"
        >
          {items.map((item) => (
            <button
              key={item.key}
              type="button"
              role={item.checked === undefined ? 'menuitem' : 'menuitemradio'}
              aria-checked={item.checked}
              tabIndex={-1}
              onClick={() => {
                close();
                item.onSelect?.();
              }}
              className="flex w-full cursor-pointer items-center gap-2 rounded-md px-3 py-2 text-left outline-none hover:bg-brand-50 hover:text-brand-700 focus:bg-brand-50 focus:text-brand-700 focus-visible:outline-2 focus-visible:outline-solid focus-visible:-outline-offset-2 focus-visible:outline-brand-600 aria-checked:font-semibold"
            >
              {item.label}
            </button>
          ))}
        </div>
      )}
    </div>
  );
}
