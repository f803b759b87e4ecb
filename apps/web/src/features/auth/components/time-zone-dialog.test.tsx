import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { useAuth } from '../../../lib/auth';
import { storage } from '../../../lib/storage';
import { apiServerForFile } from '../../../test/api-server';
import { renderScreen } from '../../../test/render';
import { AccountMenu } from './account-menu';

const api = apiServerForFile(async (server) => server.createCrew());

const profileTimeZones = async () => {
  const response = await api.server.app.inject({ method: 'GET', url: '/api/profile/', headers: { authorization: `Bearer ${storage.token ?? ''}` } });
  const { timezone, effective_timezone } = response.json<{ timezone: string | null; effective_timezone: string }>();
  return { timezone, effective_timezone };
};

const openDialog = async () => {
  await userEvent.click(screen.getByRole('button', { name: 'Account menu' }));
  await userEvent.click(screen.getByRole('button', { name: 'Time zone' }));
  return screen.findByRole('dialog', { name: 'Time zone' });
};

describe('the time-zone dialog', () => {
  it("lets a user set their own time zone and go back to the company's", async () => {
    await api.server.signIn(api.member);
    renderScreen(<AccountMenu avatar="M" />);

    // A zone of one's own starts at the one this device's clock is set to.
    const processZone = process.env.TZ;
    process.env.TZ = 'America/Mexico_City';
    let dialog: HTMLElement;
    let useCompany: HTMLElement;
    try {
      dialog = await openDialog();
      // The form is there once the profile is: it read the clock as it came.
      useCompany = await within(dialog).findByRole('checkbox', { name: "Use the company's time zone (UTC)" });
    } finally {
      if (processZone === undefined) delete process.env.TZ;
      else process.env.TZ = processZone;
    }
    expect(useCompany).toBeChecked();
    expect(within(dialog).queryByRole('combobox')).not.toBeInTheDocument();

    await userEvent.click(useCompany);
    const zone = within(dialog).getByRole('combobox', { name: 'Your time zone' });
    expect(zone).toHaveValue('Mexico City (UTC−06:00)');
    await userEvent.clear(zone);
    await userEvent.paste('pago');
    await userEvent.click(within(dialog).getByRole('option', { name: /^Pago Pago, American Samoa, UTC−11:00/ }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save time zone' }));

    expect(await within(dialog).findByText('Time zone saved: Pacific/Pago_Pago.')).toBeInTheDocument();
    expect(await profileTimeZones()).toEqual({ timezone: 'Pacific/Pago_Pago', effective_timezone: 'Pacific/Pago_Pago' });

    // Opened again, the dialog starts from the user's own zone.
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    dialog = await openDialog();
    expect(await within(dialog).findByRole('combobox', { name: 'Your time zone' })).toHaveValue('Pago Pago (UTC−11:00)');
    await userEvent.click(within(dialog).getByRole('checkbox', { name: "Use the company's time zone (UTC)" }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save time zone' }));

    expect(await within(dialog).findByText('Time zone saved: UTC.')).toBeInTheDocument();
    expect(await profileTimeZones()).toEqual({ timezone: null, effective_timezone: 'UTC' });
  });
});

/** What a shell shows of the signed-in user: their name, else their e-mail. */
function SignedInAs() {
  const user = useAuth().user;
  return <p data-testid="signed-in-as">{user?.full_name ?? user?.email}</p>;
}

describe('the name dialog', () => {
  it('lets an admin who signed up without a name give one, shown at once instead of the e-mail', async () => {
    const { admin } = api.company;
    await api.server.signIn(admin);
    renderScreen(
      <>
        <SignedInAs />
        <AccountMenu avatar="A" />
      </>,
    );
    await waitFor(() => expect(screen.getByTestId('signed-in-as')).toHaveTextContent(admin.email));

    await userEvent.click(screen.getByRole('button', { name: 'Account menu' }));
    await userEvent.click(screen.getByRole('button', { name: 'Your name' }));
    const dialog = await screen.findByRole('dialog', { name: 'Your name' });
    const field = await within(dialog).findByLabelText('Full name');
    expect(field).toHaveValue('');
    await userEvent.type(field, 'Petra Schmidt');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save name' }));

    expect(await within(dialog).findByText('Name saved.')).toBeInTheDocument();
    expect(screen.getByTestId('signed-in-as')).toHaveTextContent('Petra Schmidt');
    const profile = await api.server.app.inject({ method: 'GET', url: '/api/profile/', headers: { authorization: `Bearer ${storage.token ?? ''}` } });
    expect(profile.json()).toMatchObject({ full_name: 'Petra Schmidt' });

    // Too long: the server's rule on the field before anything is sent, nothing saved.
    const patches = api.server.requests.filter((request) => request === 'PATCH /api/profile/').length;
    await userEvent.clear(field);
    await userEvent.paste('x'.repeat(121));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save name' }));
    expect(await within(dialog).findByText('Full name must be at most 120 characters.')).toBeInTheDocument();
    expect(api.server.requests.filter((request) => request === 'PATCH /api/profile/')).toHaveLength(patches);
    expect(screen.getByTestId('signed-in-as')).toHaveTextContent('Petra Schmidt');
  });
});

describe('the change-password dialog', () => {
  it('closes after a change and confirms it', async () => {
    await api.server.signIn(api.manager);
    renderScreen(<AccountMenu avatar="M" />);
    await userEvent.click(screen.getByRole('button', { name: 'Account menu' }));
    await userEvent.click(screen.getByRole('button', { name: 'Change password' }));
    const dialog = await screen.findByRole('dialog', { name: 'Change password' });
    await userEvent.type(await within(dialog).findByLabelText('Current password'), api.manager.password);
    await userEvent.type(within(dialog).getByLabelText('New password'), 'the next passphrase');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Change password' }));

    expect(await screen.findByRole('status')).toHaveTextContent('Your password has been changed. Your other sessions have been signed out.');
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});
