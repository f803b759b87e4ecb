import i18n from './i18n';

// Every date and number on screen is written the reader's way (`Intl` in the chosen language):
// 24 nov 2026 / 24.11.2026, 1 234,5 / 1.234,5, 85 % / 85 %.
const locale = () => i18n.language || 'en';

/**
 * A calendar date as the API carries it (`YYYY-MM-DD`), shown in the reader's language. It names
 * a day, not an instant, so it is formatted in UTC and never shifts a day with the time zone.
 */
export function formatDate(value: string | null | undefined): string | null {
  if (!value) return null;
  const date = new Date(`${value.slice(0, 10)}T00:00:00Z`);
  if (Number.isNaN(date.getTime())) return value;
  return new Intl.DateTimeFormat(locale(), { dateStyle: 'medium', timeZone: 'UTC' }).format(date);
}

/** An instant (ISO timestamp) in the reader's time zone. */
export function formatDateTime(value: string | null | undefined): string | null {
  if (!value) return null;
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return value;
  return new Intl.DateTimeFormat(locale(), { dateStyle: 'medium', timeStyle: 'short' }).format(date);
}

/** A count or a measure, with the reader's digit grouping and decimal sign. */
export function formatNumber(value: number, options?: Intl.NumberFormatOptions): string {
  return new Intl.NumberFormat(locale(), options).format(value);
}

/** A percentage the API gives out of 100 (an efficiency score, a rate), e.g. "85 %" in French. */
export function formatPercent(value: number): string {
  return new Intl.NumberFormat(locale(), { style: 'percent', maximumFractionDigits: 1 }).format(value / 100);
}
