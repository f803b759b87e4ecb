import { describe, expect, it } from 'vitest';
import type { DailyLog } from '@siteboard/shared';
import { inputOf, numberOrNull, shownFormValues, withWaitingSaves, type LogFormValues } from './daily-logs.rules';

describe('a number typed into the daily log', () => {
  it('reads a point or a comma before the decimals, blank as nothing', () => {
    expect(numberOrNull('7,5')).toBe(7.5);
    expect(numberOrNull(' 7.5 ')).toBe(7.5);
    expect(numberOrNull('-2,5')).toBe(-2.5);
    expect(numberOrNull('8')).toBe(8);
    expect(numberOrNull(',5')).toBe(0.5);
    expect(numberOrNull('')).toBeNull();
    expect(numberOrNull(null)).toBeNull();
  });

  it('refuses what it cannot read for sure: grouped thousands ("1.000" is 1,000 in German, 1 in English), two marks, words', () => {
    for (const typed of ['1.000', '1,000', '12.500', '1.234,5', '7,5,5', 'acht', '7 h']) expect(numberOrNull(typed), typed).toBeNaN();
  });
});

describe('a daily log with saves that wait on the device', () => {
  const stored = {
    weather: { conditions: 'Sunny', temperature: 12, wind: null, precipitation: null, work_stopped: false },
    crew: [{ trade: 'Carpenters', company: 'Nordbau', headcount: 4, hours: 8 }],
    delays: [],
    notes: 'Formwork started',
    work: [
      { activity_id: 1, excluded: true, manager_comment: 'Redone tomorrow' },
      { activity_id: 2, excluded: false, manager_comment: null },
    ],
  } as unknown as DailyLog;

  it('reads as the saves will make it, oldest first, each replacing only the sections it sent', () => {
    const first = { weather: null, crew: [{ trade: 'Masons', company: 'Steinwerk', headcount: 2, hours: 7.5 }], notes: 'Rain from noon' };
    const second = { notes: 'Rain from noon, pump down', delays: [{ cause: 'Pump', hours_lost: 1.5 }] };
    const log = withWaitingSaves(stored, [first, second]);
    expect(log.weather).toBeNull();
    expect(log.crew).toEqual(first.crew);
    expect(log.delays).toEqual(second.delays);
    expect(log.notes).toBe('Rain from noon, pump down');
    expect(log.work).toEqual(stored.work);
    expect(withWaitingSaves(stored, [])).toBe(stored);
  });

  it('takes the notes on the day’s work a save sent as all of them', () => {
    const log = withWaitingSaves(stored, [{ work: [{ activity_id: 2, excluded: true, comment: 'Not ours' }] }]);
    expect(log.work).toEqual([
      { activity_id: 1, excluded: false, manager_comment: null },
      { activity_id: 2, excluded: true, manager_comment: 'Not ours' },
    ]);
  });
});

describe('a stored number in the log form', () => {
  const values = {
    weather: { conditions: 'Rain', temperature: -2.5, wind: '', precipitation: '', work_stopped: false },
    crew: [{ trade: 'Masons', company: 'Steinwerk', headcount: 1000, hours: 7.5 }],
    equipment: [{ name: 'Crane', hours: null }],
    deliveries: [],
    delays: [{ cause: 'Pump', hours_lost: 1.25 }],
    incidents: [],
    visitors: [],
    notes: '',
    work: [],
  } as LogFormValues;
  const german = (value: number) => new Intl.NumberFormat('de', { useGrouping: false, maximumFractionDigits: 2 }).format(value);

  it('shows as the reader writes it (a German comma, no thousands mark) and is sent as the number it was', () => {
    const shown = shownFormValues(values, german);
    expect([shown.weather.temperature, shown.crew[0]!.headcount, shown.crew[0]!.hours, shown.equipment[0]!.hours, shown.delays[0]!.hours_lost]).toEqual(['-2,5', '1000', '7,5', null, '1,25']);
    expect(inputOf(shown)).toMatchObject({ weather: { temperature: -2.5 }, crew: [{ headcount: 1000, hours: 7.5 }], equipment: [{ hours: null }], delays: [{ hours_lost: 1.25 }] });
  });
});
