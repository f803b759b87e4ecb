import { useEffect, useRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/** The screen's h1; the document's title (the tab, the history, a screen reader's page name) says the same, in the reader's language. */
export function PageTitle({ children, aside }: { children: ReactNode; aside?: ReactNode }) {
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
    <div className="mb-6 flex flex-wrap items-center justify-between gap-3">
      <h1 ref={heading} className="text-2xl font-bold text-ink sm:text-3xl">
        {children}
      </h1>
      {aside}
    </div>
  );
}

/** The document's title for a screen whose heading is a plain text (the sign-in pages' cards): "Log In · SiteBoard". */
export function useDocumentTitle(title: string) {
  const { t, i18n } = useTranslation();
  const appName = t('app.name');
  useEffect(() => {
    const shown = `${title} · ${appName}`;
    document.title = shown;
    return () => {
      if (document.title === shown) document.title = i18n.t('app.name');
    };
  }, [title, appName, i18n]);
}
