import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { useAuth } from '../../../lib/auth';
import { storage } from '../../../lib/storage';
import { apiServerForFile } from '../../../test/api-server';
import { renderScreen } from '../../../test/render';
import { AccountMenu } from './account-menu';
import { ZoneNotice } from './zone-notice';

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

    expect(await within(dialog).findByText('Time zone saved: Pago Pago (UTC−11:00).')).toBeInTheDocument();
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

/** Sets the device's clock to `zone` for one test (Intl reads TZ as it formats). */
const processZone = process.env.TZ;
const deviceIn = (zone: string) => {
  process.env.TZ = zone;
};
afterEach(() => {
  if (processZone === undefined) delete process.env.TZ;
  else process.env.TZ = processZone;
  localStorage.removeItem('zone_kept');
});

/** "Berlin (UTC+01:00)" in winter, "(UTC+02:00)" in summer: the label of a zone today. */
const berlin = /Berlin \(UTC\+0[12]:00\)/;

describe("the time-zone dialog on a device in another zone than the company's", () => {
  it("says what the zone governs and offers the device's zone in one tap", async () => {
    deviceIn('Europe/Berlin');
    await api.server.signIn(api.manager);
    renderScreen(<AccountMenu avatar="M" />);
    const dialog = await openDialog();
    expect(within(dialog).getByText(/Every time SiteBoard shows you follows this time zone: on screen, in e-mails, PDFs, workbooks and your calendar feed/)).toBeInTheDocument();
    expect(await within(dialog).findByRole('checkbox', { name: "Use the company's time zone (UTC)" })).toBeChecked();

    await userEvent.click(within(dialog).getByRole('button', { name: new RegExp(`^Use this device's time zone: ${berlin.source}$`) }));

    expect(await within(dialog).findByText(new RegExp(`^Time zone saved: ${berlin.source}\\.$`))).toBeInTheDocument();
    expect(await profileTimeZones()).toEqual({ timezone: 'Europe/Berlin', effective_timezone: 'Europe/Berlin' });
    // The device's zone is the one in use now: nothing more to offer, the picker shows it.
    expect(within(dialog).queryByRole('button', { name: /this device's time zone/ })).not.toBeInTheDocument();
    expect((within(dialog).getByRole('combobox', { name: 'Your time zone' }) as HTMLInputElement).value).toMatch(berlin);

    // Back to the company's, for the tests after this one.
    await userEvent.click(within(dialog).getByRole('checkbox', { name: "Use the company's time zone (UTC)" }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save time zone' }));
    expect(await within(dialog).findByText('Time zone saved: UTC.')).toBeInTheDocument();
  });

  it("offers nothing when the device is in the zone in use", async () => {
    deviceIn('UTC');
    await api.server.signIn(api.manager);
    renderScreen(<AccountMenu avatar="M" />);
    const dialog = await openDialog();
    await within(dialog).findByRole('checkbox', { name: "Use the company's time zone (UTC)" });
    expect(within(dialog).queryByRole('button', { name: /this device's time zone/ })).not.toBeInTheDocument();
  });
});

describe("the notice that times are on the company's clock", () => {
  const notice = () => screen.queryByRole('region', { name: 'Time zone' });
  const profileReads = () => api.server.requests.filter((request) => request === 'GET /api/profile/').length;
  /** Signs `user` in afresh on this device (no one stored from before) and shows the menu once their profile has come. */
  const signInAndShow = async (user: typeof api.member) => {
    storage.clearSession();
    await api.server.signIn(user);
    const reads = profileReads();
    // As the areas draw them: the notice above the page, the menu in the header.
    const view = renderScreen(
      <>
        <ZoneNotice />
        <AccountMenu avatar="M" />
      </>,
    );
    await waitFor(() => expect(profileReads()).toBeGreaterThan(reads));
    await screen.findByRole('button', { name: 'Account menu' });
    return view;
  };

  it('is told once to someone whose device reads another clock, and "keep" is remembered for them here', async () => {
    deviceIn('Europe/Berlin');
    const first = await signInAndShow(api.member);
    const region = await screen.findByRole('region', { name: 'Time zone' });
    expect(region).toHaveTextContent(/^Times are shown on your company's clock, UTC\. This device is set to Berlin \(UTC\+0[12]:00\)\./);
    expect(within(region).getByRole('button', { name: berlin })).toBeInTheDocument();
    const patches = api.server.requests.filter((request) => request === 'PATCH /api/profile/').length;
    await userEvent.click(within(region).getByRole('button', { name: 'Keep UTC' }));
    expect(notice()).not.toBeInTheDocument();
    expect(await profileTimeZones()).toEqual({ timezone: null, effective_timezone: 'UTC' });
    expect(api.server.requests.filter((request) => request === 'PATCH /api/profile/')).toHaveLength(patches);

    // The next sign-in on this device: not told again.
    first.unmount();
    await signInAndShow(api.member);
    expect(notice()).not.toBeInTheDocument();
  });

  it('is told to the next person on a shared device, whatever the previous one kept', async () => {
    deviceIn('Europe/Berlin');
    const first = await signInAndShow(api.member);
    await userEvent.click(within(await screen.findByRole('region', { name: 'Time zone' })).getByRole('button', { name: 'Keep UTC' }));
    first.unmount();
    await signInAndShow(api.manager);
    expect(await screen.findByRole('region', { name: 'Time zone' })).toHaveTextContent(/This device is set to Berlin/);
  });

  it("puts the device's zone on the profile in one tap, and is gone for good", async () => {
    deviceIn('America/New_York');
    const first = await signInAndShow(api.member);
    const region = await screen.findByRole('region', { name: 'Time zone' });
    await userEvent.click(within(region).getByRole('button', { name: /^Use New York \(UTC−0[45]:00\)$/ }));
    await waitFor(() => expect(notice()).not.toBeInTheDocument());
    expect(await profileTimeZones()).toEqual({ timezone: 'America/New_York', effective_timezone: 'America/New_York' });

    // Their own zone now: a device anywhere else does not bring it back.
    first.unmount();
    deviceIn('Asia/Tokyo');
    await signInAndShow(api.member);
    expect(notice()).not.toBeInTheDocument();
    await api.server.app.inject({ method: 'PATCH', url: '/api/profile/', headers: { authorization: `Bearer ${storage.token ?? ''}` }, payload: { timezone: null } });
  });

  it("is not shown when the device's clock reads the company's", async () => {
    // Abidjan is on UTC all year.
    deviceIn('Africa/Abidjan');
    await signInAndShow(api.member);
    expect(notice()).not.toBeInTheDocument();
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
