import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import type { Catalog } from '@siteboard/shared';
import { STORAGE_KEYS } from './storage';

/**
 * The languages the app speaks. Adding one is its folder of files (locales/<code>/, the same
 * files and keys as locales/en/) and its code here; the menus, the browser match and the key
 * parity test pick it up from this list.
 */
export const LANGUAGES = ['en', 'es', 'fr', 'de'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'en';

// Each area keeps its own file (locales/<language>/<area>.json); together they are one flat namespace.
// English ships with the app (it is every key's fallback); the others load when first chosen.
const englishFiles = import.meta.glob<{ default: Record<string, string> }>('../locales/en/*.json', { eager: true });
const english = Object.assign({}, ...Object.values(englishFiles).map((file) => file.default));
const otherFiles = import.meta.glob<{ default: Record<string, string> }>(['../locales/*/*.json', '!../locales/en/*.json']);
// The shared catalog (packages/shared/src/messages/<language>.ts) translates the English messages of
// the shared zod schemas and rules; like the files above, a language's catalog loads when it is chosen.
const messageCatalogFiles = import.meta.glob<Record<string, Catalog>>([
  '../../../../packages/shared/src/messages/*.ts',
  '!../../../../packages/shared/src/messages/{index,en,*.test}.ts',
]);
const messageCatalogs = new Map<Language, Catalog>();

// Keys are flat and may contain "." and ":" (some are the spec's own sentences), so no separators.
void i18n.use(initReactI18next).init({
  resources: { en: { translation: english } },
  lng: DEFAULT_LANGUAGE,
  fallbackLng: DEFAULT_LANGUAGE,
  supportedLngs: [...LANGUAGES],
  keySeparator: false,
  nsSeparator: false,
  interpolation: { escapeValue: false },
  returnEmptyString: false,
  showSupportNotice: false,
  // A new clock (lib/format.ts's setDisplayZone) re-renders what a new language does.
  react: { bindI18n: 'languageChanged zoneChanged' },
});

export function isLanguage(value: unknown): value is Language {
  return (LANGUAGES as readonly unknown[]).includes(value);
}

/** The first supported language in a browser's preference list (`de-AT` → `de`), or null. */
export function matchLanguage(tags: readonly string[]): Language | null {
  for (const tag of tags) {
    const primary = tag.trim().toLowerCase().split(/[-_]/)[0];
    if (isLanguage(primary)) return primary;
  }
  return null;
}

/** The first language the browser prefers that the app speaks, or null. */
export function browserLanguage(): Language | null {
  const preferred = navigator.languages?.length ? navigator.languages : [navigator.language];
  return matchLanguage(preferred.filter(Boolean));
}

/** The language remembered on this device, else the first the browser prefers that the app speaks; null when neither says one. */
export function deviceLanguage(): Language | null {
  const stored = localStorage.getItem(STORAGE_KEYS.language);
  return isLanguage(stored) ? stored : browserLanguage();
}

/** The choice remembered on this device, else the browser's preference, else English. */
export function initialLanguage(): Language {
  return deviceLanguage() ?? DEFAULT_LANGUAGE;
}

async function loadLanguage(language: Language) {
  if (i18n.hasResourceBundle(language, 'translation')) return;
  const loaders = Object.entries(otherFiles).filter(([file]) => file.startsWith(`../locales/${language}/`));
  const loadCatalog = Object.entries(messageCatalogFiles).find(([file]) => file.endsWith(`/messages/${language}.ts`))?.[1];
  const [files, catalog] = await Promise.all([Promise.all(loaders.map(([, load]) => load())), loadCatalog?.()]);
  if (catalog?.[language]) messageCatalogs.set(language, catalog[language]);
  i18n.addResourceBundle(language, 'translation', Object.assign({}, ...files.map((file) => file.default)));
}

/** The shared message catalog of a language, once it is loaded (none for English, whose messages are the keys). */
export function messageCatalog(language: Language): Catalog | undefined {
  return messageCatalogs.get(language);
}

/** Shows the app in `language`; `remember` keeps the choice on this device for the next visit. */
export async function setLanguage(language: Language, { remember = true }: { remember?: boolean } = {}) {
  await loadLanguage(language);
  if (remember) localStorage.setItem(STORAGE_KEYS.language, language);
  if (i18n.language !== language) await i18n.changeLanguage(language);
  else applyToDocument(language);
}

/** The language the app shows now. */
export function currentLanguage(): Language {
  return isLanguage(i18n.language) ? i18n.language : DEFAULT_LANGUAGE;
}

const languageNames = new Map<string, string>();

/**
 * `language`'s name as Intl says it in `reader` ("Spanish" in English). Kept once made: an
 * Intl.DisplayNames costs milliseconds, and the language menu names every language on each render.
 */
export function languageNameIn(reader: string, language: Language): string {
  const key = `${reader}:${language}`;
  let name = languageNames.get(key);
  if (name === undefined) {
    name = new Intl.DisplayNames([reader], { type: 'language' }).of(language) ?? language;
    languageNames.set(key, name);
  }
  return name;
}

/** A language's name in the language itself ("Deutsch"), so a reader finds their own. */
export function nativeLanguageName(language: Language): string {
  const name = languageNameIn(language, language);
  return name.charAt(0).toLocaleUpperCase(language) + name.slice(1);
}

function applyToDocument(language: string) {
  if (typeof document === 'undefined') return;
  document.documentElement.lang = language;
  // The title is each screen's own (components/ui/page-title.tsx), set again as it renders in the new language.
  document.querySelector('meta[name="description"]')?.setAttribute('content', i18n.t('app.description'));
}
i18n.on('languageChanged', applyToDocument);

/** Resolves once the first language (device choice, else browser) is loaded: render after it. */
export const i18nReady: Promise<void> = typeof window === 'undefined' ? Promise.resolve() : setLanguage(initialLanguage(), { remember: false }).catch(() => setLanguage(DEFAULT_LANGUAGE, { remember: false }));

export default i18n;
