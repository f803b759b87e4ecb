import { useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';

/**
 * A small accessible menu button (ARIA menu pattern: Escape, arrow keys, outside click) for the
 * landing header; a menu library would cost the landing page more than its whole budget allows.
 */
export function MenuButton({ label, trigger, items, triggerClassName }: { label: string; trigger: ReactNode; items: string[]; triggerClassName: string }) {
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const root = useRef<HTMLDivElement>(null);
  const triggerRef = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!open) return;
    root.current?.querySelector<HTMLElement>('[role="menuitem"]')?.focus();
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
    const entries = [...(root.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])];
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
        aria-label={label}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        className={triggerClassName}
        onClick={() => setOpen((value) => !value)}
      >
        {trigger}
      </button>
      {open && (
        <div id={menuId} role="menu" aria-label={label} onKeyDown={onMenuKeyDown} className="absolute right-0 z-50 mt-1.5 min-w-40 rounded-lg bg-white p-1 text-sm text-slate-800 shadow-xl ring-1 ring-slate-200">
          {items.map((item) => (
            <button
              key={item}
              type="button"
              role="menuitem"
              tabIndex={-1}
              onClick={close}
              className="block w-full cursor-pointer rounded-md px-3 py-2 text-left outline-none hover:bg-brand-50 hover:text-brand-700 focus:bg-brand-50 focus:text-brand-700"
            >
              {item}
            </button>
          ))}
        </div>
      )}
    </div>
  );
}
