import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterAll, describe, expect, it } from 'vitest';
import i18n from '../../lib/i18n';
import { renderScreen } from '../../test/render';
import { TimeZonePicker } from './time-zone-picker';

function Picker({ initial = 'UTC' }: { initial?: string }) {
  const [zone, setZone] = useState(initial);
  return (
    <>
      <TimeZonePicker label="Time zone" value={zone} onChange={setZone} />
      <output aria-label="Stored">{zone}</output>
    </>
  );
}

const field = () => screen.getByRole('combobox', { name: 'Time zone' });
const optionNames = () => within(screen.getByRole('listbox')).queryAllByRole('option').map((option) => option.getAttribute('aria-label'));
const stored = () => screen.getByRole('status', { name: 'Stored' }).textContent;

/** Types a search as one input (a keystroke each re-renders the list, slow in jsdom). */
async function search(text: string) {
  await userEvent.clear(field());
  await userEvent.paste(text);
}

afterAll(() => i18n.changeLanguage('en'));

describe('the time zone picker', () => {
  it('lists canonical zones only, each with its city, country and offset today', async () => {
    renderScreen(<Picker />);
    expect(field()).toHaveValue('UTC');
    await userEvent.click(screen.getByRole('button', { name: 'Show all time zones' }));
    const names = optionNames();
    expect(names.length).toBeGreaterThan(400);
    expect(names).toEqual(expect.arrayContaining([expect.stringMatching(/^Kolkata, India, UTC\+05:30, India Standard Time$/), expect.stringMatching(/^Kyiv, Ukraine, UTC\+0[23]:00/)]));
    // The names V8 still lists (Asia/Calcutta, Europe/Kiev, Asia/Saigon) appear only by today's name.
    expect(names.filter((name) => /Calcutta|Kiev|Saigon|Godthab|Rangoon/.test(name ?? ''))).toEqual([]);
  });

  it('is searched by city, former name, country or offset, and chosen by keyboard', async () => {
    renderScreen(<Picker />);
    await search('kolkata');
    expect(optionNames()).toEqual(['Kolkata, India, UTC+05:30, India Standard Time']);
    expect(screen.getByText('1 time zone matches.')).toBeInTheDocument();
    await userEvent.keyboard('{ArrowDown}{Enter}');
    expect(stored()).toBe('Asia/Kolkata');
    expect(field()).toHaveValue('Kolkata (UTC+05:30)');

    await search('+5:30');
    expect(optionNames()).toEqual([expect.stringMatching(/^Colombo, Sri Lanka/), expect.stringMatching(/^Kolkata, India/)]);
    await search('kiev');
    expect(optionNames()).toEqual([expect.stringMatching(/^Kyiv, Ukraine/)]);
    await search('ukraine');
    expect(optionNames()).toEqual([expect.stringMatching(/^Kyiv, Ukraine/), expect.stringMatching(/^Simferopol, Ukraine/)]);
    await search('atlantis');
    expect(screen.getByText('No time zone matches your search.')).toBeInTheDocument();
    await userEvent.keyboard('{Escape}');
    // Leaving the search keeps the choice.
    expect(stored()).toBe('Asia/Kolkata');
  });

  it("finds a country in the reader's language", async () => {
    await i18n.changeLanguage('de');
    renderScreen(<Picker />);
    await search('deutschland');
    expect(optionNames()).toEqual(expect.arrayContaining([expect.stringMatching(/^Berlin, Deutschland, UTC\+0[12]:00, Mitteleuropäische Zeit$/)]));
    await userEvent.click(screen.getByRole('option', { name: /^Berlin, Deutschland/ }));
    expect(stored()).toBe('Europe/Berlin');
    await i18n.changeLanguage('en');
  });

  it("shows a zone stored under an old name by today's name", () => {
    renderScreen(<Picker initial="Asia/Calcutta" />);
    expect(field()).toHaveValue('Kolkata (UTC+05:30)');
  });
});
