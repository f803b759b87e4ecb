import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { useKeepFocusInPlace } from './focus';

/** A list whose rows go when done, a search box above it, and a way to change the page meanwhile. */
function Screen() {
  useKeepFocusInPlace();
  const [rows, setRows] = useState(['Pour slab', 'Fix formwork']);
  const [results, setResults] = useState(0);
  return (
    <main>
      <h1>Approvals</h1>
      <label>
        Search
        <input />
      </label>
      <button type="button" onClick={() => setResults((count) => count + 1)}>
        More results
      </button>
      {Array.from({ length: results }, (_, index) => (
        <p key={index}>Result {index + 1}</p>
      ))}
      <ul>
        {rows.map((row) => (
          <li key={row}>
            {row}
            <button type="button" onClick={() => setRows((all) => all.filter((other) => other !== row))}>
              Approve {row}
            </button>
          </li>
        ))}
      </ul>
    </main>
  );
}

describe('focus kept in place', () => {
  it("moves focus to the next row's control when the focused one goes with its row", async () => {
    render(<Screen />);
    screen.getByRole('button', { name: 'Approve Pour slab' }).focus();
    await userEvent.keyboard('{Enter}');
    await waitFor(() => expect(screen.getByRole('button', { name: 'Approve Fix formwork' })).toHaveFocus());
  });

  it('leaves focus where the person put it when they leave a field that stays (a phone keyboard stays down)', async () => {
    render(<Screen />);
    const search = screen.getByLabelText('Search');
    search.focus();
    act(() => search.blur());
    expect(document.activeElement).toBe(document.body);
    // The page changes afterwards (results arrive): focus is not taken back to the field.
    act(() => screen.getByRole('button', { name: 'More results' }).click());
    await screen.findByText('Result 1');
    await new Promise<void>((resolve) => queueMicrotask(resolve));
    expect(document.activeElement).toBe(document.body);
  });
});
