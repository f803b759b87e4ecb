import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestUser } from '../../../../../server/src/test/factories';
import { createUser } from '../../../../../server/src/test/factories';
import { insertMajorTask, insertProject, insertSubtask } from '../../../../../server/src/test/work-factories';
import { startApiServer, type ApiServer } from '../../../test/api-server';
import { renderScreen } from '../../../test/render';
import { DrawingsPage } from './drawings-page';

let server: ApiServer;
let manager: TestUser;
let member: TestUser;
let stranger: TestUser;
let projectId: number;

beforeAll(async () => {
  server = await startApiServer();
  const crew = await server.createCrew();
  ({ manager, member } = crew);
  stranger = await createUser(server.database.db, crew.company.id, 'team_member');
  projectId = (await insertProject(server.database.db, crew.company.id, { managerId: manager.id, name: 'Harbour Wall', startDate: '2025-01-01', endDate: '2099-12-31' })).id;
  const majorTask = await insertMajorTask(server.database.db, crew.company.id, projectId, { name: 'Quay' });
  await insertSubtask(server.database.db, { companyId: crew.company.id, majorTaskId: majorTask.id, assignedToId: member.id, assignedById: manager.id, name: 'Anchor bollard 4' });
});
afterAll(() => server.close());

describe('the drawings screen', () => {
  it("the project's manager uploads a plan, sees it render, renames it and deletes it", async () => {
    await server.signIn(manager);
    renderScreen(<DrawingsPage />, { path: `/manager/drawings?project=${projectId}`, route: '/manager/drawings' });
    const plan = await sharp({ create: { width: 600, height: 400, channels: 3, background: '#ffffff' } }).png().toBuffer();
    await userEvent.upload(await screen.findByLabelText('Upload drawing'), new File([new Uint8Array(plan)], 'quay-plan.png', { type: 'image/png' }));

    const sheets = screen.getByRole('region', { name: 'Sheets' });
    expect(await within(sheets).findByRole('button', { name: 'quay-plan' })).toBeInTheDocument();
    // Rendered in the background: the list polls until the sheet is ready, then it opens.
    await waitFor(() => expect(within(sheets).getByText('Ready')).toBeInTheDocument(), { timeout: 20_000 });
    expect(within(sheets).getByRole('button', { name: 'quay-plan' })).toBeEnabled();

    await userEvent.click(within(sheets).getByRole('button', { name: 'Rename' }));
    await userEvent.clear(within(sheets).getByLabelText('Name'));
    await userEvent.type(within(sheets).getByLabelText('Name'), 'Quay plan');
    await userEvent.click(within(sheets).getByRole('button', { name: 'Save' }));
    expect(await within(sheets).findByRole('button', { name: 'Quay plan' })).toBeInTheDocument();

    await userEvent.click(within(sheets).getByRole('button', { name: 'Delete' }));
    await userEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
    expect(await within(sheets).findByText('No drawings yet: upload a PDF plan set or an image.')).toBeInTheDocument();
  }, 40_000);

  it('a crew member with work sees the sheets but cannot change them; one without work sees no project', async () => {
    await server.signIn(member);
    const { unmount } = renderScreen(<DrawingsPage />, { path: `/team-member/drawings?project=${projectId}`, route: '/team-member/drawings' });
    expect(await screen.findByText('No drawings yet.')).toBeInTheDocument();
    expect(screen.queryByLabelText('Upload drawing')).not.toBeInTheDocument();
    unmount();

    await server.signIn(stranger);
    renderScreen(<DrawingsPage />, { path: '/team-member/drawings', route: '/team-member/drawings' });
    expect(await screen.findByRole('option', { name: 'No projects with drawings for you.' })).toBeInTheDocument();
  });

  it("beside an opened sheet the manager finds the project's unpinned subtasks to drag on or place with a tap", async () => {
    await server.signIn(manager);
    renderScreen(<DrawingsPage />, { path: `/manager/drawings?project=${projectId}`, route: '/manager/drawings' });
    const plan = await sharp({ create: { width: 600, height: 400, channels: 3, background: '#ffffff' } }).png().toBuffer();
    await userEvent.upload(await screen.findByLabelText('Upload drawing'), new File([new Uint8Array(plan)], 'quay-west.png', { type: 'image/png' }));
    const sheets = screen.getByRole('region', { name: 'Sheets' });
    await waitFor(() => expect(within(sheets).getByRole('button', { name: 'quay-west' })).toBeEnabled(), { timeout: 20_000 });
    await userEvent.click(within(sheets).getByRole('button', { name: 'quay-west' }));

    const unpinned = await screen.findByRole('region', { name: 'Not on a sheet yet' });
    expect(screen.getByText('Long-press (or click) the sheet to add a subtask there. Drag a pin to move it.')).toBeInTheDocument();
    const item = (await within(unpinned).findByText('Anchor bollard 4')).closest('li')!;
    expect(item).toHaveAttribute('draggable', 'true');
    // The tap (and keyboard) way: choose it, then the next tap on the sheet places it.
    await userEvent.click(within(unpinned).getByRole('button', { name: 'Place Anchor bollard 4 on the sheet' }));
    expect(screen.getByRole('status')).toHaveTextContent('Tap the sheet where Anchor bollard 4 is.');
    await userEvent.click(within(unpinned).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByText('Tap the sheet where Anchor bollard 4 is.')).not.toBeInTheDocument();
  }, 40_000);
});
