/** The arrow of an expandable row: points right when closed, down when open. */
export function Chevron({ open }: { open: boolean }) {
  return (
    <svg viewBox="0 0 20 20" className={`h-4 w-4 shrink-0 text-slate-500 transition-transform motion-reduce:transition-none ${open ? 'rotate-90' : ''}`} fill="currentColor" aria-hidden>
      <path d="M7 4l6 6-6 6V4z" />
    </svg>
  );
}
