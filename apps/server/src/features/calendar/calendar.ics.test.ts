import ICAL from 'ical.js';
import { afterEach, describe, expect, it } from 'vitest';
import { nextDay, renderFeed } from './calendar.ics';
import type { FeedEntry, FeedOwner } from './calendar.queries';

const owner: FeedOwner = { userId: 1, nonce: 'n', role: 'team_member', timezone: 'Pacific/Kiritimati', language: 'en' };
const entry: FeedEntry = {
  id: 9,
  name: 'Pour the slab',
  status: 'ongoing',
  dueDate: '2026-12-31',
  majorTask: 'Foundations',
  project: 'Depot',
  assignee: 'crew@example.test',
  mine: true,
  changedAt: '2026-11-20T10:00:00.000Z',
  sequence: 0,
};

describe('renderFeed', () => {
  const zone = process.env.TZ;
  afterEach(() => {
    if (zone === undefined) delete process.env.TZ;
    else process.env.TZ = zone;
  });

  it('writes each due date as that all-day date whatever the server process’s time zone', () => {
    for (const processZone of ['Pacific/Kiritimati', 'America/Los_Angeles', 'UTC']) {
      process.env.TZ = processZone;
      const text = renderFeed(owner, [entry], 'https://x.example');
      expect(text, processZone).toContain('DTSTART;VALUE=DATE:20261231');
      expect(text, processZone).toContain('DTEND;VALUE=DATE:20270101');
      expect(text, processZone).toContain('DTSTAMP:20261120T100000Z');
    }
  });

  it('gives the same text for the same feed, so its ETag only changes with it', () => {
    expect(renderFeed(owner, [entry], 'https://x.example')).toBe(renderFeed(owner, [entry], 'https://x.example'));
    expect(renderFeed(owner, [entry], 'https://x.example')).not.toBe(renderFeed(owner, [{ ...entry, name: 'Pour the slabs' }], 'https://x.example'));
  });

  it('escapes what a name may hold, so a calendar reads it back as written', () => {
    const name = 'Seal; joints, then\nsign off: "A\\B"';
    const event = new ICAL.Component(ICAL.parse(renderFeed(owner, [{ ...entry, name }], 'https://x.example'))).getFirstSubcomponent('vevent')!;
    expect(event.getFirstPropertyValue('summary')).toBe(name);
  });

  it('asks calendar apps to poll every 15 minutes', () => {
    expect(renderFeed(owner, [], 'https://x.example')).toContain('REFRESH-INTERVAL;VALUE=DURATION:PT15M');
  });
});

describe('nextDay', () => {
  it('crosses months, years and leap days', () => {
    expect(nextDay('2026-01-31')).toBe('2026-02-01');
    expect(nextDay('2028-02-28')).toBe('2028-02-29');
    expect(nextDay('2026-12-31')).toBe('2027-01-01');
  });
});
