import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import sharp from 'sharp';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../../../../server/src/schema/users';
import { createUser, injectAs, loginAs, type TestUser } from '../../../../../server/src/test/factories';
import { insertMajorTask, insertProject, insertSubtask } from '../../../../../server/src/test/work-factories';
import { apiPage } from '../../../lib/api-client';
import type { ListSearch } from '../../../lib/lists';
import { startApiServer, type ApiServer } from '../../../test/api-server';
import { renderScreen } from '../../../test/render';
import type { User } from '@siteboard/shared';
import { PendingApprovalsTable } from './pending-approvals-table';
import { SubtaskDrawer } from './subtask-drawer';
import { usePagedList } from '../../../lib/lists';
import { getPendingApprovalPagesQuery } from '../api/get-pending-approvals';

let server: ApiServer;
let manager: TestUser;
let member: TestUser;
let subtaskId: number;
let companyId: number;
let majorTaskId: number;

const findPeople: ListSearch<User> = (search) => ({ queryKey: ['people', search], queryFn: () => apiPage<User>('/api/users/', { query: { search, limit: 20 } }) });

function PendingScreen() {
  const list = usePagedList(getPendingApprovalPagesQuery());
  return <PendingApprovalsTable list={list} empty="No pending approvals." />;
}

beforeAll(async () => {
  server = await startApiServer();
  const { company, ...people } = await server.createCrew();
  ({ manager, member } = people);
  const project = await insertProject(server.database.db, company.id, { managerId: manager.id, name: 'Harbour Wall' });
  const majorTask = await insertMajorTask(server.database.db, company.id, project.id, { name: 'Footings' });
  companyId = company.id;
  majorTaskId = majorTask.id;
  subtaskId = (await insertSubtask(server.database.db, { companyId: company.id, majorTaskId: majorTask.id, assignedToId: member.id, assignedById: manager.id, name: 'Pour footing B', dueDate: '2030-05-01' })).id;
});
afterAll(() => server.close());

const photoFile = async (name: string) => new File([new Uint8Array(await sharp({ create: { width: 30, height: 20, channels: 3, background: '#884422' } }).jpeg().toBuffer())], name, { type: 'image/jpeg' });

describe('the record of work on screen', () => {
  it('names who the task is assigned to and who assigned it, the e-mail under a name or alone without one', async () => {
    await server.database.db.update(users).set({ fullName: 'Ingrid Müller-Lüdenscheidt' }).where(eq(users.id, manager.id));
    try {
      await server.signIn(member);
      renderScreen(<SubtaskDrawer findAssignees={findPeople} />, { path: `/team-member?subtask=${subtaskId}`, route: '/team-member' });
      const drawer = await screen.findByRole('dialog', { name: 'Pour footing B' });
      const assignedBy = (await within(drawer).findByText('Assigned by')).nextElementSibling as HTMLElement;
      expect(within(assignedBy).getByText('Ingrid Müller-Lüdenscheidt')).toBeInTheDocument();
      expect(assignedBy).toHaveTextContent(manager.email);
      const assignee = within(drawer).getByText('Assignee').nextElementSibling as HTMLElement;
      expect(assignee).toHaveTextContent(member.email);
    } finally {
      await server.database.db.update(users).set({ fullName: null }).where(eq(users.id, manager.id));
    }
  });

  it('the assignee sends the task for approval with two photos and a note, in one step', async () => {
    await server.signIn(member);
    renderScreen(<SubtaskDrawer findAssignees={findPeople} />, { path: `/team-member?subtask=${subtaskId}`, route: '/team-member' });
    const drawer = await screen.findByRole('dialog', { name: 'Pour footing B' });
    await within(drawer).findByText('Harbour Wall');
    await userEvent.click(within(drawer).getByRole('button', { name: 'Send for Approval' }));

    const send = await screen.findByRole('dialog', { name: 'Send for approval' });
    await userEvent.upload(within(send).getByLabelText('Add photos'), [await photoFile('north.jpg'), await photoFile('south.jpg')]);
    expect(within(send).getByText('north.jpg')).toBeInTheDocument();
    await userEvent.type(within(send).getByLabelText('Note (optional)'), 'Both footings poured');
    await userEvent.click(within(send).getByRole('button', { name: 'Send for Approval' }));

    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Send for approval' })?.textContent ?? null).toBeNull());
    expect(await within(drawer).findByText('Task sent for approval!')).toBeInTheDocument();
    expect(await within(drawer).findByText(/sent it for approval/)).toBeInTheDocument();
    expect(within(drawer).getByText('Both footings poured')).toBeInTheDocument();
    // Each thumbnail's button names the photo and what it shows; its image, once drawn, adds no second name.
    const opens = within(drawer).getAllByRole('button', { name: /^Open photo \d of \d: Pour footing B$/ });
    expect(opens.length).toBeGreaterThanOrEqual(2);
    expect(within(drawer).getByRole('button', { name: 'Open photo 2 of 2: Pour footing B' })).toBeInTheDocument();
    await waitFor(() => expect(opens.every((open) => open.querySelector('img'))).toBe(true));
    expect(within(drawer).queryAllByRole('img', { name: /Pour footing B/ })).toEqual([]);
    // Each photo's entry in the timeline is marked with an image.
    const timeline = within(drawer).getByRole('list', { name: 'Timeline' });
    expect(timeline.querySelectorAll(':scope > li > span > [data-icon="photo"]').length).toBeGreaterThanOrEqual(1);
  });

  it('refuses a file that is no photo, or too large, as it is picked, with the reason, and keeps the photos', async () => {
    const name = 'Strip formwork C';
    const id = (await insertSubtask(server.database.db, { companyId, majorTaskId, assignedToId: member.id, assignedById: manager.id, name, dueDate: '2030-05-02' })).id;
    await server.signIn(member);
    renderScreen(<SubtaskDrawer findAssignees={findPeople} />, { path: `/team-member?subtask=${id}`, route: '/team-member' });
    const drawer = await screen.findByRole('dialog', { name });
    await userEvent.click(await within(drawer).findByRole('button', { name: 'Send for Approval' }));
    const send = await screen.findByRole('dialog', { name: 'Send for approval' });

    // "All files" in the picker: what the device lets through whatever the input asks for.
    const notes = new File(['pour at 7'], 'notes.txt', { type: 'text/plain' });
    const huge = new File([new Uint8Array(11 * 1024 * 1024)], 'huge.jpg', { type: 'image/jpeg' });
    await userEvent.setup({ applyAccept: false }).upload(within(send).getByLabelText('Add photos'), [notes, huge, await photoFile('kept.jpg')]);

    const refusal = within(send).getByRole('alert');
    expect(refusal).toHaveTextContent('Could not add notes.txt: The file is not a JPEG, PNG, WebP or HEIC image.');
    expect(refusal).toHaveTextContent('Could not add huge.jpg: The photo is larger than 10 MB.');
    expect(within(send).getByText('kept.jpg')).toBeInTheDocument();
    expect(within(send).queryByText('notes.txt', { selector: 'li span' })).toBeNull();

    // Sent: the photo goes, the task with it, and nothing is refused on the way.
    await userEvent.click(within(send).getByRole('button', { name: 'Send for Approval' }));
    expect(await within(drawer).findByText('Task sent for approval!')).toBeInTheDocument();
    expect(server.requests.filter((request) => request === `POST /api/subtasks/${id}/attachments/`)).toHaveLength(1);
  });

  it('the manager sees the note and the thumbnails in the pending list and must give a reason to decline', async () => {
    await server.signIn(manager);
    renderScreen(<PendingScreen />);
    const row = (await screen.findAllByRole('link', { name: 'Open Pour footing B' }))[0]!.closest('tr, li')! as HTMLElement;
    expect(await within(row).findAllByRole('button', { name: /^Open photo \d of 2: Pour footing B$/ })).toHaveLength(2);
    expect(within(row).getByText('Note: Both footings poured')).toBeInTheDocument();

    await userEvent.click(within(row).getByRole('button', { name: 'Decline Task' }));
    const dialog = await screen.findByRole('dialog', { name: 'Decline task' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Decline Task' }));
    expect(await within(dialog).findByText('Reason is required.')).toBeInTheDocument();

    await userEvent.type(within(dialog).getByLabelText('Reason'), 'Rebar spacing wrong at grid C');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Decline Task' }));
    expect(await screen.findByText('Task declined successfully!')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryAllByRole('link', { name: 'Open Pour footing B' })).toHaveLength(0));
  });

  it('the manager who declines work approved meanwhile (on another device) is told, and it stays approved', async () => {
    const other = await insertSubtask(server.database.db, { companyId, majorTaskId, assignedToId: member.id, assignedById: manager.id, name: 'Cure slab C', dueDate: '2030-05-03', status: 'pending_approval' });
    await server.signIn(manager);
    renderScreen(<PendingScreen />);
    const row = (await screen.findAllByRole('link', { name: 'Open Cure slab C' }))[0]!.closest('tr, li')! as HTMLElement;
    const { access } = await loginAs(server.app, manager);
    expect((await injectAs(server.app, access, { method: 'PATCH', url: `/api/subtasks/${other.id}/`, payload: { status: 'completed' } })).statusCode).toBe(200);

    await userEvent.click(within(row).getByRole('button', { name: 'Decline Task' }));
    const dialog = await screen.findByRole('dialog', { name: 'Decline task' });
    await userEvent.type(within(dialog).getByLabelText('Reason'), 'Cracks at the edge');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Decline Task' }));
    expect(await within(dialog).findByText('Failed to decline task. Someone else changed this subtask meanwhile. Look at it again, then decide.')).toBeInTheDocument();
    const stored = await injectAs(server.app, access, { method: 'GET', url: `/api/subtasks/${other.id}/` });
    expect(stored.json()).toMatchObject({ status: 'completed', decline_reason: null });
  });

  it("the assignee sees the reason beside the task and in its timeline, and comments", async () => {
    await server.signIn(member);
    renderScreen(<SubtaskDrawer findAssignees={findPeople} />, { path: `/team-member?subtask=${subtaskId}`, route: '/team-member' });
    const drawer = await screen.findByRole('dialog', { name: 'Pour footing B' });
    expect(await within(drawer).findByText('Declined: Rebar spacing wrong at grid C')).toBeInTheDocument();
    expect(await within(drawer).findByText(/declined it/)).toBeInTheDocument();

    await userEvent.type(within(drawer).getByLabelText('Add a comment'), 'Fixed, spacing now 200 mm');
    await userEvent.click(within(drawer).getByRole('button', { name: 'Comment' }));
    const timeline = within(drawer).getByRole('list', { name: 'Timeline' });
    const comment = await within(timeline).findByText('Fixed, spacing now 200 mm');
    // A comment's mark in the timeline is a speech bubble.
    expect(comment.closest('li')!.querySelector('[data-icon]')).toHaveAttribute('data-icon', 'comment');
    await waitFor(() => expect(within(drawer).getByLabelText('Add a comment')).toHaveValue(''));
  });

  it('the manager edits the task; each change shows in the timeline', async () => {
    await server.signIn(manager);
    renderScreen(<SubtaskDrawer findAssignees={findPeople} />, { path: `/manager?subtask=${subtaskId}`, route: '/manager' });
    const drawer = await screen.findByRole('dialog', { name: 'Pour footing B' });
    await userEvent.click(await within(drawer).findByRole('button', { name: 'Edit' }));
    // The current assignee is chosen (listed first, named as current); left so, the assignee stays.
    const assignee = within(drawer).getByLabelText('Assignee');
    expect(assignee).toHaveValue(String(member.id));
    await waitFor(() => expect(assignee).toHaveDisplayValue(new RegExp(`^(.+ \\()?${member.email}\\)? \\(current\\)$`)));
    const title = within(drawer).getByLabelText('Title');
    await userEvent.clear(title);
    await userEvent.type(title, 'Pour footing B (redo)');
    await userEvent.selectOptions(within(drawer).getByLabelText('Priority'), 'High');
    await userEvent.click(within(drawer).getByRole('button', { name: 'Save changes' }));
    expect(await within(drawer).findByText('Changes saved.')).toBeInTheDocument();
    expect(await within(drawer).findByText('Title: Pour footing B → Pour footing B (redo)')).toBeInTheDocument();
    expect(within(drawer).getByText('Priority: Medium → High')).toBeInTheDocument();
    // Neither the assignee nor anything else changed by the form's untouched assignee box.
    expect(within(drawer).queryByText(/^Assignee:/)).toBeNull();
  });

  it('shows the assignee of approved work, or work waiting for approval, fixed, and says why; the rest still saves', async () => {
    const approved = await insertSubtask(server.database.db, { companyId, majorTaskId, assignedToId: member.id, assignedById: manager.id, name: 'Cure slab 3', dueDate: '2030-05-04', status: 'completed' });
    const waiting = await insertSubtask(server.database.db, { companyId, majorTaskId, assignedToId: member.id, assignedById: manager.id, name: 'Grout anchors', dueDate: '2030-05-04', status: 'pending_approval' });
    await server.signIn(manager);
    const cases = [
      [approved.id, 'Cure slab 3', 'This subtask is approved: it stays with the person who did it. Set it back to ongoing first to give it to someone else.'],
      [waiting.id, 'Grout anchors', "This subtask waits for approval of its assignee's work. Approve or decline it first; once declined it can go to someone else."],
    ] as const;
    for (const [id, name, why] of cases) {
      const { unmount } = renderScreen(<SubtaskDrawer findAssignees={findPeople} />, { path: `/manager?subtask=${id}`, route: '/manager' });
      const drawer = await screen.findByRole('dialog', { name });
      await userEvent.click(await within(drawer).findByRole('button', { name: 'Edit' }));
      const assignee = within(drawer).getByLabelText('Assignee');
      expect(assignee).toBeDisabled();
      expect(assignee).toHaveDisplayValue(member.email);
      expect(assignee).toHaveAccessibleDescription(why);
      expect(within(drawer).queryByLabelText('Search assignee')).toBeNull();
      await userEvent.selectOptions(within(drawer).getByLabelText('Priority'), 'High');
      await userEvent.click(within(drawer).getByRole('button', { name: 'Save changes' }));
      expect(await within(drawer).findByText('Priority: Medium → High')).toBeInTheDocument();
      unmount();
    }
  });

  it("the assignee's 'sent for approval' message goes once the manager has declined the task", async () => {
    const another = await insertSubtask(server.database.db, { companyId, majorTaskId, assignedToId: member.id, assignedById: manager.id, name: 'Strip formwork', dueDate: '2030-05-02' });
    await server.signIn(member);
    const { queryClient } = renderScreen(<SubtaskDrawer findAssignees={findPeople} />, { path: `/team-member?subtask=${another.id}`, route: '/team-member' });
    const drawer = await screen.findByRole('dialog', { name: 'Strip formwork' });
    await userEvent.click(await within(drawer).findByRole('button', { name: 'Send for Approval' }));
    const send = await screen.findByRole('dialog', { name: 'Send for approval' });
    await userEvent.click(within(send).getByRole('button', { name: 'Send for Approval' }));
    expect(await within(drawer).findByText('Task sent for approval!')).toBeInTheDocument();

    const { access } = await loginAs(server.app, manager);
    const declined = await injectAs(server.app, access, { method: 'PATCH', url: `/api/subtasks/${another.id}/`, payload: { status: 'ongoing', comment: 'Formwork still wet' } });
    expect(declined.statusCode).toBe(200);
    // What a live notification does: the screen's data is fetched again.
    await queryClient.invalidateQueries();

    await waitFor(() => expect(within(drawer).queryByText('Task sent for approval!')).toBeNull());
    expect(await within(drawer).findByText('Declined: Formwork still wet')).toBeInTheDocument();
  });

  it('opens a long history at its latest entries, and shows the earlier ones when asked', async () => {
    const longId = (await insertSubtask(server.database.db, { companyId, majorTaskId, assignedToId: member.id, assignedById: manager.id, name: 'Dewater pit 4', dueDate: '2030-05-01' })).id;
    await server.database.db.execute(sql`
      insert into subtask_activity (company_id, subtask_id, actor_id, type, text)
      select ${companyId}, ${longId}, ${member.id}, 'comment', 'Pump check ' || g from generate_series(1, 104) as g`);
    await server.signIn(member);
    renderScreen(<SubtaskDrawer findAssignees={findPeople} />, { path: `/team-member?subtask=${longId}`, route: '/team-member' });
    const drawer = await screen.findByRole('dialog', { name: 'Dewater pit 4' });
    const timeline = await within(drawer).findByRole('list', { name: 'Timeline' });

    expect(await within(timeline).findByText('Pump check 104')).toBeInTheDocument();
    expect(within(timeline).getByText('Pump check 5')).toBeInTheDocument();
    expect(within(timeline).queryByText('Pump check 4')).toBeNull();
    await userEvent.click(within(drawer).getByRole('button', { name: 'Show earlier entries (4)' }));

    expect(await within(timeline).findByText('Pump check 1')).toBeInTheDocument();
    expect(within(timeline).getAllByRole('listitem')).toHaveLength(104);
    expect(within(drawer).queryByRole('button', { name: /Show earlier/ })).toBeNull();
  });

  it('names the people of a change of assignee as they are called now, the e-mail for one without a name', async () => {
    const handed = await insertSubtask(server.database.db, { companyId, majorTaskId, assignedToId: member.id, assignedById: manager.id, name: 'Backfill trench', dueDate: '2030-05-03' });
    const carla = await createUser(server.database.db, companyId, 'team_member', { managerId: manager.id });
    const { access } = await loginAs(server.app, manager);
    expect((await injectAs(server.app, access, { method: 'PATCH', url: `/api/subtasks/${handed.id}/`, payload: { assigned_to_id: carla.id } })).statusCode).toBe(200);
    // Named after the change was recorded.
    await server.database.db.update(users).set({ fullName: 'Carla Nguyen' }).where(eq(users.id, carla.id));

    await server.signIn(manager);
    renderScreen(<SubtaskDrawer findAssignees={findPeople} />, { path: `/manager?subtask=${handed.id}`, route: '/manager' });
    const drawer = await screen.findByRole('dialog', { name: 'Backfill trench' });
    const timeline = await within(drawer).findByRole('list', { name: 'Timeline' });
    expect(await within(timeline).findByText(`Assignee: ${member.email} → Carla Nguyen`)).toBeInTheDocument();
  });
});
