import type { Language } from './messages';

/**
 * The BCP 47 tag `Intl` formats each language with, on every side (screens, PDFs, mails). Spanish is
 * Mexico's, as its texts are (decision record 128): 1,234.5, 85.5%, 1:05 p.m. A module of its own:
 * the web's first load formats with it and must not carry the server texts' catalogs.
 */
export const LOCALE_TAGS: Record<Language, string> = { en: 'en-US', es: 'es-MX', fr: 'fr-FR', de: 'de-DE' };

/** The tag of a language SiteBoard speaks; anything else as it is (a page before its language is known). */
export const localeTag = (language: string): string => (Object.hasOwn(LOCALE_TAGS, language) ? LOCALE_TAGS[language as Language] : language);
