import { dateInZone, deviceClockZone, formatCalendarDate, formatInstant, localeTag, numericDatePattern, zoneFormat } from '@siteboard/shared';
import i18n from './i18n';

// Every date and number on screen is written the reader's way (`Intl` in the chosen language's tag,
// as the server's PDFs and mails write it: Spanish is Mexico's): 24 nov 2026 / 24.11.2026,
// 1 234,5 / 1.234,5 / 1,234.5, 85 % / 85 %.
/** The BCP 47 tag the page's language formats with (`es-MX` for Spanish). */
export const intlLocale = () => localeTag(i18n.language || 'en');

// Every time on screen is on the reader's own clock: their profile's zone, else their company's
// (`effective_timezone`), the one the server's "today", PDFs and calendar feed use; the device's
// zone only before anyone signs in. A time of day on a clock other than the device's says its zone
// ("03:27 UTC" on a phone in Berlin). The lint refuses formatting dates anywhere but here.
let readerZone: string | null = null;

/** The zone times are shown in. */
export function displayZone(): string {
  return readerZone ?? deviceClockZone();
}

/**
 * Sets the reader's zone (null: signed out). A change re-renders what a change of language
 * re-renders (every screen with text), so times already on screen move to the new clock.
 */
export function setDisplayZone(zone: string | null): void {
  if (zone === readerZone) return;
  readerZone = zone;
  i18n.emit('zoneChanged');
}

/** Today on the reader's calendar, `YYYY-MM-DD`: the date the server calls "today" for them. */
export function readerToday(now: Date = new Date()): string {
  return dateInZone(displayZone(), now);
}

/**
 * A calendar date as the API carries it (`YYYY-MM-DD`), shown in the reader's language. It names
 * a day, not an instant, so it is formatted in UTC and never shifts a day with the time zone.
 */
export function formatDate(value: string | null | undefined): string | null {
  if (!value) return null;
  if (Number.isNaN(new Date(`${value.slice(0, 10)}T00:00:00Z`).getTime())) return value;
  return formatCalendarDate(value, intlLocale());
}

/**
 * A calendar date short enough to sit under a 64-px thumbnail: formatDate's without its year when
 * that is `sameYearAs`'s ("Nov 23", "23.11.", "23 nov"), else in digits with two of the year
 * ("12/31/26", "31.12.26"); its parts held together by no-break spaces, so that a caption breaks
 * only before the date, never inside it.
 */
export function formatShortDate(value: string, sameYearAs: string): string {
  const day = new Date(`${value.slice(0, 10)}T00:00:00Z`);
  if (Number.isNaN(day.getTime())) return value;
  // A language that writes its dates in digits (German) keeps them: "23.11.", not "23. Nov.".
  const inDigits = !/\p{L}/u.test(formatCalendarDate(value, intlLocale()));
  const options: Parameters<typeof zoneFormat>[2] =
    value.slice(0, 4) !== sameYearAs.slice(0, 4) ? { day: '2-digit', month: '2-digit', year: '2-digit' } : inDigits ? { day: '2-digit', month: '2-digit' } : { month: 'short', day: 'numeric' };
  return zoneFormat(intlLocale(), 'UTC', options).format(day).replace(/\s/g, '\u00a0');
}

/** An instant (ISO timestamp) on the reader's clock. */
export function formatDateTime(value: string | null | undefined): string | null {
  if (!value) return null;
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return value;
  return formatInstant(date, displayZone(), intlLocale(), 'dateTime', deviceClockZone());
}

/**
 * An instant that came after another (when a write made offline synced, after it was made): its
 * time alone, as formatDateTime writes it, when both fall on the same day of the reader's
 * calendar, else its date too.
 */
export function formatDateTimeAfter(value: string, earlier: string): string | null {
  const [later, before] = [new Date(value), new Date(earlier)];
  if (Number.isNaN(later.getTime()) || Number.isNaN(before.getTime())) return formatDateTime(value);
  return dateInZone(displayZone(), later) === dateInZone(displayZone(), before) ? formatInstant(later, displayZone(), intlLocale(), 'timeOfDateTime', deviceClockZone()) : formatDateTime(value);
}

/** The hour and minute of an instant on the reader's clock. */
export function formatTime(value: Date | number): string {
  return formatInstant(new Date(value), displayZone(), intlLocale(), 'time', deviceClockZone());
}

/** A count or a measure, with the reader's digit grouping and decimal sign. */
export function formatNumber(value: number, options?: Intl.NumberFormatOptions): string {
  return new Intl.NumberFormat(intlLocale(), options).format(value);
}

/**
 * A measure put in a field to be read or changed: the reader's decimal sign, no grouping, at most
 * two decimals (the field reads either sign back: daily-logs.rules' numberOrNull).
 */
export function formatNumberInput(value: number): string {
  return formatNumber(value, { useGrouping: false, maximumFractionDigits: 2 });
}

/** A percentage the API gives out of 100 (an efficiency score, a rate), e.g. "85 %" in French. */
export function formatPercent(value: number): string {
  return new Intl.NumberFormat(intlLocale(), { style: 'percent', maximumFractionDigits: 1 }).format(value / 100);
}

type DatePart = 'day' | 'month' | 'year';

const ISO_DAY = /^(\d{4})-(\d{1,2})-(\d{1,2})$/;

/**
 * A calendar date as the API carries it (`YYYY-MM-DD`) in the reader's digits, as date fields show
 * it whatever language the browser itself speaks; anything else as it is.
 */
export function formatDateInput(value: string | null | undefined): string {
  const iso = ISO_DAY.exec(value ?? '');
  if (!iso) return value ?? '';
  const { order, separator } = numericDatePattern(intlLocale());
  const parts = { year: iso[1]!, month: iso[2]!.padStart(2, '0'), day: iso[3]!.padStart(2, '0') };
  return order.map((part) => parts[part]).join(separator);
}

/**
 * A date typed in the reader's digits (any of . / - or spaces between the parts, or the eight
 * digits alone, as a phone's number pad types them) or as `YYYY-MM-DD`, written the API's way
 * (`YYYY-MM-DD`); null when it cannot be read as day, month and year. Whether that day is on the
 * calendar is the shared schema's check (`dateField`), as for any value the API is sent.
 */
export function readDateInput(text: string): string | null {
  const typed = text.trim();
  const { order } = numericDatePattern(intlLocale());
  const iso = ISO_DAY.exec(typed);
  let parts: Record<DatePart, string>;
  if (iso) parts = { year: iso[1]!, month: iso[2]!, day: iso[3]! };
  else {
    const pieces = /^\d{8}$/.test(typed) ? (typed.match(order[0] === 'year' ? /^(\d{4})(\d{2})(\d{2})$/ : /^(\d{2})(\d{2})(\d{4})$/)?.slice(1) ?? []) : typed.split(/[\s./-]+/);
    if (pieces.length !== 3 || pieces.some((piece) => !/^\d+$/.test(piece))) return null;
    parts = Object.fromEntries(order.map((part, index) => [part, pieces[index]!])) as Record<DatePart, string>;
  }
  if (parts.year.length !== 4 || parts.month.length > 2 || parts.day.length > 2) return null;
  return `${parts.year}-${parts.month.padStart(2, '0')}-${parts.day.padStart(2, '0')}`;
}
