import { useEffect, useRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/** How the heading is drawn: a page's, beside its actions; a sign-in card's, smaller and with nothing beside it. */
const LOOKS = {
  page: { row: 'mb-6 flex flex-wrap items-center justify-between gap-3', heading: 'text-2xl font-bold text-ink sm:text-3xl' },
  card: { row: '', heading: 'text-2xl font-bold text-ink' },
};

/**
 * The screen's h1; the document's title (the tab, the history, a screen reader's page name) says the
 * same, in the reader's language. Every screen is named this way, the sign-in cards too (`look="card"`).
 */
export function PageTitle({ children, aside, look = 'page' }: { children: ReactNode; aside?: ReactNode; look?: keyof typeof LOOKS }) {
  const { t, i18n } = useTranslation();
  const heading = useRef<HTMLHeadingElement>(null);
  const appName = t('app.name');
  const shown = useRef<string | null>(null);
  // After every render: the heading's words change with the language and with what loads (a name).
  useEffect(() => {
    const text = heading.current?.textContent?.replace(/\s+/g, ' ').trim();
    shown.current = text ? `${text} · ${appName}` : appName;
    document.title = shown.current;
  });
  // Leaving the screen gives the title back, unless the next screen has set its own already.
  useEffect(
    () => () => {
      if (document.title === shown.current) document.title = i18n.t('app.name');
    },
    [i18n],
  );
  return (
    <div className={LOOKS[look].row || undefined}>
      <h1 ref={heading} className={LOOKS[look].heading}>
        {children}
      </h1>
      {aside}
    </div>
  );
}
