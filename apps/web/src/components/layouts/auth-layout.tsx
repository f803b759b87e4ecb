import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Logo } from '../ui/logo';
import { PageTitle } from '../ui/page-title';

/** The centred card of the company step, sign-in and sign-up. */
export function AuthLayout({ title, subtitle, children }: { title: string; subtitle?: ReactNode; children: ReactNode }) {
  return (
    <div className="flex min-h-screen flex-col bg-gradient-to-br from-slate-100 via-white to-brand-50">
      <header className="px-6 py-5">
        <Link to="/" className="inline-block rounded">
          <Logo />
        </Link>
      </header>
      <main className="flex flex-1 items-start justify-center px-4 pb-16 pt-4 sm:items-center">
        <div className="w-full max-w-md rounded-2xl bg-white p-6 shadow-xl ring-1 ring-slate-200 sm:p-8">
          {/* Each page its own title (the tab, the history, a screen reader's page name), not "SiteBoard" for all. */}
          <PageTitle look="card">{title}</PageTitle>
          {subtitle && <div className="mt-1 text-sm text-slate-600">{subtitle}</div>}
          <div className="mt-6">{children}</div>
        </div>
      </main>
    </div>
  );
}

/** "Not your company? Choose another": a question and the link that answers it, under the card's title. */
export function AuthSwitch({ question, to, action }: { question: string; to: string; action: string }) {
  return (
    <p>
      {question}{' '}
      <Link to={to} className="font-semibold text-brand-700 hover:underline">
        {action}
      </Link>
    </p>
  );
}
