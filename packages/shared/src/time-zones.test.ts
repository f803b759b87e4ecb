import { describe, expect, it } from 'vitest';
import { updateProfileInput } from './profile';
import { dateInZone, formatInstant, localDateTime, zoneOffsetMinutes } from './clock';
import { canonicalTimeZone, describeTimeZone, searchTimeZones, timeZoneChoices } from './time-zones';

describe('canonicalTimeZone', () => {
  it('names every zone by its canonical IANA name', () => {
    expect(canonicalTimeZone('Asia/Calcutta')).toBe('Asia/Kolkata');
    expect(canonicalTimeZone('Europe/Kiev')).toBe('Europe/Kyiv');
    expect(canonicalTimeZone('US/Pacific')).toBe('America/Los_Angeles');
    expect(canonicalTimeZone('Etc/UTC')).toBe('UTC');
    expect(canonicalTimeZone('Europe/Berlin')).toBe('Europe/Berlin');
    expect(canonicalTimeZone('US/Pacific-New')).toBeNull();
    expect(canonicalTimeZone('Mars/Olympus_Mons')).toBeNull();
  });

  it('is what a request hands on', () => {
    expect(updateProfileInput.parse({ timezone: 'Asia/Calcutta' }).timezone).toBe('Asia/Kolkata');
    expect(updateProfileInput.safeParse({ timezone: 'Atlantis/Capital' }).success).toBe(false);
  });
});

describe('one clock', () => {
  // 23:30 UTC on 31 March: already 1 April in Berlin (summer time), still 31 March in Los Angeles.
  const instant = new Date('2026-03-31T23:30:00Z');

  it('dates and times an instant in the zone given, whatever the runtime zone', () => {
    expect(dateInZone('Europe/Berlin', instant)).toBe('2026-04-01');
    expect(dateInZone('America/Los_Angeles', instant)).toBe('2026-03-31');
    expect(localDateTime(instant, 'Asia/Kolkata')).toBe('2026-04-01 05:00');
    expect(formatInstant(instant, 'Europe/Berlin', 'de-DE')).toBe('01.04.2026, 01:30');
    expect(formatInstant(instant, 'America/Los_Angeles', 'en-US', 'time')).toBe('16:30');
    expect(zoneOffsetMinutes('Asia/Kolkata', instant)).toBe(330);
    expect(zoneOffsetMinutes('America/St_Johns', new Date('2026-01-15T12:00:00Z'))).toBe(-210);
  });
});

describe('describeTimeZone', () => {
  it('names a zone by its city and the offsets of the days given, old names by the new', () => {
    expect(describeTimeZone('Europe/Berlin', [new Date('2025-04-07T12:00:00Z')])).toBe('Berlin (UTC+02:00)');
    expect(describeTimeZone('Asia/Calcutta', [new Date('2025-04-07T12:00:00Z')])).toBe('Kolkata (UTC+05:30)');
    expect(describeTimeZone('America/Argentina/Buenos_Aires', [new Date('2025-04-07T12:00:00Z')])).toBe('Buenos Aires (UTC−03:00)');
    // A range across the spring clock change: both clocks.
    expect(describeTimeZone('Europe/Berlin', [new Date('2025-03-29T12:00:00Z'), new Date('2025-03-30T12:00:00Z'), new Date('2025-03-31T12:00:00Z')])).toBe('Berlin (UTC+01:00, UTC+02:00)');
    expect(describeTimeZone('Etc/UTC', [new Date('2025-04-07T12:00:00Z')])).toBe('UTC');
  });
});

describe('timeZoneChoices', () => {
  const winter = new Date('2026-01-15T12:00:00Z');

  it('lists canonical zones only, each with its city, country and offset', () => {
    const zones = timeZoneChoices('en', winter);
    const names = zones.map((choice) => choice.zone);
    expect(names).toEqual(expect.arrayContaining(['UTC', 'Asia/Kolkata', 'Europe/Kyiv', 'America/Argentina/Buenos_Aires', 'Pacific/Kiritimati']));
    for (const legacy of ['Asia/Calcutta', 'Europe/Kiev', 'US/Pacific', 'America/Buenos_Aires', 'Asia/Saigon']) expect(names).not.toContain(legacy);
    expect(new Set(names).size).toBe(names.length);
    expect(zones.find((choice) => choice.zone === 'Asia/Kolkata')).toMatchObject({ city: 'Kolkata', country: 'India', offset: 'UTC+05:30' });
  });

  it('is found by city, country in the reader’s language, or offset', () => {
    const german = timeZoneChoices('de', winter);
    const zonesFor = (query: string) => searchTimeZones(german, query, 'de').map((choice) => choice.zone);
    expect(zonesFor('kolkata')).toEqual(['Asia/Kolkata']);
    expect(zonesFor('Deutschland')).toEqual(expect.arrayContaining(['Europe/Berlin', 'Europe/Busingen']));
    expect(zonesFor('germany')).toContain('Europe/Berlin');
    expect(zonesFor('+5:30')).toEqual(['Asia/Colombo', 'Asia/Kolkata']);
    expect(zonesFor('UTC+05:30')).toEqual(['Asia/Colombo', 'Asia/Kolkata']);
    expect(zonesFor('kyiv')).toEqual(['Europe/Kyiv']);
    expect(zonesFor('kiev')).toEqual(['Europe/Kyiv']);
    expect(zonesFor('calcutta')).toEqual(['Asia/Kolkata']);
    expect(german.find((choice) => choice.zone === 'Europe/Berlin')).toMatchObject({ country: 'Deutschland', name: 'Mitteleuropäische Zeit', offset: 'UTC+01:00' });
  });

  it('puts the zones whose city is what was typed before those that match by country', () => {
    const spanish = timeZoneChoices('es', winter);
    const zonesFor = (query: string) => searchTimeZones(spanish, query, 'es').map((choice) => choice.zone);
    // Tijuana (UTC−8) comes first by offset, and matches by its country, México.
    expect(zonesFor('Mexico')[0]).toBe('America/Mexico_City');
    expect(zonesFor('Mexico')).toContain('America/Tijuana');
    expect(zonesFor('buenos')[0]).toBe('America/Argentina/Buenos_Aires');
    // Accents aside, either way: typed with them where the list has none, or without them where it has.
    expect(zonesFor('São Paulo')[0]).toBe('America/Sao_Paulo');
    expect(zonesFor('Zúrich')).toEqual(['Europe/Zurich']);
    expect(searchTimeZones(timeZoneChoices('fr', winter), 'bresil', 'fr').map((choice) => choice.zone)).toContain('America/Sao_Paulo');
    expect(zonesFor('new york')[0]).toBe('America/New_York');
  });
});
