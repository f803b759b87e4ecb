/**
 * Dates and numbers in the reader's language; a date-only value names the same day in every
 * language and every time zone (the far zones: UTC+14 and UTC−11).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { formatDate, formatDateInput, formatDateTime, formatNumber, formatPercent, formatShortDate, formatTime, readDateInput, readerToday, setDisplayZone } from './format';
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

describe('formatShortDate', () => {
  it('writes a day under a thumbnail without its year when the log is of the same year, in one piece', async () => {
    const shown: Record<string, [string, string]> = {};
    for (const language of ['en', 'de', 'es', 'fr']) {
      await i18n.changeLanguage(language);
      shown[language] = [formatShortDate('2026-11-23', '2026-11-24'), formatShortDate('2026-12-31', '2027-01-01')];
    }
    await i18n.changeLanguage('en');
    // No-break spaces: a caption breaks before the day ("For" / "Nov 23"), never inside it.
    expect(shown).toEqual({
      en: ['Nov\u00a023', '12/31/26'],
      de: ['23.11.', '31.12.26'],
      es: ['23\u00a0nov', '31/12/26'],
      fr: ['23\u00a0nov.', '31/12/26'],
    });
  });
});

describe('numbers and percentages', () => {
  it("use the reader's decimal sign, grouping and percent spacing", async () => {
    await i18n.changeLanguage('de');
    expect(formatNumber(1234.5, { minimumFractionDigits: 1 })).toBe('1.234,5');
    expect(formatPercent(85)).toBe('85\u00a0%');
    await i18n.changeLanguage('fr');
    expect(formatNumber(1234.5, { minimumFractionDigits: 1 })).toBe('1\u202f234,5');
    expect(formatPercent(85)).toBe('85\u00a0%');
    // Spanish is Mexico's, as its texts are: a point before the decimals, commas between thousands.
    await i18n.changeLanguage('es');
    expect(formatNumber(1234.5, { minimumFractionDigits: 1 })).toBe('1,234.5');
    expect(formatPercent(85.5)).toBe('85.5%');
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
    expect(formatDateTime(instant)).toBe('Apr 1, 2026, 1:30 AM\u00a0GMT+5:30');
    expect(formatTime(new Date(instant))).toBe('01:30\u00a0GMT+5:30');
    expect(readerToday(new Date(instant))).toBe('2026-04-01');
  });

  it("names the zone of a time the device's clock reads otherwise, and only then", async () => {
    // A manager in Berlin of a company in UTC signs at 04:27 on their phone: the screen says 03:27 UTC.
    process.env.TZ = 'Europe/Berlin';
    setDisplayZone('UTC');
    const signed = '2026-11-30T03:27:00Z';
    const shown: Record<string, string> = { en: 'Nov 30, 2026, 3:27 AM\u00a0UTC', de: '30.11.2026, 03:27\u00a0UTC', es: '30 nov 2026, 3:27 a.m.\u00a0UTC', fr: '30 nov. 2026, 03:27\u00a0UTC' };
    for (const [language, text] of Object.entries(shown)) {
      await i18n.changeLanguage(language);
      expect(formatDateTime(signed), language).toBe(text);
    }
    expect(formatTime(new Date(signed))).toBe('03:27\u00a0UTC');

    // The reader's zone is the device's: no zone is named.
    setDisplayZone('Europe/Berlin');
    expect(formatDateTime(signed)).toBe('30 nov. 2026, 04:27');
    expect(formatTime(new Date(signed))).toBe('04:27');
    // Another name for the same clock at that instant (London in winter is UTC): none either.
    process.env.TZ = 'Europe/London';
    setDisplayZone('UTC');
    expect(formatDateTime(signed)).toBe('30 nov. 2026, 03:27');
    // In summer London is an hour ahead of UTC: named.
    expect(formatDateTime('2026-07-01T03:27:00Z')).toBe('1 juil. 2026, 03:27\u00a0UTC');
    await i18n.changeLanguage('de');
    setDisplayZone('Europe/Berlin');
    expect(formatDateTime('2026-07-01T03:27:00Z')).toBe('01.07.2026, 05:27\u00a0MESZ');
  });

  it('names a European zone in English as Europe writes it, not by a bare offset', async () => {
    // A phone on UTC reading a company in Berlin: winter and summer, in every language.
    process.env.TZ = 'UTC';
    setDisplayZone('Europe/Berlin');
    const winter = '2026-11-30T03:27:00Z';
    const summer = '2026-07-01T03:27:00Z';
    const shown: Record<string, [string, string]> = {
      en: ['Nov 30, 2026, 4:27 AM\u00a0CET', 'Jul 1, 2026, 5:27 AM\u00a0CEST'],
      de: ['30.11.2026, 04:27\u00a0MEZ', '01.07.2026, 05:27\u00a0MESZ'],
      // Mexican Spanish (record 128) writes every zone as an offset.
      es: ['30 nov 2026, 4:27 a.m.\u00a0GMT+1', '1 jul 2026, 5:27 a.m.\u00a0GMT+2'],
      fr: ['30 nov. 2026, 04:27\u00a0UTC+1', '1 juil. 2026, 05:27\u00a0UTC+2'],
    };
    for (const [language, [inWinter, inSummer]] of Object.entries(shown)) {
      await i18n.changeLanguage(language);
      expect([formatDateTime(winter), formatDateTime(summer)], language).toEqual([inWinter, inSummer]);
    }
    // English elsewhere keeps its own names, and an offset where no abbreviation is in use.
    await i18n.changeLanguage('en');
    const zoneOf = (zone: string, instant: string) => {
      setDisplayZone(zone);
      return formatTime(new Date(instant)).split('\u00a0')[1];
    };
    expect([zoneOf('Europe/London', summer), zoneOf('Europe/Lisbon', summer), zoneOf('Europe/Helsinki', summer)]).toEqual(['BST', 'WEST', 'EEST']);
    expect([zoneOf('America/New_York', winter), zoneOf('America/Los_Angeles', summer), zoneOf('Asia/Kolkata', winter), zoneOf('Europe/Moscow', winter)]).toEqual(['EST', 'PDT', 'GMT+5:30', 'GMT+3']);
  });
});

describe('date fields', () => {
  const SHOWN: Record<string, string> = { en: '11/24/2026', de: '24.11.2026', es: '24/11/2026', fr: '24/11/2026' };
  it("show and read a date the page language's way, whatever the browser speaks, and hand on YYYY-MM-DD", async () => {
    for (const [language, shown] of Object.entries(SHOWN)) {
      await i18n.changeLanguage(language);
      expect(formatDateInput('2026-11-24'), language).toBe(shown);
      expect(readDateInput(shown), language).toBe('2026-11-24');
      expect(readDateInput('2026-11-24'), `${language}: the API's own way`).toBe('2026-11-24');
      expect(readDateInput(shown.replace(/\D/g, '')), `${language}: digits alone, as a number pad types them`).toBe('2026-11-24');
      expect(readDateInput('next week'), language).toBeNull();
      expect(readDateInput('24.11.26'), `${language}: a two-digit year is not read`).toBeNull();
    }
    await i18n.changeLanguage('de');
    expect(readDateInput('1.2.2026')).toBe('2026-02-01');
    expect(readDateInput('31.02.2026'), 'the shared schema refuses a day not on the calendar').toBe('2026-02-31');
    await i18n.changeLanguage('en');
    expect(readDateInput('1/2/2026')).toBe('2026-01-02');
  });
});
