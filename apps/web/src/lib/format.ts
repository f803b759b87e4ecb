import i18n from './i18n';

/**
 * A calendar date as the API carries it (`YYYY-MM-DD`), shown in the reader's language. It names
 * a day, not an instant, so it is formatted in UTC and never shifts a day with the time zone.
 */
export function formatDate(value: string | null | undefined): string | null {
  if (!value) return null;
  const date = new Date(`${value.slice(0, 10)}T00:00:00Z`);
  if (Number.isNaN(date.getTime())) return value;
  return new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeZone: 'UTC' }).format(date);
}

/** An instant (ISO timestamp) in the reader's time zone. */
export function formatDateTime(value: string | null | undefined): string | null {
  if (!value) return null;
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return value;
  return new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' }).format(date);
}
