import { formatCalendarDate } from '../clock';
import { LOCALE_TAGS } from '../locale-tags';
import { de } from './de';
import { en, errorTexts, type Catalog, type MessageKey } from './en';
import { es } from './es';
import { fr } from './fr';

export type { Catalog, MessageKey } from './en';

/** The languages SiteBoard speaks. Adding one: a catalog file beside en.ts and one entry here. */
export const LANGUAGES = ['en', 'es', 'fr', 'de'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'en';

export const catalogs: Record<Language, Catalog> = { en, es, fr, de };

export const LANGUAGE_INVALID = 'Choose English, Spanish, French or German.';

export const isLanguage = (value: unknown): value is Language => typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);

/**
 * The best of our languages for an `Accept-Language` header (`de-CH,de;q=0.9,en;q=0.8`): the
 * highest-weighted range whose primary subtag we speak, English when none is.
 */
export function negotiateLanguage(header: string | undefined | null): Language {
  if (!header) return DEFAULT_LANGUAGE;
  let best: { language: Language; weight: number } | undefined;
  for (const part of header.split(',').slice(0, 20)) {
    const [range = '', ...parameters] = part.trim().split(';');
    const primary = range.trim().toLowerCase().split('-')[0];
    const q = parameters.map((parameter) => parameter.trim()).find((parameter) => parameter.startsWith('q='));
    const weight = q ? Number(q.slice(2)) : 1;
    if (!isLanguage(primary) || !(weight > 0)) continue;
    if (!best || weight > best.weight) best = { language: primary, weight };
  }
  return best?.language ?? DEFAULT_LANGUAGE;
}

export type MessageParams = Record<string, string | number | null | undefined>;

const PLACEHOLDER = /\{(\w+)\}/g;

/** The `{name}` placeholders of a text, in order. */
export const placeholdersOf = (text: string): string[] => [...text.matchAll(PLACEHOLDER)].map((match) => match[1]!);

/** Fills `{name}` placeholders in one pass, so a value that itself holds braces stays as it is. */
export function fill(template: string, params: MessageParams = {}): string {
  return template.replace(PLACEHOLDER, (whole, name: string) => (params[name] === undefined || params[name] === null ? whole : String(params[name])));
}

/** A text of the catalog in a language, its placeholders filled. */
export function t(language: Language, key: MessageKey, params?: MessageParams): string {
  return fill(catalogs[language][key] ?? key, params);
}

interface Pattern {
  key: MessageKey;
  names: string[];
  regex: RegExp;
  literalLength: number;
}

const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

let patterns: Pattern[] | undefined;
/** The errors that carry values, most specific (longest fixed text) first, so "{label} must be at most {max} characters." wins over "{field} must be at most {max}.". */
function errorPatterns(): Pattern[] {
  patterns ??= errorTexts
    .filter((key) => key.includes('{'))
    .map((key) => {
      const pieces = key.split(/\{\w+\}/);
      return { key, names: placeholdersOf(key), regex: new RegExp(`^${pieces.map(escapeRegex).join('(.+?)')}$`, 's'), literalLength: pieces.join('').length };
    })
    .sort((a, b) => b.literalLength - a.literalLength);
  return patterns;
}

const exactErrors = new Set<string>(errorTexts.filter((key) => !key.includes('{')));

/**
 * An English error or field error (as a service or a shared schema wrote it) in another language.
 * Texts with values are recognised by their shape; the values are translated too when they are
 * texts of the catalog (a field's label, the reason inside "The request body is not valid: …").
 * A text the catalog does not know stays English.
 */
export function translateMessage(message: string, language: Language): string {
  return language === 'en' ? message : translateMessageIn(catalogs[language], message);
}

/**
 * `translateMessage` with the language's catalog at hand: for a client that loads only the
 * catalog of the language it shows (the web loads each one when it is chosen).
 */
export function translateMessageIn(catalog: Catalog, message: string, depth = 0): string {
  if (exactErrors.has(message)) return catalog[message as MessageKey];
  if (depth > 1) return message;
  for (const pattern of errorPatterns()) {
    const match = pattern.regex.exec(message);
    if (!match) continue;
    const params = Object.fromEntries(pattern.names.map((name, index) => [name, translateMessageIn(catalog, match[index + 1]!, depth + 1)]));
    return fill(catalog[pattern.key], params);
  }
  return message;
}

/**
 * A date-only value (`YYYY-MM-DD`) for a reader. It is a calendar day, not an instant: it is
 * formatted in UTC so no zone can move it. English keeps the ISO form the specification's texts use.
 */
export function formatDateOnly(date: string, language: Language): string {
  if (language === 'en' || !/^\d{4}-\d{2}-\d{2}$/.test(date)) return date;
  return formatCalendarDate(date, LOCALE_TAGS[language]);
}

/** A number for a reader (`1,234.5` / `1.234,5` / `1 234,5`). */
export function formatNumber(value: number, language: Language, options?: Intl.NumberFormatOptions): string {
  return new Intl.NumberFormat(LOCALE_TAGS[language], options).format(value);
}
