/**
 * One clock: a time on screen is on the reader's profile zone, whatever zone the device is in
 * (a foreman travelling with a phone still set to home). The device here is in Los Angeles.
 */
import { screen, waitFor, within } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { injectAs, loginAs, type TestUser } from '../../../../../server/src/test/factories';
import { insertMajorTask, insertProject, insertSubtask } from '../../../../../server/src/test/work-factories';
import { apiPage } from '../../../lib/api-client';
import type { ListSearch } from '../../../lib/lists';
import { startApiServer, type ApiServer } from '../../../test/api-server';
import { renderScreen } from '../../../test/render';
import type { User } from '@siteboard/shared';
import { SubtaskDrawer } from './subtask-drawer';

let server: ApiServer;
let member: TestUser;
let subtaskId: number;
/** When the basement comment was written: hours before it synced (X-Done-At, decision record 109). */
const writtenOffline = new Date(Date.now() - 6 * 60 * 60 * 1000).toISOString();
const deviceZone = process.env.TZ;

const findPeople: ListSearch<User> = (search) => ({ queryKey: ['people', search], queryFn: () => apiPage<User>('/api/users/', { query: { search, limit: 20 } }) });

beforeAll(async () => {
  process.env.TZ = 'America/Los_Angeles';
  server = await startApiServer();
  const { company, manager, ...people } = await server.createCrew();
  member = people.member;
  const project = await insertProject(server.database.db, company.id, { managerId: manager.id, name: 'Harbour Wall' });
  const majorTask = await insertMajorTask(server.database.db, company.id, project.id, { name: 'Footings' });
  subtaskId = (await insertSubtask(server.database.db, { companyId: company.id, majorTaskId: majorTask.id, assignedToId: member.id, assignedById: manager.id, name: 'Pour footing B', dueDate: '2030-05-01' })).id;
  const { access } = await loginAs(server.app, member);
  expect((await injectAs(server.app, access, { method: 'PATCH', url: '/api/profile/', payload: { timezone: 'Asia/Kolkata' } })).statusCode).toBe(200);
  expect((await injectAs(server.app, access, { method: 'POST', url: `/api/subtasks/${subtaskId}/comments/`, payload: { text: 'Formwork checked' } })).statusCode).toBe(201);
  const offline = await injectAs(server.app, access, { method: 'POST', url: `/api/subtasks/${subtaskId}/comments/`, payload: { text: 'Conduit pulled in the basement' }, headers: { 'x-done-at': writtenOffline } });
  expect(offline.statusCode).toBe(201);
});
afterAll(async () => {
  process.env.TZ = deviceZone;
  await server.close();
});

/** How a reader in `zone` reads the instant, worked out here with Intl, apart from the app's code. */
const inZone = (iso: string, timeZone: string) => new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'short', timeZone }).format(new Date(iso));

describe("the reader's clock", () => {
  it('shows the time of a comment in the profile zone, not the device zone', async () => {
    await server.signIn(member);
    renderScreen(<SubtaskDrawer findAssignees={findPeople} />, { path: `/team-member?subtask=${subtaskId}`, route: '/team-member' });
    const drawer = await screen.findByRole('dialog', { name: 'Pour footing B' });
    const entry = (await within(drawer).findByText('Formwork checked')).closest('li') as HTMLElement;
    const time = entry.querySelector('time') as HTMLTimeElement;
    const instant = time.getAttribute('datetime') as string;
    // Kolkata (UTC+05:30) and Los Angeles never show the same wall clock.
    expect(inZone(instant, 'Asia/Kolkata')).not.toBe(inZone(instant, 'America/Los_Angeles'));
    // On a clock other than the device's, the time says whose it is.
    await waitFor(() => expect(time).toHaveTextContent(`${inZone(instant, 'Asia/Kolkata')} GMT+5:30`));
    // Written as it was sent: one time, nothing about syncing.
    expect(entry).not.toHaveTextContent(/synced/);
  });

  it('shows a comment written offline at the time it was written, and when it synced, on the same clock', async () => {
    await server.signIn(member);
    renderScreen(<SubtaskDrawer findAssignees={findPeople} />, { path: `/team-member?subtask=${subtaskId}`, route: '/team-member' });
    const drawer = await screen.findByRole('dialog', { name: 'Pour footing B' });
    const entry = (await within(drawer).findByText('Conduit pulled in the basement')).closest('li') as HTMLElement;
    const [written, synced] = [...entry.querySelectorAll('time')];
    expect(written).toHaveAttribute('datetime', writtenOffline);
    const arrived = synced!.getAttribute('datetime') as string;
    // The sync's hour alone when it fell on the day the comment was written, on the reader's calendar.
    const day = (iso: string) => new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Kolkata' }).format(new Date(iso));
    const hour = new Intl.DateTimeFormat('en', { timeStyle: 'short', timeZone: 'Asia/Kolkata' }).format(new Date(arrived));
    const syncedText = day(arrived) === day(writtenOffline) ? hour : inZone(arrived, 'Asia/Kolkata');
    await waitFor(() => expect(written!.parentElement).toHaveTextContent(`${inZone(writtenOffline, 'Asia/Kolkata')} GMT+5:30 · synced ${syncedText} GMT+5:30`));
  });
});
