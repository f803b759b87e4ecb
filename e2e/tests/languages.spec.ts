import { expect, test } from '../test';
import { apiSignIn, dayFromToday, findByName, userId, type ApiProject, type ApiUser } from '../api-helpers';
import { DEMO, saveScreenshot, signIn } from '../fixtures';

// Each journey signs in as a person it creates, so no demo account's language changes for the journeys after it.
const stamp = () => Date.now().toString(36);

test('a visitor picks Español on the landing page and signs in: the dashboard and a validation error are in Spanish', async ({ page }) => {
  const email = `jefe-${stamp()}@example.com`;
  const admin = await apiSignIn(page.request, 'admin');
  await admin.post('/api/users/', { email, password: DEMO.password, role: 'manager' });

  await page.goto('/');
  await page.getByRole('button', { name: 'Language' }).click();
  await page.getByRole('menuitemradio', { name: /Español/ }).click();
  await expect(page.getByRole('heading', { name: '¿Por qué SiteBoard?' })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'es');

  await page.getByRole('link', { name: 'Iniciar sesión' }).first().click();
  await expect(page.getByRole('heading', { name: 'Selecciona tu empresa' })).toBeVisible();
  await page.getByLabel('Nombre de la empresa', { exact: true }).fill(DEMO.companyName);
  await page.getByLabel('Contraseña', { exact: true }).fill(DEMO.companyPassword);
  await page.getByRole('button', { name: 'Continuar al inicio de sesión' }).click();

  await expect(page).toHaveURL(/\/login\?companyId=\d+/);
  await page.getByLabel('Rol', { exact: true }).selectOption({ label: 'Jefe de obra' });
  await page.getByLabel('Correo electrónico', { exact: true }).fill(email);
  await page.getByLabel('Contraseña', { exact: true }).fill(DEMO.password);
  await page.getByRole('button', { name: 'Entrar' }).click();

  await expect(page).toHaveURL(/\/manager$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(/^Panel - Hola, MGR-\d{4}/);
  await expect(page.getByRole('navigation', { name: 'Navegación principal' })).toContainText('Mis tareas');
  // The language chosen before signing in is now the profile's, for the person's other devices and the server's texts.
  const self = await apiSignIn(page.request, 'manager', email);
  await expect.poll(async () => (await self.get<{ language: string }>('/api/profile/')).language).toBe('es');

  // A shared schema's message, raised in the browser, in Spanish.
  await page.getByRole('button', { name: 'Menú de la cuenta' }).first().click();
  await page.getByRole('button', { name: 'Cambiar contraseña' }).click();
  const dialog = page.getByRole('dialog', { name: 'Cambiar contraseña' });
  await dialog.getByRole('button', { name: 'Cambiar contraseña' }).click();
  await expect(dialog.getByText('La contraseña actual es obligatoria.')).toBeVisible();
  await expect(dialog.getByText('La contraseña es obligatoria.')).toBeVisible();
  await saveScreenshot(page, 'spanish-validation-desktop');
});

test("an English-speaking manager assigns a German-speaking team member a subtask: the member's bell says it in German", async ({ page }) => {
  const id = stamp();
  const email = `polier-${id}@example.com`;
  const title = `Schalung prüfen ${id}`;
  const due = dayFromToday(2);
  const admin = await apiSignIn(page.request, 'admin');
  await admin.post('/api/users/', { email, password: DEMO.password, role: 'team_member', manager_id: await userId(admin, DEMO.accounts.manager) });
  const member = await apiSignIn(page.request, 'team_member', email);
  await member.patch('/api/profile/', { language: 'de' });
  const manager = await apiSignIn(page.request, 'manager');
  expect((await manager.get<{ language: string }>('/api/profile/')).language).toBe('en');

  await signIn(page, 'team_member', email);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(/^Übersicht – Willkommen, TM-\d{4}/);
  const bell = page.getByTestId('notification-bell');
  await expect(bell).toBeVisible();

  const projects = await manager.get<ApiProject[]>('/api/projects/');
  const memberId = (await member.get<ApiUser>('/api/profile/')).id;
  await manager.post('/api/major-tasks/', {
    project_id: findByName(projects, 'Riverside Apartments').id,
    name: `Decke ${id}`,
    description: '',
    subtasks: [{ name: title, assigned_to_id: memberId, due_date: due, priority: 'high' }],
  });

  // Live, without a reload: the badge rises, and the bell lists the text rendered for its reader.
  await expect(page.getByTestId('notification-badge')).toHaveText('1');
  await bell.click();
  const germanDue = due.split('-').reverse().join('.');
  await expect(page.getByTestId('notification-item').filter({ hasText: title })).toContainText(`hat Ihnen „${title}“ (Riverside Apartments) zugewiesen, fällig am ${germanDue}`);
  await saveScreenshot(page, 'german-notification-desktop');
});
