import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { buttonClasses } from '../../../components/ui/button';
import { LanguageMenu } from '../../../components/ui/language-menu';
import { Logo } from '../../../components/ui/logo';
import { MenuButton } from '../../../components/ui/menu-button';

const INFO_LINKS = ['nav.learnMore', 'nav.faq', 'nav.support'] as const;
const ghostOnDark = buttonClasses('ghost', 'px-2.5 text-white shadow-none hover:bg-white/10 focus-visible:outline-white sm:px-4');

export function LandingHeader() {
  const { t } = useTranslation();
  return (
    <header className="relative z-20 mx-auto flex max-w-7xl items-center justify-between gap-2 px-3 py-4 sm:px-6">
      <Link to="/" className="rounded">
        {/* At phone width the mark alone leaves room for the language, menu and Log In buttons. */}
        <Logo light className="max-[440px]:[&>span]:sr-only" />
      </Link>
      <nav className="flex items-center gap-0.5 sm:gap-2" aria-label={t('shell.mainNavigation')}>
        <LanguageMenu triggerClassName={ghostOnDark} />
        <div className="hidden items-center gap-1 md:flex">
          {INFO_LINKS.map((key) => (
            <button key={key} type="button" className={ghostOnDark}>
              {t(key)}
            </button>
          ))}
        </div>
        <div className="md:hidden">
          <MenuButton label={t('nav.menu')} trigger={t('nav.menu')} items={INFO_LINKS.map((key) => ({ key, label: t(key) }))} triggerClassName={ghostOnDark} />
        </div>
        <Link to="/company-selection" className={buttonClasses('primary', 'whitespace-nowrap px-3 sm:px-4')}>
          {t('nav.logIn')}
        </Link>
      </nav>
    </header>
  );
}
