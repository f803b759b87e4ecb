import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { MAIL_QUEUE } from '../../../../../server/src/platform';
import { eq, inArray } from 'drizzle-orm';
import { invitations } from '../../../../../server/src/schema/invitations';
import { jobs } from '../../../../../server/src/schema/jobs';
import { injectAs, loginAs } from '../../../../../server/src/test/factories';
import { linkIn } from '../../../../../server/src/test/mail-server';
import { formatDateTime } from '../../../lib/format';
import { storage } from '../../../lib/storage';
import { apiServerForFile, TEST_PUBLIC_URL } from '../../../test/api-server';
import { renderScreen } from '../../../test/render';
import { AdminCompanySettingsPage } from './company-settings';
import { AdminDashboardPage } from './dashboard';
import { AdminInvitationsPage } from './invitations';

// A server that sends mail, through the worker's real SMTP server: what the admin does here arrives there.
const api = apiServerForFile(async (server) => ({ crew: await server.createCrew() }), { mail: true });

const unique = (prefix: string) => `${prefix}-${Date.now()}-${Math.random().toString(16).slice(2, 8)}@example.test`;

async function openInvitations() {
  await api.server.signIn(api.crew.company.admin);
  renderScreen(<AdminInvitationsPage />, { path: '/admin/invitations' });
  return screen.findByRole('form', { name: 'Invite by e-mail' });
}

/** The mails the server queued, delivered to the SMTP server. */
const deliver = () => api.server.app.jobs.idle([MAIL_QUEUE]);

describe('Invite by e-mail (an admin, with mail configured)', () => {
  it('invites a team member under their manager: the pending list shows when the link expires, and the person gets the link', async () => {
    const form = await openInvitations();
    const email = unique('ana');
    await userEvent.type(within(form).getByLabelText('Email'), email);
    await userEvent.type(within(form).getByLabelText('Full name'), 'Ana Ruiz');
    expect(within(form).getByLabelText('Role')).toHaveValue('team_member');
    await waitFor(() => expect(within(form).getByLabelText('Manager')).toHaveValue(String(api.crew.manager.id)));
    await userEvent.click(within(form).getByRole('button', { name: 'Send invitation' }));

    expect(await within(form).findByText(`Invitation to ${email} queued. Its row below says when the mail server has accepted it, or why it could not be delivered.`)).toBeInTheDocument();
    expect(within(form).getByLabelText('Email')).toHaveValue('');
    const row = (await screen.findByText('Ana Ruiz')).closest('tr')!;
    expect(row).toHaveTextContent(email);
    expect(row).toHaveTextContent('Team Member');
    // Nothing has gone out yet, and the row says so rather than "sent".
    expect(row).toHaveTextContent('Waiting to be sent.');
    const expiry = within(row).getByText((_, element) => element?.tagName === 'TIME');
    // 72 hours from now, shown in the reader's own words and zone.
    const expiresAt = new Date(expiry.getAttribute('datetime')!).getTime();
    expect(Math.abs(expiresAt - Date.now() - 72 * 3_600_000)).toBeLessThan(120_000);
    expect(expiry).toHaveTextContent(formatDateTime(expiry.getAttribute('datetime'))!);

    await deliver();
    const [mail] = await api.server.mailServer!.waitForMails(email);
    expect(linkIn(mail, '/accept-invitation?token=').origin).toBe(TEST_PUBLIC_URL);
    // The row follows its mail while it waits, without the page being opened again.
    await waitFor(() => expect(screen.getByText('Ana Ruiz').closest('tr')).toHaveTextContent(/Accepted by the mail server .*\d/));
    expect(screen.getByText('Ana Ruiz').closest('tr')).not.toHaveTextContent('Waiting to be sent.');
  });

  it('asks the invited person’s language, the reader’s own first, and writes their mail in it', async () => {
    const form = await openInvitations();
    const email = unique('claire');
    const language = within(form).getByLabelText('Their language');
    expect(language).toHaveValue('en');
    expect(language).toHaveAccessibleDescription('The invitation e-mail is written in it. They start in it unless their phone or computer is set to another language SiteBoard speaks.');
    await userEvent.type(within(form).getByLabelText('Email'), email);
    await userEvent.selectOptions(language, 'Français');
    await userEvent.selectOptions(within(form).getByLabelText('Role'), 'manager');
    await userEvent.click(within(form).getByRole('button', { name: 'Send invitation' }));
    await within(form).findByText(`Invitation to ${email} queued. Its row below says when the mail server has accepted it, or why it could not be delivered.`);
    // The next person is likely of the same crew: the choice stays.
    expect(within(form).getByLabelText('Their language')).toHaveValue('fr');

    await deliver();
    const [mail] = await api.server.mailServer!.waitForMails(email);
    expect(mail.html).toContain('<html lang="fr">');
  });

  it('says a team member can be invited once the invited manager has joined, when no manager is there yet', async () => {
    const company = await api.server.createCompany();
    // An invitation of last month, expired: it can no longer be accepted, and is not named.
    await api.server.database.db.insert(invitations).values({ companyId: company.id, email: unique('old'), role: 'manager', fullName: 'Old Invitee', tokenHash: unique('hash'), expiresAt: new Date(Date.now() - 86_400_000) });
    await api.server.signIn(company.admin);
    renderScreen(<AdminInvitationsPage />, { path: '/admin/invitations' });
    const form = await screen.findByRole('form', { name: 'Invite by e-mail' });
    await userEvent.type(within(form).getByLabelText('Email'), unique('jean'));
    await userEvent.type(within(form).getByLabelText('Full name'), 'Jean Moreau');
    await userEvent.selectOptions(within(form).getByLabelText('Role'), 'manager');
    await userEvent.click(within(form).getByRole('button', { name: 'Send invitation' }));
    await within(form).findByText(/^Invitation to .* queued\./);

    await userEvent.selectOptions(within(form).getByLabelText('Role'), 'team_member');
    expect(
      await within(form).findByText('Jean Moreau is invited as a manager and has not joined yet: invite team members once a manager has accepted, or create the manager under Create User.'),
    ).toBeInTheDocument();
    expect(within(form).getByRole('button', { name: 'Send invitation' })).toBeDisabled();
  });

  it('an address that already belongs to a user of the company is refused on the Email field', async () => {
    const form = await openInvitations();
    await userEvent.type(within(form).getByLabelText('Email'), api.crew.member.email);
    await userEvent.selectOptions(within(form).getByLabelText('Role'), 'manager');
    await userEvent.click(within(form).getByRole('button', { name: 'Send invitation' }));

    const field = within(form).getByLabelText('Email');
    await waitFor(() => expect(field).toHaveAccessibleDescription('A user with this email already exists in your company.'));
    expect(field).toHaveAttribute('aria-invalid', 'true');
  });

  it('resends with a new link (the old one stops working) and revokes after asking', async () => {
    const email = unique('ben');
    await openInvitations();
    const form = screen.getByRole('form', { name: 'Invite by e-mail' });
    await userEvent.type(within(form).getByLabelText('Email'), email);
    await userEvent.selectOptions(within(form).getByLabelText('Role'), 'manager');
    await userEvent.click(within(form).getByRole('button', { name: 'Send invitation' }));
    await within(form).findByText(`Invitation to ${email} queued. Its row below says when the mail server has accepted it, or why it could not be delivered.`);
    await deliver();
    const [first] = await api.server.mailServer!.waitForMails(email);

    await userEvent.click(await screen.findByRole('button', { name: `Resend the invitation to ${email}` }));
    expect(await screen.findByText(`A new link for ${email} is queued; the previous one no longer works.`)).toBeInTheDocument();
    await deliver();
    const [, second] = await api.server.mailServer!.waitForMails(email, 2);
    const oldToken = linkIn(first, '/accept-invitation?token=').searchParams.get('token')!;
    expect(linkIn(second, '/accept-invitation?token=').searchParams.get('token')).not.toBe(oldToken);
    expect((await api.server.app.inject({ method: 'GET', url: `/api/invitations/accept/?token=${oldToken}` })).statusCode).toBe(410);

    await userEvent.click(screen.getByRole('button', { name: `Revoke the invitation to ${email}` }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Revoke this invitation?' });
    expect(dialog).toHaveTextContent(`The link sent to ${email} stops working.`);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Revoke' }));
    expect(await screen.findByText(`The invitation to ${email} is revoked.`)).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('button', { name: `Resend the invitation to ${email}` })).toBeNull());
  });

  it('says of a mail the server put off when it is tried next, and not a time gone by while it is being tried', async () => {
    const { access } = await loginAs(api.server.app, api.crew.company.admin);
    // As the runner leaves a mail whose attempt the SMTP server put off (4xx): one waits for its next
    // attempt in an hour, the other is being tried again (a claimed job keeps the run_at gone by).
    const nextAttempt = new Date(Date.now() + 3_600_000);
    const states = [
      { name: 'Lena Later', set: { status: 'queued' as const, runAt: nextAttempt } },
      { name: 'Nico Now', set: { status: 'running' as const, runAt: new Date(Date.now() - 60_000), lockedBy: 'another instance', lockedUntil: nextAttempt } },
    ];
    const held: number[] = [];
    for (const { name, set } of states) {
      const created = await injectAs(api.server.app, access, { method: 'POST', url: '/api/invitations/', payload: { email: unique('later'), role: 'manager', full_name: name } });
      expect(created.statusCode, created.body).toBe(201);
      await deliver();
      const [{ mailJobId }] = await api.server.app.db.select({ mailJobId: invitations.mailJobId }).from(invitations).where(eq(invitations.id, created.json().id));
      await api.server.app.db
        .update(jobs)
        .set({ attempts: 1, lastError: '451 4.7.1 Greylisted, try again later', checkpoint: null, finishedAt: null, ...set })
        .where(eq(jobs.id, mailJobId!));
      held.push(mailJobId!);
    }
    await openInvitations();
    const later = (await screen.findByText('Lena Later')).closest('tr')!;
    expect(later).toHaveTextContent(`Not sent yet: the mail server could not be reached or put it off. Next attempt ${formatDateTime(nextAttempt.toISOString())}`);
    expect(later).toHaveTextContent('451 4.7.1 Greylisted');
    const now = screen.getByText('Nico Now').closest('tr')!;
    expect(now).toHaveTextContent('Not sent yet: the mail server could not be reached or put it off. Trying again now.');
    expect(now).not.toHaveTextContent('Next attempt');
    // Settled again, so that the file's next waits for the mail queue end.
    await api.server.app.db.update(jobs).set({ status: 'done', finishedAt: new Date(), lockedUntil: null }).where(inArray(jobs.id, held));
  });

  it('says on the row of an invitation whose mail was refused that it was not delivered, and why', async () => {
    await api.server.signIn(api.crew.company.admin);
    renderScreen(<AdminInvitationsPage />, { path: '/admin/invitations' });
    const form = await screen.findByRole('form', { name: 'Invite by e-mail' });
    const email = unique('refused');
    await userEvent.type(within(form).getByLabelText('Email'), email);
    await userEvent.type(within(form).getByLabelText('Full name'), 'Rémi Nulle-Part');
    await userEvent.selectOptions(within(form).getByLabelText('Role'), 'manager');
    await userEvent.click(within(form).getByRole('button', { name: 'Send invitation' }));
    await within(form).findByText(`Invitation to ${email} queued. Its row below says when the mail server has accepted it, or why it could not be delivered.`);
    const row = (await screen.findByText('Rémi Nulle-Part')).closest('tr')!;
    expect(row).not.toHaveTextContent('could not be delivered');

    expect(row).toHaveTextContent('Waiting to be sent.');

    // The SMTP server refuses the address: the open page learns it by itself.
    await deliver();
    await waitFor(() => expect(screen.getByText('Rémi Nulle-Part').closest('tr')).toHaveTextContent('The invitation e-mail could not be delivered.'));
    const refusedRow = screen.getByText('Rémi Nulle-Part').closest('tr')!;
    expect(refusedRow).toHaveTextContent(/Reason: .*550.*No such mailbox here/);
    expect(refusedRow).toHaveTextContent('Check the address, then resend the invitation, or revoke it and invite the right address.');
    expect(within(refusedRow).getByRole('button', { name: `Resend the invitation to ${email}` })).toBeInTheDocument();
  });

  it('the dashboard offers inviting beside Create User', async () => {
    await api.server.signIn(api.crew.company.admin);
    renderScreen(<AdminDashboardPage />, { path: '/admin' });
    expect(await screen.findByRole('link', { name: 'Invite by e-mail' })).toHaveAttribute('href', '/admin/invitations');
    expect(screen.getByRole('link', { name: 'Create User' })).toBeInTheDocument();
  });
});

describe('Mails that could not be delivered (company settings)', () => {
  it('shows a refused mail: to whom by name, what it was, when, and the SMTP server’s reason', async () => {
    await api.server.signIn(api.crew.company.admin);
    const email = unique('refused');
    const invited = await api.server.app.inject({
      method: 'POST',
      url: '/api/invitations/',
      headers: { authorization: `Bearer ${storage.token}` },
      payload: { email, role: 'manager', full_name: 'Nadia Nowhere' },
    });
    expect(invited.statusCode).toBe(201);
    await deliver();

    renderScreen(<AdminCompanySettingsPage />, { path: '/admin/company-settings' });
    const list = await screen.findByRole('list', { name: 'Mails that could not be delivered' });
    const item = within(list).getByText('Nadia Nowhere').closest('li')!;
    expect(item).toHaveTextContent(email);
    expect(item).toHaveTextContent(`Invitation · You are invited to ${api.crew.company.name} on SiteBoard`);
    expect(item).toHaveTextContent(/Reason: .*550.*No such mailbox here/);
    expect(item).toHaveTextContent('Given up after 1 attempt.');
    expect(screen.getByText('This server sends e-mail: invitations, forgotten-password links and notification e-mails.')).toBeInTheDocument();
  });
});
