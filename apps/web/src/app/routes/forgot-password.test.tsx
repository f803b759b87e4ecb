import { onlineManager } from '@tanstack/react-query';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { AccountMenu } from '../../features/auth/components/account-menu';
import { storage } from '../../lib/storage';
import { apiServerForFile } from '../../test/api-server';
import { renderScreen } from '../../test/render';
import { LoginPage } from './login';
import { PASSWORD_RESET_QUEUE } from '../../../../server/src/features/auth/invitations.service';

// A server that sends mail, through the worker's real SMTP server.
const api = apiServerForFile(async (server) => server.createCrew(), { mail: true });
afterEach(() => {
  localStorage.clear();
  act(() => onlineManager.setOnline(true));
});

const openForgot = async (companyId: number) => {
  renderScreen(<LoginPage />, { path: `/login?companyId=${companyId}`, route: '/login' });
  await userEvent.click(await screen.findByRole('button', { name: 'Forgot your password?' }));
  expect(await screen.findByRole('heading', { name: 'Forgot your password?' })).toBeInTheDocument();
};

const NEUTRAL = 'If an account with this e-mail exists in this company, we sent it a link to choose a new password. The link works once, for one hour.';

describe('"Forgot your password?" on the sign-in page', () => {
  it('sends a reset link to an account of the company, and says the same for an address with no account', async () => {
    await openForgot(api.company.id);
    await userEvent.type(screen.getByLabelText('Email'), api.manager.email);
    await userEvent.click(screen.getByRole('button', { name: 'Send the link' }));
    expect(await screen.findByText(NEUTRAL)).toBeInTheDocument();

    await api.server.app.jobs.idle([PASSWORD_RESET_QUEUE, 'mail']);
    const [mail] = await api.server.mailServer!.waitForMails(api.manager.email);
    expect(mail!.text).toContain('/reset-password?token=');

    // Back to sign in, and again for nobody: the same words, and no mail.
    await userEvent.click(screen.getByRole('button', { name: 'Back to sign in' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Forgot your password?' }));
    await userEvent.type(screen.getByLabelText('Email'), 'nobody-here@example.test');
    await userEvent.click(screen.getByRole('button', { name: 'Send the link' }));
    expect(await screen.findByText(NEUTRAL)).toBeInTheDocument();
    await api.server.app.jobs.idle([PASSWORD_RESET_QUEUE, 'mail']);
    expect(await api.server.mailServer!.mailsTo('nobody-here@example.test')).toEqual([]);
  });

  it('says clearly when too many requests were made for an address', async () => {
    const email = 'asked-too-often@example.test';
    for (let attempt = 0; attempt < 5; attempt++) {
      const response = await api.server.app.inject({ method: 'POST', url: '/api/password-reset/', payload: { company_id: api.company.id, email } });
      expect(response.statusCode).toBe(202);
    }
    await openForgot(api.company.id);
    await userEvent.type(screen.getByLabelText('Email'), email);
    await userEvent.click(screen.getByRole('button', { name: 'Send the link' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(/too many/i);
    expect(screen.queryByText(NEUTRAL)).toBeNull();
  });
});

describe('the e-mail notifications choice', () => {
  it('is asked ahead, so the menu first opened without a signal offers it at once', async () => {
    await api.server.signIn(api.member);
    const { queryClient } = renderScreen(<AccountMenu avatar="M" />);
    // Nobody pointed at the menu: the page asked once it was idle.
    await waitFor(() => expect(api.server.requestUrls).toContain('GET /api/email/'));
    await waitFor(() => expect(queryClient.isFetching()).toBe(0));
    act(() => onlineManager.setOnline(false));
    await userEvent.click(screen.getByRole('button', { name: 'Account menu' }));
    expect(screen.getByRole('button', { name: 'E-mail notifications' })).toBeInTheDocument();
  });

  it('starts at the daily summary and saves "each as it happens"', async () => {
    await api.server.signIn(api.member);
    renderScreen(<AccountMenu avatar="M" />);
    await userEvent.click(screen.getByRole('button', { name: 'Account menu' }));
    await userEvent.click(await screen.findByRole('button', { name: 'E-mail notifications' }));
    const dialog = await screen.findByRole('dialog', { name: 'E-mail notifications' });
    expect(await within(dialog).findByRole('radio', { name: /A daily summary/ })).toBeChecked();

    await userEvent.click(within(dialog).getByRole('radio', { name: /Each as it happens/ }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save e-mail choice' }));
    expect(await within(dialog).findByText('Your e-mail choice is saved.')).toBeInTheDocument();
    const profile = await api.server.app.inject({ method: 'GET', url: '/api/profile/', headers: { authorization: `Bearer ${storage.token ?? ''}` } });
    expect(profile.json()).toMatchObject({ email_notifications: 'immediate' });
  });
});
