import { expect, test } from '@playwright/test';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { linkIn, MailServer } from '../../apps/server/src/test/mail-server';
import { signIn } from '../fixtures';

/**
 * An admin invites a person in the browser; the mail reaches a real SMTP server (smtp-server in a
 * child process, as the API tests use); the invitee opens the link taken from that mail, chooses a
 * name and a password and lands on their dashboard. The shared journey servers send no mail (the
 * specification's deployment), so this journey runs its own server with SMTP_URL, MAIL_FROM and
 * PUBLIC_URL pointing at its SMTP server and at itself (decision record 078).
 */
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const port = Number(process.env.E2E_MAIL_PORT ?? 4197);
const baseURL = `http://127.0.0.1:${port}`;

let dataDir: string;
let server: ChildProcess | undefined;
const mail = new MailServer();

test.beforeAll(async () => {
  test.setTimeout(120_000);
  await mail.start();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'siteboard-mail-'));
  const env = {
    ...process.env,
    DATA_DIR: dataDir,
    PORT: String(port),
    LOG_LEVEL: 'warn',
    JWT_SECRET: 'invitation-journey-secret-long-enough-for-hs256',
    SMTP_URL: mail.url,
    MAIL_FROM: 'SiteBoard <noreply@siteboard.example.test>',
    PUBLIC_URL: baseURL,
  };
  const seeded = spawnSync('npm', ['run', '--silent', 'seed:demo'], { cwd: repoRoot, env, encoding: 'utf8' });
  expect(seeded.status, seeded.stderr).toBe(0);
  // The compiled server, as npm start runs it (npm test builds it before the journeys).
  server = spawn(process.execPath, ['apps/server/dist/server.js'], { cwd: repoRoot, env, stdio: 'ignore' });
  await expect
    .poll(async () => fetch(`${baseURL}/api/health/`).then((response) => response.status).catch(() => 0), { timeout: 60_000, intervals: [250] })
    .toBe(200);
});

test.afterAll(async () => {
  if (server) {
    const exited = new Promise((resolve) => server!.once('exit', resolve));
    server.kill('SIGTERM');
    await exited;
  }
  await mail.stop();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

test('an admin invites by e-mail; the invitee follows the mailed link and lands on their dashboard', async ({ browser }) => {
  const email = `invited-${Date.now().toString(36)}@example.test`;
  const admin = await (await browser.newContext({ baseURL })).newPage();
  await signIn(admin, 'admin');

  await admin.getByRole('link', { name: 'Invite by e-mail' }).click();
  const form = admin.getByRole('form', { name: 'Invite by e-mail' });
  await form.getByLabel('Email').fill(email);
  await form.getByLabel('Full name').fill('Ana Ruiz');
  // A team member reports to a manager: the first is chosen.
  await expect(form.getByLabel('Manager')).not.toHaveValue('');
  await form.getByRole('button', { name: 'Send invitation' }).click();
  await expect(form.getByText(`Invitation to ${email} queued. Its row below says when the mail server has accepted it, or why it could not be delivered.`)).toBeVisible();
  const row = admin.getByRole('table', { name: 'Pending invitations' }).getByRole('row', { name: /Ana Ruiz/ });
  await expect(row).toContainText('Team Member');
  // The open page follows the mail: accepted by the SMTP server, and the row says so by itself.
  await expect(row).toContainText('Accepted by the mail server');
  await admin.context().close();

  const [received] = await mail.waitForMails(email, 1, 60_000);
  expect(received.subject).toBe('You are invited to SiteBoard Demo on SiteBoard');
  const link = linkIn(received, '/accept-invitation?token=');
  expect(link.origin).toBe(baseURL);

  // The invitee: a browser of their own, nobody signed in.
  const invitee = await (await browser.newContext({ baseURL })).newPage();
  await invitee.goto(link.href);
  await expect(invitee.getByText(`${email} is invited to SiteBoard Demo as a team member.`)).toBeVisible();
  await expect(invitee.getByLabel('Full name')).toHaveValue('Ana Ruiz');
  await invitee.getByLabel('Password').fill('a long new password 7');
  await invitee.getByRole('button', { name: 'Join and sign in' }).click();
  await expect(invitee).toHaveURL(`${baseURL}/team-member`);
  await expect(invitee.getByRole('heading', { level: 1 })).toHaveText(/^Dashboard - Welcome TM-\d{4}$/);
  await invitee.context().close();
});
