import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router';
import { describe, expect, it } from 'vitest';
import { storage } from '../../../lib/storage';
import { apiServerForFile } from '../../../test/api-server';
import { renderScreen } from '../../../test/render';
import { AdminLayout } from '../../../components/layouts/admin-layout';
import { AdminCompanySettingsPage } from './company-settings';
import { AdminInvitationsPage } from './invitations';

const api = apiServerForFile(async (server) => ({ ours: await server.createCompany(), other: await server.createCompany() }));

const openSettings = async () => {
  await api.server.signIn(api.ours.admin);
  // The admin's shell around the screen, as the admin area draws it.
  renderScreen(
    <Routes>
      <Route element={<AdminLayout />}>
        <Route path="company-settings" element={<AdminCompanySettingsPage />} />
      </Route>
    </Routes>,
    { path: '/admin/company-settings', route: '/admin/*' },
  );
  return screen.findByRole('textbox', { name: 'Company name' });
};

describe('Company Settings', () => {
  it('renames the company and changes its time zone and default language', async () => {
    const name = await openSettings();
    expect(name).toHaveValue(api.ours.name);
    expect(screen.getByRole('link', { name: 'Company Settings' })).toHaveAttribute('aria-current', 'page');
    const zone = screen.getByRole('combobox', { name: 'Time zone' });
    expect(zone).toHaveValue('UTC');
    const language = screen.getByRole('combobox', { name: 'Default language for new users' });
    expect(within(language).getAllByRole('option').map((option) => option.textContent)).toEqual(['English', 'Español', 'Français', 'Deutsch']);

    await userEvent.clear(name);
    await userEvent.type(name, 'Harbour Builders Ltd');
    // Everyone signs in with the name: a new one shuts out the old before it is saved.
    expect(screen.getByRole('status')).toHaveTextContent(`Saved, this becomes the only name that signs in: “${api.ours.name}” will no longer work. Tell your team.`);
    await userEvent.clear(zone);
    await userEvent.paste('kiritimati');
    expect(screen.getByText('1 time zone matches.')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('option', { name: 'Kiritimati, Kiribati, UTC+14:00, Line Islands Time' }));
    expect(zone).toHaveValue('Kiritimati (UTC+14:00)');
    await userEvent.selectOptions(language, 'Deutsch');
    await userEvent.click(screen.getByRole('button', { name: 'Save settings' }));

    expect(await screen.findByText('Company settings saved. Everyone now signs in with “Harbour Builders Ltd”.')).toBeInTheDocument();
    // The header names the company by its new name.
    await waitFor(() => expect(screen.getAllByText('Harbour Builders Ltd').length).toBeGreaterThan(0));
    const saved = await api.server.app.inject({ method: 'GET', url: '/api/company/', headers: { authorization: `Bearer ${storage.token ?? ''}` } });
    expect(saved.statusCode === 200 ? saved.json() : null).toMatchObject({ name: 'Harbour Builders Ltd', timezone: 'Pacific/Kiritimati', default_language: 'de' });
  });

  it('changes the company password, refusing a short one as the server does; the new one opens the sign-in page', async () => {
    // As the company is called now (an earlier test renames it).
    const companyName = ((await openSettings()) as HTMLInputElement).value;
    const section = screen.getByRole('region', { name: 'Company password' });
    const field = within(section).getByLabelText('New company password');
    await userEvent.type(field, 'short');
    await userEvent.click(within(section).getByRole('button', { name: 'Change company password' }));
    expect(await within(section).findByText('Password must be at least 8 characters.')).toBeInTheDocument();
    const verify = (password: string) => api.server.app.inject({ method: 'POST', url: '/api/verify-company-password/', payload: { company_name: companyName, password } });
    expect((await verify(api.ours.password)).json()).toMatchObject({ success: true });

    await userEvent.clear(field);
    await userEvent.type(field, 'gate after Lee left');
    await userEvent.click(within(section).getByRole('button', { name: 'Change company password' }));
    expect(await within(section).findByText('Company password changed. Give the new one to your team.')).toBeInTheDocument();
    expect(field).toHaveValue('');
    expect((await verify('gate after Lee left')).json()).toMatchObject({ success: true, company_id: api.ours.id });
    expect((await verify(api.ours.password)).json()).toMatchObject({ success: false });
  });

  it("shows the server's refusal of a taken name on the field and keeps what was typed", async () => {
    const name = await openSettings();
    await userEvent.clear(name);
    await userEvent.type(name, api.other.name.toUpperCase());
    await userEvent.click(screen.getByRole('button', { name: 'Save settings' }));

    expect(await screen.findByText('A company with this name already exists.')).toBeInTheDocument();
    expect(name).toHaveAttribute('aria-invalid', 'true');
    expect(name).toHaveAccessibleDescription('A company with this name already exists.');
    expect(name).toHaveValue(api.other.name.toUpperCase());
    expect(screen.queryByText('Company settings saved.')).not.toBeInTheDocument();
  });

  it('checks the name with the shared rule before sending it', async () => {
    const name = await openSettings();
    const patches = () => api.server.requests.filter((request) => request === 'PATCH /api/company/').length;
    const before = patches();
    await userEvent.clear(name);
    await userEvent.click(screen.getByRole('button', { name: 'Save settings' }));

    expect(await screen.findByText('Company name is required.')).toBeInTheDocument();
    expect(patches()).toBe(before);
  });

  it('says plainly that e-mail is not configured and what that turns off; the invitations page sends the admin to Create User', async () => {
    await openSettings();
    const email = screen.getByRole('region', { name: 'E-mail' });
    expect(await within(email).findByText('E-mail is not configured on this server.')).toBeInTheDocument();
    expect(email).toHaveTextContent('nobody can be invited by e-mail, a forgotten password cannot be reset by e-mail, and no notification e-mails or daily digests are sent');
    expect(email).toHaveTextContent('SMTP_URL, MAIL_FROM and PUBLIC_URL');
    expect(within(email).queryByRole('link', { name: 'Invite by e-mail' })).toBeNull();
    expect(api.server.requests).not.toContain('GET /api/email/failed/');
    cleanup();

    renderScreen(<AdminInvitationsPage />, { path: '/admin/invitations' });
    expect(await screen.findByText(/E-mail is not configured on this server, so people cannot be invited by e-mail/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Create User' })).toHaveAttribute('href', '/admin/create-user');
    expect(screen.queryByRole('form', { name: 'Invite by e-mail' })).toBeNull();
  });
});
