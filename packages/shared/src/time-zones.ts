import { text } from './common';
import { CANONICAL_ZONES, ZONE_ALIASES } from './time-zone-data';

/**
 * One clock for a person, on every side: the server's "today", its PDFs, mails and workbooks, and
 * every date and time the web shows are written in the person's zone (their own, else their
 * company's) through these functions, with an explicit `timeZone`, never the runtime's own zone.
 */

const COUNTRY_OF = new Map(CANONICAL_ZONES);

/**
 * The canonical IANA name of a zone (`Asia/Calcutta` → `Asia/Kolkata`, `US/Pacific` →
 * `America/Los_Angeles`, `Etc/UTC` → `UTC`), or null for a name that is no zone. New input is
 * stored by this name; names stored before it stay readable (PostgreSQL and Intl know them).
 */
export function canonicalTimeZone(name: string): string | null {
  if (COUNTRY_OF.has(name)) return name;
  return ZONE_ALIASES[name] ?? null;
}

/** A zone name the server takes: a canonical one, or an alias it stores by its canonical name. */
export function isTimeZone(name: string): boolean {
  return canonicalTimeZone(name) !== null;
}

/** What the OpenAPI document says a time zone field takes: exactly the names isTimeZone takes. */
export function timeZoneDocument() {
  return {
    enum: [...COUNTRY_OF.keys(), ...Object.keys(ZONE_ALIASES)],
    description: 'An IANA time zone name; an older name (e.g. Asia/Calcutta) is stored as its canonical one (Asia/Kolkata)',
  };
}

/**
 * A time zone in a request: a name isTimeZone takes (else 400 "Choose a valid time zone." in the
 * reader's language), handed on by its canonical name, so that new input is always stored canonical.
 */
export const timeZoneField = text({ error: 'Choose a valid time zone.' })
  .refine(isTimeZone, 'Choose a valid time zone.')
  .overwrite((name) => canonicalTimeZone(name) ?? name)
  .meta(timeZoneDocument());

// Intl of an older runtime may not know a zone's newer name (Europe/Kyiv): it gets an alias it knows.
const runtimeNames = new Map<string, string>();
function runtimeZone(zone: string): string {
  let known = runtimeNames.get(zone);
  if (known === undefined) {
    const canonical = canonicalTimeZone(zone) ?? zone;
    const candidates = [zone, canonical, ...Object.keys(ZONE_ALIASES).filter((alias) => ZONE_ALIASES[alias] === canonical), 'UTC'];
    known = candidates.find((name) => {
      try {
        new Intl.DateTimeFormat('en', { timeZone: name });
        return true;
      } catch {
        return false;
      }
    }) as string;
    runtimeNames.set(zone, known);
  }
  return known;
}

const formats = new Map<string, Intl.DateTimeFormat>();
/** An Intl formatter in a zone, built once per locale, zone and options (lists format hundreds of rows). */
export function zoneFormat(locale: string, zone: string, options: Omit<Intl.DateTimeFormatOptions, 'timeZone'>): Intl.DateTimeFormat {
  const key = `${locale}|${zone}|${JSON.stringify(options)}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, { ...options, timeZone: runtimeZone(zone) });
    formats.set(key, format);
  }
  return format;
}

export type InstantStyle = 'dateTime' | 'date' | 'time';
const STYLES: Record<InstantStyle, Intl.DateTimeFormatOptions> = {
  dateTime: { dateStyle: 'medium', timeStyle: 'short' },
  date: { dateStyle: 'medium' },
  // A site's clock: 24 hours in every language ("last updated 16:05").
  time: { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' },
};

/** An instant as a person in `zone` reads it, in their language (`locale` is a BCP 47 tag). */
export function formatInstant(instant: Date | string, zone: string, locale: string, style: InstantStyle = 'dateTime'): string {
  const date = typeof instant === 'string' ? new Date(instant) : instant;
  return zoneFormat(locale, zone, STYLES[style]).format(date);
}

/** The wall clock in `zone` at an instant, as numbers. */
function wallClock(instant: Date, zone: string) {
  const parts = zoneFormat('en-US', zone, { year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' }).formatToParts(instant);
  const value = (type: Intl.DateTimeFormatPartTypes) => parts.find((part) => part.type === type)?.value ?? '00';
  return { year: value('year'), month: value('month'), day: value('day'), hour: value('hour'), minute: value('minute'), second: value('second') };
}

/** "Today" in a zone, `YYYY-MM-DD`: the same calendar date the database computes for that zone (lib/time.ts's localDate). */
export function dateInZone(zone: string, instant: Date = new Date()): string {
  const { year, month, day } = wallClock(instant, zone);
  return `${year}-${month}-${day}`;
}

/** A wall-clock time already on the reader's clock (`YYYY-MM-DD HH:MM`), in their language, not moved again. */
export function formatWallClock(local: string, locale: string): string {
  return formatInstant(`${local.replace(' ', 'T')}:00Z`, 'UTC', locale);
}

/** A calendar date (`YYYY-MM-DD`) in the reader's language: it names a day, not an instant, so no zone moves it. */
export function formatCalendarDate(date: string, locale: string, style: 'medium' | 'full' = 'medium'): string {
  return zoneFormat(locale, 'UTC', { dateStyle: style }).format(new Date(`${date.slice(0, 10)}T00:00:00Z`));
}

/** The zone of the device (its canonical name), for a person not signed in yet. */
export function deviceTimeZone(): string {
  const zone = new Intl.DateTimeFormat().resolvedOptions().timeZone;
  return canonicalTimeZone(zone) ?? 'UTC';
}

/** An instant as the wall-clock time in a zone, `YYYY-MM-DD HH:MM` (how PDFs and workbooks write times). */
export function localDateTime(instant: Date | string, zone: string): string {
  const { year, month, day, hour, minute } = wallClock(typeof instant === 'string' ? new Date(instant) : instant, zone);
  return `${year}-${month}-${day} ${hour}:${minute}`;
}

/** An instant as the clock on the wall reads it in `zone`, as a Date whose UTC fields are that reading (a spreadsheet cell's date has no zone). */
export function wallClockDate(instant: Date | string, zone: string): Date {
  const { year, month, day, hour, minute, second } = wallClock(typeof instant === 'string' ? new Date(instant) : instant, zone);
  return new Date(Date.UTC(Number(year), Number(month) - 1, Number(day), Number(hour), Number(minute), Number(second)));
}

/** The zone's offset from UTC at an instant, in minutes (UTC+05:30 → 330). */
export function zoneOffsetMinutes(zone: string, instant: Date = new Date()): number {
  return Math.round((wallClockDate(instant, zone).getTime() - Math.floor(instant.getTime() / 1000) * 1000) / 60_000);
}

/** "UTC+05:30", "UTC−03:00", "UTC" for an offset in minutes. */
export function formatOffset(minutes: number): string {
  if (minutes === 0) return 'UTC';
  const sign = minutes > 0 ? '+' : '−';
  const absolute = Math.abs(minutes);
  return `UTC${sign}${String(Math.floor(absolute / 60)).padStart(2, '0')}:${String(absolute % 60).padStart(2, '0')}`;
}

/** How people type an offset: "+5:30", "+05:30", "+0530", "+5", "-3", "gmt+1". */
function offsetWords(minutes: number): string[] {
  const sign = minutes < 0 ? '-' : '+';
  const hours = Math.floor(Math.abs(minutes) / 60);
  const rest = String(Math.abs(minutes) % 60).padStart(2, '0');
  const padded = String(hours).padStart(2, '0');
  return [`${sign}${hours}:${rest}`, `${sign}${padded}:${rest}`, `${sign}${padded}${rest}`, `${sign}${hours}`, `utc${sign}${hours}`, `gmt${sign}${hours}`, `utc${sign}${padded}:${rest}`];
}

export interface TimeZoneChoice {
  /** The canonical IANA name, what is stored. */
  zone: string;
  /** The city the zone is named after ("Ho Chi Minh", "Buenos Aires"). */
  city: string;
  /** The country or region it lies in, in the reader's language ("Deutschland"); '' for UTC. */
  country: string;
  /** The zone's generic name in the reader's language where Intl has one ("Mitteleuropäische Zeit"). */
  name: string;
  /** Today's offset, "UTC+01:00". */
  offset: string;
  offsetMinutes: number;
  /** Lower-case words a search matches: city, country (also in English and by code), name, IANA name, offset. */
  search: string;
}

const choices = new Map<string, TimeZoneChoice[]>();

/**
 * Every canonical zone with its city, country and name in the reader's language and its offset
 * on the day given, sorted by offset then city (how people look for "their" hour); built once
 * per locale and day.
 */
export function timeZoneChoices(locale: string, instant: Date = new Date()): TimeZoneChoice[] {
  const key = `${locale}|${instant.toISOString().slice(0, 10)}`;
  let list = choices.get(key);
  if (list) return list;
  const regions = new Intl.DisplayNames([locale], { type: 'region' });
  const englishRegions = new Intl.DisplayNames(['en'], { type: 'region' });
  // The older names a place went by (Kiev, Calcutta, Saigon) still find it.
  const formerNames = new Map<string, string[]>();
  for (const [alias, zone] of Object.entries(ZONE_ALIASES)) formerNames.set(zone, [...(formerNames.get(zone) ?? []), alias.replaceAll('_', ' ')]);
  list = CANONICAL_ZONES.map(([zone, code]) => {
    const city = zone === 'UTC' ? 'UTC' : (zone.split('/').at(-1) ?? zone).replaceAll('_', ' ');
    const country = code ? (regions.of(code) ?? code) : '';
    const offsetMinutes = zoneOffsetMinutes(zone, instant);
    const offset = formatOffset(offsetMinutes);
    const generic = zoneFormat(locale, zone, { timeZoneName: 'longGeneric' }).formatToParts(instant).find((part) => part.type === 'timeZoneName')?.value ?? '';
    // Where Intl has no name of its own it answers with an offset ("GMT+03:00"): the offset is shown already.
    const name = /^(GMT|UTC)([+−-]|$)/.test(generic) ? '' : generic;
    const search = [city, country, code ? englishRegions.of(code) : '', code, name, zone.replaceAll('_', ' '), ...(formerNames.get(zone) ?? []), offset, ...offsetWords(offsetMinutes)]
      .join(' ')
      .toLocaleLowerCase(locale);
    return { zone, city, country, name, offset, offsetMinutes, search };
  }).sort((a, b) => a.offsetMinutes - b.offsetMinutes || a.city.localeCompare(b.city, locale));
  choices.set(key, list);
  return list;
}

/** The choices matching a search: every word typed appears in a zone's city, country, name or offset. */
export function searchTimeZones(list: readonly TimeZoneChoice[], query: string, locale: string): TimeZoneChoice[] {
  const words = query.toLocaleLowerCase(locale).replaceAll('_', ' ').split(/\s+/).filter(Boolean);
  return words.length === 0 ? [...list] : list.filter((choice) => words.every((word) => choice.search.includes(word)));
}
