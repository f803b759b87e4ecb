// jsdom has no IndexedDB: an in-memory one stands in for the browser's.
import 'fake-indexeddb/auto';
import { onlineManager, useQueryClient } from '@tanstack/react-query';
import OpenSeadragon from 'openseadragon';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { and, eq } from 'drizzle-orm';
import { useEffect } from 'react';
import sharp from 'sharp';
import { createStore, set } from 'idb-keyval';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { projects } from '../../../server/src/schema/projects';
import { subtasks } from '../../../server/src/schema/tasks';
import { subtaskActivity } from '../../../server/src/schema/activity';
import { idempotencyKeys } from '../../../server/src/schema/idempotency';
import { fingerprintKey, requestFingerprint } from '../../../server/src/platform/http/idempotency';
import { injectAs, loginAs, type TestUser } from '../../../server/src/test/factories';
import { insertMajorTask, insertProject, insertSubtask } from '../../../server/src/test/work-factories';
import { api, apiPage, KEY_IN_PROGRESS_RESENDS, noAnswerWait, WRITE_NO_ANSWER_MS } from '../lib/api-client';
import type { ListSearch } from '../lib/lists';
import { startApiServer, TEST_SERVER_SECRET, type ApiServer } from '../test/api-server';
import { renderScreen } from '../test/render';
import { DAILY_LOG_TEXT_MAX, shiftDate, type DailyLog, type Sheet, type SheetPin, type Subtask, type User } from '@siteboard/shared';
import { SubtaskDrawer } from '../features/tasks/components/subtask-drawer';
import { queue, startQueue } from '../features/offline/offline-queue';
import { SyncStatus } from '../features/offline/components/sync-status';
import { useSubtaskPages } from '../features/tasks/api/get-subtasks';
import { MyTaskLists } from '../features/tasks/components/my-task-lists';
import { DrawingsPage } from '../features/sheets/components/drawings-page';
import { getDailyLogProjectsQueryOptions } from '../features/daily-logs/api/get-daily-log-projects';
import { CrewDailyLogPage, DailyLogPage } from '../features/daily-logs/components/daily-log-pages';

let server: ApiServer;
let manager: TestUser;
let member: TestUser;
let companyId: number;
let majorTaskId: number;
let online = true;

const findPeople: ListSearch<User> = (search) => ({ queryKey: ['people', search], queryFn: () => apiPage<User>('/api/users/', { query: { search, limit: 20 } }) });

/** What the signed-in area runs: the queue for this user, and its state above the screen. */
function WithQueue({ userId, children }: { userId: number; children: React.ReactNode }) {
  const queryClient = useQueryClient();
  useEffect(() => {
    let stop = () => {};
    let cancelled = false;
    // Each write the server took reloads what is shown, as offline-tools.tsx does.
    void startQueue(userId, () => void queryClient.invalidateQueries()).then((stopQueue) => (cancelled ? stopQueue() : (stop = stopQueue)));
    return () => {
      cancelled = true;
      stop();
    };
  }, [userId, queryClient]);
  return (
    <>
      <SyncStatus />
      {children}
    </>
  );
}

/** The member's task list, as a dashboard shows it. */
function MyTasks() {
  const list = useSubtaskPages({ assigned_to: 'me' });
  return (
    <ul>
      {list.items.map((subtask) => (
        <li key={subtask.id}>{subtask.name} (listed)</li>
      ))}
    </ul>
  );
}

function setOnline(next: boolean) {
  online = next;
  act(() => {
    onlineManager.setOnline(next);
    window.dispatchEvent(new Event(next ? 'online' : 'offline'));
  });
}

async function statusOf(id: number) {
  const [row] = await server.database.db.select({ status: subtasks.status }).from(subtasks).where(eq(subtasks.id, id));
  return row!.status;
}

/** When the subtask's comments were done, as the server recorded them (decision record 109). */
const commentTimes = (subtaskId: number) =>
  server.database.db.select({ doneAt: subtaskActivity.doneAt }).from(subtaskActivity).where(and(eq(subtaskActivity.subtaskId, subtaskId), eq(subtaskActivity.type, 'comment')));

beforeAll(async () => {
  Object.defineProperty(window.navigator, 'onLine', { configurable: true, get: () => online });
  server = await startApiServer();
  const company = await server.createCompany();
  companyId = company.id;
  manager = await server.createUser(company, 'manager');
  member = await server.createUser(company, 'team_member', { managerId: manager.id });
  const project = await insertProject(server.database.db, company.id, { managerId: manager.id, name: 'Tunnel Bore' });
  majorTaskId = (await insertMajorTask(server.database.db, company.id, project.id, { name: 'Lining' })).id;
});
afterEach(() => setOnline(true));
afterAll(() => server.close());

/** A new subtask of the member's (`before` happens to it first), opened in its drawer by the member, with the queue running. */
async function openNewSubtask(name: string, before?: (subtaskId: number) => Promise<void>) {
  const subtaskId = (await insertSubtask(server.database.db, { companyId, majorTaskId, assignedToId: member.id, assignedById: manager.id, name, dueDate: '2030-05-01' })).id;
  await before?.(subtaskId);
  await server.signIn(member);
  renderScreen(
    <WithQueue userId={member.id}>
      <SubtaskDrawer findAssignees={findPeople} />
    </WithQueue>,
    { path: `/team-member?subtask=${subtaskId}`, route: '/team-member' },
  );
  const drawer = await screen.findByRole('dialog', { name });
  await within(drawer).findByText('Tunnel Bore');
  return { subtaskId, drawer };
}

/** New subtasks of the member's, in the member's task list with the queue running, ready to send. */
async function openMyTasks(names: string[]) {
  const ids: number[] = [];
  for (const name of names) ids.push((await insertSubtask(server.database.db, { companyId, majorTaskId, assignedToId: member.id, assignedById: manager.id, name, dueDate: '2030-05-02' })).id);
  await server.signIn(member);
  renderScreen(
    <WithQueue userId={member.id}>
      <MyTaskLists showApprovals={false} />
    </WithQueue>,
    { path: '/team-member/my-tasks', route: '/team-member/my-tasks' },
  );
  await screen.findByRole('table', { name: 'Assigned Tasks' });
  for (const name of names) await waitFor(() => expect(within(rowOf(name)).getByRole('button', { name: 'Send for Approval' })).toBeInTheDocument());
  return ids;
}

/** The member's daily log of a day, with the queue running; then, without a signal, their hours and note added to it. */
async function addHoursOffline(projectId: number, date: string, hours: string, note: string) {
  await server.signIn(member);
  renderScreen(
    <WithQueue userId={member.id}>
      <CrewDailyLogPage />
    </WithQueue>,
    { path: `/team-member/daily-log?project=${projectId}&date=${date}`, route: '/team-member/daily-log' },
  );
  expect(await screen.findByText('Nobody has logged hours or notes for this day yet.')).toBeInTheDocument();

  setOnline(false);
  await userEvent.type(screen.getByLabelText('Hours worked'), hours);
  await userEvent.click(screen.getByLabelText('Note'));
  await userEvent.paste(note);
  await userEvent.click(screen.getByRole('button', { name: 'Add to the log' }));
}

/** Discards a refused change from the queue's list, confirming it (it is gone for good). */
async function discard(button: HTMLElement) {
  await userEvent.click(button);
  await userEvent.click(within(await screen.findByRole('alertdialog', { name: 'Discard this change?' })).getByRole('button', { name: 'Discard' }));
}

/** The row of a task in the member's list. */
const rowOf = (name: string) => within(screen.getByRole('table', { name: 'Assigned Tasks' })).getAllByRole('row').find((row) => row.textContent?.includes(name))!;

async function sendForApprovalOffline(name: string) {
  const { subtaskId, drawer } = await openNewSubtask(name);

  setOnline(false);
  await userEvent.click(within(drawer).getByRole('button', { name: 'Send for Approval' }));
  const send = await screen.findByRole('dialog', { name: 'Send for approval' });
  await userEvent.type(within(send).getByLabelText('Note (optional)'), 'Lining ring 12 done');
  await userEvent.click(within(send).getByRole('button', { name: 'Send for Approval' }));
  return subtaskId;
}

describe('changes made without a signal', () => {
  it('wait on the device, then reach the server once when the connection returns', async () => {
    const subtaskId = await sendForApprovalOffline('Seal ring 12');
    // The drawer is a modal: what is behind it is hidden from the accessibility tree, not from sight.
    await waitFor(() => expect(screen.getByTestId('sync-status')).toHaveTextContent('Waiting to sync (1)'));
    expect(await statusOf(subtaskId)).toBe('ongoing');
    // The task shows as sent, so it cannot be sent a second time while the first waits.
    const drawer = screen.getByRole('dialog', { name: 'Seal ring 12' });
    await waitFor(() => expect(within(drawer).queryByRole('button', { name: 'Send for Approval' })).toBeNull());
    expect(within(drawer).getByText('Pending Approval')).toBeInTheDocument();
    // It says what happened: kept here, not "Task sent for approval!" (it was not, yet).
    expect(within(drawer).getByRole('status')).toHaveTextContent('Saved on this device: it is sent as soon as the connection is back.');
    expect(within(drawer).queryByText('Task sent for approval!')).toBeNull();
    const sentBefore = server.requests.filter((request) => request === `PATCH /api/subtasks/${subtaskId}/`).length;
    expect(sentBefore).toBe(0);

    setOnline(true);

    await waitFor(() => expect(screen.queryByTestId('sync-status')).toBeNull());
    // Sent now: the spec's words.
    await waitFor(() => expect(within(drawer).getByRole('status')).toHaveTextContent('Task sent for approval!'));
    expect(await statusOf(subtaskId)).toBe('pending_approval');
    expect(server.requests.filter((request) => request === `PATCH /api/subtasks/${subtaskId}/`)).toHaveLength(1);
  });

  it('wait on the device when the signal has bars but no data: the screen is not held, and the change acts once', async () => {
    const { subtaskId, drawer } = await openNewSubtask('Prime beam 4');
    // The page waits this long for an answer (30 s in use).
    noAnswerWait.writeMs = 400;
    try {
      // The first send reaches the server only later, long after the page stopped waiting for it.
      const late = server.hold('PATCH', new RegExp(`^/api/subtasks/${subtaskId}/$`));
      await userEvent.click(within(drawer).getByRole('button', { name: 'Send for Approval' }));
      const send = await screen.findByRole('dialog', { name: 'Send for approval' });
      await userEvent.click(within(send).getByLabelText('Note (optional)'));
      await userEvent.paste('Beam 4 clean and primed');
      await userEvent.click(within(send).getByRole('button', { name: 'Send for Approval' }));
      await late.reached;

      // Not held open for good: kept on this device, and the queue sends it again (same key).
      await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Send for approval' })).toBeNull());
      await waitFor(() => expect(within(drawer).getByRole('status')).toHaveTextContent(/^Saved on this device|^Task sent for approval!$/));
      await waitFor(() => expect(screen.queryByTestId('sync-status')).toBeNull());
      expect(await statusOf(subtaskId)).toBe('pending_approval');

      // The first arrives after all: answered from its key, it changes nothing.
      late.release();
      await waitFor(() => expect(server.requests.filter((request) => request === `PATCH /api/subtasks/${subtaskId}/`)).toHaveLength(2));
      const changes = await server.database.db.select({ to: subtaskActivity.toStatus, text: subtaskActivity.text }).from(subtaskActivity).where(and(eq(subtaskActivity.subtaskId, subtaskId), eq(subtaskActivity.type, 'status_changed')));
      expect(changes).toEqual([{ to: 'pending_approval', text: 'Beam 4 clean and primed' }]);
    } finally {
      noAnswerWait.writeMs = WRITE_NO_ANSWER_MS;
    }
  });

  it("go from any open tab: a comment queued in a tab since closed is sent by the one still open", async () => {
    const { subtaskId, drawer } = await openNewSubtask('Grout ring 13');
    await within(drawer).findByRole('list', { name: 'Timeline' });
    setOnline(false);
    // The other tab, as its queue does: the write in the device's IndexedDB, then a word to the other
    // tabs. Queued there hours ago by a version of the app that kept no done time: its queue time stands in.
    const id = Date.now() * 1000 + 7;
    const queuedAt = new Date(Date.now() - 3 * 60 * 60 * 1000);
    await set(
      id,
      { id, userId: member.id, createdAt: queuedAt.toISOString(), status: 'waiting', kind: 'comment', method: 'POST', path: `/api/subtasks/${subtaskId}/comments/`, idempotencyKey: `other-tab-${id}`, json: { text: 'Grouted from the other tab' } },
      createStore('siteboard-offline', 'writes'),
    );
    const otherTab = new BroadcastChannel('siteboard-offline-writes');
    otherTab.postMessage({ userId: member.id });
    otherTab.close();

    await waitFor(() => expect(screen.getByTestId('sync-status')).toHaveTextContent('Waiting to sync (1)'));
    setOnline(true);
    await waitFor(() => expect(screen.queryByTestId('sync-status')).toBeNull());
    expect(server.requests.filter((request) => request === `POST /api/subtasks/${subtaskId}/comments/`)).toHaveLength(1);
    expect(await commentTimes(subtaskId)).toEqual([{ doneAt: queuedAt }]);
  });

  it('keep a comment written without a signal in sight, marked waiting, until the server has it once', async () => {
    const { subtaskId, drawer } = await openNewSubtask('Drain ring 14');
    await within(drawer).findByRole('list', { name: 'Timeline' });

    setOnline(false);
    await userEvent.type(within(drawer).getByLabelText('Add a comment'), 'Pump running, water at 20 cm');
    const written = Date.now();
    await userEvent.click(within(drawer).getByRole('button', { name: 'Comment' }));

    // In the drawer, under the history, as what it is: written, not sent yet.
    const waiting = await within(drawer).findByRole('list', { name: 'Waiting to sync (1)' });
    expect(waiting).toHaveTextContent('Waiting to sync');
    expect(waiting).toHaveTextContent('Pump running, water at 20 cm');

    const back = Date.now();
    setOnline(true);
    await waitFor(() => expect(within(drawer).queryByRole('list', { name: 'Waiting to sync (1)' })).toBeNull());
    expect(server.requests.filter((request) => request === `POST /api/subtasks/${subtaskId}/comments/`)).toHaveLength(1);
    // Recorded as written, before the signal came back (X-Done-At), not as it arrived.
    const [comment] = await commentTimes(subtaskId);
    expect(comment!.doneAt!.getTime()).toBeGreaterThanOrEqual(written);
    expect(comment!.doneAt!.getTime()).toBeLessThanOrEqual(back);
  });

  it('keep a photo taken without a signal in sight, marked waiting, until the server has it once', async () => {
    const { subtaskId, drawer } = await openNewSubtask('Survey ring 15');
    await within(drawer).findByRole('list', { name: 'Timeline' });

    setOnline(false);
    const photo = new File([new Uint8Array(await sharp({ create: { width: 30, height: 20, channels: 3, background: '#886644' } }).jpeg().toBuffer())], 'ring-15.jpg', { type: 'image/jpeg' });
    await userEvent.upload(within(drawer).getByLabelText('Add photos'), photo);

    const waiting = await within(drawer).findByRole('list', { name: 'Photos waiting to sync (1)' });
    expect(within(waiting).getByRole('img', { name: 'Photo 1, waiting to sync: Survey ring 15' })).toBeInTheDocument();
    expect(waiting).toHaveTextContent('Waiting to sync');

    setOnline(true);
    await waitFor(() => expect(within(drawer).queryByRole('list', { name: 'Photos waiting to sync (1)' })).toBeNull());
    expect(server.requests.filter((request) => request === `POST /api/subtasks/${subtaskId}/attachments/`)).toHaveLength(1);
  });

  it('show a declined task sent again without a signal as sent, not as declined beside "Pending Approval"', async () => {
    const { drawer } = await openNewSubtask('Grout ring 14', async (subtaskId) => {
      const change = async (who: TestUser, payload: object) =>
        expect((await injectAs(server.app, (await loginAs(server.app, who)).access, { method: 'PATCH', url: `/api/subtasks/${subtaskId}/`, payload })).statusCode).toBe(200);
      await change(member, { status: 'pending_approval' });
      await change(manager, { status: 'ongoing', comment: 'Voids at the crown' });
    });
    expect(await within(drawer).findByText('Declined: Voids at the crown')).toBeInTheDocument();

    setOnline(false);
    await userEvent.click(within(drawer).getByRole('button', { name: 'Send for Approval' }));
    const send = await screen.findByRole('dialog', { name: 'Send for approval' });
    await userEvent.click(within(send).getByRole('button', { name: 'Send for Approval' }));
    await waitFor(() => expect(within(drawer).getByText('Pending Approval')).toBeInTheDocument());
    expect(within(drawer).queryByText('Declined: Voids at the crown')).toBeNull();
  });

  it("show a task as the waiting change makes it, even when a read brings the server's status meanwhile", async () => {
    const subtaskId = await sendForApprovalOffline('Bolt ring 30');
    await waitFor(() => expect(screen.getByTestId('sync-status')).toHaveTextContent('Waiting to sync (1)'));
    const drawer = screen.getByRole('dialog', { name: 'Bolt ring 30' });
    const readsBefore = server.requests.filter((request) => request === `GET /api/subtasks/${subtaskId}/`).length;

    // A read gets through while the send still waits (the library sees a connection the queue does not yet use).
    act(() => onlineManager.setOnline(true));
    await waitFor(() => expect(server.requests.filter((request) => request === `GET /api/subtasks/${subtaskId}/`).length).toBeGreaterThan(readsBefore));
    expect(await statusOf(subtaskId)).toBe('ongoing');

    await waitFor(() => expect(within(drawer).getByText('Pending Approval')).toBeInTheDocument());
    expect(within(drawer).queryByRole('button', { name: 'Send for Approval' })).toBeNull();

    setOnline(true);
    await waitFor(() => expect(screen.queryByTestId('sync-status')).toBeNull());
    expect(await statusOf(subtaskId)).toBe('pending_approval');
  });

  it('keep a change the server refuses, with its reason, until it is discarded', async () => {
    const subtaskId = await sendForApprovalOffline('Grout ring 13');
    await waitFor(() => expect(screen.getByTestId('sync-status')).toHaveTextContent('Waiting to sync (1)'));
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Grout ring 13' })).toBeNull());
    // Meanwhile the manager approved it from the office.
    await server.database.db.update(subtasks).set({ status: 'completed' }).where(eq(subtasks.id, subtaskId));

    setOnline(true);

    await userEvent.click(await screen.findByRole('button', { name: 'Refused (1)' }));
    const queueDialog = await screen.findByRole('dialog', { name: 'Changes made on this device' });
    expect(within(queueDialog).getByText(/^Refused: /)).toBeInTheDocument();
    // The refused change names its task.
    expect(within(queueDialog).getByText('— Grout ring 13', { exact: false })).toBeInTheDocument();
    // Closing the drawer asked for no task of its own.
    expect(server.requests.filter((request) => request.startsWith('GET /api/subtasks/0'))).toEqual([]);
    expect(await statusOf(subtaskId)).toBe('completed');
    // Its words are there to copy, and discarding asks first: kept, it stays.
    expect(within(queueDialog).getByText('“Lining ring 12 done”')).toBeInTheDocument();
    await userEvent.click(within(queueDialog).getByRole('button', { name: 'Discard' }));
    const asked = await screen.findByRole('alertdialog', { name: 'Discard this change?' });
    expect(asked).toHaveTextContent('Not sent: Task change. Once discarded, it is gone from this device too.');
    await userEvent.click(within(asked).getByRole('button', { name: 'Keep' }));
    expect(screen.getByTestId('sync-status')).toHaveTextContent('Refused (1)');

    await discard(within(queueDialog).getByRole('button', { name: 'Discard' }));
    await waitFor(() => expect(screen.queryByTestId('sync-status')).toBeNull());
  });

  it('keep the refusal in the message above the list once the refused change is discarded: it was not sent', async () => {
    const name = 'Flush ring 17';
    const [subtaskId] = (await openMyTasks([name])) as [number];
    const row = () => rowOf(name);
    setOnline(false);
    await userEvent.click(within(row()).getByRole('button', { name: 'Send for Approval' }));
    await userEvent.click(within(await screen.findByRole('dialog', { name: 'Send for approval' })).getByRole('button', { name: 'Send for Approval' }));
    expect(await screen.findByText('Saved on this device: it is sent as soon as the connection is back.')).toBeInTheDocument();
    // Meanwhile the manager approved it from the office.
    await server.database.db.update(subtasks).set({ status: 'completed' }).where(eq(subtasks.id, subtaskId));

    setOnline(true);
    const refusal = await screen.findByText(/^Failed to send task for approval\. ./);
    const refusalText = refusal.textContent;
    await userEvent.click(await screen.findByRole('button', { name: 'Refused (1)' }));
    const queueDialog = await screen.findByRole('dialog', { name: 'Changes made on this device' });
    await discard(within(queueDialog).getByRole('button', { name: 'Discard' }));
    await waitFor(() => expect(screen.queryByTestId('sync-status')).toBeNull());

    expect(screen.getByText(refusalText!)).toBeInTheDocument();
    expect(screen.queryByText('Task sent for approval!')).toBeNull();
    expect(await statusOf(subtaskId)).toBe('completed');
  });

  it('send a change to another task past a refused one at once; a change to the same task waits for it and says so', async () => {
    const names = ['Clean ring 18', 'Check ring 19'];
    const [refusedId, laterId] = (await openMyTasks(names)) as [number, number];
    setOnline(false);
    await userEvent.click(within(rowOf(names[0]!)).getByRole('button', { name: 'Send for Approval' }));
    await userEvent.click(within(await screen.findByRole('dialog', { name: 'Send for approval' })).getByRole('button', { name: 'Send for Approval' }));
    await server.database.db.update(subtasks).set({ status: 'completed' }).where(eq(subtasks.id, refusedId));
    setOnline(true);
    await screen.findByText(/^Failed to send task for approval\. ./);

    // Online now, a change to another task does not wait for the refused one: it may not depend on it.
    await userEvent.click(within(rowOf(names[1]!)).getByRole('button', { name: 'Send for Approval' }));
    await userEvent.click(within(await screen.findByRole('dialog', { name: 'Send for approval' })).getByRole('button', { name: 'Send for Approval' }));
    expect(await screen.findByText('Task sent for approval!')).toBeInTheDocument();
    expect(await statusOf(laterId)).toBe('pending_approval');

    // A comment on the refused task may: it waits on the device, in line behind it.
    const comments = () => server.database.db.select().from(subtaskActivity).where(and(eq(subtaskActivity.subtaskId, refusedId), eq(subtaskActivity.type, 'comment')));
    expect(await api(`/api/subtasks/${refusedId}/comments/`, { method: 'POST', body: { text: 'Ring 18 also cleaned inside' }, queue: 'comment' })).toBeUndefined();
    expect(queue.entries().map((entry) => [entry.kind, entry.status])).toEqual([['statusChange', 'failed'], ['comment', 'waiting']]);
    expect(await comments()).toEqual([]);
    // A write held there holds nobody else: a comment on the other task goes at once.
    await api(`/api/subtasks/${laterId}/comments/`, { method: 'POST', body: { text: 'Ring 19 checked twice' }, queue: 'comment' });
    await waitFor(async () => {
      const [row] = await server.database.db.select({ text: subtaskActivity.text }).from(subtaskActivity).where(and(eq(subtaskActivity.subtaskId, laterId), eq(subtaskActivity.type, 'comment')));
      expect(row?.text).toBe('Ring 19 checked twice');
    });
    expect(queue.entries().map((entry) => [entry.kind, entry.status])).toEqual([['statusChange', 'failed'], ['comment', 'waiting']]);

    await userEvent.click(await screen.findByRole('button', { name: /^Refused/ }));
    const queueDialog = await screen.findByRole('dialog', { name: 'Changes made on this device' });
    await discard(within(queueDialog).getAllByRole('button', { name: 'Discard' })[0]!);
    await waitFor(() => expect(screen.queryByTestId('sync-status')).toBeNull());
    expect((await comments()).map((row) => row.text)).toEqual(['Ring 18 also cleaned inside']);
  });

  it('wait and go again on their own when the same write is still running on the server', async () => {
    const subtaskId = await sendForApprovalOffline('Anchor ring 20');
    await waitFor(() => expect(screen.getByTestId('sync-status')).toHaveTextContent('Waiting to sync (1)'));
    // The same write left before the signal dropped and is still running there: its key is claimed, unanswered.
    const [waiting] = queue.entries();
    const claim = {
      companyId,
      userId: member.id,
      key: waiting!.idempotencyKey!,
      fingerprint: requestFingerprint(fingerprintKey(TEST_SERVER_SECRET), waiting!.method, waiting!.path, waiting!.json),
    };
    await server.database.db.insert(idempotencyKeys).values(claim);
    const patch = `PATCH /api/subtasks/${subtaskId}/`;

    setOnline(true);

    // 409 "still in progress" with Retry-After: not a refusal, the change keeps waiting and goes
    // again on its own. The api-client sends it again twice itself (after each Retry-After): a
    // fourth request is the queue's own next round, after it was told 409.
    const sent = () => server.requests.filter((request) => request === patch).length;
    await waitFor(() => expect(sent()).toBeGreaterThanOrEqual(1 + KEY_IN_PROGRESS_RESENDS + 1), { timeout: 10_000 });
    expect(screen.getByTestId('sync-status')).toHaveTextContent('Waiting to sync (1)');
    expect(screen.queryByRole('button', { name: 'Refused (1)' })).toBeNull();
    // The first request ended without acting (its transaction rolled back): the key is free again.
    await server.database.db.delete(idempotencyKeys).where(eq(idempotencyKeys.key, claim.key));

    await waitFor(() => expect(screen.queryByTestId('sync-status')).toBeNull(), { timeout: 5_000 });
    expect(await statusOf(subtaskId)).toBe('pending_approval');
  });

  // A deployment restarting the server behind nginx: the proxy answers 502 for it. Before, the
  // change was marked "Refused" and everything after it waited for someone to press Retry.
  it('wait and go again on their own when the proxy in front of the server answers 502 while it restarts', async () => {
    const subtaskId = await sendForApprovalOffline('Bolt ring 21');
    await waitFor(() => expect(screen.getByTestId('sync-status')).toHaveTextContent('Waiting to sync (1)'));
    const patch = `PATCH /api/subtasks/${subtaskId}/`;
    server.answer('PATCH', new RegExp(`^/api/subtasks/${subtaskId}/$`), { status: 502, json: { detail: 'Bad Gateway' } });

    setOnline(true);

    await waitFor(() => expect(server.answered).toContain(`${patch} 502`));
    expect(screen.getByTestId('sync-status')).toHaveTextContent('Waiting to sync (1)');
    expect(screen.queryByRole('button', { name: 'Refused (1)' })).toBeNull();
    server.clearAnswers();
    // It goes again on its own a couple of seconds later, and reaches the server once.
    await waitFor(() => expect(screen.queryByTestId('sync-status')).toBeNull(), { timeout: 10_000 });
    expect(await statusOf(subtaskId)).toBe('pending_approval');
    expect(server.requests.filter((request) => request === patch)).toHaveLength(1);
  });

  // The server's disk is full: nothing was saved, and nothing will be until someone makes room.
  // The change is not refused (a crew cannot do anything about it): it keeps waiting on the phone.
  it('wait and go again on their own when the server has no room left on its disk (507 with Retry-After)', async () => {
    const subtaskId = await sendForApprovalOffline('Seal ring 22');
    await waitFor(() => expect(screen.getByTestId('sync-status')).toHaveTextContent('Waiting to sync (1)'));
    const patch = `PATCH /api/subtasks/${subtaskId}/`;
    const noRoom = 'The server has no room left to save this, and nothing was saved. Tell your administrator, then try again.';
    server.answer('PATCH', new RegExp(`^/api/subtasks/${subtaskId}/$`), { status: 507, json: { detail: noRoom }, headers: { 'Retry-After': '1' } });

    setOnline(true);

    await waitFor(() => expect(server.answered).toContain(`${patch} 507`));
    expect(screen.getByTestId('sync-status')).toHaveTextContent('Waiting to sync (1)');
    expect(screen.queryByRole('button', { name: 'Refused (1)' })).toBeNull();
    server.clearAnswers();
    await waitFor(() => expect(screen.queryByTestId('sync-status')).toBeNull(), { timeout: 10_000 });
    expect(await statusOf(subtaskId)).toBe('pending_approval');
  });

  it('open a task with no signal: from a list already here, else saying why it cannot', async () => {
    const subtaskId = (await insertSubtask(server.database.db, { companyId, majorTaskId, assignedToId: member.id, assignedById: manager.id, name: 'Bolt ring 14', dueDate: '2030-05-01' })).id;
    await server.signIn(member);
    setOnline(false);
    const first = renderScreen(<SubtaskDrawer findAssignees={findPeople} />, { path: `/team-member?subtask=${subtaskId}`, route: '/team-member' });
    const drawer = await screen.findByRole('dialog');
    expect(await within(drawer).findByText(/You are offline, and this task is not saved on this device yet/)).toBeInTheDocument();
    // Its title says what opened, not an ellipsis that looks like loading.
    expect(screen.getByRole('dialog', { name: 'Subtask' })).toBe(drawer);
    first.unmount();

    // A list loaded while online holds the task: offline, the drawer opens on that row.
    setOnline(true);
    const again = renderScreen(
      <>
        <MyTasks />
        <SubtaskDrawer findAssignees={findPeople} />
      </>,
      { path: '/team-member', route: '/team-member' },
    );
    expect(await screen.findByText('Bolt ring 14 (listed)')).toBeInTheDocument();
    setOnline(false);
    await act(() => again.router.navigate(`/team-member?subtask=${subtaskId}`));
    const opened = await screen.findByRole('dialog', { name: 'Bolt ring 14' });
    expect(within(opened).getByText('Tunnel Bore')).toBeInTheDocument();
    expect(within(opened).getByText('The timeline loads once the connection is back.')).toBeInTheDocument();
  });

  it('mark each row waiting to sync, and count what the person did, not the requests it takes', async () => {
    const names = ['Weld ring 15', 'Paint ring 16'];
    const ids = await openMyTasks(names);
    const table = screen.getByRole('table', { name: 'Assigned Tasks' });
    setOnline(false);

    // One task goes with two photos, the other without: two things done, four requests waiting.
    const photo = async (name: string) => new File([new Uint8Array(await sharp({ create: { width: 30, height: 20, channels: 3, background: '#446688' } }).jpeg().toBuffer())], name, { type: 'image/jpeg' });
    await userEvent.click(within(rowOf(names[0]!)).getByRole('button', { name: 'Send for Approval' }));
    const first = await screen.findByRole('dialog', { name: 'Send for approval' });
    await userEvent.upload(within(first).getByLabelText('Add photos'), [await photo('weld-a.jpg'), await photo('weld-b.jpg')]);
    await userEvent.click(within(first).getByRole('button', { name: 'Send for Approval' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await userEvent.click(within(rowOf(names[1]!)).getByRole('button', { name: 'Send for Approval' }));
    await userEvent.click(within(await screen.findByRole('dialog', { name: 'Send for approval' })).getByRole('button', { name: 'Send for Approval' }));

    await waitFor(() => expect(screen.getByTestId('sync-status')).toHaveTextContent('Waiting to sync (2)'));
    for (const name of names) expect(within(rowOf(name)).getByText('Waiting to sync')).toBeInTheDocument();
    // The list says the same: two things done, the first with its photos.
    await userEvent.click(screen.getByTestId('sync-status'));
    const queueDialog = await screen.findByRole('dialog', { name: 'Changes made on this device' });
    expect(within(queueDialog).getAllByRole('listitem').map((item) => item.querySelector('span')?.textContent)).toEqual([
      `Photo (2) + Task change — ${names[0]}`,
      `Task change — ${names[1]}`,
    ]);
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    setOnline(true);
    await waitFor(() => expect(screen.queryByTestId('sync-status')).toBeNull());
    for (const id of ids) expect(await statusOf(id)).toBe('pending_approval');
    await waitFor(() => expect(within(table).queryByText('Waiting to sync')).toBeNull());
  });

  it('keep "Send for Approval" on a row whose comment and photo wait: only a waiting status change stands for it', async () => {
    const name = 'Seal ring 17';
    const subtaskId = (await insertSubtask(server.database.db, { companyId, majorTaskId, assignedToId: member.id, assignedById: manager.id, name, dueDate: '2030-05-02' })).id;
    await server.signIn(member);
    renderScreen(
      <WithQueue userId={member.id}>
        <MyTaskLists showApprovals={false} />
        <SubtaskDrawer findAssignees={findPeople} />
      </WithQueue>,
      { path: `/team-member/my-tasks?subtask=${subtaskId}`, route: '/team-member/my-tasks' },
    );
    const drawer = await screen.findByRole('dialog', { name });
    await within(drawer).findByRole('list', { name: 'Timeline' });

    setOnline(false);
    await userEvent.type(within(drawer).getByLabelText('Add a comment'), 'Gasket seated, photo attached');
    await userEvent.click(within(drawer).getByRole('button', { name: 'Comment' }));
    const photo = new File([new Uint8Array(await sharp({ create: { width: 30, height: 20, channels: 3, background: '#668844' } }).jpeg().toBuffer())], 'ring-17.jpg', { type: 'image/jpeg' });
    await userEvent.upload(within(drawer).getByLabelText('Add photos'), photo);
    await within(drawer).findByRole('list', { name: 'Photos waiting to sync (1)' });
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    // Back on the list, the row still offers sending it, and names what waits beside it, not as a status change waiting.
    await waitFor(() => expect(within(rowOf(name)).getByText('Waiting to sync: Comment, Photo')).toBeInTheDocument());
    expect(within(rowOf(name)).getByRole('button', { name: 'Send for Approval' })).toBeInTheDocument();
    expect(within(rowOf(name)).queryByText('Waiting to sync')).toBeNull();

    setOnline(true);
    await waitFor(() => expect(within(rowOf(name)).queryByText(/^Waiting to sync/)).toBeNull());
    expect(within(rowOf(name)).getByRole('button', { name: 'Send for Approval' })).toBeInTheDocument();
  }, 60_000);

  it('draw a pin moved without a signal at its new place, marked waiting, until the server has it; a refused move goes back and says why', async () => {
    const project = await insertProject(server.database.db, companyId, { managerId: manager.id, name: 'Shaft 3', startDate: '2025-01-01', endDate: '2099-12-31' });
    const lining = await insertMajorTask(server.database.db, companyId, project.id, { name: 'Shaft lining' });
    const subtaskId = (await insertSubtask(server.database.db, { companyId, majorTaskId: lining.id, assignedToId: member.id, assignedById: manager.id, name: 'Ring 17 anchor', dueDate: '2090-05-01' })).id;
    await insertSubtask(server.database.db, { companyId, majorTaskId: lining.id, assignedToId: member.id, assignedById: manager.id, name: 'Ring 18 anchor', dueDate: '2090-05-02' });
    await server.signIn(manager);
    const plan = await sharp({ create: { width: 600, height: 400, channels: 3, background: '#ffffff' } }).png().toBuffer();
    const upload = new FormData();
    upload.append('file', new File([new Uint8Array(plan)], 'shaft-3.png', { type: 'image/png' }));
    const [sheet] = await api<Sheet[]>(`/api/projects/${project.id}/sheets/`, { method: 'POST', body: upload });
    await waitFor(async () => expect((await api<Sheet>(`/api/sheets/${sheet!.id}/`)).status).toBe('ready'), { timeout: 20_000 });
    await api<Subtask>(`/api/subtasks/${subtaskId}/`, { method: 'PATCH', body: { pin: { sheet_id: sheet!.id, x: 0.25, y: 0.5 } } });
    const pinsOnServer = () => api<SheetPin[]>(`/api/sheets/${sheet!.id}/pins/`).then((pins) => pins.map(({ x, y }) => [x, y]));

    // jsdom lays nothing out: the viewer gets the size a phone's would, so a tap has a place on the sheet.
    const size = (value: number) => ({ configurable: true, get: () => value });
    Object.defineProperties(HTMLElement.prototype, { clientWidth: size(600), clientHeight: size(400) });
    try {
      renderScreen(
        <WithQueue userId={manager.id}>
          <DrawingsPage projectsQuery={getDailyLogProjectsQueryOptions('')} />
        </WithQueue>,
        { path: `/manager/drawings?project=${project.id}&sheet=${sheet!.id}`, route: '/manager/drawings' },
      );
      const viewer = await screen.findByTestId('sheet-viewer');
      // Where a pin is drawn, relative to the sheet's width and height (OpenSeadragon places overlays in viewport units).
      const placeOf = (name: string) => {
        const { location } = OpenSeadragon.getViewer(viewer).getOverlayById(screen.getByRole('button', { name })) as unknown as { location: OpenSeadragon.Point };
        return [Number(location.x.toFixed(2)), Number(((location.y * 600) / 400).toFixed(2))];
      };
      const expectPinAt = (name: string, place: number[]) => waitFor(() => expect(placeOf(name)).toEqual(place));
      const ANCHOR = 'Ring 17 anchor (Ongoing)';
      const WAITING = 'Ring 17 anchor (Ongoing) · Waiting to sync';
      const tapAt = async (clientX: number, clientY: number, option = 'Shaft lining · Ring 17 anchor') => {
        // The project's subtasks load apart from the pins: the choice is there once they have.
        const choice = await screen.findByRole('option', { name: option });
        await userEvent.selectOptions(screen.getByLabelText('Pin a subtask'), choice);
        await userEvent.pointer([{ keys: '[MouseLeft]', target: viewer.querySelector('.openseadragon-canvas')!, coords: { clientX, clientY, pageX: clientX, pageY: clientY } }]);
      };
      await expectPinAt(ANCHOR, [0.25, 0.5]);

      setOnline(false);
      await tapAt(450, 100);
      // At its new place at once, marked as not yet on the server.
      await expectPinAt(WAITING, [0.75, 0.25]);
      await waitFor(() => expect(screen.getByTestId('sync-status')).toHaveTextContent('Waiting to sync (1)'));
      // The legend says what its dashed ring means while a pin waits.
      const legend = screen.getByRole('list', { name: 'Pin colours' });
      expect(within(legend).getByText('Waiting to sync')).toBeInTheDocument();
      expect(await pinsOnServer()).toEqual([[0.25, 0.5]]);

      setOnline(true);
      await waitFor(() => expect(screen.queryByTestId('sync-status')).toBeNull());
      await waitFor(() => expect(within(legend).queryByText('Waiting to sync')).toBeNull());
      expect((await pinsOnServer()).map(([x, y]) => [x!.toFixed(2), y!.toFixed(2)])).toEqual([['0.75', '0.25']]);
      await expectPinAt(ANCHOR, [0.75, 0.25]);

      // A new pin placed offline stays drawn while the manager searches the picker for something else,
      // answered from what the device kept of an earlier search.
      const RING_18 = 'Shaft lining · Ring 18 anchor';
      const searchBox = screen.getByLabelText('Search subtasks');
      await userEvent.type(searchBox, 'gate');
      await waitFor(() => expect(screen.queryByRole('option', { name: RING_18 })).toBeNull());
      await userEvent.clear(searchBox);
      await screen.findByRole('option', { name: RING_18 });
      setOnline(false);
      await tapAt(150, 300, RING_18);
      const NEW_WAITING = 'Ring 18 anchor (Ongoing) · Waiting to sync';
      // Drawn once the device has queued the write (IndexedDB), which may take a moment; pins are
      // drawn again as the queue settles, so what is found is not held on to.
      await screen.findByRole('button', { name: NEW_WAITING }, { timeout: 10_000 });
      await userEvent.type(searchBox, 'gate');
      await waitFor(() => expect(screen.queryByRole('option', { name: RING_18 })).toBeNull());
      expect(screen.getByRole('button', { name: NEW_WAITING })).toBeInTheDocument();
      await userEvent.clear(searchBox);
      setOnline(true);
      await waitFor(() => expect(screen.queryByTestId('sync-status')).toBeNull());
      // Synced: drawn from the server's pins, no longer waiting.
      await screen.findByRole('button', { name: 'Ring 18 anchor (Ongoing)' }, { timeout: 10_000 });

      // Moved again offline, with the keyboard this time (Shift and an arrow: 48 px of this 600 × 400 px sheet), while the
      // office completes the project: drawn where it goes, then the server refuses the move.
      setOnline(false);
      act(() => screen.getByRole('button', { name: ANCHOR }).focus());
      await userEvent.keyboard('{Shift>}{ArrowLeft}{ArrowLeft}{ArrowLeft}{ArrowDown}{ArrowDown}{/Shift}{Enter}');
      await expectPinAt(WAITING, [0.51, 0.49]);
      await waitFor(() => expect(screen.getByRole('button', { name: WAITING })).toHaveFocus());
      await server.database.db.update(projects).set({ status: 'completed' }).where(eq(projects.id, project.id));
      setOnline(true);
      expect(await screen.findByText(/^The pin of Ring 17 anchor went back to where it was: /)).toBeInTheDocument();
      await expectPinAt(ANCHOR, [0.75, 0.25]);
      await userEvent.click(await screen.findByRole('button', { name: 'Refused (1)' }));
      await discard(within(await screen.findByRole('dialog', { name: 'Changes made on this device' })).getByRole('button', { name: 'Discard' }));
      await waitFor(() => expect(screen.queryByTestId('sync-status')).toBeNull());
    } finally {
      for (const property of ['clientWidth', 'clientHeight']) Reflect.deleteProperty(HTMLElement.prototype, property);
    }
  }, 40_000);

  it("show the crew's hours logged without a signal in the day's list, marked waiting, until the server has them once", async () => {
    const project = await insertProject(server.database.db, companyId, { managerId: manager.id, name: 'Portal 3', startDate: '2025-01-01', endDate: '2099-12-31' });
    const works = await insertMajorTask(server.database.db, companyId, project.id, { name: 'Portal works' });
    await insertSubtask(server.database.db, { companyId, majorTaskId: works.id, assignedToId: member.id, assignedById: manager.id, name: 'Portal anchors', dueDate: '2090-05-01' });
    await addHoursOffline(project.id, '2025-04-03', '6,5', 'Drilled anchors, row 2');
    const entries = await screen.findByRole('list', { name: 'Crew hours and notes' });
    const waiting = (await within(entries).findByText('Drilled anchors, row 2')).closest('li')!;
    expect(waiting).toHaveTextContent('6.5 h');
    expect(waiting).toHaveTextContent('Waiting to sync');
    // The device's list of changes names the hours as well as the note: both are lost if it is discarded.
    await userEvent.click(screen.getByTestId('sync-status'));
    const changes = await screen.findByRole('dialog', { name: 'Changes made on this device' });
    expect(changes).toHaveTextContent('6.5 h');
    expect(changes).toHaveTextContent('“Drilled anchors, row 2”');
    await userEvent.click(within(changes).getAllByRole('button', { name: 'Close' })[0]!);

    setOnline(true);
    await waitFor(() => expect(screen.queryByTestId('sync-status')).toBeNull(), { timeout: 10_000 });
    // The list as it now stands (it is drawn again once the server's entries arrive).
    const list = () => screen.getByRole('list', { name: 'Crew hours and notes' });
    await waitFor(() => expect(within(list()).getByText('Drilled anchors, row 2').closest('li')).not.toHaveTextContent('Waiting to sync'), { timeout: 10_000 });
    expect(within(list()).getAllByText('Drilled anchors, row 2')).toHaveLength(1);
    const stored = await api<DailyLog>(`/api/projects/${project.id}/daily-logs/2025-04-03/`);
    expect(stored.entries.map((entry) => [entry.hours, entry.note])).toEqual([[6.5, 'Drilled anchors, row 2']]);
  }, 40_000);

  /**
   * The crew member's hours and note for yesterday, logged without a signal, refused once it is
   * back because the manager signed that day's log meanwhile; resolves with the offer to add them
   * to today's log.
   */
  async function refusedForSignedDay(name: string, note: string) {
    const project = await insertProject(server.database.db, companyId, { managerId: manager.id, name, startDate: '2025-01-01', endDate: '2099-12-31' });
    const works = await insertMajorTask(server.database.db, companyId, project.id, { name: `${name} works` });
    await insertSubtask(server.database.db, { companyId, majorTaskId: works.id, assignedToId: member.id, assignedById: manager.id, name: `${name} footings`, dueDate: '2090-05-01' });
    const managerAccess = (await loginAs(server.app, manager)).access;
    const asManager = (method: 'GET' | 'POST', url: string) => injectAs(server.app, managerAccess, { method, url });
    const { today } = (await asManager('GET', '/api/daily-logs/projects/?limit=100')).json<{ id: number; today: string }[]>().find((each) => each.id === project.id)!;
    const yesterday = shiftDate(today, -1);
    await addHoursOffline(project.id, yesterday, '7', note);
    await waitFor(() => expect(screen.getByTestId('sync-status')).toHaveTextContent('Waiting to sync (1)'));
    // Meanwhile the manager signs that day's log.
    expect((await asManager('POST', `/api/projects/${project.id}/daily-logs/${yesterday}/sign/`)).statusCode).toBe(200);

    setOnline(true);
    // The crew member cannot amend a signed log: they are told what they can do.
    const refused = await screen.findByText(/were not added: The manager signed this day's log before your entry arrived\. Add it to today's log or tell your manager\./, {}, { timeout: 10_000 });
    const logOf = async (date: string) => (await asManager('GET', `/api/projects/${project.id}/daily-logs/${date}/`)).json<DailyLog>();
    return { project, today, yesterday, refused, add: await screen.findByRole('button', { name: "Add to today's log" }), logOf };
  }

  /** A day as the crew member's screen writes it (en-US). */
  const day = (date: string) => new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' }).format(new Date(`${date}T00:00:00Z`));

  it("offer the crew's hours refused because their day's log was signed meanwhile to today's log, which takes them", async () => {
    const { today, yesterday, refused, add, logOf } = await refusedForSignedDay('Portal 4', 'Poured footing 4');
    expect(refused.closest('[role="alert"]')).toHaveTextContent('“Poured footing 4”');
    // A double tap: the hours go to today's log once.
    act(() => {
      add.click();
      add.click();
    });
    await waitFor(() => expect(screen.queryByTestId('sync-status')).toBeNull(), { timeout: 10_000 });
    expect(screen.queryByText(/were not added/)).toBeNull();
    // The screen says where they went, and takes the crew member there.
    const added = (await screen.findByText(`Added to today's log (${day(today)}).`, {}, { timeout: 10_000 })).closest<HTMLElement>('[role="status"]');
    expect(added).not.toBeNull();
    await userEvent.click(within(added!).getByRole('button', { name: "Open today's log" }));
    const entries = await screen.findByRole('list', { name: 'Crew hours and notes' });
    // Today's entry says which day the work was for, beside the crew's note as they wrote it.
    const entry = (await within(entries).findByText('Poured footing 4')).closest('li')!;
    expect(within(entry).getByText(`For ${day(yesterday)}`)).toBeVisible();
    expect(screen.queryByRole('button', { name: "Open today's log" })).toBeNull();
    // Today's log has the hours, the note as written and the day it was for; the signed day stays as it was signed.
    expect((await logOf(today)).entries.map((entry) => [entry.hours, entry.note, entry.for_date])).toEqual([[7, 'Poured footing 4', yesterday]]);
    expect((await logOf(yesterday)).entries).toEqual([]);
  }, 40_000);

  it("add a crew photo refused because its day's log was signed meanwhile to today's log, which shows the day it was for", async () => {
    const project = await insertProject(server.database.db, companyId, { managerId: manager.id, name: 'Portal 7', startDate: '2025-01-01', endDate: '2099-12-31' });
    const works = await insertMajorTask(server.database.db, companyId, project.id, { name: 'Portal 7 works' });
    await insertSubtask(server.database.db, { companyId, majorTaskId: works.id, assignedToId: member.id, assignedById: manager.id, name: 'Portal 7 footings', dueDate: '2090-05-01' });
    const managerAccess = (await loginAs(server.app, manager)).access;
    const asManager = (method: 'GET' | 'POST', url: string) => injectAs(server.app, managerAccess, { method, url });
    const { today } = (await asManager('GET', '/api/daily-logs/projects/?limit=100')).json<{ id: number; today: string }[]>().find((each) => each.id === project.id)!;
    const yesterday = shiftDate(today, -1);
    await server.signIn(member);
    renderScreen(
      <WithQueue userId={member.id}>
        <CrewDailyLogPage />
      </WithQueue>,
      { path: `/team-member/daily-log?project=${project.id}&date=${yesterday}`, route: '/team-member/daily-log' },
    );
    expect(await screen.findByText('No photos of this day yet.')).toBeInTheDocument();
    setOnline(false);
    const photo = new File([new Uint8Array(await sharp({ create: { width: 30, height: 20, channels: 3, background: '#446688' } }).jpeg().toBuffer())], 'footing-7.jpg', { type: 'image/jpeg' });
    await userEvent.upload(screen.getByLabelText('Add photos'), photo);
    await waitFor(() => expect(screen.getByTestId('sync-status')).toHaveTextContent('Waiting to sync (1)'));
    // Meanwhile the manager signs that day's log.
    expect((await asManager('POST', `/api/projects/${project.id}/daily-logs/${yesterday}/sign/`)).statusCode).toBe(200);
    setOnline(true);
    expect(await screen.findByText(new RegExp(`^Your photo for ${day(yesterday)} was not added: `), {}, { timeout: 10_000 })).toBeInTheDocument();

    await userEvent.click(await screen.findByRole('button', { name: "Add to today's log" }));
    const added = (await screen.findByText(`Added to today's log (${day(today)}).`, {}, { timeout: 10_000 })).closest<HTMLElement>('[role="status"]');
    await userEvent.click(within(added!).getByRole('button', { name: "Open today's log" }));
    // Today's log shows the photo with the day it was for: under it, short enough for the 64-px
    // tile ("For Nov 23", its year only when not today's), and in full in its button's description.
    const thumbnail = await screen.findByRole('button', { name: `Open photo 1 of 1: the daily log of ${day(today)}` }, { timeout: 10_000 });
    expect(thumbnail).toHaveAccessibleDescription(`For ${day(yesterday)}`);
    const short = yesterday.slice(0, 4) === today.slice(0, 4) ? new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' }) : new Intl.DateTimeFormat('en-US', { day: '2-digit', month: '2-digit', year: '2-digit', timeZone: 'UTC' });
    expect(screen.getByText(`For ${short.format(new Date(`${yesterday}T00:00:00Z`))}`)).toBeVisible();
    const logOf = async (date: string) => (await asManager('GET', `/api/projects/${project.id}/daily-logs/${date}/`)).json<DailyLog>();
    expect((await logOf(today)).attachments.map((each) => each.for_date)).toEqual([yesterday]);
    expect((await logOf(yesterday)).attachments).toEqual([]);
  }, 40_000);

  it("add a crew note as long as a note may be to today's log whole, with the day it was for beside it", async () => {
    const note = `Poured footing 5. ${'Checked the rebar cover and the formwork ties. '.repeat(50)}`.slice(0, DAILY_LOG_TEXT_MAX - 1) + '.';
    expect(note).toHaveLength(2000);
    const { today, add, logOf } = await refusedForSignedDay('Portal 5', note);
    await userEvent.click(add);
    // Today's log takes it whole: the day is not written into the note, so it never takes it over the limit.
    expect(await screen.findByText(`Added to today's log (${day(today)}).`, {}, { timeout: 10_000 })).toBeInTheDocument();
    expect(screen.queryByText(/were not added/)).toBeNull();
    expect((await logOf(today)).entries.map((entry) => [entry.hours, entry.note, entry.for_date])).toEqual([[7, note, shiftDate(today, -1)]]);
  }, 40_000);

  it("say the crew's hours were added to today's log only once it took them, not when they were refused again and discarded", async () => {
    const { project, today, yesterday, add, logOf } = await refusedForSignedDay('Portal 6', 'Poured footing 6');
    // Today's log refuses them as well (signed too, as the request leaves).
    server.answer('POST', new RegExp(`^/api/projects/${project.id}/daily-logs/${today}/entries/\\?for_date=${yesterday}$`), { status: 409, json: { detail: "The manager signed this day's log before your entry arrived." } }, { times: 1 });
    await userEvent.click(add);
    await waitFor(() => expect(server.answered).toContain(`POST /api/projects/${project.id}/daily-logs/${today}/entries/ 409`), { timeout: 10_000 });
    // Refused again, it still names the day it was for, not today's: moved on later, that first day goes with it.
    expect(await screen.findByText(new RegExp(`^Your hours and notes for ${day(yesterday)} were not added: `))).toBeInTheDocument();
    await userEvent.click(await screen.findByRole('button', { name: 'Refused (1)' }));
    await discard(within(await screen.findByRole('dialog', { name: 'Changes made on this device' })).getByRole('button', { name: 'Discard' }));
    // Gone from the device, not to today's log: nothing says it was added.
    await waitFor(() => expect(screen.queryByTestId('sync-status')).toBeNull());
    await waitFor(() => expect(screen.queryByText(/were not added/)).toBeNull());
    expect(screen.queryByText(/^Added to today's log/)).toBeNull();
    expect((await logOf(today)).entries).toEqual([]);
  }, 40_000);

  it('keep a daily log saved without a signal on the device, in its form when opened again, until the server has it; signing waits for it', async () => {
    const project = await insertProject(server.database.db, companyId, { managerId: manager.id, name: 'Portal 2', startDate: '2025-01-01', endDate: '2099-12-31' });
    await server.signIn(manager);
    const logOn = (date: string) => `/manager/daily-log?project=${project.id}&date=${date}`;
    const stored = () => api<DailyLog>(`/api/projects/${project.id}/daily-logs/2025-04-02/`);
    const { router } = renderScreen(
      <WithQueue userId={manager.id}>
        <DailyLogPage />
      </WithQueue>,
      { path: logOn('2025-04-01'), route: '/manager/daily-log' },
    );
    // The day before is seen first, so it is on the device when the signal goes.
    expect(await screen.findByText(/^Draft for Apr 1, 2025/)).toBeInTheDocument();
    await act(() => router.navigate(logOn('2025-04-02')));
    expect(await screen.findByText(/^Draft for Apr 2, 2025/)).toBeInTheDocument();

    setOnline(false);
    await userEvent.click(screen.getByLabelText('Conditions'));
    await userEvent.paste('Rain from noon');
    await userEvent.click(screen.getByRole('button', { name: 'Add crew row' }));
    for (const [label, typed] of [['Trade', 'Masons'], ['Company', 'Steinwerk'], ['Head count', '3'], ['Hours each', '7,5']]) {
      await userEvent.click(screen.getByLabelText(label!));
      await userEvent.paste(typed!);
    }
    await userEvent.click(screen.getByRole('button', { name: 'Save log' }));
    const QUEUED = 'Saved on this device: it goes to the log as soon as the connection is back.';
    expect(screen.getByRole('button', { name: 'Save log' }).parentElement).toContainElement(await screen.findByText(QUEUED, { selector: '.basis-full *' }));
    // Said once, beside the buttons, not again at the top of the page.
    expect(screen.getAllByText(QUEUED)).toHaveLength(1);
    await waitFor(() => expect(screen.getByTestId('sync-status')).toHaveTextContent('Waiting to sync (1)'));

    // Signing goes straight to the server: it would overtake the save, so it waits for the signal.
    await userEvent.click(screen.getByRole('button', { name: 'Sign log' }));
    await userEvent.click(within(await screen.findByRole('alertdialog', { name: 'Sign the daily log' })).getByRole('button', { name: 'Sign' }));
    expect(await screen.findByText('Saved on this device. Signing needs a connection: sign once the log has been sent.')).toBeInTheDocument();
    // Nothing changed since the save: it waits once, not twice.
    expect(screen.getByTestId('sync-status')).toHaveTextContent('Waiting to sync (1)');

    // Another day and back, still without a signal: the form is built again, from the log as the waiting save makes it.
    await act(() => router.navigate(logOn('2025-04-01')));
    expect(await screen.findByText(/^Draft for Apr 1, 2025/)).toBeInTheDocument();
    expect(screen.queryByText(QUEUED)).toBeNull();
    await act(() => router.navigate(logOn('2025-04-02')));
    expect(await screen.findByText(QUEUED, { selector: '.basis-full *' })).toBeInTheDocument();
    expect(screen.getAllByText(QUEUED)).toHaveLength(1);
    expect(screen.getByLabelText('Conditions')).toHaveValue('Rain from noon');
    expect(screen.getByLabelText('Hours each')).toHaveValue('7.5');
    expect((await stored()).created_at).toBeNull();

    // The signal is back, though the browser has not said so yet: Sign sends the save first, then signs.
    online = true;
    await userEvent.click(screen.getByRole('button', { name: 'Sign log' }));
    await userEvent.click(within(await screen.findByRole('alertdialog', { name: 'Sign the daily log' })).getByRole('button', { name: 'Sign' }));
    await waitFor(async () => expect(await stored()).toMatchObject({ status: 'signed', weather: { conditions: 'Rain from noon' }, crew: [{ trade: 'Masons', company: 'Steinwerk', headcount: 3, hours: 7.5 }] }));
    setOnline(true);
    await waitFor(() => expect(screen.queryByTestId('sync-status')).toBeNull());
    await waitFor(() => expect(screen.queryByText(QUEUED)).toBeNull());
  }, 40_000);
});
