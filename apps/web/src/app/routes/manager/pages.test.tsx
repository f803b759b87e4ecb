import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { setLanguage } from '../../../lib/i18n';
import { STORAGE_KEYS } from '../../../lib/storage';
import { insertMajorTask, insertProject, insertSubtask } from '../../../../../server/src/test/work-factories';
import { invalidateAfterSubtaskChange } from '../../../lib/query-keys';
import { apiServerForFile } from '../../../test/api-server';
import { renderScreen } from '../../../test/render';
import { ManagerProjectsPage } from './projects';
import { TeamPerformancePage } from './team-performance';
import { TeamMemberProjectsPage } from '../team-member/pages';

const shared = apiServerForFile(async (server) => {
  const crew = await server.createCrew();
  const project = await insertProject(server.database.db, crew.company.id, { managerId: crew.manager.id, name: 'Quay Wall Renewal' });
  const majorTask = await insertMajorTask(server.database.db, crew.company.id, project.id);
  await insertSubtask(server.database.db, { companyId: crew.company.id, majorTaskId: majorTask.id, assignedToId: crew.member.id, status: 'ongoing' });
  const harbour = await insertProject(server.database.db, crew.company.id, { managerId: crew.manager.id, name: 'Harbour Steps' });
  const piling = await insertMajorTask(server.database.db, crew.company.id, harbour.id, { name: 'Piling', createdById: crew.manager.id });
  await insertSubtask(server.database.db, { companyId: crew.company.id, majorTaskId: piling.id, assignedToId: crew.member.id, status: 'ongoing' });
  return crew;
});

afterAll(() => setLanguage('en', { remember: false }));

describe("the manager's pages", () => {
  it('a failed load says so, and Retry asks again without reloading the page', async () => {
    await shared.server.signIn(shared.manager);
    shared.server.answer('GET', /^\/api\/projects\/\?/, { status: 403, json: { detail: 'No.' } });
    renderScreen(<ManagerProjectsPage />);
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Failed to load data. Please try again.');

    shared.server.clearAnswers();
    await userEvent.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('button', { name: /^Quay Wall Renewal/ })).toBeInTheDocument();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('Show More keeps its page when a task notification reloads the lists meanwhile', async () => {
    const crew = await shared.server.createCrew();
    for (let index = 1; index <= 11; index += 1) await insertProject(shared.server.database.db, crew.company.id, { managerId: crew.manager.id, name: `Dock ${index}` });
    await shared.server.signIn(crew.manager);
    const { queryClient } = renderScreen(<ManagerProjectsPage />);
    // Newest first: the first page ends at Dock 2, the oldest is past it.
    expect(await screen.findByRole('button', { name: /^Dock 2(?!\d)/ })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Dock 1(?!\d)/ })).toBeNull();

    const nextPage = shared.server.hold('GET', /^\/api\/projects\/\?.*offset=10/);
    await userEvent.click(screen.getByRole('button', { name: 'Show More' }));
    await nextPage.reached;
    // A task push arrives while the page is on its way (lib/realtime.ts reloads what a subtask change touches).
    const reloaded = invalidateAfterSubtaskChange(queryClient);
    nextPage.release();
    await reloaded;
    expect(await screen.findByRole('button', { name: /^Dock 1(?!\d)/ })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /^Dock 11(?!\d)/ })).toBeInTheDocument();
  });

  it('?refresh=true loads the screen again and is taken out of the address', async () => {
    await shared.server.signIn(shared.manager);
    const { router } = renderScreen(<TeamPerformancePage />, { path: '/team-performance', route: '/team-performance' });
    await screen.findByRole('article', { name: shared.member.email });
    const reports = () => shared.server.requests.filter((request) => request === 'GET /projects/api/manager-appraisal-report/').length;
    const before = reports();
    await router.navigate('/team-performance?refresh=true');
    await waitFor(() => expect(router.state.location.search).toBe(''));
    await waitFor(() => expect(reports()).toBeGreaterThan(before));
    expect(await screen.findByRole('article', { name: shared.member.email })).toBeInTheDocument();
  });

  // A German manager's sign-in leaves German on the device (their profile's language, settled as
  // the screen loads): the people of the other tests, who never chose one, would take it from there.
  afterEach(async () => {
    localStorage.removeItem(STORAGE_KEYS.language);
    await setLanguage('en', { remember: false });
  });

  it('team performance has one title and sections named by their own words, in English and German', async () => {
    // Managers whose profiles speak German and English (signing in settles on the profile's language); English last, as the other tests read.
    const teams = [];
    for (const language of ['de', 'en'] as const) {
      const manager = await shared.server.createUser(shared.company, 'manager', { language });
      teams.push({ language, manager, member: await shared.server.createUser(shared.company, 'team_member', { managerId: manager.id }) });
    }
    for (const [{ language, manager, member }, title, sections] of [
      [teams[0]!, 'Leistung des Teams', ['Auslastung des Teams', 'Leistung je Teammitglied']],
      [teams[1]!, 'Team Member Performance', ['Team Workload', 'Appraisal by team member']],
    ] as const) {
      await shared.server.signIn(manager);
      await setLanguage(language, { remember: false });
      const view = renderScreen(<TeamPerformancePage />, { path: '/team-performance', route: '/team-performance' });
      const card = await screen.findByRole('article', { name: member.email });
      expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent(title);
      expect(screen.getAllByRole('heading', { name: title })).toHaveLength(1);
      for (const section of sections) expect(screen.getByRole('region', { name: section })).toBeInTheDocument();
      expect(screen.getByRole('region', { name: sections[1] })).toContainElement(card);
      view.unmount();
    }
  });

  it('the project manager renames and deletes a major task from the project; a team member is offered neither', async () => {
    await shared.server.signIn(shared.member);
    const memberView = renderScreen(<TeamMemberProjectsPage />);
    await userEvent.click(await screen.findByRole('button', { name: /^Harbour Steps/ }));
    await userEvent.click(await screen.findByRole('button', { name: /^Piling/ }));
    expect(await screen.findByText('Details')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Edit major task' })).toBeNull();
    memberView.unmount();

    await shared.server.signIn(shared.manager);
    renderScreen(<ManagerProjectsPage />);
    await userEvent.click(await screen.findByRole('button', { name: /^Harbour Steps/ }));
    // The document's title is the screen's heading.
    const heading = screen.getByRole('heading', { level: 1 });
    expect(heading).toHaveTextContent(/^Projects/);
    expect(document.title).toBe(`${heading.textContent} · SiteBoard`);
    await userEvent.click(await screen.findByRole('button', { name: /^Piling/ }));
    // Headings in order under the page's h1 (axe heading-order): project h2, major task h3, its parts h4.
    expect(screen.getByRole('heading', { level: 2, name: /^Harbour Steps/ })).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 3, name: /^Piling/ })).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 4, name: 'Details' })).toBeInTheDocument();
    await userEvent.click(await screen.findByRole('button', { name: 'Edit major task' }));
    const name = screen.getByLabelText('Name');
    await userEvent.clear(name);
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Name is required.')).toBeInTheDocument();
    await userEvent.type(name, 'Sheet piling');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('button', { name: /^Sheet piling/ })).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Delete major task' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Delete this major task?' });
    expect(confirm).toHaveTextContent('“Sheet piling” and its 1 subtask will be deleted');
    await userEvent.click(within(confirm).getByRole('button', { name: 'Delete major task' }));
    await waitFor(() => expect(screen.queryByRole('button', { name: /^Sheet piling/ })).toBeNull());
    expect(await screen.findByText('No major tasks for this project.')).toBeInTheDocument();
  });
});
