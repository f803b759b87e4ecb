import type { ReactNode } from 'react';

/** A titled card of a dashboard; its id is what sidebar links scroll to. */
export function SectionCard({ id, title, action, children }: { id: string; title: ReactNode; action?: ReactNode; children: ReactNode }) {
  return (
    <section id={id} aria-labelledby={`${id}-title`} className="scroll-mt-20 rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-5">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id={`${id}-title`} className="text-lg font-semibold text-ink">
          {title}
        </h2>
        {action}
      </div>
      <div className="mt-4 space-y-4">{children}</div>
    </section>
  );
}
