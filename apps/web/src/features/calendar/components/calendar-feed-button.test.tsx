import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, describe, expect, it } from 'vitest';
import type { Language } from '@siteboard/shared';
import i18n, { setLanguage } from '../../../lib/i18n';
import { apiServerForFile } from '../../../test/api-server';
import { renderScreen } from '../../../test/render';
import { CalendarFeedButton } from './calendar-feed-button';

/** What the feed holds (decision record 115), as the dialog tells it in each language: its window, and its cap in the language's digits. */
const HOLDS: Record<Language, { window: string; cap: string }> = {
  en: { window: 'from 90 days ago to 365 days ahead', cap: 'At most 2,000 tasks' },
  de: { window: 'von vor 90 Tagen bis in 365 Tagen', cap: 'Höchstens 2.000 Aufgaben' },
  es: { window: 'desde hace 90 días hasta dentro de 365 días', cap: 'Como máximo 2,000 tareas' },
  fr: { window: "d’il y a 90 jours à dans 365 jours", cap: 'Au plus 2\u202f000\u00a0tâches' },
};

const api = apiServerForFile(async (server) => {
  const { company } = await server.createCrew();
  const people = {} as Record<Language, Awaited<ReturnType<typeof server.createUser>>>;
  for (const language of Object.keys(HOLDS) as Language[]) people[language] = await server.createUser(company, 'team_member', { language });
  return { people };
});

afterAll(() => setLanguage('en', { remember: false }));

describe('the calendar feed dialog', () => {
  it.each(Object.keys(HOLDS) as Language[])('says in %s how far back and ahead the feed reaches and how many tasks it holds at most', async (language) => {
    await setLanguage(language, { remember: false });
    await api.server.signIn(api.people[language]);
    const { unmount } = renderScreen(<CalendarFeedButton />);
    await userEvent.click(screen.getByRole('button', { name: i18n.t('calendarFeed.open') }));
    const dialog = await screen.findByRole('dialog');
    const said = () => document.getElementById(dialog.getAttribute('aria-describedby')!)!.textContent;
    await waitFor(() => expect(said()).toContain(HOLDS[language].window));
    expect(said()).toContain(HOLDS[language].cap);
    unmount();
  });
});
