import { render, screen } from '@testing-library/react';
import { afterAll, describe, expect, it } from 'vitest';
import { setLanguage, type Language } from '../../../lib/i18n';
import { LogStatus } from './daily-log-pages';

const day = (crew_headcount: number, crew_hours: number, hours_lost: number) =>
  ({ date: '2026-03-10', status: 'draft', signed_by: null, signed_at: null, crew_headcount, crew_hours, hours_lost }) as const;

async function totalsIn(language: Language, log: ReturnType<typeof day>): Promise<string | null> {
  await setLanguage(language, { remember: false });
  const { unmount } = render(<LogStatus log={log} />);
  const text = screen.getByTestId('log-status').lastElementChild!.textContent;
  unmount();
  return text;
}

afterAll(() => setLanguage('en', { remember: false }));

describe("a day's totals", () => {
  it('count people, man-hours and hours lost each in its own number, as the language counts', async () => {
    expect(await totalsIn('en', day(1, 1, 0))).toBe('On site: 1 person · 1 man-hour · 0 hours lost');
    expect(await totalsIn('en', day(2, 14.5, 1))).toBe('On site: 2 people · 14.5 man-hours · 1 hour lost');
    // French counts 0 and 1,5 in the singular.
    expect(await totalsIn('fr', day(0, 0, 1.5))).toBe('Sur le chantier\u00a0: 0 personne · 0 heure-homme · 1,5 heure perdue');
    expect(await totalsIn('fr', day(3, 24, 2))).toBe('Sur le chantier\u00a0: 3 personnes · 24 heures-homme · 2 heures perdues');
    expect(await totalsIn('de', day(1, 8, 1))).toBe('Vor Ort: 1 Person · 8 Arbeitsstunden · 1 verlorene Stunde');
    // Spanish writes numbers as Mexico does (es-MX, record 128): a decimal point.
    expect(await totalsIn('es', day(1, 1.5, 0))).toBe('En obra: 1 persona · 1.5 horas-hombre · 0 horas perdidas');
  });
});
