import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { eq, sql } from 'drizzle-orm';
import { users } from '../../../../server/src/schema/users';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { TestCompany, TestUser } from '../../../../server/src/test/factories';
import { WorkLayout } from '../../components/layouts/work-layout';
import { ChangePasswordForm } from '../../features/auth/components/change-password-form';
import { LoginForm } from '../../features/auth/components/login-form';
import { i18nReady, initialLanguage, setLanguage } from '../../lib/i18n';
import { STORAGE_KEYS, storage } from '../../lib/storage';
import { startApiServer, type ApiServer } from '../../test/api-server';
import { renderScreen } from '../../test/render';
import { LandingPage } from './landing';

let server: ApiServer;
let company: TestCompany;
let manager: TestUser;
beforeAll(async () => {
  await i18nReady;
  server = await startApiServer();
  company = await server.createCompany();
  manager = await server.createUser(company, 'manager');
});
afterAll(() => server.close());
afterEach(async () => {
  localStorage.clear();
  await setLanguage('en', { remember: false });
});

/** How many times the profile was asked to change so far. */
const profilePatches = () => server.requests.filter((request) => request === 'PATCH /api/profile/').length;

const chooseFromMenu = async (menuName: string | RegExp, item: RegExp) => {
  await userEvent.click(screen.getByRole('button', { name: menuName }));
  await userEvent.click(within(screen.getByRole('menu')).getByRole('menuitemradio', { name: item }));
};

describe('the language menu', () => {
  it('switches the landing page to Spanish and remembers it on this device', async () => {
    const description = document.head.appendChild(Object.assign(document.createElement('meta'), { name: 'description', content: '' }));
    renderScreen(<LandingPage />);
    expect(screen.getByRole('heading', { name: 'Why SiteBoard?' })).toBeInTheDocument();
    // A new company's way in stands beside the sign-in, not only behind "Already started signing up?".
    expect(screen.getByRole('link', { name: 'Create a company' })).toHaveAttribute('href', '/signup');
    // The button's name holds what it shows (the language), after what it is.
    await userEvent.click(screen.getByRole('button', { name: 'Language: English' }));
    const menu = screen.getByRole('menu', { name: 'Language' });
    // Each language is named in the reader's language and in its own.
    expect(within(menu).getAllByRole('menuitemradio').map((item) => item.textContent)).toEqual(['English', 'SpanishEspañol', 'FrenchFrançais', 'GermanDeutsch']);
    expect(within(menu).getByRole('menuitemradio', { name: 'English' })).toHaveAttribute('aria-checked', 'true');
    await userEvent.click(within(menu).getByRole('menuitemradio', { name: /Español/ }));

    expect(await screen.findByRole('heading', { name: '¿Por qué SiteBoard?' })).toBeInTheDocument();
    expect(screen.getAllByRole('link', { name: 'Iniciar sesión' }).length).toBeGreaterThan(0);
    expect(screen.getByRole('link', { name: 'Crear una empresa' })).toHaveAttribute('href', '/signup');
    expect(screen.getByRole('button', { name: 'Idioma: Español' })).toHaveTextContent('Español');
    expect(document.documentElement.lang).toBe('es');
    expect(description.content).toBe('SiteBoard: planifica proyectos, asigna tareas y sigue el avance en cada obra.');
    description.remove();
    expect(localStorage.getItem(STORAGE_KEYS.language)).toBe('es');
    // The next visit on this device starts in Spanish, whatever the browser prefers.
    expect(initialLanguage()).toBe('es');
  });

  it("follows the browser's languages on a first visit", () => {
    const languages = Object.getOwnPropertyDescriptor(Navigator.prototype, 'languages')!;
    Object.defineProperty(navigator, 'languages', { configurable: true, get: () => ['pt-BR', 'de-AT', 'en'] });
    try {
      expect(initialLanguage()).toBe('de');
      localStorage.setItem(STORAGE_KEYS.language, 'fr');
      expect(initialLanguage()).toBe('fr');
    } finally {
      Object.defineProperty(navigator, 'languages', languages);
      delete (navigator as { languages?: unknown }).languages;
    }
  });

  it("switches a signed-in shell to German and keeps the choice when the server has no profile language", async () => {
    await server.signIn(manager);
    renderScreen(<WorkLayout area="manager" />, { path: '/manager', route: '/manager/*' });
    expect(await screen.findAllByRole('button', { name: 'Logout' })).not.toHaveLength(0);
    // Beside the globe the shell's button shows "EN": its name says so.
    await chooseFromMenu('Language: EN', /Deutsch/);

    expect(await screen.findAllByRole('button', { name: 'Abmelden' })).not.toHaveLength(0);
    expect(screen.getByRole('navigation', { name: 'Hauptnavigation' })).toHaveTextContent('Meine Aufgaben');
    await waitFor(() => expect(server.requests).toContain('PATCH /api/profile/'));
    // Whatever the server answered, the device keeps the choice.
    expect(document.documentElement.lang).toBe('de');
    expect(localStorage.getItem(STORAGE_KEYS.language)).toBe('de');
  });

  it("keeps a choice made on the landing page while the previous person's choice was still on its way", async () => {
    await server.signIn(manager);
    renderScreen(<WorkLayout area="manager" />, { path: '/manager', route: '/manager/*' });
    expect(await screen.findAllByRole('button', { name: 'Logout' })).not.toHaveLength(0);
    const saving = server.hold('PATCH', /^\/api\/profile\/$/);
    await chooseFromMenu('Language: EN', /Español/);
    await saving.reached;
    // Meanwhile that person signed out, and the next one picked French on the landing page.
    localStorage.setItem(STORAGE_KEYS.languageUnsynced, '1');
    saving.release();

    // Saved: the stored profile speaks Spanish now; the landing page's choice is still there for the next sign-in.
    await waitFor(() => expect((storage.readUser() as { language?: string } | null)?.language).toBe('es'));
    await Promise.resolve();
    expect(localStorage.getItem(STORAGE_KEYS.languageUnsynced)).toBe('1');
  });

  it('gives a language chosen before sign-in to the profile at sign-in, and the area opens in it', async () => {
    localStorage.clear();
    renderScreen(<LoginForm companyId={String(company.id)} />);
    await setLanguage('fr');
    localStorage.setItem(STORAGE_KEYS.languageUnsynced, '1');
    const patchesBefore = profilePatches();
    await userEvent.selectOptions(await screen.findByLabelText('Rôle'), 'manager');
    await userEvent.type(screen.getByLabelText('E-mail'), manager.email);
    await userEvent.type(screen.getByLabelText('Mot de passe'), manager.password);
    await userEvent.click(screen.getByRole('button', { name: 'Se connecter' }));
    await screen.findByTestId('navigated-to');
    expect(profilePatches()).toBe(patchesBefore + 1);
    expect(document.documentElement.lang).toBe('fr');
    expect(localStorage.getItem(STORAGE_KEYS.languageUnsynced)).toBeNull();
  });
});

describe('a person an admin made, signing in for the first time', () => {
  const languages = Object.getOwnPropertyDescriptor(Navigator.prototype, 'languages')!;
  const preferLanguages = (tags: string[]) => Object.defineProperty(navigator, 'languages', { configurable: true, get: () => tags });
  afterEach(() => {
    Object.defineProperty(navigator, 'languages', languages);
    delete (navigator as { languages?: unknown }).languages;
  });
  const profileRow = async (user: TestUser) => {
    const [row] = await server.database.db.select({ language: users.language, language_chosen: users.languageChosen }).from(users).where(eq(users.id, user.id));
    return row;
  };
  const signInThroughTheForm = async (user: TestUser, labels: { role: string; email: string; password: string; submit: string }) => {
    renderScreen(<LoginForm companyId={String(user.companyId)} />);
    await userEvent.selectOptions(await screen.findByLabelText(labels.role), user.role);
    await userEvent.type(screen.getByLabelText(labels.email), user.email);
    await userEvent.type(screen.getByLabelText(labels.password), user.password);
    await userEvent.click(screen.getByRole('button', { name: labels.submit }));
    await screen.findByTestId('navigated-to');
  };

  it("keeps the app in their phone's language, not the company's, and their profile takes it for their other devices", async () => {
    localStorage.clear();
    preferLanguages(['de-DE', 'de', 'en']);
    await setLanguage(initialLanguage(), { remember: false });
    const spanishCompany = await server.createCompany();
    await server.database.db.execute(sql`update companies set default_language = 'es' where id = ${spanishCompany.id}`);
    const newcomer = await server.createUser(spanishCompany, 'manager');
    expect(await profileRow(newcomer)).toEqual({ language: 'es', language_chosen: false });

    await signInThroughTheForm(newcomer, { role: 'Rolle', email: 'E-Mail', password: 'Passwort', submit: 'Anmelden' });

    expect(document.documentElement.lang).toBe('de');
    expect(await profileRow(newcomer)).toEqual({ language: 'de', language_chosen: true });
  });

  it("leaves them in the company's language when their browser prefers none the app speaks, and asks nothing of the server", async () => {
    localStorage.clear();
    preferLanguages(['pt-BR', 'pl']);
    await setLanguage(initialLanguage(), { remember: false });
    const frenchCompany = await server.createCompany();
    await server.database.db.execute(sql`update companies set default_language = 'fr' where id = ${frenchCompany.id}`);
    const newcomer = await server.createUser(frenchCompany, 'manager');
    const patchesBefore = profilePatches();

    await signInThroughTheForm(newcomer, { role: 'Role', email: 'Email', password: 'Password', submit: 'Log In' });

    expect(document.documentElement.lang).toBe('fr');
    expect(profilePatches()).toBe(patchesBefore);
    expect(await profileRow(newcomer)).toEqual({ language: 'fr', language_chosen: false });
  });

  it("on a shared tablet takes the browser's language, not the one the previous person's profile left on it", async () => {
    localStorage.clear();
    preferLanguages(['es-ES', 'es']);
    // The last person to sign in here read the app in German: their profile's language stays remembered.
    await setLanguage('de');
    const newcomer = await server.createUser(company, 'manager');

    await signInThroughTheForm(newcomer, { role: 'Rolle', email: 'E-Mail', password: 'Passwort', submit: 'Anmelden' });

    expect(document.documentElement.lang).toBe('es');
    expect(await profileRow(newcomer)).toEqual({ language: 'es', language_chosen: true });
  });

  it('keeps showing the language this device remembers when a session starts, and sends nothing', async () => {
    localStorage.clear();
    preferLanguages(['en-GB', 'en']);
    await setLanguage('de');
    const newcomer = await server.createUser(company, 'manager');
    await server.signIn(newcomer);
    const patchesBefore = profilePatches();

    renderScreen(<WorkLayout area="manager" />, { path: '/manager', route: '/manager/*' });

    expect(await screen.findAllByRole('button', { name: 'Abmelden' })).not.toHaveLength(0);
    expect(document.documentElement.lang).toBe('de');
    expect(profilePatches()).toBe(patchesBefore);
    expect(await profileRow(newcomer)).toEqual({ language: 'en', language_chosen: false });
  });

  it('sends the language at the next session start when the sign-in had no signal to send it', async () => {
    localStorage.clear();
    preferLanguages(['es-ES', 'es']);
    await setLanguage(initialLanguage(), { remember: false });
    const newcomer = await server.createUser(company, 'manager');
    server.answer('PATCH', /^\/api\/profile\/$/, 'network error');

    await signInThroughTheForm(newcomer, { role: 'Rol', email: 'Correo electrónico', password: 'Contraseña', submit: 'Entrar' });
    expect(document.documentElement.lang).toBe('es');
    expect(await profileRow(newcomer)).toEqual({ language: 'en', language_chosen: false });

    server.clearAnswers();
    renderScreen(<WorkLayout area="manager" />, { path: '/manager', route: '/manager/*' });

    await waitFor(async () => expect(await profileRow(newcomer)).toEqual({ language: 'es', language_chosen: true }));
    expect(localStorage.getItem(STORAGE_KEYS.languageUnsynced)).toBeNull();
  });

  it('keeps a language chosen before a gated sign-in for that person: whoever signs in next on the device does not take it', async () => {
    localStorage.clear();
    preferLanguages(['en-US', 'en']);
    const gated = await server.createUser(company, 'team_member', { managerId: manager.id });
    await server.database.db.update(users).set({ mustChangePassword: true }).where(eq(users.id, gated.id));
    // On the landing page the first person picks French, signs in, meets the password gate and walks away.
    await setLanguage('fr');
    localStorage.setItem(STORAGE_KEYS.languageUnsynced, '1');
    await signInThroughTheForm(gated, { role: 'Rôle', email: 'E-mail', password: 'Mot de passe', submit: 'Se connecter' });
    expect(document.documentElement.lang).toBe('fr');
    cleanup();
    localStorage.removeItem(STORAGE_KEYS.token);
    localStorage.removeItem(STORAGE_KEYS.refreshToken);
    localStorage.removeItem(STORAGE_KEYS.user);

    const next = await server.createUser(company, 'manager');
    await signInThroughTheForm(next, { role: 'Rôle', email: 'E-mail', password: 'Mot de passe', submit: 'Se connecter' });

    expect(document.documentElement.lang).toBe('en');
    expect(await profileRow(next)).toEqual({ language: 'en', language_chosen: true });
    expect(await profileRow(gated)).toEqual({ language: 'en', language_chosen: false });
  });

  it('leaves a language they chose alone, whatever the device prefers', async () => {
    localStorage.clear();
    preferLanguages(['de-DE']);
    await setLanguage(initialLanguage(), { remember: false });
    const chooser = await server.createUser(company, 'manager', { language: 'es' });

    await signInThroughTheForm(chooser, { role: 'Rolle', email: 'E-Mail', password: 'Passwort', submit: 'Anmelden' });

    expect(document.documentElement.lang).toBe('es');
    expect(await profileRow(chooser)).toEqual({ language: 'es', language_chosen: true });
  });
});

describe("the shared schemas' validation messages", () => {
  it('reach a German user in German, and follow a change of language', async () => {
    const german = await server.createUser(company, 'team_member', { language: 'de' });
    await server.signIn(german);
    renderScreen(<ChangePasswordForm onDone={() => {}} />);
    // The session start gives the app the profile's language.
    await userEvent.click(await screen.findByRole('button', { name: 'Passwort ändern' }));

    expect(await screen.findByText('Das aktuelle Passwort ist erforderlich.')).toBeInTheDocument();
    expect(screen.getByLabelText('Aktuelles Passwort')).toHaveAccessibleDescription('Das aktuelle Passwort ist erforderlich.');
    expect(screen.getByLabelText('Neues Passwort')).toHaveAccessibleDescription('Das Passwort ist erforderlich.');
    await userEvent.type(screen.getByLabelText('Neues Passwort'), 'short');
    await userEvent.click(screen.getByRole('button', { name: 'Passwort ändern' }));
    expect(await screen.findByText('Das Passwort muss mindestens 8 Zeichen lang sein.')).toBeInTheDocument();
    expect(screen.queryByText(/required|characters/)).not.toBeInTheDocument();

    // The message on screen changes with the language, without submitting again.
    await setLanguage('fr');
    expect(await screen.findByText('Le mot de passe doit comporter au moins 8 caractères.')).toBeInTheDocument();
    expect(screen.getByText('Le mot de passe actuel est obligatoire.')).toBeInTheDocument();
    expect(server.requests).not.toContain('POST /api/profile/password/');
  });
});
