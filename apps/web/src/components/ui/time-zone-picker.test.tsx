import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import '../../lib/i18n';
import { TimeZonePicker } from './time-zone-picker';

function Picker() {
  const [zone, setZone] = useState('UTC');
  return <TimeZonePicker label="Time zone" value={zone} onChange={setZone} />;
}

describe('the time zone picker', () => {
  it("finds a city by today's name where the browser lists the zone by its old one", async () => {
    render(<Picker />);
    const search = screen.getByRole('searchbox');
    for (const [city, label] of [
      ['Kolkata', /^Asia\/Kolkata \(UTC\+05:30\)$/],
      ['Kyiv', /^Europe\/Kyiv \(UTC\+0[23]:00\)$/],
      ['ho chi minh', /^Asia\/Ho Chi Minh \(UTC\+07:00\)$/],
    ] as const) {
      await userEvent.clear(search);
      await userEvent.type(search, city);
      const option = screen.getByRole('option', { name: label });
      // Chosen, the zone is saved under a name this runtime accepts.
      await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Time zone' }), option);
      const chosen = (screen.getByRole('combobox', { name: 'Time zone' }) as HTMLSelectElement).value;
      expect(() => new Intl.DateTimeFormat('en', { timeZone: chosen })).not.toThrow();
      expect(screen.getByText('1 time zone matches', { exact: false })).toBeInTheDocument();
    }
  });
});
