import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { insertMajorTask, insertProject, insertSubtask } from '../../../../../server/src/test/work-factories';
import { apiServerForFile } from '../../../test/api-server';
import { renderScreen } from '../../../test/render';
import { PerformanceCard } from './performance-card';
import { TeamPerformance } from './team-performance';

const api = apiServerForFile(async (server) => {
  const { company, manager, member } = await server.createCrew({ memberEmail: 'rebar.crew@example.test' });
  const project = await insertProject(server.database.db, company.id, { managerId: manager.id });
  const majorTask = await insertMajorTask(server.database.db, company.id, project.id);
  await insertSubtask(server.database.db, { companyId: company.id, majorTaskId: majorTask.id, assignedToId: member.id, status: 'completed', dueDate: '2030-01-10' });
  await insertSubtask(server.database.db, { companyId: company.id, majorTaskId: majorTask.id, assignedToId: member.id, status: 'ongoing', dueDate: '2030-06-10' });
  return { company, manager, member };
});

describe('team performance', () => {
  it("shows a card per member of the manager's team, and narrows it to a date range", async () => {
    await api.server.signIn(api.manager);
    renderScreen(<TeamPerformance renderItem={(item) => <PerformanceCard key={item.user_id} item={item} />} />);
    const card = await screen.findByRole('article', { name: api.member.email });
    expect(within(card).getByText('2 tasks')).toBeInTheDocument();
    expect(within(card).getByText(/50\s*%/)).toBeInTheDocument();
    // Subtasks written straight into the tables have no history of decisions.
    expect(within(card).getByText('Declines received').nextElementSibling).toHaveTextContent('0');
    expect(within(card).getByText('Approved the first time').nextElementSibling).toHaveTextContent('N/A');
    expect(within(card).getByText('Closed unfinished').nextElementSibling).toHaveTextContent('0');

    await userEvent.type(screen.getByLabelText('End Date'), '2030-02-01');
    await userEvent.click(screen.getByRole('button', { name: 'Filter' }));
    expect(await within(await screen.findByRole('article', { name: api.member.email })).findByText(/100\s*%/)).toBeInTheDocument();
  });

  it('says so when a manager has nobody to appraise', async () => {
    const lonely = await api.server.createUser(api.company, 'manager');
    await api.server.signIn(lonely);
    renderScreen(<TeamPerformance renderItem={(item) => <PerformanceCard key={item.user_id} item={item} />} />);
    expect(await screen.findByText('No performance data available.')).toBeInTheDocument();
  });

  it('refuses an end date before the start date on the field, asking nothing', async () => {
    await api.server.signIn(api.manager);
    renderScreen(<TeamPerformance renderItem={(item) => <PerformanceCard key={item.user_id} item={item} />} />);
    await screen.findByText(/rebar\.crew@example\.test/);
    await userEvent.type(screen.getByLabelText('Start Date'), '2030-03-01');
    await userEvent.type(screen.getByLabelText('End Date'), '2030-02-01');
    await userEvent.click(screen.getByRole('button', { name: 'Filter' }));
    expect(await screen.findByText(/before|after/i)).toBeInTheDocument();
  });

  it('says what went wrong, in the spec words: a missing endpoint, a refusal, a refused or failed filter', async () => {
    await api.server.signIn(api.manager);
    const report = /^\/projects\/api\/manager-appraisal-report\//;
    api.server.answer('GET', report, { status: 404, json: { detail: 'Not found.' } });
    const first = renderScreen(<TeamPerformance renderItem={(item) => <PerformanceCard key={item.user_id} item={item} />} />);
    expect(await screen.findByRole('alert')).toHaveTextContent('Appraisal report endpoint not found. Please ensure the API is configured.');
    first.unmount();

    api.server.clearAnswers();
    api.server.answer('GET', report, { status: 403, json: { detail: 'No.' } });
    renderScreen(<TeamPerformance renderItem={(item) => <PerformanceCard key={item.user_id} item={item} />} />);
    expect(await screen.findByRole('alert')).toHaveTextContent('Access denied. Contact admin for appraisal data.');
    await userEvent.type(screen.getByLabelText('Start Date'), '2026-01-01');
    await userEvent.click(screen.getByRole('button', { name: 'Filter' }));
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('Access denied. Contact admin for filtered appraisal data.'));

    api.server.clearAnswers();
    api.server.answer('GET', report, { status: 400, json: { detail: 'Bad.' } });
    await userEvent.type(screen.getByLabelText('End Date'), '2026-02-01');
    await userEvent.click(screen.getByRole('button', { name: 'Filter' }));
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('Failed to filter appraisal data.'));
  });
});
