import { text } from './common';
import { formatOffset, zoneCity, zoneFormat, zoneOffsetMinutes } from './clock';
import { ZONE_ALIASES } from './time-zone-aliases';
import { CANONICAL_ZONES } from './time-zone-data';

/**
 * The zones a person may choose: the canonical list, the request field that takes them, and the
 * searchable picker's choices. Formatting in a zone is clock.ts, which the web's first load carries
 * without this list (decision record 095).
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

/** The zone of the device (its canonical name), for a person not signed in yet. */
export function deviceTimeZone(): string {
  const zone = new Intl.DateTimeFormat().resolvedOptions().timeZone;
  return canonicalTimeZone(zone) ?? 'UTC';
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
  /** Lower-case words without accents a search matches: city, country (also in English and by code), name, IANA name, offset. */
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
    const city = zoneCity(zone);
    const country = code ? (regions.of(code) ?? code) : '';
    const offsetMinutes = zoneOffsetMinutes(zone, instant);
    const offset = formatOffset(offsetMinutes);
    const generic = zoneFormat(locale, zone, { timeZoneName: 'longGeneric' }).formatToParts(instant).find((part) => part.type === 'timeZoneName')?.value ?? '';
    // Where Intl has no name of its own it answers with an offset ("GMT+03:00"): the offset is shown already.
    const name = /^(GMT|UTC)([+−-]|$)/.test(generic) ? '' : generic;
    const search = folded([city, country, code ? englishRegions.of(code) : '', code, name, zone.replaceAll('_', ' '), ...(formerNames.get(zone) ?? []), offset, ...offsetWords(offsetMinutes)].join(' '), locale);
    return { zone, city, country, name, offset, offsetMinutes, search };
  }).sort((a, b) => a.offsetMinutes - b.offsetMinutes || a.city.localeCompare(b.city, locale));
  choices.set(key, list);
  return list;
}

/** "Kolkata (UTC+05:30)": a chosen zone as people name it, short enough for a phone in German or a PDF's header. */
export function timeZoneLabel(choice: Pick<TimeZoneChoice, 'zone' | 'city' | 'offset'>): string {
  return choice.zone === 'UTC' ? 'UTC' : `${choice.city} (${choice.offset})`;
}

/**
 * A stored zone as people name it on the days given ("Berlin (UTC+02:00)"), or as stored when it
 * is not a known zone; offsets that differ between the days (a range across a clock change) are
 * all written ("Berlin (UTC+01:00, UTC+02:00)").
 */
export function describeTimeZone(zone: string, instants: readonly Date[]): string {
  const canonical = canonicalTimeZone(zone);
  if (!canonical) return zone;
  const offsets = [...new Set(instants.map((instant) => formatOffset(zoneOffsetMinutes(canonical, instant))))];
  return offsets.length === 0 ? canonical : timeZoneLabel({ zone: canonical, city: zoneCity(canonical), offset: offsets.join(', ') });
}


/** Lower case without accents, so "São Paulo" finds Sao Paulo, "Zurich" finds Zürich and "Bresil" Brésil. */
function folded(text: string, locale: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLocaleLowerCase(locale);
}

/**
 * The choices matching a search, accents aside: every word typed appears in a zone's city, country, name or
 * offset. Zones whose city begins with what was typed come first, then those whose city holds every
 * word, then the rest, each group in the list's order: "Mexico" puts Mexico City before Tijuana,
 * which matches by its country.
 */
export function searchTimeZones(list: readonly TimeZoneChoice[], query: string, locale: string): TimeZoneChoice[] {
  const words = folded(query, locale).replaceAll('_', ' ').split(/\s+/).filter(Boolean);
  if (words.length === 0) return [...list];
  const phrase = words.join(' ');
  const rank = (choice: TimeZoneChoice) => {
    const city = folded(choice.city, locale);
    return city.startsWith(phrase) ? 0 : words.every((word) => city.includes(word)) ? 1 : 2;
  };
  const groups: TimeZoneChoice[][] = [[], [], []];
  for (const choice of list) if (words.every((word) => choice.search.includes(word))) groups[rank(choice)]!.push(choice);
  return groups.flat();
}
