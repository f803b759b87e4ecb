/**
 * Grey rows where a list will appear, of a list row's height, so that what follows does not move
 * when the rows arrive (layout shift, decision record 068). Screen readers hear `label` once.
 */
export function ListSkeleton({ rows, label }: { rows: number; label: string }) {
  return (
    <div role="status" aria-live="polite" className="space-y-2">
      <span className="sr-only">{label}</span>
      {Array.from({ length: rows }, (_, index) => (
        <div key={index} aria-hidden="true" className="h-11 animate-pulse rounded-lg bg-slate-100 motion-reduce:animate-none" />
      ))}
    </div>
  );
}
