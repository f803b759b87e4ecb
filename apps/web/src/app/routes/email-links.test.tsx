import { createHash } from 'node:crypto';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { insertInvitation, insertPasswordReset } from '../../../../server/src/features/auth/invitations.queries';
import { AcceptInvitationPage } from './accept-invitation';
import { ResetPasswordPage } from './reset-password';
import { apiServerForFile } from '../../test/api-server';
import { renderScreen } from '../../test/render';
import { storage } from '../../lib/storage';

// The links an invitation or a reset e-mail carries; the token is made here as the server makes it (only its hash is kept).
const hash = (token: string) => createHash('sha256').update(token).digest('hex');

const shared = apiServerForFile(async (server) => ({ crew: await server.createCrew() }));

describe('the pages e-mails link to', () => {
  it('an invitation: who is invited where, then a name and a password, and the new member lands on their dashboard', async () => {
    const { crew, server } = shared;
    const email = `invited-${Date.now()}@example.test`;
    await insertInvitation(server.app.db, { companyId: crew.company.id, email, role: 'team_member', fullName: 'Ana Ruiz', managerId: crew.manager.id, invitedBy: crew.company.admin.id, tokenHash: hash('invite-token-1'), hours: 72 });

    renderScreen(<AcceptInvitationPage />, { path: '/accept-invitation?token=invite-token-1', route: '/accept-invitation' });
    expect(await screen.findByTestId('invitation')).toHaveTextContent(`${email} is invited to ${crew.company.name} as a team member.`);
    expect(screen.getByLabelText('Full name')).toHaveValue('Ana Ruiz');
    await userEvent.type(screen.getByLabelText('Password'), 'a long new password 7');
    await userEvent.click(screen.getByRole('button', { name: 'Join and sign in' }));

    expect(await screen.findByTestId('navigated-to')).toHaveTextContent('/team-member');
    expect(storage.token).toBeTruthy();
    expect(storage.readUser()?.email).toBe(email);
  });

  it('an invitation link that was used or never existed says so, with no form', async () => {
    renderScreen(<AcceptInvitationPage />, { path: '/accept-invitation?token=no-such-invitation', route: '/accept-invitation' });
    expect(await screen.findByText('This invitation link was already used, revoked or has expired. Ask your administrator for a new one.')).toBeInTheDocument();
    expect(screen.queryByLabelText('Password')).toBeNull();
  });

  it('a password reset: the new password twice, a clear word when they differ, and the link works once', async () => {
    const { crew, server } = shared;
    await insertPasswordReset(server.app.db, crew.member.id, hash('reset-token-1'), 1);
    const { unmount } = renderScreen(<ResetPasswordPage />, { path: '/reset-password?token=reset-token-1', route: '/reset-password' });
    await userEvent.type(screen.getByLabelText('New password'), 'another long password 9');
    await userEvent.type(screen.getByLabelText('New password again'), 'another long password 8');
    await userEvent.click(screen.getByRole('button', { name: 'Save the new password' }));
    expect(await screen.findByText('The two passwords are not the same.')).toBeInTheDocument();
    expect(server.requests).not.toContain('POST /api/password-reset/confirm/');

    await userEvent.clear(screen.getByLabelText('New password again'));
    await userEvent.type(screen.getByLabelText('New password again'), 'another long password 9');
    await userEvent.click(screen.getByRole('button', { name: 'Save the new password' }));
    expect(await screen.findByText('Your password is changed. Every other session of yours has ended.')).toBeInTheDocument();
    unmount();

    renderScreen(<ResetPasswordPage />, { path: '/reset-password?token=reset-token-1', route: '/reset-password' });
    await userEvent.type(screen.getByLabelText('New password'), 'a third long password 1');
    await userEvent.type(screen.getByLabelText('New password again'), 'a third long password 1');
    await userEvent.click(screen.getByRole('button', { name: 'Save the new password' }));
    expect(await screen.findByText('This password reset link was already used or has expired. Ask for a new one.')).toBeInTheDocument();
  });
});
