import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, type TestUser } from '../../../../../server/src/test/factories';
import { insertMajorTask, insertProject, insertSubtask } from '../../../../../server/src/test/work-factories';
import { apiPage } from '../../../lib/api-client';
import type { ListSearch } from '../../../lib/lists';
import { startApiServer, type ApiServer } from '../../../test/api-server';
import { renderScreen } from '../../../test/render';
import { AdminAppraisalReport, type AppraisalPerson } from './admin-appraisal-report';

let server: ApiServer;
let member: TestUser;

/** The people picker as the admin dashboard wires it: the server's user search. */
const findPeople: ListSearch<AppraisalPerson> = (search) => ({
  queryKey: ['people', search],
  queryFn: () => apiPage<AppraisalPerson>('/api/users/', { query: { search, limit: 20 } }),
});

beforeAll(async () => {
  server = await startApiServer();
  const crew = await server.createCrew({ memberEmail: 'crew.lead@example.test' });
  const { company, manager } = crew;
  member = crew.member;
  const project = await insertProject(server.database.db, company.id, { managerId: manager.id });
  const majorTask = await insertMajorTask(server.database.db, company.id, project.id);
  await insertSubtask(server.database.db, { companyId: company.id, majorTaskId: majorTask.id, assignedToId: member.id, status: 'completed', dueDate: '2030-01-10' });
  await insertSubtask(server.database.db, { companyId: company.id, majorTaskId: majorTask.id, assignedToId: member.id, status: 'ongoing', dueDate: '2030-02-10' });
  await server.signIn(company.admin);
});
afterAll(() => server.close());

async function choose(email: string) {
  await userEvent.type(screen.getByLabelText('Search by name or email'), email.slice(0, 8));
  const select = screen.getByLabelText('User');
  await waitFor(() => expect(select.querySelectorAll('option').length).toBeGreaterThan(1));
  const option = [...select.querySelectorAll('option')].find((candidate) => candidate.textContent?.startsWith(email));
  await userEvent.selectOptions(select, option!);
}

describe('the admin appraisal report', () => {
  it('offers people by name where they have one, with their e-mail and code', async () => {
    await createUser(server.database.db, member.companyId, 'team_member', { email: 'crew.named@example.test', fullName: 'Ana Ortiz' });
    renderScreen(<AdminAppraisalReport findPeople={findPeople} />);
    await userEvent.type(screen.getByLabelText('Search by name or email'), 'crew.');
    const select = screen.getByLabelText('User');
    const labels = () => [...select.querySelectorAll('option')].map((option) => option.textContent);
    await waitFor(() => expect(labels()).toHaveLength(3));
    expect(labels()).toEqual(expect.arrayContaining([expect.stringMatching(/^Ana Ortiz – crew\.named@example\.test \(TM-\d{4}\)$/), expect.stringMatching(/^crew\.lead@example\.test \(TM-\d{4}\)$/)]));
  });

  it.each([
    ['generating the report', 'Generate Report'],
    ['downloading the CSV', /CSV/],
  ] as const)('asks for a person before %s, without asking the server', async (_, button) => {
    renderScreen(<AdminAppraisalReport findPeople={findPeople} />);
    const before = server.requests.filter((request) => request.startsWith('GET /api/appraisal-report')).length;
    await userEvent.click(screen.getByRole('button', { name: button }));
    await waitFor(() => expect(screen.getAllByRole('alert').length).toBeGreaterThan(0));
    expect(server.requests.filter((request) => request.startsWith('GET /api/appraisal-report'))).toHaveLength(before);
  });

  it('refuses an end date before the start date on the field', async () => {
    renderScreen(<AdminAppraisalReport findPeople={findPeople} />);
    await choose(member.email);
    await userEvent.type(screen.getByLabelText('Start Date'), '2030-03-01');
    await userEvent.type(screen.getByLabelText('End Date'), '2030-02-01');
    await userEvent.click(screen.getByRole('button', { name: 'Generate Report' }));
    expect(await screen.findByText(/before|after/i)).toBeInTheDocument();
  });

  it("shows the person's counts and efficiency for the chosen range", async () => {
    renderScreen(<AdminAppraisalReport findPeople={findPeople} />);
    await choose(member.email);
    await userEvent.click(screen.getByRole('button', { name: 'Generate Report' }));
    expect(await screen.findByText(/2 tasks/)).toBeInTheDocument();
    expect(screen.getByText(/50\s*%/)).toBeInTheDocument();

    await userEvent.type(screen.getByLabelText('End Date'), '2030-01-31');
    await userEvent.click(screen.getByRole('button', { name: 'Generate Report' }));
    expect(await screen.findByText(/1 task\b/)).toBeInTheDocument();
    expect(screen.getByText(/100\s*%/)).toBeInTheDocument();
  });

  it('takes the numbers away when the next choice is refused', async () => {
    renderScreen(<AdminAppraisalReport findPeople={findPeople} />);
    await choose(member.email);
    await userEvent.click(screen.getByRole('button', { name: 'Generate Report' }));
    expect(await screen.findByText(/2 tasks/)).toBeInTheDocument();

    await userEvent.type(screen.getByLabelText('Start Date'), '2030-03-01');
    await userEvent.type(screen.getByLabelText('End Date'), '2030-02-01');
    await userEvent.click(screen.getByRole('button', { name: 'Generate Report' }));
    expect(await screen.findByText(/before|after/i)).toBeInTheDocument();
    expect(screen.queryByText(/2 tasks/)).toBeNull();
    expect(screen.queryByText(/50\s*%/)).toBeNull();

    // Put right, the report answers the new range (due by 1 February: one of the two).
    await userEvent.clear(screen.getByLabelText('Start Date'));
    await userEvent.click(screen.getByRole('button', { name: 'Generate Report' }));
    expect(await screen.findByText(/1 task\b/)).toBeInTheDocument();
  });
});
