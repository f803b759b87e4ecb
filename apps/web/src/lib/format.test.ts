/**
 * Dates and numbers in the reader's language; a date-only value names the same day in every
 * language and every time zone (the far zones: UTC+14 and UTC−11).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { formatDate, formatDateTime, formatNumber, formatPercent, formatTime, readerToday, setDisplayZone } from './format';
import i18n from './i18n';

const originalZone = process.env.TZ;
afterAll(async () => {
  process.env.TZ = originalZone;
  await i18n.changeLanguage('en');
});

const DAY = '2026-01-05';
const EXPECTED: Record<string, RegExp> = { en: /^Jan 5, 2026$/, es: /^5 ene 2026$/, fr: /^5 janv\. 2026$/, de: /^05\.01\.2026$/ };

describe('formatDate', () => {
  for (const zone of ['Pacific/Kiritimati', 'Pacific/Pago_Pago', 'UTC']) {
    it(`names ${DAY} as the same day in every language with the clock in ${zone}`, async () => {
      process.env.TZ = zone;
      for (const [language, expected] of Object.entries(EXPECTED)) {
        await i18n.changeLanguage(language);
        expect(formatDate(DAY), `${language} in ${zone}`).toMatch(expected);
        expect(formatDate(`${DAY}T23:30:00-11:00`), `a timestamp's date part, ${language} in ${zone}`).toMatch(expected);
      }
    });
  }
});

describe('numbers and percentages', () => {
  it("use the reader's decimal sign, grouping and percent spacing", async () => {
    await i18n.changeLanguage('de');
    expect(formatNumber(1234.5, { minimumFractionDigits: 1 })).toBe('1.234,5');
    expect(formatPercent(85)).toBe('85\u00a0%');
    await i18n.changeLanguage('fr');
    expect(formatNumber(1234.5, { minimumFractionDigits: 1 })).toBe('1\u202f234,5');
    expect(formatPercent(85)).toBe('85\u00a0%');
    await i18n.changeLanguage('en');
    expect(formatPercent(85)).toBe('85%');
    expect(formatPercent(66.67)).toBe('66.7%');
  });
});

describe("the reader's clock", () => {
  afterAll(() => setDisplayZone(null));

  it('shows instants and "today" in the profile zone, not the device zone', async () => {
    process.env.TZ = 'Pacific/Pago_Pago';
    await i18n.changeLanguage('en');
    setDisplayZone('Asia/Kolkata');
    // 20:00 UTC on 31 March: 1 April, 01:30 in Kolkata; still 31 March, 09:00 in Pago Pago.
    const instant = '2026-03-31T20:00:00Z';
    expect(formatDateTime(instant)).toBe('Apr 1, 2026, 1:30 AM');
    expect(formatTime(new Date(instant))).toBe('01:30');
    expect(readerToday(new Date(instant))).toBe('2026-04-01');
  });
});
