import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { buttonClasses } from '../../../components/ui/button';
import { Logo } from '../../../components/ui/logo';

const LANGUAGES = ['en', 'es', 'fr', 'de'] as const;
const INFO_LINKS = ['nav.learnMore', 'nav.faq', 'nav.support'] as const;

const menuContent = 'z-50 min-w-40 rounded-lg bg-white p-1 text-sm text-slate-800 shadow-xl ring-1 ring-slate-200';
const menuItem = 'cursor-pointer rounded-md px-3 py-2 outline-none data-[highlighted]:bg-brand-50 data-[highlighted]:text-brand-700';

function Menu({ trigger, label, children }: { trigger: ReactNode; label: string; children: ReactNode }) {
  return (
    <DropdownMenu.Root modal={false}>
      <DropdownMenu.Trigger className={buttonClasses('ghost', 'px-2.5 text-white shadow-none hover:bg-white/10 sm:px-4')} aria-label={label}>
        {trigger}
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content align="end" sideOffset={6} className={menuContent}>
          {children}
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}

export function LandingHeader() {
  const { t } = useTranslation();
  return (
    <header className="relative z-20 mx-auto flex max-w-7xl items-center justify-between gap-2 px-3 py-4 sm:px-6">
      <Link to="/" className="rounded">
        {/* At phone width the mark alone leaves room for the language, menu and Log In buttons. */}
        <Logo light className="max-[440px]:[&>span]:sr-only" />
      </Link>
      <nav className="flex items-center gap-0.5 sm:gap-2" aria-label={t('shell.mainNavigation')}>
        {/* Spec §2: choosing a language only closes the menu for now. */}
        <Menu label={t('nav.language')} trigger={<span>{t('language.en')}</span>}>
          {LANGUAGES.map((language) => (
            <DropdownMenu.Item key={language} className={menuItem}>
              {t(`language.${language}`)}
            </DropdownMenu.Item>
          ))}
        </Menu>
        <div className="hidden items-center gap-1 md:flex">
          {INFO_LINKS.map((key) => (
            <button key={key} type="button" className={buttonClasses('ghost', 'text-white shadow-none hover:bg-white/10')}>
              {t(key)}
            </button>
          ))}
        </div>
        <div className="md:hidden">
          <Menu label={t('nav.menu')} trigger={<span>{t('nav.menu')}</span>}>
            {INFO_LINKS.map((key) => (
              <DropdownMenu.Item key={key} className={menuItem}>
                {t(key)}
              </DropdownMenu.Item>
            ))}
          </Menu>
        </div>
        <Link to="/company-selection" className={buttonClasses('primary', 'whitespace-nowrap px-3 sm:px-4')}>
          {t('nav.logIn')}
        </Link>
      </nav>
    </header>
  );
}
