import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DAILY_LOG_SECTIONS, type DailyLog } from '@siteboard/shared';
import { injectAs, loginAs, type TestCompany, type TestUser } from '../../../../../server/src/test/factories';
import { insertMajorTask, insertProject, insertSubtask } from '../../../../../server/src/test/work-factories';
import { startApiServer, type ApiServer } from '../../../test/api-server';
import { currentLanguage, DEFAULT_LANGUAGE, setLanguage } from '../../../lib/i18n';
import { STORAGE_KEYS } from '../../../lib/storage';
import { renderScreen } from '../../../test/render';
import { withWaitingSaves } from '../daily-logs.rules';
import { CrewDailyLogPage, DailyLogPage } from './daily-log-pages';
import { MissingLogs } from './missing-logs';

let server: ApiServer;
let admin: TestUser;
let manager: TestUser;
let member: TestUser;
let projectId: number;
let company: TestCompany;
/** The manager's access token, to read and sign as them beside the screens. */
let managerAccess: string;

/** The day's log as the server holds it, read as the manager. */
async function stored(date: string): Promise<DailyLog> {
  return (await injectAs(server.app, managerAccess, { method: 'GET', url: `/api/projects/${projectId}/daily-logs/${date}/` })).json();
}

beforeAll(async () => {
  server = await startApiServer();
  let people;
  ({ company, ...people } = await server.createCrew());
  ({ manager, member } = people);
  admin = company.admin;
  projectId = (await insertProject(server.database.db, company.id, { managerId: manager.id, name: 'Harbour Wall', startDate: '2025-01-01', endDate: '2099-12-31', createdAt: new Date('2024-12-20T12:00:00Z') })).id;
  const majorTask = await insertMajorTask(server.database.db, company.id, projectId, { name: 'Footings' });
  await insertSubtask(server.database.db, { companyId: company.id, majorTaskId: majorTask.id, assignedToId: member.id, assignedById: manager.id, name: 'Pour footing B' });
  managerAccess = (await loginAs(server.app, manager)).access;
});
afterAll(() => server.close());

describe('the daily log on screen', () => {
  it('the manager fills the day in, is told what is missing, signs, and amends beside the signed log', async () => {
    await server.signIn(manager);
    renderScreen(<DailyLogPage />, { path: `/manager/daily-log?project=${projectId}&date=2025-03-10`, route: '/manager/daily-log' });
    expect(await screen.findByText(/^Draft for Mar 10, 2025/)).toBeInTheDocument();

    await userEvent.click(screen.getByLabelText('Conditions'));
    await userEvent.paste('Sunny, dry');
    await userEvent.click(screen.getByRole('button', { name: 'Add crew row' }));
    await userEvent.click(screen.getByLabelText('Company'));
    await userEvent.paste('Nordbau GmbH');
    // A head count is whole: a phone offers digits only for it, and a decimal keypad for hours.
    expect(screen.getByLabelText('Head count')).toHaveAttribute('inputmode', 'numeric');
    expect(screen.getByLabelText('Hours each')).toHaveAttribute('inputmode', 'decimal');
    await userEvent.type(screen.getByLabelText('Head count'), '4');
    await userEvent.type(screen.getByLabelText('Hours each'), '8');
    await userEvent.click(screen.getByRole('button', { name: 'Save log' }));
    expect(await screen.findByText('Trade is required.')).toBeInTheDocument();
    expect((await stored('2025-03-10')).created_at).toBeNull();

    await userEvent.click(screen.getByLabelText('Trade'));
    await userEvent.paste('Carpenters');
    await userEvent.click(screen.getByRole('button', { name: 'Save log' }));
    // Said beside the buttons, in the bar that stays on screen (not at the end of a long form).
    expect(screen.getByRole('button', { name: 'Save log' }).parentElement).toContainElement(await screen.findByText('Daily log saved.'));
    expect(await stored('2025-03-10')).toMatchObject({ weather: { conditions: 'Sunny, dry', work_stopped: false }, crew: [{ trade: 'Carpenters', company: 'Nordbau GmbH', headcount: 4, hours: 8 }], crew_hours: 32 });
    expect(screen.getByTestId('log-status')).toHaveTextContent('On site: 4 people · 32 man-hours · 0 hours lost');

    await userEvent.click(screen.getByRole('button', { name: 'Sign log' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Sign the daily log' });
    // A day that is over: nothing more to say than what signing does.
    expect(confirm).not.toHaveTextContent('The day is not over');
    await userEvent.click(within(confirm).getByRole('button', { name: 'Sign' }));
    expect(await screen.findByText(new RegExp(`^Signed by ${manager.email}`))).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Save log' })).not.toBeInTheDocument();
    expect(screen.getByRole('table', { name: 'Crew on site' })).toHaveTextContent('CarpentersNordbau GmbH48');

    const beside = screen.getByRole('complementary', { name: 'Amendments and downloads' });
    await userEvent.click(within(beside).getByRole('button', { name: 'Add amendment' }));
    expect(await within(beside).findByText('Reason is required.')).toBeInTheDocument();
    await userEvent.click(within(beside).getByLabelText('Reason'));
    await userEvent.paste('Five carpenters, not four');
    await userEvent.click(within(beside).getByLabelText('What changed'));
    await userEvent.paste('Crew: Carpenters 5 × 8 h');
    await userEvent.click(within(beside).getByRole('button', { name: 'Add amendment' }));
    const amendments = await within(beside).findByRole('list', { name: 'Amendments' });
    expect(await within(amendments).findByText('Five carpenters, not four')).toBeInTheDocument();
    expect((await stored('2025-03-10')).crew).toEqual([{ trade: 'Carpenters', company: 'Nordbau GmbH', headcount: 4, hours: 8 }]);
  });

  it('refuses a range longer than the server takes before asking it, in the server’s words', async () => {
    await server.signIn(manager);
    renderScreen(<DailyLogPage />, { path: `/manager/daily-log?project=${projectId}&date=2025-03-10`, route: '/manager/daily-log' });
    const from = await screen.findByLabelText('From');
    await userEvent.clear(from);
    await userEvent.type(from, '01/01/2025');
    await userEvent.tab();
    const asked = () => server.requests.filter((request) => /\/daily-logs\/(pdf\/)?$/.test(request)).length;
    const before = asked();

    // 69 days: more than a PDF covers (31), within what a CSV covers (366).
    await userEvent.click(screen.getByRole('button', { name: 'PDF of the range' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('A range covers at most 31 days.');
    expect(asked()).toBe(before);
    // A shorter range: the refusal goes with the day that caused it.
    await userEvent.clear(from);
    await userEvent.type(from, '03/01/2025');
    await userEvent.tab();
    await waitFor(() => expect(screen.queryByText('A range covers at most 31 days.')).toBeNull());
  });

  it('asks before another day leaves what was typed in the log unsaved; once saved, the day changes at once', async () => {
    await server.signIn(manager);
    renderScreen(<DailyLogPage />, { path: `/manager/daily-log?project=${projectId}`, route: '/manager/daily-log' });
    const today = await screen.findByText(/^Draft for/);
    const todayText = today.textContent;
    await userEvent.click(screen.getByLabelText('Notes'));
    await userEvent.paste('Crane inspection at 14:00');
    const yesterday = () => within(screen.getByRole('navigation', { name: 'The last two weeks' })).getAllByRole('button')[1]!;

    await userEvent.click(yesterday());
    const ask = await screen.findByRole('alertdialog', { name: 'Leave this form?' });
    expect(ask).toHaveTextContent('What you typed in this log has not been saved');
    await userEvent.click(within(ask).getByRole('button', { name: 'Stay' }));
    expect(screen.getByLabelText('Notes')).toHaveValue('Crane inspection at 14:00');
    expect(screen.getByText(/^Draft for/)).toHaveTextContent(todayText!);

    await userEvent.click(screen.getByRole('button', { name: 'Save log' }));
    expect(await screen.findByText('Daily log saved.')).toBeInTheDocument();
    await userEvent.click(yesterday());
    await waitFor(() => expect(screen.getByText(/^Draft for/)).not.toHaveTextContent(todayText!));
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });

  it('shows a save waiting on the device as the server will store it: one rule for both', async () => {
    const path = `/api/projects/${projectId}/daily-logs/2025-03-07/`;
    await injectAs(server.app, managerAccess, { method: 'PUT', url: path, payload: { notes: 'Scaffold tagged' } });
    const before = await stored('2025-03-07');
    // Typed as people type: spaces around, three decimals, notes sent empty (which keeps them).
    const save = { crew: [{ trade: ' Electricians ', company: ' Volt GmbH ', headcount: 2, hours: 7.555 }], delays: [{ cause: 'Crane wind stop', hours_lost: 1.5 }], notes: null };

    const shown = withWaitingSaves(before, [save]);
    expect((await injectAs(server.app, managerAccess, { method: 'PUT', url: path, payload: save })).statusCode).toBe(200);
    const after = await stored('2025-03-07');

    for (const section of DAILY_LOG_SECTIONS) expect(shown[section], section).toEqual(after[section]);
  });

  it("signing today's log says what it will miss of the rest of the day", async () => {
    await server.signIn(manager);
    renderScreen(<DailyLogPage />, { path: `/manager/daily-log?project=${projectId}`, route: '/manager/daily-log' });
    await screen.findByText(/^Draft for/);
    await userEvent.click(screen.getByRole('button', { name: 'Sign log' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Sign the daily log' });
    expect(confirm).toHaveTextContent('The day is not over: work sent, approved or photographed later today will not be in the signed log.');
    await userEvent.click(within(confirm).getByRole('button', { name: 'Cancel' }));
  });

  it('a crew member adds their hours and a note to the day, and changes them until it is signed', async () => {
    await server.signIn(member);
    const draft = renderScreen(<CrewDailyLogPage />, { path: `/team-member/daily-log?project=${projectId}&date=2025-03-11`, route: '/team-member/daily-log' });
    expect(await screen.findByText('Nobody has logged hours or notes for this day yet.')).toBeInTheDocument();
    // Typed as a German, Spanish or French phone types it: a comma before the decimals.
    await userEvent.type(screen.getByLabelText('Hours worked'), '7,5');
    await userEvent.click(screen.getByLabelText('Note'));
    await userEvent.paste('Set anchor bolts on grid C');
    await userEvent.click(screen.getByRole('button', { name: 'Add to the log' }));
    expect(await screen.findByText('Added to the daily log.')).toBeInTheDocument();
    const entries = await screen.findByRole('list', { name: 'Crew hours and notes' });
    expect(within(entries).getByText('Set anchor bolts on grid C')).toBeInTheDocument();
    expect(within(entries).getByText('7.5 h')).toBeInTheDocument();

    await userEvent.click(within(entries).getByRole('button', { name: /^Edit your entry/ }));
    const hours = within(entries).getByLabelText('Hours worked');
    await userEvent.clear(hours);
    await userEvent.type(hours, '9');
    await userEvent.click(within(entries).getByRole('button', { name: 'Save change' }));
    expect(await within(entries).findByText('9 h')).toBeInTheDocument();
    expect((await stored('2025-03-11')).entries.map((entry) => [entry.author.id, entry.hours, entry.note])).toEqual([[member.id, 9, 'Set anchor bolts on grid C']]);

    // Removing asks first; a removal that gets no answer says so, and nothing is gone.
    const remove = async (choice: string) => {
      await userEvent.click(within(entries).getByRole('button', { name: /^Remove your entry/ }));
      await userEvent.click(within(await screen.findByRole('alertdialog', { name: 'Remove your entry?' })).getByRole('button', { name: choice }));
    };
    await remove('Cancel');
    server.answer('DELETE', /\/entries\/\d+\/$/, 'network error', { times: 1 });
    await remove('Remove');
    expect(await within(entries).findByRole('alert')).toHaveTextContent(/no connection/i);
    expect(within(entries).getByText('Set anchor bolts on grid C')).toBeInTheDocument();
    expect((await stored('2025-03-11')).entries).toHaveLength(1);

    // A signed log keeps what it has: no form, no edit.
    await injectAs(server.app, managerAccess, { method: 'POST', url: `/api/projects/${projectId}/daily-logs/2025-03-11/sign/`, payload: {} });
    draft.unmount();
    renderScreen(<CrewDailyLogPage />, { path: `/team-member/daily-log?project=${projectId}&date=2025-03-11`, route: '/team-member/daily-log' });
    expect(await screen.findByText('This log is signed: it can no longer be changed.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Add to the log' })).not.toBeInTheDocument();
  });

  // A French person's test leaves the screens, and the device's remembered language, in French: the
  // next test reads English.
  afterEach(async () => {
    localStorage.removeItem(STORAGE_KEYS.language);
    if (currentLanguage() !== DEFAULT_LANGUAGE) await setLanguage(DEFAULT_LANGUAGE, { remember: false });
  });

  it('keeps the decimals a French person typed in their form, with a comma, once saved, and in an entry opened to change', async () => {
    const chef = await server.createUser(company, 'manager', { language: 'fr' });
    const macon = await server.createUser(company, 'team_member', { language: 'fr', managerId: chef.id });
    const chantier = (await insertProject(server.database.db, company.id, { managerId: chef.id, name: 'Quai Nord', startDate: '2025-01-01', endDate: '2099-12-31', createdAt: new Date('2024-12-20T12:00:00Z') })).id;
    const lot = await insertMajorTask(server.database.db, company.id, chantier, { name: 'Fondations' });
    await insertSubtask(server.database.db, { companyId: company.id, majorTaskId: lot.id, assignedToId: macon.id, assignedById: chef.id, name: 'Semelle B' });

    await server.signIn(chef);
    const page = renderScreen(<DailyLogPage />, { path: `/manager/daily-log?project=${chantier}&date=2025-03-13`, route: '/manager/daily-log' });
    await userEvent.click(await screen.findByLabelText('Conditions'));
    await userEvent.paste('Nuageux');
    await userEvent.type(screen.getByLabelText('Température (°C)'), '7,5');
    await userEvent.click(screen.getByRole('button', { name: 'Ajouter une ligne' }));
    await userEvent.click(screen.getByLabelText('Corps de métier'));
    await userEvent.paste('Maçonnerie');
    await userEvent.click(screen.getByLabelText('Entreprise'));
    await userEvent.paste('Dupont SARL');
    await userEvent.type(screen.getByLabelText('Effectif'), '4');
    await userEvent.type(screen.getByLabelText('Heures par personne'), '6,25');
    await userEvent.click(screen.getByRole('button', { name: 'Enregistrer' }));
    expect(await screen.findByText('Journal de chantier enregistré.')).toBeInTheDocument();
    const saved: DailyLog = (await injectAs(server.app, (await loginAs(server.app, chef)).access, { method: 'GET', url: `/api/projects/${chantier}/daily-logs/2025-03-13/` })).json();
    expect(saved).toMatchObject({ weather: { temperature: 7.5 }, crew: [{ hours: 6.25 }] });
    // Read back as the person writes numbers, not as JavaScript does (7.5).
    expect(screen.getByLabelText('Température (°C)')).toHaveValue('7,5');
    expect(screen.getByLabelText('Heures par personne')).toHaveValue('6,25');
    page.unmount();

    await server.signIn(macon);
    renderScreen(<CrewDailyLogPage />, { path: `/team-member/daily-log?project=${chantier}&date=2025-03-13`, route: '/team-member/daily-log' });
    await userEvent.type(await screen.findByLabelText('Heures travaillées'), '7,5');
    await userEvent.click(screen.getByRole('button', { name: 'Ajouter au journal' }));
    const entries = await screen.findByRole('list', { name: 'Heures et notes de l’équipe' });
    await userEvent.click(await within(entries).findByRole('button', { name: /^Modifier votre entrée/ }));
    expect(within(entries).getByLabelText('Heures travaillées')).toHaveValue('7,5');
  });

  it("a photo a crew member adds to the day is not contradicted by the day's work below it", async () => {
    await server.signIn(member);
    renderScreen(<CrewDailyLogPage />, { path: `/team-member/daily-log?project=${projectId}&date=2025-03-13`, route: '/team-member/daily-log' });
    const work = (await screen.findByRole('heading', { name: "The day's work" })).closest('section')!;
    expect(work).toHaveTextContent('No subtask was sent for approval, approved, declined, completed or photographed that day.');
    const photo = new File([new Uint8Array(await sharp({ create: { width: 30, height: 20, channels: 3, background: '#446688' } }).jpeg().toBuffer())], 'grid-c.jpg', { type: 'image/jpeg' });
    await userEvent.upload(screen.getByLabelText('Add photos'), photo);
    expect(await screen.findByRole('button', { name: 'Remove your photo 1' })).toBeInTheDocument();
    // No subtask moved that day, and the log's own photo is pointed to, not denied.
    await waitFor(() => expect(work).toHaveTextContent('The photos added to this log are under Photos.'));
    expect((await stored('2025-03-13')).attachments).toHaveLength(1);
  });

  it('a day typed after today stays typed with the reason, and the day shown does not change', async () => {
    await server.signIn(manager);
    renderScreen(<DailyLogPage />, { path: `/manager/daily-log?project=${projectId}&date=2025-03-12`, route: '/manager/daily-log' });
    expect(await screen.findByText(/^Draft for Mar 12, 2025/)).toBeInTheDocument();
    const day = screen.getByLabelText('Day');

    await userEvent.clear(day);
    await userEvent.type(day, '12/31/2099');

    expect(await screen.findByText(/^A log opens for today \(.+\) or an earlier day\.$/)).toBeInTheDocument();
    expect(day).toHaveValue('12/31/2099');
    expect(screen.getByText(/^Draft for Mar 12, 2025/)).toBeInTheDocument();

    await userEvent.clear(day);
    await userEvent.type(day, '03/13/2025');
    expect(await screen.findByText(/^Draft for Mar 13, 2025/)).toBeInTheDocument();
    expect(screen.queryByText(/^A log opens for today/)).not.toBeInTheDocument();
  });

  it('an admin sees the working days without a signed log, each opening its day', async () => {
    await server.signIn(admin);
    renderScreen(<MissingLogs logPath="/admin/daily-log" />);
    const days = await screen.findByRole('list', { name: 'Days without a signed log in Harbour Wall' });
    const links = within(days).getAllByRole('link');
    expect(links.length).toBeGreaterThan(5);
    await waitFor(() => expect(links[0]).toHaveAttribute('href', expect.stringMatching(new RegExp(`^/admin/daily-log\\?project=${projectId}&date=\\d{4}-\\d{2}-\\d{2}$`))));
  });
});
