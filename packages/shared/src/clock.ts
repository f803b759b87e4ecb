import { ZONE_ALIASES } from './time-zone-aliases';

/**
 * One clock for a person, on every side: the server's "today", its PDFs, mails and workbooks, and
 * every date and time the web shows are written in the person's zone (their own, else their
 * company's) through these functions, with an explicit `timeZone`, never the runtime's own zone.
 *
 * Apart from time-zones.ts (the list of canonical zones, the request field, the picker's choices):
 * every screen formats times from the web's entry chunk, which must not carry the zone list or zod
 * (decision record 095). Only the aliases come along, for a runtime that knows a zone by an older name.
 */

// Intl of an older runtime may not know a zone's newer name (Europe/Kyiv): it gets an alias it knows.
const runtimeNames = new Map<string, string>();
function runtimeZone(zone: string): string {
  let known = runtimeNames.get(zone);
  if (known === undefined) {
    const canonical = Object.hasOwn(ZONE_ALIASES, zone) ? ZONE_ALIASES[zone]! : zone;
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

export type InstantStyle = 'dateTime' | 'date' | 'time' | 'timeOfDateTime';
const STYLES: Record<InstantStyle, Intl.DateTimeFormatOptions> = {
  dateTime: { dateStyle: 'medium', timeStyle: 'short' },
  date: { dateStyle: 'medium' },
  // A site's clock: 24 hours in every language ("last updated 16:05").
  time: { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' },
  // The time part of `dateTime` alone, beside one ("Nov 29, 2026, 10:02 AM · synced 4:40 PM").
  timeOfDateTime: { timeStyle: 'short' },
};

/**
 * An instant as a person in `zone` reads it, in their language (`locale` is a BCP 47 tag). Given the
 * zone of the reader's device (`deviceZone`), a time of day whose clock there differs from the
 * device's (another offset at that instant) says its zone: "30.11.2026, 03:27 UTC", "4:27 PM CET".
 * A mail is read on a device nobody knows (`deviceZone` null): its time always says its zone. A PDF
 * or workbook says its zone once, so the server passes none there.
 */
export function formatInstant(instant: Date | string, zone: string, locale: string, style: InstantStyle = 'dateTime', deviceZone?: string | null): string {
  const date = typeof instant === 'string' ? new Date(instant) : instant;
  const text = zoneFormat(locale, zone, STYLES[style]).format(date);
  if (deviceZone === undefined || style === 'date' || (deviceZone !== null && zoneOffsetMinutes(zone, date) === zoneOffsetMinutes(deviceZone, date))) return text;
  // A no-break space: the zone never wraps away from its time.
  return `${text}\u00a0${zoneShortName(zone, date, locale)}`;
}

const OFFSET_NAME = /^(GMT|UTC)[+\-\u2212]\d/;
const intlShortName = (zone: string, instant: Date, locale: string) =>
  zoneFormat(locale, zone, { timeZoneName: 'short' }).formatToParts(instant).find((part) => part.type === 'timeZoneName')?.value;

/**
 * A zone's short name at an instant in a language: "UTC", "MEZ", "EST", "CET", "GMT+5:30". Intl's
 * English (CLDR's `en`) names most of Europe by a bare offset ("GMT+1", "GMT+2") where German says
 * "MEZ"/"MESZ"; CLDR's British English has the abbreviations people in Europe write ("CET",
 * "CEST", "EET", "WET", "BST"), so English takes those where its own name is only an offset, and
 * keeps its own elsewhere ("EST", "PST", "GMT+5:30": British English has no better). The other
 * languages are Intl's as they are: French writes "UTC+1" as people there do, Mexican Spanish a
 * bare offset everywhere ("GMT+1", "GMT-6").
 */
export function zoneShortName(zone: string, instant: Date, locale: string): string {
  const name = intlShortName(zone, instant, locale) ?? zone;
  if (!OFFSET_NAME.test(name) || new Intl.Locale(locale).language !== 'en') return name;
  const british = intlShortName(zone, instant, 'en-GB');
  return british !== undefined && !OFFSET_NAME.test(british) ? british : name;
}

/** The city a zone is named after: "Ho Chi Minh" of Asia/Ho_Chi_Minh, "UTC" of UTC. */
export function zoneCity(zone: string): string {
  return zone === 'UTC' ? 'UTC' : (zone.split('/').at(-1) ?? zone).replaceAll('_', ' ');
}

/** "Berlin (UTC+01:00)": a zone as people name it, with its offset at an instant. */
export function zoneLabel(zone: string, instant: Date = new Date()): string {
  return zone === 'UTC' ? 'UTC' : `${zoneCity(zone)} (${formatOffset(zoneOffsetMinutes(zone, instant))})`;
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

/**
 * How a language writes a date in digits: the order of day, month and year and the sign between
 * them (24.11.2026 in German, 24/11/2026 in Spanish and French, 11/24/2026 in English).
 */
export function numericDatePattern(locale: string): { order: ('day' | 'month' | 'year')[]; separator: string } {
  const parts = zoneFormat(locale, 'UTC', { day: '2-digit', month: '2-digit', year: 'numeric' }).formatToParts(new Date(Date.UTC(2026, 10, 24)));
  const order = parts.flatMap((part) => (part.type === 'day' || part.type === 'month' || part.type === 'year' ? [part.type] : []));
  return { order, separator: parts.find((part) => part.type === 'literal')?.value ?? '/' };
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

/** The zone the device's clock is set to, as its runtime names it, for showing times before anyone signs in. */
export function deviceClockZone(): string {
  return new Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}
