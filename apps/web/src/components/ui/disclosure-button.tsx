import type { ReactNode } from 'react';
import { Chevron } from './chevron';

/** The full-width button that opens and closes an expandable row, led by its arrow. */
export function DisclosureButton({ open, controls, onToggle, className = '', children }: { open: boolean; controls: string; onToggle: () => void; className?: string; children: ReactNode }) {
  return (
    <button type="button" aria-expanded={open} aria-controls={controls} onClick={onToggle} className={`flex w-full gap-3 text-left hover:bg-slate-50 ${className}`}>
      <span className="flex h-6 shrink-0 items-center">
        <Chevron open={open} />
      </span>
      {children}
    </button>
  );
}
