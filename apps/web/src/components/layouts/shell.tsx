import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { focusPageHeading, reachedByMove } from '../../lib/focus';
import { storage } from '../../lib/storage';
import { useMediaQuery } from '../../lib/use-media-query';
import { Button, buttonClasses } from '../ui/button';
import { LanguageMenu } from '../ui/language-menu';
import { Logo } from '../ui/logo';

/** Tailwind's `md`: from here the sidebar folds to icons; below it slides in over the page. */
const WIDE_SCREEN = '(min-width: 768px)';

export interface ShellNavItem {
  key: string;
  label: string;
  icon: ReactNode;
  /** Either a link target or an action (admin's sidebar scrolls to sections). */
  render: (props: { className: string; children: ReactNode; onNavigate: () => void }) => ReactNode;
}

/**
 * The signed-in frame of every area: a sidebar that collapses to icons on wide screens and
 * slides in over the page on phones, and a header whose right side each area fills. "Skip to
 * content" comes first, past the sidebar and the header to the page; after a move to another
 * page (not on the first load, where the screen reader reads the page anyway; also on arriving
 * from the sign-in) focus goes to its heading, so the new page is announced and the next Tab starts in it.
 */
export function Shell({ nav, headerStart, headerEnd, notices, onLogout, children }: { nav: ShellNavItem[]; headerStart: string; headerEnd: ReactNode; notices?: ReactNode; onLogout: () => void; children: ReactNode }) {
  const { t } = useTranslation();
  // Folded on a wide screen, it stays folded after a reload (this device remembers).
  const [collapsed, setCollapsed] = useState(() => storage.sidebarCollapsed);
  const [mobileOpen, setMobileOpen] = useState(false);
  const wide = useMediaQuery(WIDE_SCREEN);
  const sidebar = useRef<HTMLElement>(null);
  const toggleButton = useRef<HTMLButtonElement>(null);
  // On a phone the open menu is a dialog over the page: focus goes in, the page behind is out of
  // reach (inert), Escape closes it and focus returns to the menu button; closed, it is out of reach.
  const phoneMenu = !wide && mobileOpen;
  const closePhoneMenu = () => {
    setMobileOpen(false);
    toggleButton.current?.focus();
  };
  useEffect(() => {
    if (!phoneMenu) return;
    sidebar.current?.querySelector<HTMLElement>('nav a, nav button')?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') closePhoneMenu();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [phoneMenu]);
  const main = useRef<HTMLElement>(null);
  const location = useLocation();
  // Arriving from outside the area (signed in) is a move to a page too; the page's first load is not.
  const shownPath = useRef(reachedByMove(location.key) ? null : location.pathname);
  useEffect(() => {
    if (location.pathname === shownPath.current || !main.current) return;
    shownPath.current = location.pathname;
    // A move to a section (the admin's sidebar) scrolls there itself: focus without scrolling back up.
    const toSection = Boolean(location.hash) || Boolean((location.state as { scrollTo?: string } | null)?.scrollTo);
    return focusPageHeading(main.current, { preventScroll: toSection });
  }, [location]);
  const toggle = () => {
    if (!wide) return setMobileOpen((value) => !value);
    storage.setSidebarCollapsed(!collapsed);
    setCollapsed(!collapsed);
  };
  const itemClass = `flex w-full items-center gap-3 rounded-lg px-3 py-2 text-left text-sm font-medium text-slate-200 hover:bg-white/10 aria-[current=page]:bg-brand-600 aria-[current=page]:text-white`;

  return (
    <div className="flex min-h-screen bg-slate-50">
      <a
        href="#main-content"
        inert={phoneMenu}
        className="sr-only focus:not-sr-only focus:fixed focus:left-3 focus:top-3 focus:z-[60] focus:rounded-lg focus:bg-white focus:px-4 focus:py-2 focus:text-sm focus:font-semibold focus:text-brand-700 focus:shadow-lg focus:outline-none focus:ring-2 focus:ring-brand-600"
        onClick={(event) => {
          // Focus, not the address's #: the router would take a new address for a new page.
          event.preventDefault();
          if (!main.current) return;
          focusPageHeading(main.current)();
          if (!main.current.contains(document.activeElement)) main.current.focus();
        }}
      >
        {t('shell.skipToContent')}
      </a>
      {mobileOpen && <div className="fixed inset-0 z-30 bg-slate-900/50 md:hidden" onClick={() => setMobileOpen(false)} aria-hidden />}
      <aside
        ref={sidebar}
        inert={!wide && !mobileOpen}
        aria-label={phoneMenu ? t('shell.mainNavigation') : undefined}
        aria-modal={phoneMenu || undefined}
        role={phoneMenu ? 'dialog' : undefined}
        id="main-sidebar"
        className={`fixed inset-y-0 left-0 z-40 flex flex-col bg-ink text-white transition-all md:sticky md:top-0 md:h-screen md:translate-x-0 ${
          mobileOpen ? 'translate-x-0' : '-translate-x-full'
        } ${collapsed ? 'w-64 md:w-16' : 'w-64'}`}
      >
        <div className="flex h-16 items-center justify-between px-4">
          <Logo light className={collapsed ? 'md:[&>span]:hidden' : ''} />
          {phoneMenu && (
            <button
              type="button"
              className="-mr-2 flex h-11 w-11 items-center justify-center rounded-full text-slate-200 hover:bg-white/10 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-white"
              aria-label={t('common.close')}
              onClick={closePhoneMenu}
            >
              <svg viewBox="0 0 24 24" className="h-5 w-5" fill="none" stroke="currentColor" strokeWidth={2} aria-hidden>
                <path d="M6 6l12 12M18 6L6 18" strokeLinecap="round" />
              </svg>
            </button>
          )}
        </div>
        <nav aria-label={t('shell.mainNavigation')} className="flex-1 space-y-1 overflow-y-auto px-2 py-2">
          {nav.map((item) => (
            <div key={item.key}>
              {item.render({
                className: itemClass,
                onNavigate: () => setMobileOpen(false),
                children: (
                  <>
                    <span className="h-5 w-5 shrink-0" aria-hidden>
                      {item.icon}
                    </span>
                    <span className={collapsed ? 'md:sr-only' : ''}>{item.label}</span>
                  </>
                ),
              })}
            </div>
          ))}
        </nav>
        <div className="border-t border-white/10 p-2">
          <button type="button" className={itemClass} onClick={onLogout}>
            <span className="h-5 w-5 shrink-0" aria-hidden>
              <LogoutIcon />
            </span>
            <span className={collapsed ? 'md:sr-only' : ''}>{t('shell.logout')}</span>
          </button>
        </div>
      </aside>
      <div className="flex min-w-0 flex-1 flex-col" inert={phoneMenu}>
        <header className="sticky top-0 z-20 flex h-16 items-center gap-2 border-b border-slate-200 bg-white/95 px-3 backdrop-blur sm:gap-3 sm:px-4">
          <Button
            ref={toggleButton}
            variant="ghost"
            className="px-2 shadow-none"
            aria-label={t('shell.toggleSidebar')}
            aria-controls="main-sidebar"
            aria-expanded={wide ? !collapsed : mobileOpen}
            onClick={toggle}
          >
            <MenuIcon />
          </Button>
          {/*
            The company's name beside the tools from 640 px: up to two lines, broken between words
            (hyphenated where the browser can); a longer name ends in "…" and its title shows the whole.
            On a phone the bar has no room for it, so it is the band below (decision record 067).
          */}
          <div title={headerStart} className="hidden min-w-0 flex-1 text-base leading-tight font-semibold text-ink hyphens-auto sm:line-clamp-2">
            {headerStart}
          </div>
          {/* At phone width German's and French's longer words still fit: tighter gaps, and the tools never shrink. */}
          <div className="ml-auto flex shrink-0 items-center gap-1 sm:gap-3">
            <LanguageMenu compact triggerClassName={buttonClasses('ghost', 'px-1.5 text-slate-700 shadow-none focus-visible:bg-slate-100 sm:px-2')} />
            {headerEnd}
          </div>
        </header>
        <main ref={main} id="main-content" tabIndex={-1} className="flex-1 p-4 focus:outline-none sm:p-6 lg:p-8">
          {/*
            On a phone the company's name has the screen's width, above the page and scrolling away with
            it, so a crew can read which company they are in: up to three lines, then "…" with the whole
            in its title.
          */}
          <p title={headerStart} className="-mx-4 -mt-4 mb-4 line-clamp-3 border-b border-slate-200 bg-white px-4 py-2 text-sm leading-snug font-semibold text-ink hyphens-auto sm:hidden">
            {headerStart}
          </p>
          {/*
            Notices about the whole app (the zone notice), above the page, in its flow: drawn with the
            shell's first paint, never after it, so the page does not move down under the reader.
          */}
          {notices}
          {children}
        </main>
      </div>
    </div>
  );
}

function MenuIcon() {
  return (
    <svg viewBox="0 0 24 24" className="h-6 w-6" fill="none" stroke="currentColor" strokeWidth={2} aria-hidden>
      <path d="M4 6h16M4 12h16M4 18h16" strokeLinecap="round" />
    </svg>
  );
}

function LogoutIcon() {
  return (
    <svg viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={2} aria-hidden>
      <path d="M15 17l5-5-5-5M20 12H9M12 19H6a2 2 0 01-2-2V7a2 2 0 012-2h6" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}
