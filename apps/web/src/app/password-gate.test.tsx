import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../../server/src/schema/users';
import { injectAs, loginAs, type TestUser } from '../../../server/src/test/factories';
import { initialLanguage, setLanguage } from '../lib/i18n';
import { startApiServer, type ApiServer } from '../test/api-server';
import { renderScreen } from '../test/render';
import { PasswordGate } from './password-gate';
import { LoginPage } from './routes/login';

let server: ApiServer;
let member: TestUser;
let newcomer: TestUser;
let spanishSpeaker: TestUser;

beforeAll(async () => {
  server = await startApiServer();
  const crew = await server.createCrew();
  member = crew.member;
  const admin = await loginAs(server.app, crew.company.admin);
  const reset = await injectAs(server.app, admin.access, { method: 'POST', url: `/api/users/${member.id}/password/`, payload: { password: 'set by the admin' } });
  expect(reset.statusCode).toBe(204);
  member = { ...member, password: 'set by the admin' };
  newcomer = await server.createUser(crew.company, 'team_member', { managerId: crew.manager.id });
  expect((await injectAs(server.app, admin.access, { method: 'POST', url: `/api/users/${newcomer.id}/password/`, payload: { password: 'given at the gate' } })).statusCode).toBe(204);
  spanishSpeaker = await server.createUser(crew.company, 'team_member', { managerId: crew.manager.id });
  expect((await injectAs(server.app, admin.access, { method: 'POST', url: `/api/users/${spanishSpeaker.id}/password/`, payload: { password: 'given at the gate' } })).statusCode).toBe(204);
  await server.signIn(member);
});
afterAll(() => server.close());

describe('a password an admin set', () => {
  it('must be changed before the area shows: a wrong current password is marked on its field, the right one lets them in', async () => {
    renderScreen(
      <PasswordGate>
        <p>The dashboard</p>
      </PasswordGate>,
    );

    expect(await screen.findByRole('heading', { name: 'Choose a new password' })).toBeInTheDocument();
    expect(screen.queryByText('The dashboard')).toBeNull();
    await waitFor(() => expect(screen.getByLabelText('Current password')).toHaveFocus());
    await userEvent.type(screen.getByLabelText('Current password'), 'not the password');
    await userEvent.type(screen.getByLabelText('New password'), 'my own passphrase');
    await userEvent.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByText('Your current password is not correct.')).toBeInTheDocument();

    await userEvent.clear(screen.getByLabelText('Current password'));
    await userEvent.type(screen.getByLabelText('Current password'), 'set by the admin');
    await userEvent.clear(screen.getByLabelText('New password'));
    await userEvent.type(screen.getByLabelText('New password'), 'my own passphrase');
    await userEvent.click(screen.getByRole('button', { name: 'Change password' }));

    expect(await screen.findByText('The dashboard')).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Your password has been changed. Your other sessions have been signed out.');
    const signedIn = await server.app.inject({ method: 'POST', url: '/api/token/', payload: { email: member.email, password: 'my own passphrase', role: 'team_member', company_id: member.companyId } });
    expect(signedIn.json().must_change_password).toBe(false);
  });

  it('right after signing in with it, is not asked for again: only the new one, then the area and a confirmation', async () => {
    localStorage.clear();
    renderScreen(<LoginPage />, {
      path: `/login?companyId=${newcomer.companyId}`,
      route: '/login',
      routes: [{ path: '/team-member/*', element: <PasswordGate><p>The dashboard</p></PasswordGate> }],
    });
    await userEvent.selectOptions(await screen.findByLabelText('Role'), 'team_member');
    await userEvent.type(screen.getByLabelText('Email'), newcomer.email);
    await userEvent.type(screen.getByLabelText('Password'), 'given at the gate');
    await userEvent.click(screen.getByRole('button', { name: 'Log In' }));

    expect(await screen.findByRole('heading', { name: 'Choose a new password' })).toBeInTheDocument();
    expect(screen.queryByLabelText('Current password')).toBeNull();
    // The sign-in's button went with the sign-in page: focus is on what is to be filled, not left on the page's top.
    await waitFor(() => expect(screen.getByLabelText('New password')).toHaveFocus());
    await userEvent.type(screen.getByLabelText('New password'), 'chosen by me');
    await userEvent.click(screen.getByRole('button', { name: 'Change password' }));

    expect(await screen.findByText('The dashboard')).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Your password has been changed.');
    const signedIn = await server.app.inject({ method: 'POST', url: '/api/token/', payload: { email: newcomer.email, password: 'chosen by me', role: 'team_member', company_id: newcomer.companyId } });
    expect(signedIn.statusCode).toBe(200);
  });

  it("keeps a first sign-in on a Spanish phone in Spanish, and gives Spanish to the profile once the gate opens (it takes no change before)", async () => {
    localStorage.clear();
    const languages = Object.getOwnPropertyDescriptor(Navigator.prototype, 'languages')!;
    Object.defineProperty(navigator, 'languages', { configurable: true, get: () => ['es-MX', 'es'] });
    try {
      await setLanguage(initialLanguage(), { remember: false });
      renderScreen(<LoginPage />, {
        path: `/login?companyId=${spanishSpeaker.companyId}`,
        route: '/login',
        routes: [{ path: '/team-member/*', element: <PasswordGate><p>The dashboard</p></PasswordGate> }],
      });
      await userEvent.selectOptions(await screen.findByLabelText('Rol'), 'team_member');
      await userEvent.type(screen.getByLabelText('Correo electrónico'), spanishSpeaker.email);
      await userEvent.type(screen.getByLabelText('Contraseña'), 'given at the gate');
      await userEvent.click(screen.getByRole('button', { name: 'Entrar' }));

      // The company's language is English; the gate stays in the language the person signed in with.
      expect(await screen.findByRole('heading', { name: 'Elige una nueva contraseña' })).toBeInTheDocument();
      await userEvent.type(screen.getByLabelText('Nueva contraseña'), 'elegida por mí');
      await userEvent.click(screen.getByRole('button', { name: 'Cambiar contraseña' }));

      expect(await screen.findByText('The dashboard')).toBeInTheDocument();
      const [row] = await server.database.db.select({ language: users.language, chosen: users.languageChosen }).from(users).where(eq(users.id, spanishSpeaker.id));
      expect(row).toEqual({ language: 'es', chosen: true });
      expect(document.documentElement.lang).toBe('es');
    } finally {
      Object.defineProperty(navigator, 'languages', languages);
      delete (navigator as { languages?: unknown }).languages;
      localStorage.clear();
      await setLanguage('en', { remember: false });
    }
  });
});
