import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { Modal } from './modal';

/** A page with a heading, a row that opens a dialog, and the choice to remove that row from inside it (as an approval does). */
function Page() {
  const [open, setOpen] = useState(false);
  const [rowShown, setRowShown] = useState(true);
  return (
    <main>
      <h1>Pending approvals</h1>
      {rowShown && <button onClick={() => setOpen(true)}>Decline Pour footing B</button>}
      <button>Another row</button>
      <Modal open={open} onOpenChange={setOpen} title="Decline task">
        <button onClick={() => setOpen(false)}>Cancel</button>
        <button
          onClick={() => {
            setRowShown(false);
            setOpen(false);
          }}
        >
          Decline Task
        </button>
      </Modal>
    </main>
  );
}

describe('a dialog closing', () => {
  it('gives focus back to what opened it, or to the page heading when that went with the change', async () => {
    render(<Page />);
    const opener = screen.getByRole('button', { name: 'Decline Pour footing B' });
    opener.focus();
    await userEvent.keyboard('{Enter}');
    expect(await screen.findByRole('dialog', { name: 'Decline task' })).toBeInTheDocument();
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(opener).toHaveFocus();

    await userEvent.keyboard('{Enter}');
    await userEvent.click(await screen.findByRole('button', { name: 'Decline Task' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(screen.getByRole('heading', { name: 'Pending approvals' })).toHaveFocus();
  });
});
