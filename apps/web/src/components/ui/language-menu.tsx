import { useTranslation } from 'react-i18next';
import { currentLanguage, languageNameIn, LANGUAGES, nativeLanguageName, type Language } from '../../lib/i18n';
import { chooseLanguage } from '../../lib/language';
import { MenuButton } from './menu-button';

/**
 * The language menu of the landing page and of every shell. Each entry is the language's name in
 * the reader's language and, beside it, in its own ("Spanish · Español"), so someone who cannot
 * read the current one still finds theirs.
 */
export function LanguageMenu({ triggerClassName, compact = false }: { triggerClassName: string; compact?: boolean }) {
  const { t, i18n } = useTranslation();
  const current = currentLanguage();
  // The language's name in the reader's language; Intl's only for a language the files do not name.
  const nameOf = (language: Language) => {
    const key = `language.${language}`;
    return i18n.exists(key) ? t(key) : languageNameIn(i18n.language, language);
  };
  const items = LANGUAGES.map((language) => ({
    key: language,
    checked: language === current,
    onSelect: () => void chooseLanguage(language),
    label: <LanguageLabel language={language} name={nameOf(language)} />,
  }));
  // What the button shows: the language's code ("EN") beside the globe, else its name.
  const shown = compact ? current.toUpperCase() : nameOf(current);
  return (
    <MenuButton
      label={t('nav.language')}
      triggerLabel={t('nav.languageShown', { shown })}
      trigger={
        compact ? (
          <span className="flex items-center gap-1.5">
            <GlobeIcon />
            {/* At phone width the globe alone leaves the header room for the company's name. */}
            <span className="hidden text-xs font-semibold sm:inline">{shown}</span>
          </span>
        ) : (
          shown
        )
      }
      items={items}
      triggerClassName={triggerClassName}
    />
  );
}

/** An entry of the open menu: the name, and beside it the language's own (made only while the menu is open: Intl's names are slow to make). */
function LanguageLabel({ language, name }: { language: Language; name: string }) {
  const own = nativeLanguageName(language);
  return (
    <>
      <span>{name}</span>
      {own !== name && (
        <span lang={language} className="text-slate-500">
          {own}
        </span>
      )}
    </>
  );
}

function GlobeIcon() {
  return (
    <svg viewBox="0 0 24 24" className="h-5 w-5" fill="none" stroke="currentColor" strokeWidth={1.8} aria-hidden>
      <circle cx="12" cy="12" r="9" />
      <path d="M3 12h18M12 3c2.5 2.7 3.8 5.7 3.8 9s-1.3 6.3-3.8 9c-2.5-2.7-3.8-5.7-3.8-9S9.5 5.7 12 3z" strokeLinejoin="round" />
    </svg>
  );
}
